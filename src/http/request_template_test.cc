// SPDX-License-Identifier: MIT
#include "http/request_template.h"

#include <gtest/gtest.h>

#include <set>

namespace hammer {
namespace {

std::string render_text(const TextTemplate& compiled, const TemplateValues& values,
                        const TemplateData& data) {
  std::string out(compiled.max_bytes(), '\0');
  out.resize(compiled.render(values, data, 0, out.data()));
  return out;
}

TEST(RequestTemplateTest, FillsSeqAndIntendedMsAndKeepsLiteralBraces) {
  TemplateData data;
  auto compiled = TextTemplate::compile("/item/{{seq}}?t={{ intended_ms }}&x={{{{y}}", data);
  ASSERT_TRUE(compiled) << compiled.error().reason;
  EXPECT_TRUE(compiled->has_fields());
  EXPECT_EQ(render_text(*compiled, {42, 1700000000123, 0}, data),
            "/item/42?t=1700000000123&x={{y}}");
}

TEST(RequestTemplateTest, LiteralOnlyTextHasNoFields) {
  auto compiled = TextTemplate::compile("/a{{{{b", TemplateData{});
  ASSERT_TRUE(compiled);
  EXPECT_FALSE(compiled->has_fields());
  EXPECT_FALSE(has_placeholder("/a{{{{b"));
  EXPECT_TRUE(is_template("/a{{{{b"));  // still rendered: {{{{ goes out as {{
  EXPECT_FALSE(is_template("/a{b}"));
  EXPECT_TRUE(has_placeholder("/a{{seq}}"));
  EXPECT_EQ(render_text(*compiled, {}, TemplateData{}), "/a{{b");
}

TEST(RequestTemplateTest, RandomStaysInRangeAndFollowsTheSeed) {
  TemplateData data;
  data.seed = 7;
  auto compiled = TextTemplate::compile("{{random -3 5}}", data);
  ASSERT_TRUE(compiled);
  std::set<std::string> seen;
  for (int64_t seq = 0; seq < 2000; ++seq) {
    const std::string value = render_text(*compiled, {seq, 0, 0}, data);
    const int64_t number = std::stoll(value);
    EXPECT_GE(number, -3);
    EXPECT_LE(number, 5);
    seen.insert(value);
  }
  EXPECT_EQ(seen.size(), 9u);
  const std::string first = render_text(*compiled, {11, 0, 0}, data);
  EXPECT_EQ(render_text(*compiled, {11, 0, 0}, data), first);  // the same slot, the same value
}

TEST(RequestTemplateTest, UuidIsVersionFour) {
  TemplateData data;
  auto compiled = TextTemplate::compile("{{uuid}}", data);
  ASSERT_TRUE(compiled);
  const std::string a = render_text(*compiled, {1, 0, 0}, data);
  const std::string b = render_text(*compiled, {2, 0, 0}, data);
  ASSERT_EQ(a.size(), 36u);
  EXPECT_EQ(a[8], '-');
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(std::string("89ab").find(a[19]), std::string::npos);
  EXPECT_NE(a, b);
}

TEST(RequestTemplateTest, CsvRowsInOrderOrDrawn) {
  auto csv = parse_csv("key,n\nalpha,1\nbeta,2\ngamma,3\n", "d.csv");
  ASSERT_TRUE(csv);
  TemplateData data;
  data.csv = &*csv;
  auto compiled = TextTemplate::compile("/{{csv key}}/{{csv n}}", data);
  ASSERT_TRUE(compiled);
  EXPECT_EQ(render_text(*compiled, {0, 0, 0}, data), "/alpha/1");
  EXPECT_EQ(render_text(*compiled, {4, 0, 0}, data), "/beta/2");
  data.order = DataOrder::random;
  std::set<std::string> seen;
  for (int64_t seq = 0; seq < 100; ++seq) seen.insert(render_text(*compiled, {seq, 0, 0}, data));
  EXPECT_EQ(seen.size(), 3u);
}

TEST(RequestTemplateTest, ErrorsNameTheColumn) {
  TemplateData data;
  EXPECT_EQ(check_template_text("/a/{{nope}}", data),
            "column 4: unknown placeholder {{nope}}; known: seq, random A B, uuid, intended_ms, "
            "csv NAME ({{{{ is a literal {{)");
  EXPECT_EQ(check_template_text("/{{seq", data),
            "column 2: '{{' without a closing '}}' (write {{{{ for a literal {{)");
  EXPECT_NE(check_template_text("{{random 5 1}}", data).find("above B"), std::string::npos);
  EXPECT_NE(check_template_text("{{random x 1}}", data).find("whole numbers"), std::string::npos);
  EXPECT_NE(check_template_text("{{csv key}}", data).find("needs --data"), std::string::npos);
  EXPECT_NE(check_template_text("{{content_length}}", data).find("unknown"), std::string::npos);
  auto csv = parse_csv("key\na\n", "d.csv");
  data.csv = &*csv;
  EXPECT_NE(check_template_text("{{csv other}}", data).find("no column 'other' (its columns: 'key')"),
            std::string::npos);
}

TEST(RequestTemplateTest, TemplatedBodyGetsItsContentLengthPerRequest) {
  TemplateData data;
  RequestSpec spec;
  spec.method = "POST";
  spec.path = "/items/{{seq}}";
  spec.host_header = "h";
  spec.body = "{\"id\": {{seq}}}";
  auto compiled = RequestTemplate::compile(spec, data);
  ASSERT_TRUE(compiled) << compiled.error();
  std::string buffer(compiled->max_bytes(), '\0');
  const RequestBytes bytes = compiled->render({12345, 0, 0}, data, spec.body, buffer.data());
  EXPECT_EQ(bytes.head, "POST /items/12345 HTTP/1.1\r\nHost: h\r\nContent-Length: 13\r\n\r\n");
  EXPECT_EQ(bytes.body, "{\"id\": 12345}");
}

TEST(RequestTemplateTest, FixedBodyStaysWhereItIs) {
  TemplateData data;
  RequestSpec spec;
  spec.path = "/{{seq}}";
  spec.host_header = "h";
  const std::string body = "static";
  spec.body = body;
  auto compiled = RequestTemplate::compile(spec, data);
  ASSERT_TRUE(compiled);
  std::string buffer(compiled->max_bytes(), '\0');
  const RequestBytes bytes = compiled->render({3, 0, 0}, data, body, buffer.data());
  EXPECT_EQ(bytes.head, "GET /3 HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\n");
  EXPECT_EQ(bytes.body.data(), body.data());
}

TEST(RequestTemplateTest, RefusesContentLengthWithTemplatedBody) {
  RequestSpec spec;
  spec.method = "POST";
  spec.headers = {"Content-Length: 3"};
  spec.body = "{{seq}}";
  auto compiled = RequestTemplate::compile(spec, TemplateData{});
  ASSERT_FALSE(compiled);
  EXPECT_EQ(compiled.error(),
            "Content-Length with a templated body: hammer sets Content-Length per request");
}

TEST(RequestTemplateTest, ABinaryBodyIsSentAsItIsWhateverBracesItHolds) {
  // Upload bytes that happen to hold "{{" (4 KB of random bytes do one time in sixteen), an
  // unclosed one among them: not a template, sent byte for byte beside a templated path.
  static constexpr char kBytes[] = "\x89PNG\0\xff{{seq\x01{{nope}}";
  const std::string body = std::string(kBytes, sizeof kBytes - 1);
  EXPECT_FALSE(body_is_text(body));
  EXPECT_FALSE(is_body_template(body));
  TemplateData data;
  RequestSpec spec;
  spec.method = "PUT";
  spec.path = "/up/{{seq}}";
  spec.host_header = "h";
  spec.body = body;
  auto compiled = RequestTemplate::compile(spec, data);
  ASSERT_TRUE(compiled) << compiled.error();
  std::string buffer(compiled->max_bytes(), '\0');
  const RequestBytes bytes = compiled->render({7, 0, 0}, data, body, buffer.data());
  EXPECT_EQ(bytes.head, "PUT /up/7 HTTP/1.1\r\nHost: h\r\nContent-Length: 20\r\n\r\n");
  EXPECT_EQ(bytes.body.data(), body.data());
  EXPECT_EQ(bytes.body.size(), body.size());
}

TEST(RequestTemplateTest, ABodyIsTextWhenItIsUtf8WithoutANul) {
  EXPECT_TRUE(body_is_text(""));
  EXPECT_TRUE(body_is_text("{\"name\": \"J\xc3\xbcrgen {{seq}}\"}\r\n\t"));
  EXPECT_TRUE(is_body_template("{\"id\": {{seq}}}"));
  EXPECT_FALSE(body_is_text(std::string("a\0b", 3)));
  EXPECT_FALSE(body_is_text("\xc3"));        // truncated
  EXPECT_FALSE(body_is_text("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(body_is_text("\xff{{seq}}"));
}

}  // namespace
}  // namespace hammer
