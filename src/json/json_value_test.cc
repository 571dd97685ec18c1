// SPDX-License-Identifier: MIT
#include "json/json_value.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hammer {
namespace {

TEST(JsonValueTest, KeepsLargeIntegersExact) {
  auto value = parse_json(R"({"origin_unix_ns": 1796083200123456789, "x": [1.5, "a\u00e9"]})");
  ASSERT_TRUE(value.has_value()) << value.error();
  EXPECT_EQ(value->find("origin_unix_ns")->as_int(), 1'796'083'200'123'456'789LL);
  EXPECT_FALSE(value->find("x")->items[0].as_int().has_value());
  EXPECT_EQ(value->find("x")->items[1].text, "a\xc3\xa9");
}

TEST(JsonValueTest, ReadsEveryKindAndKeepsMembersInDocumentOrder) {
  auto value = parse_json(" {\"z\" : [1, null, true, false, -0.5e+3, {}, []], \"a\": \"\"}\n");
  ASSERT_TRUE(value.has_value()) << value.error();
  ASSERT_EQ(value->members.size(), 2u);
  EXPECT_EQ(value->members[0].key, "z");
  EXPECT_EQ(value->members[1].key, "a");
  const std::vector<JsonValue>& items = value->find("z")->items;
  ASSERT_EQ(items.size(), 7u);
  EXPECT_EQ(items[0].as_int(), 1);
  EXPECT_TRUE(items[1].is_null());
  EXPECT_TRUE(items[2].boolean);
  EXPECT_EQ(items[3].kind, JsonValue::Kind::boolean);
  EXPECT_FALSE(items[3].boolean);
  EXPECT_EQ(items[4].as_double(), -500.0);
  EXPECT_TRUE(items[5].is_object());
  EXPECT_TRUE(items[6].is_array());
  EXPECT_TRUE(value->find("a")->is_string());
}

TEST(JsonValueTest, ReadsAnyValueAsTheDocument) {
  for (const char* good : {"0", "-0", "1e5", "-0.5E-3", "\"\"", "[]", "{}", "null", " true\n",
                           "\t{\"a\" : [1, null, true]}\r\n"}) {
    auto parsed = parse_json(good);
    EXPECT_TRUE(parsed.has_value()) << good << ": " << parsed.error();
  }
}

TEST(JsonValueTest, DecodesEscapesAndSurrogatePairsToUtf8) {
  auto value = parse_json(R"("q\"b\\c\/\b\f\n\r\t\u0001\u00e9\u20ac\ud83d\ude00")");
  ASSERT_TRUE(value.has_value()) << value.error();
  EXPECT_EQ(value->text, "q\"b\\c/\b\f\n\r\t\x01\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  auto raw = parse_json("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");  // UTF-8 as it is
  ASSERT_TRUE(raw.has_value()) << raw.error();
  EXPECT_EQ(raw->text, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}

// Every way a text can fail RFC 8259 (or name a key twice), with the one line that says what
// and where: a user reading it finds the spot without counting bytes.
TEST(JsonValueTest, RefusesWhatIsNotJsonSayingWhatAndWhere) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"", "expected a value, found end of input at column 1"},
      {"   ", "expected a value, found end of input at column 4"},
      {"{", "expected a key in double quotes, found end of input at column 2"},
      {"[1 2]", "expected ',' or ']' in an array, found '2' at column 4"},
      {"{\"a\" 1}", "expected ':' after the key, found '1' at column 6"},
      {"{\"a\":1 \"b\":2}", "expected ',' or '}' in an object, found '\"' at column 8"},
      {"{a:1}", "expected a key in double quotes, found 'a' at column 2"},
      {"{'a':1}", "expected a key in double quotes, found ''' at column 2"},
      // duplicate keys, at any depth, named and placed at the second one
      {"{\"a\":1,\"a\":2}", "duplicate key \"a\" at column 8"},
      {"{\n  \"run\": {\"requests\": 1,\n          \"requests\": 2}\n}",
       "duplicate key \"requests\" at line 3, column 11"},
      {"[{\"a\":1},{\"a\":1,\"b\":{},\"b\":[]}]", "duplicate key \"b\" at column 24"},
      // the same key once its escapes are decoded
      {"{\"\\u0061\":1,\"a\":2}", "duplicate key \"a\" at column 13"},
      // a key is shown escaped: one line, no raw control bytes
      {R"({"a\nb":1,"a\nb":2})", R"(duplicate key "a\nb" at column 11)"},
      {"{\"\\u001b[2J\":1,\"\\u001b[2J\":1}", R"(duplicate key "\x1b[2J" at column 16)"},
      // trailing commas
      {"[1,]", "trailing comma before ']' at column 4"},
      {"{\"a\":1,}", "trailing comma before '}' at column 8"},
      {"[1, ]", "trailing comma before ']' at column 5"},
      {"[,]", "expected a value, found ',' at column 2"},
      // numbers
      {"01", "leading zero in a number at column 1"},
      {"{\"a\":-01}", "leading zero in a number at column 7"},
      {"1.", "expected a digit after '.', found end of input at column 3"},
      {"1e", "expected a digit in the exponent, found end of input at column 3"},
      {"-", "expected a digit after '-', found end of input at column 2"},
      {"+1", "expected a value, found '+' at column 1"},
      {".5", "expected a value, found '.' at column 1"},
      {"0x10", "text after the document, found 'x' at column 2"},
      {"NaN", "expected a value, found 'N' at column 1"},
      {"Infinity", "expected a value, found 'I' at column 1"},
      // literals
      {"nul", "expected 'null', found end of input at column 4"},
      {"tru e", "expected 'true', found ' ' at column 4"},
      {"True", "expected a value, found 'T' at column 1"},
      // strings
      {"\"abc", "unterminated string at column 1"},
      {"\"a\nb\"", "control character 0x0A in a string (escape it) at line 1, column 3"},
      {"\"a\tb\"", "control character 0x09 in a string (escape it) at column 3"},
      {std::string("\"a\0b\"", 5),
       "control character 0x00 in a string (escape it) at column 3"},
      {"\"\\x\"", "unknown escape \\x at column 2"},
      {"\"\\\x01\"", "unknown escape: '\\' then byte 0x01 at column 2"},
      {"\"\\\xc3\xa9\"", "unknown escape: '\\' then byte 0xC3 at column 2"},
      {"\"\\u12\"", "expected 4 hex digits after \\u, found '\"' at column 6"},
      {"\"\\ud800\"", "lone surrogate in \\u escape at column 2"},
      {"\"\\udc00\"", "lone surrogate in \\u escape at column 2"},
      {"\"\\ud800\\u0041\"", "lone surrogate in \\u escape at column 2"},
      {"\"x\\ud83dy\"", "lone surrogate in \\u escape at column 3"},
      // bytes that are not UTF-8, inside strings and out
      {"\"a\xff\"", "invalid UTF-8 in a string at column 3"},
      {"\"\xc3\"", "invalid UTF-8 in a string at column 2"},              // cut short
      {"\"\xc0\xaf\"", "invalid UTF-8 in a string at column 2"},          // overlong
      {"\"\xed\xa0\x80\"", "invalid UTF-8 in a string at column 2"},      // a surrogate
      {"\"\xf4\x90\x80\x80\"", "invalid UTF-8 in a string at column 2"},  // > U+10FFFF
      {"\xef\xbb\xbf{}", "expected a value, found byte 0xEF at column 1"},  // a BOM
      // one document, nothing after it
      {"{\"a\":1}{}", "text after the document, found '{' at column 8"},
      {"{}\n\n x", "text after the document, found 'x' at line 3, column 2"},
      // a text of more than one line names the line even when the error is on the first
      {"[1,]\n", "trailing comma before ']' at line 1, column 4"},
      {"[] // comment", "text after the document, found '/' at column 4"},
      {"1 2", "text after the document, found '2' at column 3"},
      // depth
      {std::string(65, '[') + std::string(65, ']'),
       "nested deeper than 64 levels at column 65"},
  };
  for (const Case& c : cases) {
    auto parsed = parse_json(c.text);
    ASSERT_FALSE(parsed.has_value()) << c.text;
    EXPECT_EQ(parsed.error(), c.error) << c.text;
  }
}

TEST(JsonValueTest, ReadsNestingUpToTheLimit) {
  const std::string deepest = std::string(64, '[') + "1" + std::string(64, ']');
  EXPECT_TRUE(parse_json(deepest).has_value());
  std::string objects;
  for (int i = 0; i < 64; ++i) objects += "{\"a\":";
  objects += "1" + std::string(64, '}');
  EXPECT_TRUE(parse_json(objects).has_value());
}

TEST(JsonValueTest, AHostileDocumentIsRefusedWithoutCrashingOrStalling) {
  // A million '[' would overflow a recursive reader's stack without the depth limit.
  const std::string deep(1'000'000, '[');
  auto parsed = parse_json(deep);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error(), "nested deeper than 64 levels at column 65");
  // A duplicate at the end of an object of 200,000 keys: found by a set, not by comparing
  // every key with every other (4e10 steps).
  std::string wide = "{";
  for (int i = 0; i < 200'000; ++i) wide += "\"k" + std::to_string(i) + "\":0,";
  wide += "\"k7\":1}";
  parsed = parse_json(wide);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_TRUE(parsed.error().starts_with("duplicate key \"k7\" at column "))
      << parsed.error();
}

}  // namespace
}  // namespace hammer
