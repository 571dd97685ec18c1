// SPDX-License-Identifier: MIT
#include "time/wake_tuner.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kUs = 1'000;

// Feeds `count` sleeps that overslept by `oversleep_ns` each.
void feed(WakeTuner& tuner, int count, int64_t oversleep_ns) {
  for (int i = 0; i < count; ++i) tuner.record(1'000'000, 1'000'000 + oversleep_ns);
}

TEST(WakeTunerTest, BalancedLeadIsTheMedianOversleep) {
  WakeTuner tuner(SpinPolicy::balanced);
  EXPECT_EQ(tuner.lead_ns(), 0) << "balanced starts without a spin and learns";
  feed(tuner, 48, 10 * kUs);
  feed(tuner, 16, 90 * kUs);
  // 3/4 of the samples in the 10 us bucket: the median is its upper edge.
  EXPECT_EQ(tuner.lead_ns(), 11 * kUs);
}

TEST(WakeTunerTest, PreciseLeadIsTheNinetyNinthPercentileCapped) {
  WakeTuner tuner(SpinPolicy::precise);
  EXPECT_EQ(tuner.lead_ns(), WakeTuner::kPreciseInitialLeadNs);
  feed(tuner, 256, 10 * kUs);
  EXPECT_EQ(tuner.lead_ns(), 11 * kUs);
  feed(tuner, 64, 150 * kUs);  // now a fifth of the window is at 150 us
  EXPECT_EQ(tuner.lead_ns(), 151 * kUs);
  feed(tuner, 512, 400 * kUs);  // beyond the histogram: the cap holds
  EXPECT_EQ(tuner.lead_ns(), WakeTuner::kPreciseCapNs);
}

TEST(WakeTunerTest, BalancedLeadIsCapped) {
  WakeTuner tuner(SpinPolicy::balanced);
  feed(tuner, 64, 300 * kUs);
  EXPECT_EQ(tuner.lead_ns(), WakeTuner::kBalancedCapNs);
}

TEST(WakeTunerTest, SmallOversleepMeansNoSpin) {
  WakeTuner tuner(SpinPolicy::precise);
  feed(tuner, 256, 500);  // half a microsecond: the wake-up is already precise
  EXPECT_EQ(tuner.lead_ns(), 0);
}

TEST(WakeTunerTest, NoSpinPolicyNeverLeads) {
  WakeTuner tuner(SpinPolicy::none);
  feed(tuner, 256, 40 * kUs);
  EXPECT_EQ(tuner.lead_ns(), 0);
  EXPECT_EQ(tuner.oversleep_at(0.5), 41 * kUs) << "it still measures";
}

TEST(WakeTunerTest, OldSamplesDecaySoTheLeadFollowsTheHost) {
  WakeTuner tuner(SpinPolicy::balanced);
  feed(tuner, 512, 40 * kUs);
  EXPECT_EQ(tuner.lead_ns(), 41 * kUs);
  feed(tuner, 1024, 5 * kUs);  // the host got quieter
  EXPECT_EQ(tuner.lead_ns(), 6 * kUs);
}

TEST(WakeTunerTest, EarlyWakeUpsCountAsNoOversleep) {
  WakeTuner tuner(SpinPolicy::balanced);
  for (int i = 0; i < 64; ++i) tuner.record(1'000'000, 999'000);
  EXPECT_EQ(tuner.oversleep_at(1.0), 1 * kUs);
  EXPECT_EQ(tuner.lead_ns(), 0);
}

}  // namespace
}  // namespace hammer
