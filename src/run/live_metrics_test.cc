// SPDX-License-Identifier: MIT
#include "run/live_metrics.h"

#include <gtest/gtest.h>

#include <thread>

namespace hammer {
namespace {

int bound_index(int64_t bound_ns) {
  for (int k = 0; k < kLiveBucketCount; ++k) {
    if (kLiveBucketBoundsNs[k] == bound_ns) return k;
  }
  ADD_FAILURE() << bound_ns << " is no bound";
  return 0;
}

TEST(LiveHistogramTest, EachBucketCountsTheValuesAtOrBelowItsBound) {
  Histogram histogram;
  histogram.record(50'000);      // 50 us
  histogram.record(100'000);     // 100 us: on the first bound, counted in it
  histogram.record(100'500);     // just above: not in it (HDR slots are 64 ns wide here)
  histogram.record_n(3'000'000, 7);  // 3 ms
  histogram.record(70'000'000'000);  // past the top (clamped to 60 s): only in +Inf
  LiveHistogram live;
  live.count_from(histogram);
  EXPECT_EQ(live.count, 11);
  EXPECT_EQ(live.at_or_below[bound_index(100'000)], 2);
  EXPECT_EQ(live.at_or_below[bound_index(250'000)], 3);
  EXPECT_EQ(live.at_or_below[bound_index(2'500'000)], 3);
  EXPECT_EQ(live.at_or_below[bound_index(5'000'000)], 10);
  EXPECT_EQ(live.at_or_below[bound_index(50'000'000'000)], 10);
  // The sum is the HDR slots' middles: within its 0.1% of the true sum.
  const double true_sum = 50e3 + 100e3 + 100.5e3 + 7 * 3e6 + 60e9;
  EXPECT_NEAR(live.sum_ns, true_sum, true_sum * 1e-3);
  for (int k = 1; k < kLiveBucketCount; ++k) {
    EXPECT_GE(live.at_or_below[k], live.at_or_below[k - 1]);
  }
}

TEST(LiveHistogramTest, AnEmptyHistogramIsAllZeroAndCountingAgainReplaces) {
  Histogram histogram;
  LiveHistogram live;
  histogram.record(1'000'000);
  live.count_from(histogram);
  EXPECT_EQ(live.count, 1);
  histogram.reset();
  live.count_from(histogram);
  EXPECT_EQ(live.count, 0);
  EXPECT_EQ(live.sum_ns, 0);
  for (int64_t count : live.at_or_below) EXPECT_EQ(count, 0);
}

TEST(LiveMetricsBoardTest, TheTotalAddsEveryWorkersLatestFigures) {
  LiveMetricsBoard board;
  EXPECT_EQ(board.total().in_flight, 0);  // before prepare(): nothing, and no crash
  board.prepare(3);
  for (int64_t worker = 0; worker < 3; ++worker) {
    RunResult result;
    result.sent = 10 + worker;
    result.completed = 10;
    result.status_classes[1] = 9;
    result.status_classes[4] = 1;
    result.errors[static_cast<int>(ErrorKind::timeout)] = worker;
    result.uncorrected.record_n(2'000'000, 10);
    LiveFigures figures;
    figures.phases[static_cast<int>(Phase::measured)].take(result);
    figures.in_flight = worker;
    figures.connections = 2;
    board.publish(worker, figures);
    board.publish(worker, figures);  // a later copy replaces, never adds
  }
  board.publish(7, LiveFigures{});  // not a worker: ignored
  const LiveFigures total = board.total();
  const LivePhase& measured = total.phases[static_cast<int>(Phase::measured)];
  EXPECT_TRUE(measured.present);
  EXPECT_FALSE(total.phases[static_cast<int>(Phase::warmup)].present);
  EXPECT_EQ(measured.sent, 33);
  EXPECT_EQ(measured.completed, 30);
  EXPECT_EQ(measured.status_classes[1], 27);
  EXPECT_EQ(measured.status_classes[4], 3);
  EXPECT_EQ(measured.errors[static_cast<int>(ErrorKind::timeout)], 3);
  EXPECT_EQ(measured.uncorrected.count, 30);
  EXPECT_EQ(measured.uncorrected.at_or_below[bound_index(2'500'000)], 30);
  EXPECT_EQ(total.in_flight, 3);
  EXPECT_EQ(total.connections, 6);
}

TEST(LiveMetricsBoardTest, AScrapeWhileWorkersPublishReadsWholeCopies) {
  // Each publish holds one consistent figure set (sent == completed == n); a reader on another
  // thread must never see one half-written.
  LiveMetricsBoard board;
  board.prepare(1);
  std::thread writer([&board] {
    for (int64_t n = 1; n <= 20'000; ++n) {
      LiveFigures figures;
      figures.phases[2].present = true;
      figures.phases[2].sent = n;
      figures.phases[2].completed = n;
      board.publish(0, figures);
    }
  });
  int64_t last = 0;
  for (int read = 0; read < 2'000; ++read) {
    const LiveFigures total = board.total();
    EXPECT_EQ(total.phases[2].sent, total.phases[2].completed);
    EXPECT_GE(total.phases[2].sent, last);
    last = total.phases[2].sent;
  }
  writer.join();
  EXPECT_EQ(board.total().phases[2].sent, 20'000);
}

}  // namespace
}  // namespace hammer
