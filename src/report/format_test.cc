// SPDX-License-Identifier: MIT
#include "report/format.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "time/time_units.h"

namespace hammer {
namespace {

TEST(FormatDurationTest, NanosecondsAreWholeNumbers) {
  EXPECT_EQ(format_duration_ns(0), "0ns");
  EXPECT_EQ(format_duration_ns(812), "812ns");
  EXPECT_EQ(format_duration_ns(999), "999ns");
}

TEST(FormatDurationTest, LargerUnitsHaveTwoDecimals) {
  EXPECT_EQ(format_duration_ns(1'000), "1.00us");
  EXPECT_EQ(format_duration_ns(255'620), "255.62us");
  EXPECT_EQ(format_duration_ns(1'234'567), "1.23ms");
  EXPECT_EQ(format_duration_ns(194'660'000), "194.66ms");
  EXPECT_EQ(format_duration_ns(2'000'000'000), "2.00s");
  EXPECT_EQ(format_duration_ns(10'002'451'000), "10.00s");
}

TEST(FormatDurationTest, SecondsIsTheLargestUnit) {
  EXPECT_EQ(format_duration_ns(75'000'000'000), "75.00s");
  EXPECT_EQ(format_duration_ns(3'600'000'000'000), "3600.00s");
}

TEST(FormatDurationTest, UnitIsChosenAfterRoundingSoNoFigureReadsOneThousand) {
  EXPECT_EQ(format_duration_ns(999'994), "999.99us");
  EXPECT_EQ(format_duration_ns(999'999), "1.00ms");
  EXPECT_EQ(format_duration_ns(999'996'000), "1.00s");
}

TEST(FormatDurationTest, NegativeDurationsKeepTheirSign) {
  EXPECT_EQ(format_duration_ns(-500), "-500ns");
  EXPECT_EQ(format_duration_ns(-1'500'000), "-1.50ms");
}

TEST(FormatBytesTest, ScalesBy1024LikeWrk) {
  EXPECT_EQ(format_bytes(0), "0.00B");
  EXPECT_EQ(format_bytes(512), "512.00B");
  EXPECT_EQ(format_bytes(1024), "1.00KB");
  EXPECT_EQ(format_bytes(152.31 * 1024), "152.31KB");
  EXPECT_EQ(format_bytes(1.49 * 1024 * 1024), "1.49MB");
  EXPECT_EQ(format_bytes(2.0 * 1024 * 1024 * 1024), "2.00GB");
  EXPECT_EQ(format_bytes(5.0 * 1024 * 1024 * 1024 * 1024), "5.00TB");
}

TEST(FormatBytesTest, UnitIsChosenAfterRounding) {
  EXPECT_EQ(format_bytes(1023.99), "1023.99B");
  EXPECT_EQ(format_bytes(1023.999), "1.00KB");
}

TEST(FormatRateTest, HasTwoDecimalsAndNoUnit) {
  EXPECT_EQ(format_rate(1999.51), "1999.51");
  EXPECT_EQ(format_rate(0), "0.00");
  EXPECT_EQ(format_rate(250000), "250000.00");
}

TEST(FormatNumberTest, PrintsTheShortestExactForm) {
  EXPECT_EQ(format_number(2000), "2000");
  EXPECT_EQ(format_number(2500.5), "2500.5");
  EXPECT_EQ(format_number(0.1), "0.1");
}

// A rate of 100k read "1e+05" in the sweep table, the run's header and the CSV: the shortest
// form may be scientific, but a person (or a spreadsheet column of rates) wants digits.
TEST(FormatNumberTest, NeverUsesScientificNotation) {
  EXPECT_EQ(format_number(100000), "100000");
  EXPECT_EQ(format_number(1e6), "1000000");
  EXPECT_EQ(format_number(1e7), "10000000");
  EXPECT_EQ(format_number(250000.5), "250000.5");
  EXPECT_EQ(format_number(0.001), "0.001");
  EXPECT_EQ(format_number(0.00002), "0.00002");
  EXPECT_EQ(format_number(-100000), "-100000");
}

TEST(FormatCountTest, GroupsThousandsWithCommas) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(19800), "19,800");
  EXPECT_EQ(format_count(1234567), "1,234,567");
  EXPECT_EQ(format_count(-1234), "-1,234");
  EXPECT_EQ(format_count(INT64_MIN), "-9,223,372,036,854,775,808");
}

}  // namespace
}  // namespace hammer

namespace hammer {
namespace {

TEST(FormatTest, FixedDecimalsAndLeftPaddingNeverCut) {
  EXPECT_EQ(format_fixed(2.5, 1), "2.5");
  EXPECT_EQ(format_fixed(1.006, 2), "1.01");
  EXPECT_EQ(format_fixed(-0.25, 0), "-0");
  EXPECT_EQ(pad_left("7", 3), "  7");
  EXPECT_EQ(pad_left("1234", 3), "1234");  // wider than the column: kept whole
  EXPECT_EQ(pad_left("", 2), "  ");
  EXPECT_EQ(pad_right("7", 3), "7  ");
  EXPECT_EQ(pad_right("1234", 3), "1234");
}

TEST(FormatTest, TableCellsKeepASpaceFromTheirNeighbourWhenTheyFillTheColumn) {
  EXPECT_EQ(right_cell("7", 3), "  7");
  EXPECT_EQ(right_cell("123", 3), " 123");
  EXPECT_EQ(left_cell("7", 3), "7  ");
  EXPECT_EQ(left_cell("123", 3), "123 ");
}

TEST(FormatTest, PerSecondIsCountOverSpanAndZeroForNoSpan) {
  EXPECT_DOUBLE_EQ(per_second(2'000, 2'000'000'000), 1'000.0);
  EXPECT_DOUBLE_EQ(per_second(5, 0), 0.0);
  EXPECT_DOUBLE_EQ(per_second(5, -1), 0.0);
}

}  // namespace
}  // namespace hammer
