// SPDX-License-Identifier: MIT
#include "schedule/arrivals.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "schedule/schedule.h"

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr ArrivalProcess poisson(uint64_t seed) { return {Arrival::poisson, seed}; }

std::vector<int64_t> drain(OpenLoopSchedule& schedule) {
  std::vector<int64_t> times;
  while (schedule.has_next()) {
    times.push_back(schedule.next_intended_ns());
    schedule.take();
  }
  return times;
}

// The Kolmogorov-Smirnov statistic of `samples` against the exponential of mean 1.
double ks_exponential(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  double d = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const double f = 1.0 - std::exp(-samples[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

// The first n + 1 slots of a Poisson schedule at 1000 req/s: n gaps, in mean gaps (1 ms).
std::vector<double> schedule_gaps(uint64_t seed, int n) {
  OpenLoopSchedule schedule(0, 1000.0, SlotPartition{0, 1}, INT64_MAX, 0, poisson(seed));
  std::vector<double> gaps;
  int64_t previous = schedule.next_intended_ns();
  for (int i = 0; i < n; ++i) {
    schedule.take();
    gaps.push_back(static_cast<double>(schedule.next_intended_ns() - previous) / 1e6);
    previous = schedule.next_intended_ns();
  }
  return gaps;
}

// Kolmogorov-Smirnov at significance 0.001: the asymptotic critical value 1.9495 / sqrt(n)
// (within 0.2% of the exact one at n = 10,000). Each seed is one test at that level: a correct
// generator fails one of these five seeds with chance 0.5%.
TEST(PoissonArrivalsTest, TenThousandGapsPassKolmogorovSmirnovAgainstTheExponential) {
  const int n = 10'000;
  const double critical = 1.9495 / std::sqrt(static_cast<double>(n));
  for (uint64_t seed : {1ULL, 2ULL, 42ULL, 12345ULL, 0xdeadbeefULL}) {
    const std::vector<double> gaps = schedule_gaps(seed, n);
    const double d = ks_exponential(gaps);
    EXPECT_LT(d, critical) << "seed " << seed;
    // The mean of 10,000 exponential gaps has a standard deviation of 1%: within 4% is a 4
    // sigma bound; the 1% bound is checked over a million gaps below.
    double sum = 0;
    for (double gap : gaps) sum += gap;
    EXPECT_NEAR(sum / n, 1.0, 0.04) << "seed " << seed;
    // Successive gaps are independent: their correlation is within 4 sigma (1 / sqrt(n)) of 0.
    double mean = sum / n;
    double cov = 0;
    double var = 0;
    for (int i = 0; i + 1 < n; ++i) {
      cov += (gaps[i] - mean) * (gaps[i + 1] - mean);
      var += (gaps[i] - mean) * (gaps[i] - mean);
    }
    EXPECT_LT(std::abs(cov / var), 4.0 / std::sqrt(static_cast<double>(n))) << "seed " << seed;
  }
}

TEST(PoissonArrivalsTest, TheMeanGapIsOneOverTheRateWithinOnePercent) {
  // A million gaps: the mean's standard deviation is 0.1%, so 1% is ten of them. The first
  // 10,000 of seed 1 are checked at 1% too, as the issue states it (a 1 sigma bound: this is
  // one fixed draw that passes, not a statistical guarantee).
  for (uint64_t seed : {1ULL, 7ULL, 99ULL}) {
    PoissonCursor cursor(seed);
    cursor.advance_to(1'000'000);
    EXPECT_NEAR(cursor.arrival() / 1e6, 1.0, 0.01) << "seed " << seed;
  }
  const std::vector<double> gaps = schedule_gaps(1, 10'000);
  double sum = 0;
  for (double gap : gaps) sum += gap;
  EXPECT_NEAR(sum / 10'000, 1.0, 0.01);
}

TEST(PoissonArrivalsTest, BlockSkipsLandOnTheSameBitsAsAWalkThroughEverySlot) {
  PoissonCursor walker(5);
  PoissonCursor jumper(5);
  std::vector<double> walked;
  for (int64_t k = 0; k <= 5 * PoissonCursor::kBlock + 17; ++k) {
    walker.advance_to(k);
    walked.push_back(walker.arrival());
  }
  for (int64_t k : {int64_t{3}, PoissonCursor::kBlock, 2 * PoissonCursor::kBlock + 1,
                    5 * PoissonCursor::kBlock + 17}) {
    jumper.advance_to(k);
    EXPECT_EQ(jumper.arrival(), walked[k]) << k;  // bit for bit
    PoissonCursor fresh(5);
    fresh.advance_to(k);
    EXPECT_EQ(fresh.arrival(), walked[k]) << k;
  }
  for (size_t k = 1; k < walked.size(); ++k) EXPECT_LE(walked[k - 1], walked[k]) << k;
}

TEST(PoissonArrivalsTest, TheSameSeedGivesTheSameScheduleAndAnotherSeedAnother) {
  OpenLoopSchedule a(0, 5000.0, SlotPartition{0, 1}, kSecond, 0, poisson(3));
  OpenLoopSchedule b(0, 5000.0, SlotPartition{0, 1}, kSecond, 0, poisson(3));
  OpenLoopSchedule c(0, 5000.0, SlotPartition{0, 1}, kSecond, 0, poisson(4));
  const std::vector<int64_t> first = drain(a);
  EXPECT_EQ(first, drain(b));
  EXPECT_NE(first, drain(c));
  // Not the constant schedule either, and about 5000 slots (Poisson: sd 71).
  EXPECT_NEAR(static_cast<double>(first.size()), 5000.0, 5 * 71.0);
}

TEST(PoissonArrivalsTest, ThreadsTimesShardsAddUpToTheSingleScheduleExactly) {
  const int64_t start = 11'000;
  const int64_t deadline = start + 2 * kSecond;
  for (int64_t ramp : {int64_t{0}, kSecond / 2}) {
    OpenLoopSchedule whole(start, 3000.0, SlotPartition{0, 1}, deadline, ramp, poisson(9));
    const int64_t whole_scheduled = whole.scheduled_count();
    const int64_t whole_due = whole.due_count(start + kSecond);
    const std::vector<int64_t> global = drain(whole);
    EXPECT_EQ(whole_scheduled, static_cast<int64_t>(global.size()));
    for (int64_t shards : {1, 2, 3}) {
      for (int64_t threads : {1, 2, 5}) {
        std::multiset<int64_t> united;
        int64_t scheduled = 0;
        int64_t due = 0;
        for (int64_t shard = 0; shard < shards; ++shard) {
          for (int64_t thread = 0; thread < threads; ++thread) {
            OpenLoopSchedule share(start, 3000.0, slots_for(shard, shards, thread, threads),
                                   deadline, ramp, poisson(9));
            scheduled += share.scheduled_count();
            due += share.due_count(start + kSecond);
            for (int64_t t : drain(share)) united.insert(t);
          }
        }
        const auto label = ::testing::Message() << shards << " shards x " << threads
                                                << " threads, ramp " << ramp;
        EXPECT_EQ(scheduled, whole_scheduled) << label;
        EXPECT_EQ(due, whole_due) << label;
        EXPECT_EQ(united, std::multiset<int64_t>(global.begin(), global.end())) << label;
      }
    }
  }
}

TEST(PoissonArrivalsTest, DueCountsMatchTheScheduleForwardAndBack) {
  OpenLoopSchedule whole(0, 2000.0, SlotPartition{0, 1}, kSecond, 0, poisson(21));
  const std::vector<int64_t> global = drain(whole);
  OpenLoopSchedule schedule(0, 2000.0, SlotPartition{0, 1}, kSecond, 0, poisson(21));
  auto expected = [&](int64_t now) {
    return static_cast<int64_t>(std::upper_bound(global.begin(), global.end(), now) -
                                global.begin());
  };
  // Forward, then back (a due count for an earlier time starts its walk again), with slots
  // taken in between.
  for (int64_t now : {int64_t{0}, kSecond / 10, kSecond / 3, kSecond / 5, kSecond / 2,
                      kSecond / 50, 2 * kSecond}) {
    EXPECT_EQ(schedule.due_count(now), std::max<int64_t>(expected(now) - schedule.taken_count(),
                                                         0)) << now;
    for (int i = 0; i < 37; ++i) schedule.take();
  }
}

TEST(PoissonArrivalsTest, UnderARampTheRateClimbsLinearly) {
  // 20,000 req/s, ramp 2 s: R T / 2 = 20,000 slots in the ramp, a quarter of them in its first
  // second (r(t) = R t / T); Poisson counts: sd sqrt(mean).
  const int64_t ramp = 2 * kSecond;
  OpenLoopSchedule schedule(0, 20'000.0, SlotPartition{0, 1}, 3 * kSecond, ramp, poisson(8));
  const std::vector<int64_t> times = drain(schedule);
  auto count_below = [&](int64_t t) {
    return static_cast<double>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
  };
  EXPECT_NEAR(count_below(kSecond), 5'000.0, 5 * std::sqrt(5'000.0));
  EXPECT_NEAR(count_below(ramp), 20'000.0, 5 * std::sqrt(20'000.0));
  EXPECT_NEAR(count_below(3 * kSecond) - count_below(ramp), 20'000.0, 5 * std::sqrt(20'000.0));
}

}  // namespace
}  // namespace hammer
