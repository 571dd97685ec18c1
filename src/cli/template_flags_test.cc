// SPDX-License-Identifier: MIT
#include "cli/template_flags.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace hammer {
namespace {

std::string temp_csv(const std::string& text) {
  std::string path = ::testing::TempDir();
  path.append("hammer_template_flags_").append(std::to_string(getpid())).append(".csv");
  std::ofstream(path) << text;
  return path;
}

TEST(TemplateFlagsTest, ParsesDataOrder) {
  DataOrder order = DataOrder::sequential;
  EXPECT_FALSE(parse_data_order("--data-order", "random", order));
  EXPECT_EQ(order, DataOrder::random);
  auto bad = parse_data_order("--data-order", "shuffle", order);
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->message, "--data-order: expected sequential or random, got 'shuffle'");
}

TEST(TemplateFlagsTest, AMultiLineBodyNamesLineAndColumn) {
  Config config;
  config.target.path = std::string("/");
  config.body = std::string("{\n  \"id\": {{sek}}\n}");
  config.body_path = "body.json";
  auto problem = check_templates(config);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->substr(0, 40), "--body body.json: line 2, column 9: unkn");
}

TEST(TemplateFlagsTest, ACsvValueThatWouldBreakAHeaderIsRefusedNamingItsLine) {
  const std::string path = temp_csv("key\nok\n\"two\nlines\"\n");
  Config config;
  config.target.path = std::string("/");
  config.data_path = path;
  config.headers = {"X-Key: {{csv key}}"};
  auto problem = check_templates(config);
  ASSERT_TRUE(problem);
  std::string expected = path;
  expected.append(":3: column 'key' holds a line feed, which cannot go in --header "
                  "'X-Key: {{csv key}}'");
  EXPECT_EQ(*problem, expected);
  config.headers.clear();
  config.target.path = std::string("/{{csv key}}");
  EXPECT_TRUE(check_templates(config));
  std::remove(path.c_str());
}

TEST(TemplateFlagsTest, DataThatNoPlaceholderReadsIsRefusedNamingItsColumns) {
  const std::string path = temp_csv("id,name\n1,a\n");
  Config config;
  config.target.path = std::string("/{{seq}}");
  config.data_path = path;
  auto problem = check_templates(config);
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, "--data: " + path +
                          ": no {{csv NAME}} placeholder reads it (its columns: 'id', 'name'); use one "
                          "in the URL, a header or the body, or drop --data");
  // One reader anywhere is enough: the body, or a line of --requests.
  config.body = std::string("{\"n\": \"{{csv name}}\"}");
  EXPECT_FALSE(check_templates(config));
  config.body = std::string();
  RequestLine line;
  line.path = "/users/{{csv id}}";
  config.requests = {line};
  EXPECT_FALSE(check_templates(config));
  std::remove(path.c_str());
}

TEST(TemplateFlagsTest, ABinaryBodyIsNoTemplateWhateverBracesItHolds) {
  Config config;
  config.target.path = std::string("/");
  config.body = std::string("\xff\xd8{{nope", 8);
  EXPECT_FALSE(check_templates(config));
  config.http2 = true;  // nor does it count as a placeholder --http2 refuses
  EXPECT_FALSE(check_templates(config));
  RequestLine line;
  line.path = "/up";
  line.body = std::string("\0{{seq", 6);
  config.requests = {line};
  EXPECT_FALSE(check_templates(config));
}

TEST(TemplateFlagsTest, Http2WithPlaceholdersIsRefused) {
  Config config;
  config.target.path = std::string("/{{seq}}");
  config.http2 = true;
  auto problem = check_templates(config);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->rfind("--http2: placeholders", 0), 0u);
  config.target.path = std::string("/plain");
  EXPECT_FALSE(check_templates(config));
}

}  // namespace
}  // namespace hammer
