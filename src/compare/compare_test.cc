// SPDX-License-Identifier: MIT
#include "compare/compare.h"

#include <gtest/gtest.h>

#include <vector>

namespace hammer {
namespace {

// Seconds of `count` latencies each: most at `base_ns` (spread by up to 5% over the second's
// index, so seconds differ a little), and every `slow_every`-th at `slow_ns`.
CompareSide fabricate(int seconds, int count, int64_t base_ns, int slow_every = 0,
                      int64_t slow_ns = 0, int64_t jitter_seed = 0) {
  CompareSide side;
  side.whole = Histogram(1'000, 60'000'000'000, 3);
  for (int s = 0; s < seconds; ++s) {
    Histogram second(1'000, 60'000'000'000, 2);
    for (int i = 0; i < count; ++i) {
      const int64_t spread = base_ns * ((i * 7 + s * 3 + jitter_seed) % 11) / 200;  // 0..5%
      const int64_t value = slow_every > 0 && i % slow_every == 0 ? slow_ns : base_ns + spread;
      second.record(value);
      side.whole.record(value);
    }
    side.seconds.push_back(second);
  }
  return side;
}

const std::vector<double> kRows = {50, 75, 90, 95, 99, 99.9};

// `side` with `per_second` requests of each second timed out at `timeout_ns` (no latency).
CompareSide with_timeouts(CompareSide side, int64_t per_second, int64_t timeout_ns) {
  side.timeout_ns = timeout_ns;
  side.seconds_timed_out.assign(side.seconds.size(), per_second);
  side.timed_out = per_second * static_cast<int64_t>(side.seconds.size());
  return side;
}

TEST(CompareTest, TheSameRunComparedWithItselfIsNoChangeEverywhere) {
  const CompareSide a = fabricate(10, 1000, 2'000'000);
  const Comparison comparison = compare_runs(a, a, kRows, CompareSettings{});
  ASSERT_EQ(comparison.rows.size(), kRows.size());
  for (const CompareRow& row : comparison.rows) {
    EXPECT_EQ(row.verdict, CompareVerdict::no_change) << row.percentile;
    EXPECT_EQ(row.delta_ns, 0) << row.percentile;
    EXPECT_LE(row.low_ns, 0);
    EXPECT_GE(row.high_ns, 0);
  }
  EXPECT_FALSE(comparison.failed());
}

TEST(CompareTest, TwoRunsOfTheSameServerWithOtherJitterAreNoChange) {
  const CompareSide a = fabricate(10, 1000, 2'000'000, 0, 0, 1);
  const CompareSide b = fabricate(12, 1000, 2'000'000, 0, 0, 4);
  for (const CompareRow& row : compare_runs(a, b, kRows, CompareSettings{}).rows) {
    EXPECT_EQ(row.verdict, CompareVerdict::no_change) << row.percentile;
  }
}

TEST(CompareTest, ASlowTailOnAnEighthOfRequestsIsWorseFromP90Up) {
  const CompareSide a = fabricate(10, 1000, 2'000'000);
  const CompareSide b = fabricate(10, 1000, 2'000'000, 8, 7'000'000);
  const Comparison comparison = compare_runs(a, b, kRows, CompareSettings{}, {{99, 10}});
  for (const CompareRow& row : comparison.rows) {
    const CompareVerdict expected =
        row.percentile >= 90 ? CompareVerdict::worse : CompareVerdict::no_change;
    EXPECT_EQ(row.verdict, expected) << row.percentile;
    if (row.percentile >= 90) {
      EXPECT_GT(row.low_ns, 4'000'000) << row.percentile;
    }
  }
  EXPECT_TRUE(comparison.failed());
  // And the other way round it is better.
  for (const CompareRow& row : compare_runs(b, a, kRows, CompareSettings{}).rows) {
    if (row.percentile >= 90) {
      EXPECT_EQ(row.verdict, CompareVerdict::better) << row.percentile;
    }
  }
}

TEST(CompareTest, FailIfNeedsBothTheNoiseAndTheThreshold) {
  // B is 8% slower everywhere, steadily: worse beyond noise, but under a 10% threshold.
  const CompareSide a = fabricate(10, 1000, 2'000'000);
  const CompareSide b = fabricate(10, 1000, 2'160'000);
  const Comparison under = compare_runs(a, b, kRows, CompareSettings{}, {{99, 10}});
  EXPECT_EQ(under.rows[4].verdict, CompareVerdict::worse);
  EXPECT_EQ(under.rows[4].fail_percent, 10);
  EXPECT_FALSE(under.failed());
  EXPECT_TRUE(compare_runs(a, b, kRows, CompareSettings{}, {{99, 5}}).failed());
  // A change under min_relative_change is no change, however steady.
  const CompareSide c = fabricate(10, 1000, 2'040'000);
  EXPECT_EQ(compare_runs(a, c, kRows, CompareSettings{}).rows[0].verdict,
            CompareVerdict::no_change);
}

TEST(CompareTest, OneNoisySecondWidensTheIntervalPastZero) {
  // B's tail is slow in one second of ten only: its p99 is above A's, but resampling the
  // seconds often leaves that one out, so the interval reaches 0: no change beyond noise.
  CompareSide a = fabricate(10, 1000, 2'000'000);
  CompareSide b = fabricate(10, 1000, 2'000'000);
  for (int i = 0; i < 150; ++i) {  // 1.5% of the run: above its p99
    b.seconds[3].record(9'000'000);
    b.whole.record(9'000'000);
  }
  const CompareRow row = compare_runs(a, b, {99}, CompareSettings{}).rows[0];
  EXPECT_GT(row.delta_ns, 0);
  EXPECT_LE(row.low_ns, 0);
  EXPECT_EQ(row.verdict, CompareVerdict::no_change);
}

// A host meter of 1,000 wake-ups that all overslept `slack_ns` (the timer's constant slack),
// `late` of them `spread_ns` more: its noise is the spread, never the slack.
Histogram oversleeps(int64_t slack_ns, int late, int64_t spread_ns) {
  Histogram meter(1'000, 60'000'000'000, 2);
  for (int i = 0; i < 1000; ++i) meter.record(slack_ns + (i < late ? spread_ns : 0));
  return meter;
}

TEST(CompareTest, AChangeWithinEitherHostsOwnNoiseIsNoChange) {
  // B is 50 us slower everywhere, steadily: beyond its interval and 5% of A's 200 us.
  const CompareSide a = fabricate(10, 1000, 200'000);
  const CompareSide b = fabricate(10, 1000, 250'000);
  EXPECT_EQ(compare_runs(a, b, {50}, CompareSettings{}).rows[0].verdict, CompareVerdict::worse);
  // Either run's host spread its wake-ups by 80 us at p50 (600 of 1,000 late): the host alone
  // moves a latency that far, so the change is no change, and the row says why.
  for (const bool noisy_a : {true, false}) {
    CompareSide quiet_a = a;
    CompareSide quiet_b = b;
    (noisy_a ? quiet_a : quiet_b).host_oversleeps = oversleeps(50'000, 600, 80'000);
    (noisy_a ? quiet_b : quiet_a).host_oversleeps = oversleeps(50'000, 1, 80'000);
    const CompareRow row = compare_runs(quiet_a, quiet_b, {50}, CompareSettings{}).rows[0];
    EXPECT_EQ(row.verdict, CompareVerdict::no_change) << noisy_a;
    EXPECT_TRUE(row.within_host_noise) << noisy_a;
    EXPECT_NEAR(row.host_noise_ns, 80'000, 1'000) << noisy_a;
  }
  // A host whose wake-ups were all 50 us late (the slack, paid alike by every one) has no
  // noise: the change stands.
  CompareSide slack_a = a;
  CompareSide slack_b = b;
  slack_a.host_oversleeps = oversleeps(50'000, 0, 0);
  slack_b.host_oversleeps = oversleeps(50'000, 0, 0);
  const CompareRow row = compare_runs(slack_a, slack_b, {50}, CompareSettings{}).rows[0];
  EXPECT_EQ(row.verdict, CompareVerdict::worse);
  EXPECT_FALSE(row.within_host_noise);
  EXPECT_LE(row.host_noise_ns, 1'000);  // one bucket of the meter's 2 significant figures
}

TEST(CompareTest, HostNoiseIsTheMetersSpreadAtThePercentileAndZeroWithoutAMeter) {
  CompareSide side;
  EXPECT_EQ(host_noise_ns(side, 99), 0);
  side.host_oversleeps = oversleeps(50'000, 100, 2'000'000);  // a tenth 2 ms later
  EXPECT_LE(host_noise_ns(side, 50), 1'000);
  EXPECT_NEAR(host_noise_ns(side, 95), 2'000'000, 20'000);
}

// Two 101 ms stalls among 1,000 wake-ups of a 5 ms meter: counted once they are 0.2% of the
// samples and leave p99 on time; weighted by the time they held the host (each stands for
// the 19 wake-ups it swallowed too, 96 ms late down to 6 ms), they are 40 of 1,038 and p99
// is the 11th latest, 76 ms, while p95 is still on time.
TEST(CompareTest, HostNoiseWeighsEachStallByTheTimeItHeldTheHost) {
  CompareSide side;
  side.host_oversleeps = Histogram(1'000, 60'000'000'000, 2);
  side.host_oversleeps.record_n(50'000, 998);
  side.host_oversleeps.record_n(101'000'000, 2);
  EXPECT_LE(host_noise_ns(side, 99), 1'000);  // no interval known: each oversleep once
  side.host_interval_ns = 5'000'000;
  const Histogram weighted = time_weighted_oversleeps(side.host_oversleeps, 5'000'000);
  EXPECT_EQ(weighted.total_count(), 1'000 + 2 * 19);
  EXPECT_NEAR(host_noise_ns(side, 99), 76'000'000, 1'000'000);
  EXPECT_LE(host_noise_ns(side, 95), 1'000);

  // A's run held those stalls; B's server is 20 ms faster at p99 (a fabricated 30 ms tail
  // against 10 ms): within A's host noise there, so no change, not "better".
  CompareSide a = fabricate(10, 1000, 1'000'000, 20, 30'000'000);
  const CompareSide b = fabricate(10, 1000, 1'000'000, 20, 10'000'000);
  EXPECT_EQ(compare_runs(a, b, {99}, CompareSettings{}).rows[0].verdict, CompareVerdict::better);
  a.host_oversleeps = side.host_oversleeps;
  a.host_interval_ns = side.host_interval_ns;
  const CompareRow row = compare_runs(a, b, {99}, CompareSettings{}).rows[0];
  EXPECT_EQ(row.verdict, CompareVerdict::no_change);
  EXPECT_TRUE(row.within_host_noise);
}

// 2,000 requests each, B's slowest ones 17% faster than A's: p99.99 is beyond both runs'
// slowest request (0.2 requests above it), where no run can place it and the bootstrap reads
// the two maxima as a change; such a row is no change and says why. p99 (20 above) is
// judged. The count needed follows the confidence: 3.69 at 95%, 5.30 at 99%.
TEST(CompareTest, APercentileWithTooFewRequestsAboveItIsNoChange) {
  auto side = [](int64_t slowest_ns, int64_t tail_ns) {
    CompareSide made;
    made.whole = Histogram(1'000, 60'000'000'000, 3);
    for (int s = 0; s < 5; ++s) {
      Histogram second(1'000, 60'000'000'000, 3);
      // Each second: 394 answers near 1 ms, 5 in the tail, and its slowest one.
      for (int i = 0; i < 400; ++i) {
        const int64_t value = i == 0 ? slowest_ns : i <= 394 ? 1'000'000 + i * 100 : tail_ns;
        second.record(value);
        made.whole.record(value);
      }
      made.seconds.push_back(second);
    }
    return made;
  };
  const CompareSide a = side(3'650'000, 2'000'000);
  const CompareSide b = side(3'020'000, 3'000'000);
  const Comparison comparison = compare_runs(a, b, {99, 99.99}, CompareSettings{});
  const CompareRow& p99 = comparison.rows[0];
  EXPECT_NEAR(p99.tail_requests, 20, 1e-6);
  EXPECT_FALSE(p99.too_few_requests);
  EXPECT_EQ(p99.verdict, CompareVerdict::worse);  // B's tail is 1 ms slower from p99 on
  const CompareRow& top = comparison.rows[1];
  EXPECT_LT(top.high_ns, 0);  // the interval alone says "better"
  EXPECT_NEAR(top.tail_requests, 0.2, 1e-6);
  EXPECT_TRUE(top.too_few_requests);
  EXPECT_EQ(top.verdict, CompareVerdict::no_change);
  EXPECT_NEAR(tail_requests_needed(0.95), 3.689, 0.001);
  EXPECT_NEAR(tail_requests_needed(0.99), 5.298, 0.001);
}

// Runs of one or two measured seconds (-n 20 -r 200 is 0.1 s): nothing to resample, so no
// row is judged, however far apart the two read; three seconds each are judged.
// B's 10% timed out: from p90 up its figures are only the timeout, as its own report says,
// and worse than A's beyond doubt. Read from its answered requests alone, p99 was "no change"
// and the gate passed (a user's trial: 61.90 ms against 112.33 ms, B's report p99 > 200 ms).
TEST(CompareTest, TimeoutsCensorAFigureAndABoundBeyondTheOtherIsWorse) {
  const int64_t timeout_ns = 200'000'000;
  const CompareSide a = fabricate(10, 1000, 2'000'000);
  const CompareSide b = with_timeouts(fabricate(10, 900, 2'000'000), 100, timeout_ns);
  const Comparison comparison = compare_runs(a, b, kRows, CompareSettings{}, {{99, 10}});
  for (const CompareRow& row : comparison.rows) {
    EXPECT_FALSE(row.a_censored) << row.percentile;
    EXPECT_EQ(row.b_censored, row.percentile > 90) << row.percentile;
    if (row.b_censored) {
      EXPECT_EQ(row.b_ns, timeout_ns) << row.percentile;
      EXPECT_EQ(row.verdict, CompareVerdict::worse) << row.percentile;
    }
  }
  EXPECT_TRUE(comparison.failed());
  EXPECT_FALSE(comparison.rows[4].gate_unjudged) << "B's bound is beyond A's p99 + 10%";
  EXPECT_EQ(comparison.b_facts.timed_out, 1000);
  EXPECT_EQ(comparison.b_facts.ended, 10'000);
  // Both censored: the bounds decide nothing, and a gate on that row fails unjudged.
  const Comparison both = compare_runs(b, b, {99}, CompareSettings{}, {{99, 10}});
  EXPECT_TRUE(both.rows[0].censored_unjudged);
  EXPECT_EQ(both.rows[0].verdict, CompareVerdict::no_change);
  EXPECT_TRUE(both.rows[0].failed);
  EXPECT_TRUE(both.rows[0].gate_unjudged);
  // A's timeouts against a B that answered: B is better, beyond doubt.
  const Comparison fixed = compare_runs(b, a, {99}, CompareSettings{}, {{99, 10}});
  EXPECT_EQ(fixed.rows[0].verdict, CompareVerdict::better);
  EXPECT_FALSE(fixed.failed());
}

TEST(CompareTest, RunsWithTooFewSecondsAreNotJudged) {
  for (int seconds : {0, 1, 2}) {
    CompareSide a = fabricate(seconds == 0 ? 1 : seconds, 1000, 1'000'000);
    const CompareSide b = fabricate(10, 1000, 5'000'000);
    if (seconds == 0) a.seconds.clear();  // a run without a timeline
    const Comparison comparison = compare_runs(a, b, kRows, CompareSettings{}, {{99, 10}});
    EXPECT_TRUE(comparison.too_few_seconds) << seconds;
    // The gate cannot be shown to hold: it fails, as judged by nothing (it passed, and a 5x
    // slower B read "no change" with exit 0).
    EXPECT_TRUE(comparison.failed()) << seconds;
    for (const CompareRow& row : comparison.rows) {
      EXPECT_EQ(row.verdict, CompareVerdict::no_change) << seconds << " p" << row.percentile;
      EXPECT_EQ(row.gate_unjudged, row.percentile == 99) << seconds << " p" << row.percentile;
    }
  }
  const Comparison judged = compare_runs(fabricate(3, 1000, 1'000'000),
                                         fabricate(3, 1000, 5'000'000), {50}, CompareSettings{});
  EXPECT_FALSE(judged.too_few_seconds);
  EXPECT_EQ(judged.rows[0].verdict, CompareVerdict::worse);
}

// A saved run may claim any interval: a 1 ns one over a 60 s stall still ends promptly, its
// missed wake-ups recorded in strides, their count kept.
TEST(CompareTest, ATinyIntervalInASavedRunIsBoundedWork) {
  Histogram stall(1'000, 60'000'000'000, 2);
  stall.record(59'000'000'000);
  const Histogram weighted = time_weighted_oversleeps(stall, 1);
  EXPECT_LE(weighted.total_count() - 1, 59'000'000'000LL);
  EXPECT_GE(weighted.total_count() - 1, 58'000'000'000LL);
}

TEST(CompareTest, TheSameSeedGivesTheSameIntervals) {
  const CompareSide a = fabricate(10, 500, 1'000'000, 0, 0, 2);
  const CompareSide b = fabricate(10, 500, 1'000'000, 20, 3'000'000, 5);
  const Comparison first = compare_runs(a, b, kRows, CompareSettings{});
  const Comparison again = compare_runs(a, b, kRows, CompareSettings{});
  for (size_t i = 0; i < kRows.size(); ++i) {
    EXPECT_EQ(first.rows[i].low_ns, again.rows[i].low_ns);
    EXPECT_EQ(first.rows[i].high_ns, again.rows[i].high_ns);
    EXPECT_EQ(first.rows[i].verdict, again.rows[i].verdict);
  }
}

}  // namespace
}  // namespace hammer
