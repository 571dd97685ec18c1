// SPDX-License-Identifier: MIT
#include "document/run_document.h"

#include <gtest/gtest.h>

#include "document/json_value.h"

namespace hammer {
namespace {

TEST(JsonValueTest, KeepsLargeIntegersExact) {
  auto value = parse_json(R"({"origin_unix_ns": 1796083200123456789, "x": [1.5, "a\u00e9"]})");
  ASSERT_TRUE(value.has_value()) << value.error();
  EXPECT_EQ(value->find("origin_unix_ns")->as_int(), 1'796'083'200'123'456'789LL);
  EXPECT_FALSE(value->find("x")->items[0].as_int().has_value());
  EXPECT_EQ(value->find("x")->items[1].text, "a\xc3\xa9");
}

TEST(JsonValueTest, RefusesWhatIsNotJson) {
  for (const char* bad : {"", "{", "{\"a\":1,}", "[1 2]", "{\"a\":1}{}", "{\"a\":01}",
                          "{\"a\":1,\"a\":2}", "\"\x01\"", "nul"}) {
    EXPECT_FALSE(parse_json(bad).has_value()) << bad;
  }
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_FALSE(parse_json(deep).has_value());
}

TEST(RunDocumentTest, SaysWhyADocumentCannotBeRead) {
  auto error_of = [](std::string_view text) {
    auto document = read_run_document(text);
    EXPECT_FALSE(document.has_value());
    return document ? std::string() : document.error();
  };
  EXPECT_TRUE(error_of("not json").starts_with("not a JSON document: "));
  EXPECT_EQ(error_of("{}"), "not a hammer document (no \"hammer\" member)");
  EXPECT_EQ(error_of(R"({"hammer": {"version": "9", "schema": 2}})"),
            "schema 2 is not readable by this hammer (it reads schema 1)");
  EXPECT_EQ(error_of(R"({"hammer": {"version": "0.1.0", "schema": 1}, "sweep": {}})"),
            "a sweep document; only single runs can be merged");
  EXPECT_EQ(error_of(R"({"hammer": {"version": "0.1.0", "schema": 1}, "config": {}})"),
            "config.url: expected a string");
}

TEST(RunDocumentTest, AMissingFileIsNamed) {
  auto document = load_run_document("/nonexistent/shard1.json");
  ASSERT_FALSE(document.has_value());
  EXPECT_EQ(document.error(), "/nonexistent/shard1.json: cannot read: No such file or directory");
}

TEST(RunDocumentTest, ADirectoryIsNamedNotReadAsAnEmptyDocument) {
  auto document = load_run_document("/tmp");
  ASSERT_FALSE(document.has_value());
  EXPECT_EQ(document.error(), "/tmp: cannot read: Is a directory");
}

}  // namespace
}  // namespace hammer
