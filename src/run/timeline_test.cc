// SPDX-License-Identifier: MIT
#include "run/timeline.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

TEST(TimelineTest, WarmupRowsStartAtZeroAndMeasuredRowsAtTheWarmupEnd) {
  Timeline timeline;
  timeline.plan(1'500 * kMs, 2'500 * kMs);
  const auto& rows = timeline.rows();
  ASSERT_EQ(rows.size(), 5u);  // warm-up 1 s + 0.5 s, measured 1 s + 1 s + 0.5 s
  EXPECT_TRUE(rows[0].warmup);
  EXPECT_TRUE(rows[1].warmup);
  EXPECT_EQ(rows[1].start_ns, kSecond);
  EXPECT_EQ(rows[1].length_ns, 500 * kMs);
  EXPECT_FALSE(rows[2].warmup);
  EXPECT_EQ(rows[2].start_ns, 1'500 * kMs);
  EXPECT_EQ(rows[4].start_ns, 3'500 * kMs);
  EXPECT_EQ(rows[4].length_ns, 500 * kMs);
}

// -n in closed loop: the 24h bound is no plan to widen the rows for. They stay a second wide,
// kMaxRows in all, and the last one runs to the bound, taking whatever is sent after 299 s.
TEST(TimelineTest, AnOpenEndedPlanKeepsSecondRowsAndTheLastTakesTheRest) {
  const int64_t day = 86'400 * kSecond;
  Timeline timeline;
  timeline.plan(2 * kSecond, day, false, 0, 0, /*open_ended=*/true);
  const auto& rows = timeline.rows();
  ASSERT_EQ(rows.size(), static_cast<size_t>(Timeline::kMaxRows));
  EXPECT_EQ(timeline.interval_ns(), kSecond);
  EXPECT_TRUE(rows[1].warmup);
  EXPECT_FALSE(rows[2].warmup);
  EXPECT_EQ(rows[2].start_ns, 2 * kSecond);
  EXPECT_EQ(rows[2].length_ns, kSecond);
  const auto& last = rows.back();
  EXPECT_EQ(last.start_ns, (Timeline::kMaxRows - 1) * kSecond);
  EXPECT_EQ(last.start_ns + last.length_ns, 2 * kSecond + day);
  timeline.set_start(0);
  EXPECT_EQ(timeline.row_for(3 * kSecond + 1), 3);
  EXPECT_EQ(timeline.row_for(day), Timeline::kMaxRows - 1);
  // Without it the same span widens the rows (to 289 s) to fit kMaxRows.
  Timeline closed;
  closed.plan(2 * kSecond, day);
  EXPECT_EQ(closed.interval_ns(), 289 * kSecond);
}

TEST(TimelineTest, RampRowsComeFirstThenWarmupThenMeasured) {
  Timeline timeline;
  timeline.plan(1 * kSecond, 2 * kSecond, false, 1'500 * kMs);
  const auto& rows = timeline.rows();
  ASSERT_EQ(rows.size(), 5u);  // ramp 1 s + 0.5 s, warm-up 1 s, measured 1 s + 1 s
  EXPECT_TRUE(rows[0].ramp && rows[0].warmup);
  EXPECT_TRUE(rows[1].ramp);
  EXPECT_EQ(rows[1].length_ns, 500 * kMs);
  EXPECT_TRUE(rows[2].warmup && !rows[2].ramp);
  EXPECT_EQ(rows[2].start_ns, 1'500 * kMs);
  EXPECT_FALSE(rows[3].warmup || rows[3].ramp);
  EXPECT_EQ(rows[3].start_ns, 2'500 * kMs);
  timeline.set_start(0);
  EXPECT_EQ(timeline.row_for(1'499 * kMs), 1);
  EXPECT_EQ(timeline.row_for(1'500 * kMs), 2);
  EXPECT_EQ(timeline.row_for(2'500 * kMs), 3);
}

TEST(TimelineTest, RequestsLandInTheRowOfTheirSendTime) {
  Timeline timeline;
  timeline.plan(1'500 * kMs, 2 * kSecond);
  const int64_t t0 = 777 * kSecond;
  timeline.set_start(t0);
  EXPECT_EQ(timeline.row_for(t0 - 5), 0);           // before the start: first row
  EXPECT_EQ(timeline.row_for(t0 + 999 * kMs), 0);
  EXPECT_EQ(timeline.row_for(t0 + 1'499 * kMs), 1);  // the short warm-up row
  EXPECT_EQ(timeline.row_for(t0 + 1'500 * kMs), 2);  // the warm-up's end opens a row
  EXPECT_EQ(timeline.row_for(t0 + 2'499 * kMs), 2);
  EXPECT_EQ(timeline.row_for(t0 + 2'500 * kMs), 3);
  EXPECT_EQ(timeline.row_for(t0 + 99 * kSecond), 3);  // after the end: last row

  timeline.record(t0 + 10 * kMs, 300 * kMs);
  timeline.record(t0 + 20 * kMs, 50'000);
  timeline.record(t0 + 1'600 * kMs, 80'000);
  timeline.record_error(t0 + 1'600 * kMs);
  EXPECT_EQ(timeline.rows()[0].completed, 2);
  EXPECT_EQ(timeline.rows()[0].max_ns, 300 * kMs);
  EXPECT_EQ(timeline.rows()[2].completed, 1);
  EXPECT_EQ(timeline.rows()[2].errors, 1);
  EXPECT_EQ(timeline.count_above(0, 1 * kMs), 1);
  EXPECT_EQ(timeline.count_above(2, 1 * kMs), 0);
  const Histogram row = timeline.row_histogram(0);
  EXPECT_EQ(row.total_count(), 2);
  EXPECT_NEAR(static_cast<double>(row.max()), 300e6, 300e6 * 0.01);
}

TEST(TimelineTest, AddingSumsHistogramsRowByRowNeverAverages) {
  Timeline a;
  Timeline b;
  a.plan(0, 3 * kSecond);
  b.plan(0, 3 * kSecond);
  for (int i = 0; i < 99; ++i) a.record(0, 100'000);  // 99 fast in worker a
  b.record(0, 500 * kMs);                             // one slow in worker b
  Timeline total;
  total.add(a);
  total.add(b);
  ASSERT_EQ(total.rows().size(), 3u);
  EXPECT_EQ(total.rows()[0].completed, 100);
  EXPECT_EQ(total.rows()[0].max_ns, 500 * kMs);
  const Histogram row = total.row_histogram(0);
  EXPECT_EQ(row.total_count(), 100);
  EXPECT_NEAR(static_cast<double>(row.value_at_percentile(50)), 100'000, 1'000);
  EXPECT_EQ(total.count_above(0, 10 * kMs), 1);
}

TEST(TimelineTest, LongRunsWidenTheirRowsToStayBounded) {
  Timeline timeline;
  timeline.plan(0, 3'600 * kSecond);
  EXPECT_LE(timeline.rows().size(), static_cast<size_t>(Timeline::kMaxRows));
  EXPECT_EQ(timeline.interval_ns(), 12 * kSecond);
  Timeline day;
  day.plan(24 * 3'600 * kSecond, 24 * 3'600 * kSecond);
  EXPECT_LE(day.rows().size(), static_cast<size_t>(Timeline::kMaxRows));
}

}  // namespace
}  // namespace hammer
