// SPDX-License-Identifier: MIT
#include "sweep/knee.h"

#include <gtest/gtest.h>

#include <vector>

namespace hammer {
namespace {

// The published autocannon sweep that motivated this module: a 1 ms CPU handler on a
// single-threaded server, 2 to 100 connections.
const std::vector<CurvePoint> kOneMillisecondServer = {
    {1, 520, 1.92e6},   {2, 1005, 1.99e6},  {5, 931, 5.37e6},   {10, 934, 10.7e6},
    {25, 932, 26.8e6},  {50, 930, 53.7e6},  {100, 932, 107.3e6},
};

TEST(KneeTest, AFlatCurveHasItsKneeWhereThroughputStopsRising) {
  auto knee = find_knee(kOneMillisecondServer);
  ASSERT_TRUE(knee.has_value());
  EXPECT_EQ(knee->index, 1u);
  EXPECT_EQ(knee->level, 2);
  EXPECT_EQ(knee->per_second, 1005);
  EXPECT_EQ(knee->best_after_per_second, 934);
  EXPECT_EQ(knee->last_level, 100);
  EXPECT_DOUBLE_EQ(knee->last_mean_latency_ns, 107.3e6);
}

TEST(KneeTest, ACurveStillRisingAtTheEndHasNoKnee) {
  const std::vector<CurvePoint> rising = {{1, 1000, 1e6}, {2, 2000, 1e6}, {4, 3900, 1.05e6}};
  EXPECT_FALSE(find_knee(rising).has_value());
}

TEST(KneeTest, OneNoisyFlatStepDoesNotMoveTheKneeEarly) {
  // 2 -> 5 is flat by chance, but 10 still gains: the knee is where no later step gains.
  const std::vector<CurvePoint> noisy = {
      {1, 1000, 1e6}, {2, 2000, 1e6}, {5, 2020, 2.5e6}, {10, 4000, 2.5e6}, {25, 4050, 6e6}};
  auto knee = find_knee(noisy);
  ASSERT_TRUE(knee.has_value());
  EXPECT_EQ(knee->level, 10);
}

TEST(KneeTest, FlatThroughputWithoutGrowingLatencyIsNoKnee) {
  // Throughput flat because the offered load was flat; latency too: nothing saturated.
  const std::vector<CurvePoint> idle = {{1, 1000, 1e6}, {2, 1010, 1e6}, {3, 1005, 1.01e6}};
  EXPECT_FALSE(find_knee(idle).has_value());
}

TEST(KneeTest, FewerThanTwoPointsHaveNoKnee) {
  EXPECT_FALSE(find_knee(std::vector<CurvePoint>{}).has_value());
  EXPECT_FALSE(find_knee(std::vector<CurvePoint>{{1, 100, 1e6}}).has_value());
}

TEST(CollapseTest, ThroughputFallingAsLoadRisesNamesTheLastLevelThatHeld) {
  const std::vector<CurvePoint> thrashing = {
      {10, 5000, 2e6}, {50, 9000, 5e6}, {100, 8800, 11e6}, {200, 6000, 33e6}};
  auto collapse = find_collapse(thrashing);
  ASSERT_TRUE(collapse.has_value());
  EXPECT_EQ(collapse->held_level, 50);
  EXPECT_EQ(collapse->held_per_second, 9000);
  EXPECT_EQ(collapse->fell_level, 200);
  EXPECT_EQ(collapse->fell_per_second, 6000);
}

TEST(CollapseTest, NoiseBelowTenPercentIsNotACollapse) {
  EXPECT_FALSE(find_collapse(kOneMillisecondServer).has_value());
}

// A level that falls and a higher one that climbs back: a dip (one noisy level), not a
// collapse (a user's trial read "Collapse: ... to 610 req/s at 4 connections (-30.5%)" beside
// "Knee: none, still rising", from 877, 610, 967 req/s at 2, 4, 8).
TEST(CollapseTest, AFallAHigherLevelClimbsBackFromIsNoCollapse) {
  const std::vector<CurvePoint> dip = {{1, 500, 2e6}, {2, 877, 2e6}, {4, 610, 6e6}, {8, 967, 8e6}};
  EXPECT_FALSE(find_collapse(dip).has_value());
  // The same fall kept to the end is one.
  const std::vector<CurvePoint> kept = {{1, 500, 2e6}, {2, 877, 2e6}, {4, 610, 6e6}, {8, 700, 9e6}};
  auto collapse = find_collapse(kept);
  ASSERT_TRUE(collapse.has_value());
  EXPECT_EQ(collapse->fell_level, 4);
}

TEST(LittlesLawTest, ThroughputTimesMeanLatencyGivesTheConnectionCount) {
  // 932 req/s x 107.3 ms = 100.0 in flight: the 100 connections, within 1%.
  const double in_flight = littles_law_in_flight(932, 107.3e6);
  EXPECT_NEAR(in_flight, 100.0, 0.1);
  EXPECT_NEAR(littles_law_deviation_pct(in_flight, 100), 0.0, 0.1);
  EXPECT_DOUBLE_EQ(littles_law_deviation_pct(45, 50), -10.0);
  EXPECT_DOUBLE_EQ(littles_law_deviation_pct(5, 0), 0.0);
}

}  // namespace
}  // namespace hammer
