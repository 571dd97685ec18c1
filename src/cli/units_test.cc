// SPDX-License-Identifier: MIT
#include "cli/units.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace hammer {
namespace {

int64_t duration_or_fail(std::string_view text, int64_t default_unit_ns) {
  auto parsed = parse_duration_ns(text, default_unit_ns);
  if (!parsed) {
    ADD_FAILURE() << "'" << text << "': " << parsed.error();
    return -1;
  }
  return *parsed;
}

TEST(UnitsTest, DurationWithoutUnitCountsTheDefaultUnit) {
  EXPECT_EQ(duration_or_fail("10", kSecondUnit), 10'000'000'000);
  EXPECT_EQ(duration_or_fail("2000", kMillisecondUnit), 2'000'000'000);
  EXPECT_EQ(duration_or_fail("1.5", kMillisecondUnit), 1'500'000);
  EXPECT_EQ(duration_or_fail("0", kSecondUnit), 0);
}

TEST(UnitsTest, DurationUnitsFromNanosecondsToHours) {
  EXPECT_EQ(duration_or_fail("7ns", kSecondUnit), 7);
  EXPECT_EQ(duration_or_fail("250us", kSecondUnit), 250'000);
  EXPECT_EQ(duration_or_fail("500ms", kSecondUnit), 500'000'000);
  EXPECT_EQ(duration_or_fail("10s", kMillisecondUnit), 10'000'000'000);
  EXPECT_EQ(duration_or_fail("2m", kSecondUnit), 120'000'000'000);
  EXPECT_EQ(duration_or_fail("1h", kSecondUnit), 3'600'000'000'000);
}

TEST(UnitsTest, DurationFractionsAreExactDecimal) {
  EXPECT_EQ(duration_or_fail("1.5s", kSecondUnit), 1'500'000'000);
  EXPECT_EQ(duration_or_fail("0.1s", kSecondUnit), 100'000'000);  // not 99,999,999
  EXPECT_EQ(duration_or_fail("0.3s", kSecondUnit), 300'000'000);
  EXPECT_EQ(duration_or_fail("1.25m", kSecondUnit), 75'000'000'000);
  EXPECT_EQ(duration_or_fail("0.001h", kSecondUnit), 3'600'000'000);
  EXPECT_EQ(duration_or_fail("2.5us", kSecondUnit), 2'500);
}

TEST(UnitsTest, DurationFractionsFinerThanANanosecondAreTruncated) {
  EXPECT_EQ(duration_or_fail("1.9ns", kSecondUnit), 1);
  EXPECT_EQ(duration_or_fail("0.0000000001s", kSecondUnit), 0);
  EXPECT_EQ(duration_or_fail("1.123456789123456789123s", kSecondUnit), 1'123'456'789);
}

TEST(UnitsTest, DurationUpToInt64MaxNanoseconds) {
  EXPECT_EQ(duration_or_fail("9223372036854775807ns", kSecondUnit),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(duration_or_fail("2562047h", kSecondUnit), 2'562'047 * kHourUnit);
  for (const char* text : {"9223372036854775808ns", "9223372037s", "2562048h",
                           "9223372036.9s", "99999999999999999999999999"}) {
    auto parsed = parse_duration_ns(text, kSecondUnit);
    ASSERT_FALSE(parsed) << text;
    EXPECT_EQ(parsed.error(), "too large") << text;
  }
}

TEST(UnitsTest, DurationRefusesEverythingElse) {
  for (const char* text : {"", "s", "abc", "-1", "+1", "1e3", " 1", "1 ", "1.", ".5", "1.5.2",
                           "10x", "10S", "10 s", "1s2", "0x10", "inf", "nan", "10sec"}) {
    auto parsed = parse_duration_ns(text, kSecondUnit);
    EXPECT_FALSE(parsed) << "'" << text << "' parsed as " << (parsed ? *parsed : 0);
  }
}

TEST(UnitsTest, RateAcceptsPlainNumbersAndThousandOrMillionSuffixes) {
  auto rate = [](std::string_view text) {
    auto parsed = parse_rate(text);
    EXPECT_TRUE(parsed) << text;
    return parsed ? *parsed : -1;
  };
  EXPECT_EQ(rate("2000"), 2000);
  EXPECT_EQ(rate("2k"), 2000);
  EXPECT_EQ(rate("2K"), 2000);
  EXPECT_EQ(rate("1.5k"), 1500);
  EXPECT_EQ(rate("1M"), 1'000'000);
  EXPECT_EQ(rate("2.5M"), 2'500'000);
  EXPECT_EQ(rate("0.5"), 0.5);
  EXPECT_EQ(rate("0"), 0);
}

TEST(UnitsTest, RateRefusesMilliAndEverythingElse) {
  for (const char* text : {"fast", "", "2m", "-1", "+1", "1e3", "k", "2kk", " 2", "2 ", "inf",
                           "nan", "0x10", "1.", ".5", "2G"}) {
    EXPECT_FALSE(parse_rate(text)) << "'" << text << "'";
  }
}

TEST(UnitsTest, RateTooLargeForADoubleIsRefused) {
  const std::string huge(400, '9');
  auto parsed = parse_rate(huge);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error(), "too large");
}

TEST(UnitsTest, DurationFormatsPickTheLargestUnitWithTwoDecimals) {
  EXPECT_EQ(format_duration_ns(0), "0ns");
  EXPECT_EQ(format_duration_ns(812), "812ns");
  EXPECT_EQ(format_duration_ns(999), "999ns");
  EXPECT_EQ(format_duration_ns(1'000), "1.00us");
  EXPECT_EQ(format_duration_ns(255'620), "255.62us");
  EXPECT_EQ(format_duration_ns(1'234'567), "1.23ms");
  EXPECT_EQ(format_duration_ns(182'000'000), "182.00ms");
  EXPECT_EQ(format_duration_ns(2'000'000'000), "2.00s");
  EXPECT_EQ(format_duration_ns(120'000'000'000), "120.00s");  // no minutes
}

TEST(UnitsTest, DurationFormatsRoundHalfUpAndCarryIntoTheNextUnit) {
  EXPECT_EQ(format_duration_ns(1'005'000), "1.01ms");  // "%.2f" of 1.005 would print 1.00
  EXPECT_EQ(format_duration_ns(1'004'999), "1.00ms");
  EXPECT_EQ(format_duration_ns(999'994), "999.99us");
  EXPECT_EQ(format_duration_ns(999'995), "1.00ms");
  EXPECT_EQ(format_duration_ns(999'995'000), "1.00s");
  EXPECT_EQ(format_duration_ns(1'995), "2.00us");
}

TEST(UnitsTest, DurationFormatsHandleTheInt64Extremes) {
  EXPECT_EQ(format_duration_ns(-1'500), "-1.50us");
  EXPECT_EQ(format_duration_ns(-5), "-5ns");
  EXPECT_EQ(format_duration_ns(std::numeric_limits<int64_t>::max()), "9223372036.85s");
  EXPECT_EQ(format_duration_ns(std::numeric_limits<int64_t>::min()), "-9223372036.85s");
}

TEST(UnitsTest, BytesFormatIs1024BasedLikeWrk) {
  EXPECT_EQ(format_bytes(0), "0B");
  EXPECT_EQ(format_bytes(512), "512B");
  EXPECT_EQ(format_bytes(1'023), "1023B");
  EXPECT_EQ(format_bytes(1'024), "1.00KB");
  EXPECT_EQ(format_bytes(155'965), "152.31KB");
  EXPECT_EQ(format_bytes(1'562'378), "1.49MB");
  EXPECT_EQ(format_bytes(1'048'575), "1.00MB");  // 1023.999KB rounds up a unit
  EXPECT_EQ(format_bytes(int64_t{3} << 30), "3.00GB");
  EXPECT_EQ(format_bytes(int64_t{1} << 40), "1.00TB");
  EXPECT_EQ(format_bytes(std::numeric_limits<int64_t>::max()), "8388608.00TB");
  EXPECT_EQ(format_bytes(-2'048), "-2.00KB");
}

TEST(UnitsTest, CountFormatIsPlainWithTwoDecimals) {
  EXPECT_EQ(format_count(1999.514), "1999.51");
  EXPECT_EQ(format_count(0), "0.00");
  EXPECT_EQ(format_count(2.5), "2.50");
  EXPECT_EQ(format_count(1e20), "100000000000000000000.00");
  EXPECT_EQ(format_count(std::nan("")), "-");
  EXPECT_EQ(format_count(std::numeric_limits<double>::infinity()), "-");
  EXPECT_EQ(format_count(-std::numeric_limits<double>::max()).size(), 313u);  // fits, whole
}

TEST(UnitsTest, MetricFormatScalesBy1000) {
  EXPECT_EQ(format_metric(999), "999.00");
  EXPECT_EQ(format_metric(1'020), "1.02k");
  EXPECT_EQ(format_metric(999.999), "1.00k");
  EXPECT_EQ(format_metric(2'500'000), "2.50M");
  EXPECT_EQ(format_metric(3e9), "3.00G");
  EXPECT_EQ(format_metric(5e12), "5000.00G");
  EXPECT_EQ(format_metric(-1'500), "-1.50k");
  EXPECT_EQ(format_metric(std::nan("")), "-");
}

}  // namespace
}  // namespace hammer
