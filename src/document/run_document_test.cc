// SPDX-License-Identifier: MIT
#include "document/run_document.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

TEST(RunDocumentTest, SaysWhyADocumentCannotBeRead) {
  auto error_of = [](std::string_view text) {
    auto document = read_run_document(text);
    EXPECT_FALSE(document.has_value());
    return document ? std::string() : document.error();
  };
  EXPECT_TRUE(error_of("not json").starts_with("not a JSON document: "));
  EXPECT_EQ(error_of("{\"hammer\": {}, \"hammer\": {}}"),
            "not a JSON document: duplicate key \"hammer\" at column 16");
  EXPECT_EQ(error_of("{}"), "not a hammer document (no \"hammer\" member)");
  EXPECT_EQ(error_of(R"({"hammer": {"version": "9", "schema": 2}})"),
            "schema 2 is not readable by this hammer (it reads schema 1)");
  EXPECT_EQ(error_of(R"({"hammer": {"version": "0.1.0", "schema": 1}, "sweep": {}})"),
            "a sweep document (a run for each level), not a single run");
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
