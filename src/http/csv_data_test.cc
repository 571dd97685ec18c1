// SPDX-License-Identifier: MIT
#include "http/csv_data.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

TEST(CsvDataTest, ReadsHeaderAndRowsWithQuoting) {
  auto data = parse_csv("id,name\r\n1,\"a, \"\"b\"\"\"\n2,\"two\nlines\"\n\n3,c", "d.csv");
  ASSERT_TRUE(data) << data.error();
  ASSERT_EQ(data->columns, (std::vector<std::string>{"id", "name"}));
  ASSERT_EQ(data->rows.size(), 3u);
  EXPECT_EQ(data->rows[0][1], "a, \"b\"");
  EXPECT_EQ(data->rows[1][1], "two\nlines");
  EXPECT_EQ(data->rows[2][0], "3");
  EXPECT_EQ(data->row_lines[2], 6);
  EXPECT_EQ(data->column_of("name"), 1);
  EXPECT_EQ(data->column_of("nope"), -1);
  EXPECT_EQ(data->widest(1), 9u);
}

// A spreadsheet's "CSV UTF-8" export begins with a byte order mark: not part of the first name.
TEST(CsvDataTest, ALeadingByteOrderMarkIsNotPartOfTheFirstColumnName) {
  auto data = parse_csv("\xEF\xBB\xBFid,name\n1,a\n", "d.csv");
  ASSERT_TRUE(data) << data.error();
  EXPECT_EQ(data->column_of("id"), 0);
  EXPECT_EQ(data->quoted_columns(), "'id', 'name'");
  EXPECT_EQ(parse_csv("\xEF\xBB\xBFid\n\"a\n", "d.csv").error(),
            "d.csv:2:1: unterminated quote: this quoted field has no closing '\"'");
}

TEST(CsvDataTest, RaggedRowNamesFileLineAndColumn) {
  auto data = parse_csv("id,name\n1,a\n2\n", "d.csv");
  ASSERT_FALSE(data);
  EXPECT_EQ(data.error(), "d.csv:3:1: this row has 1 fields; the header row names 2 columns");
}

TEST(CsvDataTest, UnterminatedQuoteNamesWhereItOpened) {
  auto data = parse_csv("id,name\n1,\"open\n", "d.csv");
  ASSERT_FALSE(data);
  EXPECT_EQ(data.error(), "d.csv:2:3: unterminated quote: this quoted field has no closing '\"'");
}

TEST(CsvDataTest, RefusesStrayQuoteEmptyAndRepeatedNamesAndNoRows) {
  EXPECT_NE(parse_csv("id\na\"b\n", "d.csv").error().find("d.csv:2:2:"), std::string::npos);
  EXPECT_NE(parse_csv("id,\n1,2\n", "d.csv").error().find("has no name"), std::string::npos);
  EXPECT_NE(parse_csv("id,id\n1,2\n", "d.csv").error().find("given twice"), std::string::npos);
  EXPECT_EQ(parse_csv("id\n", "d.csv").error(), "d.csv: no rows after the header row");
  EXPECT_EQ(parse_csv("", "d.csv").error(), "d.csv: empty file; expected a header row");
}

}  // namespace
}  // namespace hammer
