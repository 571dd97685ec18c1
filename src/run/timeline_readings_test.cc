// SPDX-License-Identifier: MIT
// The rules of the two timeline readings and their thresholds; report/regimes_test.cc checks
// the words over the same kind of rows.
#include "run/timeline_readings.h"

#include <gtest/gtest.h>

#include "run/timeline_readings_testing.h"

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

using testing::rows_of;

TEST(TimelineReadingsTest, AColdStartIsTheOpeningRegimeWithTheWarmupThatCoversIt) {
  const auto reading = read_regimes(rows_of({100, 1000, 1000, 1000, 1000}), kSecond);
  ASSERT_TRUE(reading);
  ASSERT_EQ(reading->different.size(), 1u);
  EXPECT_EQ(reading->different[0].second, 1);
  EXPECT_DOUBLE_EQ(reading->different[0].per_second, 100);
  EXPECT_DOUBLE_EQ(reading->median_per_second, 1000);
  EXPECT_TRUE(reading->opening);
  EXPECT_EQ(reading->warmup_to_leave_out_s, 1);
}

TEST(TimelineReadingsTest, ASlowSecondMidRunIsNotOpening) {
  const auto reading = read_regimes(rows_of({1000, 1000, 100, 1000, 1000}), kSecond);
  ASSERT_TRUE(reading);
  EXPECT_FALSE(reading->opening);
  EXPECT_EQ(reading->warmup_to_leave_out_s, 0);
}

TEST(TimelineReadingsTest, WarmupRowsAreNotReadAndSparseRowsAreNotReadAtAll) {
  // The slow second is in the warm-up: one regime is left.
  EXPECT_FALSE(read_regimes(rows_of({100, 1000, 1000, 1000, 1000}, 1), kSecond));
  // A median row under kRegimeMinRequestsPerRow requests: too coarse to read.
  EXPECT_FALSE(read_regimes(rows_of({1, 9, 9, 9, 9}), kSecond));
  // Fewer than three usable rows.
  EXPECT_FALSE(read_regimes(rows_of({100, 1000}), kSecond));
}

TEST(TimelineReadingsTest, AStallNeedsMaxOverTenTimesP999UnlessSlowWasGiven) {
  const auto rows = rows_of({1000, 1000, 1000}, 0, {0, 3, 0});
  SlowRequestFigures figures{.threshold_ns = 10 * kMs, .threshold_given = false,
                             .max_ns = 50 * kMs, .p999_ns = 5 * kMs};
  EXPECT_FALSE(read_slow_requests(rows, figures));  // 50 ms is not over 10 x 5 ms
  figures.max_ns = 51 * kMs;
  auto reading = read_slow_requests(rows, figures);
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->count, 3);
  ASSERT_EQ(reading->seconds.size(), 1u);
  EXPECT_EQ(reading->seconds[0].second, 2);
  EXPECT_TRUE(reading->no_percentile_shows);
  // --slow given: any request over it counts, whatever p99.9 is.
  figures = {.threshold_ns = 10 * kMs, .threshold_given = true, .max_ns = 20 * kMs,
             .p999_ns = 15 * kMs};
  reading = read_slow_requests(rows, figures);
  ASSERT_TRUE(reading);
  EXPECT_FALSE(reading->no_percentile_shows);
  EXPECT_EQ(slow_threshold_ns(0, 2 * kMs), kDefaultSlowOverP50 * 2 * kMs);
  EXPECT_EQ(slow_threshold_ns(7 * kMs, 2 * kMs), 7 * kMs);
}

}  // namespace
}  // namespace hammer
