// SPDX-License-Identifier: MIT
#include "report/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "json/json_value.h"

namespace hammer {
namespace {

std::string quoted(std::string_view text) {
  std::string out;
  JsonWriter::append_quoted(out, text);
  return out;
}

// Codepoints between 0 and 0x1f must be escaped (RFC 8259 §7); the short forms where JSON
// has them, \u00XX otherwise.
TEST(JsonWriterTest, EscapesControlCharacters) {
  EXPECT_EQ(quoted("\n\t\r\b\f"), R"("\n\t\r\b\f")");
  EXPECT_EQ(quoted(std::string_view("\x00\x01\x1f", 3)), R"("\u0000\u0001\u001f")");
  EXPECT_EQ(quoted("\x7f"), R"("\u007f")");
  EXPECT_EQ(quoted("a\x1b[0mb"), R"("a\u001b[0mb")");
}

TEST(JsonWriterTest, EscapesQuotesAndBackslashes) {
  EXPECT_EQ(quoted(R"(say "hi" \ bye)"), R"("say \"hi\" \\ bye")");
  EXPECT_EQ(quoted("/"), R"("/")");
}

TEST(JsonWriterTest, PassesValidUtf8Through) {
  EXPECT_EQ(quoted("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST(JsonWriterTest, ReplacesBytesThatAreNotUtf8) {
  EXPECT_EQ(quoted("a\xff" "b"), R"("a\ufffdb")");
  EXPECT_EQ(quoted("\xe2\x82"), R"("\ufffd\ufffd")");           // truncated sequence
  EXPECT_EQ(quoted("\xc0\xaf"), R"("\ufffd\ufffd")");           // overlong '/'
  EXPECT_EQ(quoted("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // UTF-16 surrogate
  EXPECT_EQ(quoted("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // > U+10FFFF
}

TEST(JsonWriterTest, EscapedStringsParseBackToTheOriginal) {
  const std::string original = "q\"b\\c\n\x01\x1f z \xc3\xa9";
  JsonWriter json;
  json.value(original);
  const auto parsed = parse_json(json.str());
  ASSERT_TRUE(parsed.has_value()) << parsed.error();
  EXPECT_EQ(parsed->text, original);
}

TEST(JsonWriterTest, PlacesCommasInNestedContainers) {
  JsonWriter json;
  json.begin_object();
  json.member("a", 1);
  json.key("b").begin_array().value(true).value(false).null().begin_object().end_object();
  json.end_array();
  json.key("c").begin_object().member("d", "e").key("f").begin_array().end_array().end_object();
  json.end_object();
  EXPECT_EQ(json.str(), R"({"a":1,"b":[true,false,null,{}],"c":{"d":"e","f":[]}})");
  EXPECT_TRUE(json.complete());
}

TEST(JsonWriterTest, IndentsOneMemberPerLine) {
  JsonWriter json(2);
  json.begin_object();
  json.member("a", 1);
  json.key("b").begin_array().value(2).end_array();
  json.key("c").begin_object().end_object();
  json.end_object();
  EXPECT_EQ(json.str(), "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ],\n  \"c\": {}\n}");
}

TEST(JsonWriterTest, WritesIntegersExactly) {
  JsonWriter json;
  json.begin_array();
  json.value(std::numeric_limits<int64_t>::min());
  json.value(std::numeric_limits<int64_t>::max());
  json.value(std::numeric_limits<uint64_t>::max());
  json.value(0);
  json.value(-7);
  json.end_array();
  EXPECT_EQ(json.str(),
            "[-9223372036854775808,9223372036854775807,18446744073709551615,0,-7]");
}

TEST(JsonWriterTest, WritesDoublesInShortestRoundTripForm) {
  JsonWriter json;
  json.begin_array();
  json.value(0.1).value(2000.0).value(1999.51).value(-0.5).value(1e21).value(5e-324);
  json.end_array();
  EXPECT_EQ(json.str(), "[0.1,2000,1999.51,-0.5,1e+21,5e-324]");
  const auto parsed = parse_json(json.str());
  ASSERT_TRUE(parsed.has_value()) << parsed.error();
  EXPECT_EQ(parsed->items[2].as_double(), 1999.51);
}

TEST(JsonWriterTest, WritesNonFiniteDoublesAsNull) {
  JsonWriter json;
  json.begin_array();
  json.value(std::nan(""));
  json.value(std::numeric_limits<double>::infinity());
  json.value(-std::numeric_limits<double>::infinity());
  json.end_array();
  EXPECT_EQ(json.str(), "[null,null,null]");
}

TEST(JsonWriterTest, EscapesKeysToo) {
  JsonWriter json;
  json.begin_object().member("a\"b\n", false).end_object();
  EXPECT_EQ(json.str(), R"({"a\"b\n":false})");
}

TEST(JsonWriterTest, IsCompleteOnlyWhenTheRootIsClosed) {
  JsonWriter json;
  EXPECT_FALSE(json.complete());
  json.begin_object();
  EXPECT_FALSE(json.complete());
  json.key("x");
  EXPECT_FALSE(json.complete());
  json.value("y");
  json.end_object();
  EXPECT_TRUE(json.complete());
}

TEST(JsonWriterTest, ObjectOrNullWritesTheMembersOnlyWhereTheObjectExists) {
  JsonWriter json;
  int calls = 0;
  json.begin_object();
  json.object_or_null("here", true, [&] {
    ++calls;
    json.member("n", 1);
  });
  json.object_or_null("absent", false, [&] { ++calls; });
  json.member("after", 2);
  json.end_object();
  EXPECT_EQ(json.str(), R"({"here":{"n":1},"absent":null,"after":2})");
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(json.complete());
}

}  // namespace
}  // namespace hammer
