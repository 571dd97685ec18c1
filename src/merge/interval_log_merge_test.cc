// SPDX-License-Identifier: MIT
#include "merge/interval_log_merge.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kStart = 1'796'083'200LL * kSecond;

IntervalLog log_of(int64_t start_unix_ns, int64_t value, int seconds) {
  IntervalLog log;
  log.start_unix_ns = log.base_unix_ns = start_unix_ns;
  for (int second = 0; second < seconds; ++second) {
    for (const char* tag : {"corrected", "uncorrected"}) {
      IntervalHistogram interval;
      interval.tag = tag;
      interval.start_ns = second * kSecond;
      interval.length_ns = kSecond;
      interval.histogram.record(value);
      log.intervals.push_back(interval);
    }
  }
  return log;
}

TEST(IntervalLogMergeTest, AddsTheSameTagAndSecondAcrossLogs) {
  const IntervalLog merged =
      merge_interval_logs({log_of(kStart, 1'000, 2), log_of(kStart, 2'000, 2)});
  EXPECT_EQ(merged.start_unix_ns, kStart);
  ASSERT_EQ(merged.intervals.size(), 4u);
  for (const IntervalHistogram& interval : merged.intervals) {
    EXPECT_EQ(interval.histogram.total_count(), 2) << interval.tag << interval.start_ns;
  }
  EXPECT_EQ(merged.intervals[0].tag, "corrected");
  EXPECT_EQ(merged.intervals[1].tag, "uncorrected");
  EXPECT_EQ(merged.intervals[2].start_ns, kSecond);
}

TEST(IntervalLogMergeTest, PlacesLogsOnTheWallClock) {
  // The second log began one second later: its first interval is the merged log's second.
  const IntervalLog merged =
      merge_interval_logs({log_of(kStart, 1'000, 2), log_of(kStart + kSecond, 2'000, 2)});
  ASSERT_EQ(merged.intervals.size(), 6u);
  EXPECT_EQ(merged.intervals[0].histogram.total_count(), 1);
  EXPECT_EQ(merged.intervals[2].histogram.total_count(), 2);
  EXPECT_EQ(merged.intervals[4].start_ns, 2 * kSecond);
  EXPECT_EQ(merged.intervals[4].histogram.max(), merged.intervals[4].histogram.max());
  EXPECT_EQ(merged.intervals[4].histogram.total_count(), 1);
}

}  // namespace
}  // namespace hammer
