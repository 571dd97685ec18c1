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
    ADD_FAILURE() << "'" << text << "': " << describe(parsed.error());
    return -1;
  }
  return *parsed;
}

TEST(UnitsTest, DurationWithoutUnitCountsTheDefaultUnit) {
  EXPECT_EQ(duration_or_fail("10", kNanosPerSecond), 10'000'000'000);
  EXPECT_EQ(duration_or_fail("2000", kNanosPerMilli), 2'000'000'000);
  EXPECT_EQ(duration_or_fail("1.5", kNanosPerMilli), 1'500'000);
  EXPECT_EQ(duration_or_fail("0", kNanosPerSecond), 0);
}

TEST(UnitsTest, DurationUnitsFromNanosecondsToHours) {
  EXPECT_EQ(duration_or_fail("7ns", kNanosPerSecond), 7);
  EXPECT_EQ(duration_or_fail("250us", kNanosPerSecond), 250'000);
  EXPECT_EQ(duration_or_fail("500ms", kNanosPerSecond), 500'000'000);
  EXPECT_EQ(duration_or_fail("10s", kNanosPerMilli), 10'000'000'000);
  EXPECT_EQ(duration_or_fail("2m", kNanosPerSecond), 120'000'000'000);
  EXPECT_EQ(duration_or_fail("1h", kNanosPerSecond), 3'600'000'000'000);
}

TEST(UnitsTest, DurationFractionsAreExactDecimal) {
  EXPECT_EQ(duration_or_fail("1.5s", kNanosPerSecond), 1'500'000'000);
  EXPECT_EQ(duration_or_fail("0.1s", kNanosPerSecond), 100'000'000);  // not 99,999,999
  EXPECT_EQ(duration_or_fail("0.3s", kNanosPerSecond), 300'000'000);
  EXPECT_EQ(duration_or_fail("1.25m", kNanosPerSecond), 75'000'000'000);
  EXPECT_EQ(duration_or_fail("0.001h", kNanosPerSecond), 3'600'000'000);
  EXPECT_EQ(duration_or_fail("2.5us", kNanosPerSecond), 2'500);
}

TEST(UnitsTest, DurationFractionsFinerThanANanosecondAreTruncated) {
  EXPECT_EQ(duration_or_fail("1.9ns", kNanosPerSecond), 1);
  EXPECT_EQ(duration_or_fail("0.0000000001s", kNanosPerSecond), 0);
  EXPECT_EQ(duration_or_fail("1.123456789123456789123s", kNanosPerSecond), 1'123'456'789);
}

TEST(UnitsTest, DurationUpToInt64MaxNanoseconds) {
  EXPECT_EQ(duration_or_fail("9223372036854775807ns", kNanosPerSecond),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(duration_or_fail("2562047h", kNanosPerSecond), 2'562'047 * kNanosPerHour);
  for (const char* text : {"9223372036854775808ns", "9223372037s", "2562048h",
                           "9223372036.9s", "99999999999999999999999999"}) {
    auto parsed = parse_duration_ns(text, kNanosPerSecond);
    ASSERT_FALSE(parsed) << text;
    EXPECT_EQ(parsed.error(), UnitError::too_large) << text;
  }
}

// Go's form (k6, vegeta, oha users write it): several numbers, each with its unit, added up.
TEST(UnitsTest, DurationOfSeveralPartsEachWithItsUnitAddsThem) {
  EXPECT_EQ(duration_or_fail("1m30s", kNanosPerSecond), 90'000'000'000);
  EXPECT_EQ(duration_or_fail("1h30m", kNanosPerSecond), 5'400'000'000'000);
  EXPECT_EQ(duration_or_fail("1s500ms", kNanosPerMilli), 1'500'000'000);
  EXPECT_EQ(duration_or_fail("2h45m30.5s", kNanosPerSecond),
            2 * kNanosPerHour + 45 * kNanosPerMinute + 30'500'000'000);
  EXPECT_EQ(duration_or_fail("1ms500us", kNanosPerSecond), 1'500'000);
  EXPECT_EQ(duration_or_fail("1m0s", kNanosPerSecond), 60'000'000'000);
  // The default unit is for a bare number alone: a part without its unit is refused.
  for (const char* text : {"1m30", "1m 30s", "1m30s5", "m30s", "1m.5s", "1m30x", "1m30s "}) {
    EXPECT_FALSE(parse_duration_ns(text, kNanosPerSecond)) << text;
  }
  auto parsed = parse_duration_ns("2562047h1h", kNanosPerSecond);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error(), UnitError::too_large);
}

TEST(UnitsTest, DurationRefusesEverythingElse) {
  for (const char* text : {"", "s", "abc", "-1", "+1", "1e3", " 1", "1 ", "1.", ".5", "1.5.2",
                           "10x", "10S", "10 s", "1s2", "0x10", "inf", "nan", "10sec"}) {
    auto parsed = parse_duration_ns(text, kNanosPerSecond);
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

// vegeta's form: requests per a period, "50/s", "100/1m", "1k/500ms" (a bare unit is one of it).
TEST(UnitsTest, RateMayBeRequestsPerAPeriod) {
  auto rate = [](std::string_view text) {
    auto parsed = parse_rate(text);
    EXPECT_TRUE(parsed) << text;
    return parsed ? *parsed : -1;
  };
  EXPECT_EQ(rate("50/s"), 50);
  EXPECT_EQ(rate("50/1s"), 50);
  EXPECT_EQ(rate("600/m"), 10);
  EXPECT_DOUBLE_EQ(rate("100/1m"), 100.0 / 60.0);
  EXPECT_EQ(rate("1k/500ms"), 2000);
  EXPECT_EQ(rate("3600/h"), 1);
  EXPECT_DOUBLE_EQ(rate("1/1m30s"), 1.0 / 90.0);
  for (const char* text : {"50/", "/s", "50/0s", "50/x", "50/s/s", "50/-1s", "50 /s", "50/ s",
                           "50/10", "2m/s", "50/.5s"}) {
    EXPECT_FALSE(parse_rate(text)) << "'" << text << "'";
  }
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
  EXPECT_EQ(parsed.error(), UnitError::too_large);
}

// wrk's "-c 1k" (its counts take SI suffixes): a suffix k/K or M, and a whole product.
TEST(UnitsTest, CountsTakeWrksSuffixesWhenTheProductIsWhole) {
  const auto count = [](std::string_view text) -> int64_t {
    auto parsed = parse_count(text);
    return parsed ? *parsed : -1;
  };
  EXPECT_EQ(count("1k"), 1000);
  EXPECT_EQ(count("10K"), 10000);
  EXPECT_EQ(count("1.5k"), 1500);
  EXPECT_EQ(count("1M"), 1000000);
  EXPECT_EQ(count("0.001M"), 1000);
  EXPECT_EQ(count("0k"), 0) << "the caller judges the range";
  for (const char* text : {"10", "1.2345k", "1m", "1G", "k", "1kk", "-1k", "1.k", ".5k", " 1k",
                           "1k ", "99999999999999999999k"}) {
    EXPECT_FALSE(parse_count(text)) << "'" << text << "'";
  }
}

}  // namespace
}  // namespace hammer
