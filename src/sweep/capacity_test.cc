// SPDX-License-Identifier: MIT
#include "sweep/capacity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

namespace hammer {
namespace {

// A model of a server with a fixed capacity: below it, latency is an M/D/1 queue's
// (service + waiting); at or above it the backlog grows and most requests leave late for want
// of a free connection. The step meets a p99 limit when the modelled p99 is under it.
StepSummary model_step(double rate, double capacity, double p99_limit_ms) {
  StepSummary step;
  step.level = rate;
  step.rate = rate;
  step.dispatched = 1000;
  const double load = rate / capacity;
  if (load >= 1) {
    step.behind_server = 600;
    step.misses.push_back(StepMiss::server_late);
    step.misses.push_back(StepMiss::slo);
    return step;
  }
  const double service_ms = 1000.0 / capacity;
  const double wait_ms = service_ms * load / (2 * (1 - load));
  const double p99_ms = service_ms + 4.6 * wait_ms;  // the exponential tail's 99th percentile
  step.p99_ns = static_cast<int64_t>(p99_ms * 1e6);
  if (p99_ms > p99_limit_ms) step.misses.push_back(StepMiss::slo);
  return step;
}

TEST(CapacityTest, FindsAThousandRequestServerWithinTenPercentInEightSteps) {
  std::vector<StepSummary> tried;
  const CapacitySearch search{200, 3000, 8, 0.05};
  const CapacityReading reading =
      search_capacity(search, [](double rate) { return model_step(rate, 1000, 30); }, tried);
  ASSERT_TRUE(reading.found);
  // The model's p99 reaches 30 ms at about 93% load (926 req/s).
  EXPECT_GT(reading.rate, 800);
  EXPECT_LT(reading.rate, 1000);
  EXPECT_GT(reading.first_failing, reading.rate);
  EXPECT_LE(reading.first_failing - reading.rate, 0.1 * reading.rate);
  EXPECT_LE(reading.steps, 8);
  EXPECT_EQ(tried.size(), static_cast<size_t>(reading.steps));
  EXPECT_EQ(tried.front().level, 200);  // the probe starts at the bottom and doubles
  EXPECT_EQ(tried[1].level, 400);
  EXPECT_EQ(tried[2].level, 800);
  EXPECT_EQ(tried[3].level, 1600);
  EXPECT_FALSE(reading.whole_range);
}

// A step Ctrl-C cut measured part of a run: kept among the tried, but it neither met nor
// missed, and the search stops (an interrupted search read its capacity off a partial step).
TEST(CapacityTest, AnInterruptedStepDecidesNothingAndEndsTheSearch) {
  std::vector<StepSummary> tried;
  const CapacityReading reading = search_capacity(
      {200, 3000, 8, 0.05},
      [](double rate) {
        StepSummary step = model_step(rate, 1000, 30);
        step.interrupted = rate == 800;
        return std::optional<StepSummary>(step);
      },
      tried);
  ASSERT_EQ(tried.size(), 3u);
  EXPECT_EQ(tried.back().level, 800);
  EXPECT_TRUE(reading.found);
  EXPECT_EQ(reading.rate, 400);
  EXPECT_EQ(reading.first_failing, 0);
  EXPECT_FALSE(reading.out_of_steps);
  // Fixed levels alike: the cut level is neither the highest met nor the lowest missed.
  tried[2].misses.push_back(StepMiss::slo);
  const CapacityReading fixed = capacity_from_steps(tried, 800);
  EXPECT_EQ(fixed.rate, 400);
  EXPECT_EQ(fixed.first_failing, 0);
}

TEST(CapacityTest, NeverRunsMoreThanMaxStepsAndNeverExceedsTheRange) {
  for (double capacity : {150.0, 333.0, 1000.0, 2900.0, 5000.0, 1e6}) {
    std::vector<StepSummary> tried;
    const CapacityReading reading = search_capacity(
        {200, 3000, 8, 0.01}, [&](double rate) { return model_step(rate, capacity, 30); },
        tried);
    EXPECT_LE(reading.steps, 8) << capacity;
    for (const StepSummary& step : tried) {
      EXPECT_GE(step.level, 200) << capacity;
      EXPECT_LE(step.level, 3000) << capacity;
    }
  }
}

TEST(CapacityTest, ATopOfRangeThatMeetsTheLimitsSaysSo) {
  std::vector<StepSummary> tried;
  const CapacityReading reading = search_capacity(
      {200, 3000, 8, 0.05}, [](double rate) { return model_step(rate, 1e6, 30); }, tried);
  EXPECT_TRUE(reading.found);
  EXPECT_TRUE(reading.whole_range);
  EXPECT_EQ(reading.rate, 3000);
  EXPECT_EQ(reading.first_failing, 0);
  EXPECT_EQ(tried.back().level, 3000);  // 200, 400, 800, 1600, then capped at 3000
  EXPECT_EQ(reading.steps, 5);
}

// --rate 1:100000 against a fast server: eight doublings reach 128 req/s, every one met. That
// is a lower bound of the capacity, and the reading must say so rather than pass 128 off as
// the capacity.
TEST(CapacityTest, StepsThatRunOutBeforeAnyRateMissedGiveALowerBoundOnly) {
  std::vector<StepSummary> tried;
  const CapacityReading reading = search_capacity(
      {1, 100000, 8, 0.05}, [](double rate) { return model_step(rate, 1e6, 30); }, tried);
  EXPECT_TRUE(reading.found);
  EXPECT_EQ(reading.rate, 128);
  EXPECT_EQ(reading.first_failing, 0);
  EXPECT_FALSE(reading.whole_range);
  EXPECT_TRUE(reading.out_of_steps);
  EXPECT_EQ(reading.steps, 8);

  // A bracket (a rate missed) or the top of the range met is a reading, not a lower bound.
  tried.clear();
  EXPECT_FALSE(search_capacity({200, 3000, 8, 0.05},
                               [](double rate) { return model_step(rate, 1000, 30); }, tried)
                   .out_of_steps);
  tried.clear();
  EXPECT_FALSE(search_capacity({200, 3000, 8, 0.05},
                               [](double rate) { return model_step(rate, 1e6, 30); }, tried)
                   .out_of_steps);
}

TEST(CapacityTest, ABottomOfRangeThatFailsFindsNothingInOneStep) {
  std::vector<StepSummary> tried;
  const CapacityReading reading = search_capacity(
      {200, 3000, 8, 0.05}, [](double rate) { return model_step(rate, 100, 30); }, tried);
  EXPECT_FALSE(reading.found);
  EXPECT_EQ(reading.first_failing, 200);
  EXPECT_EQ(reading.steps, 1);
}

TEST(CapacityTest, AMeasurementThatCannotRunStopsTheSearch) {
  std::vector<StepSummary> tried;
  int calls = 0;
  const CapacityReading reading = search_capacity(
      {200, 3000, 8, 0.05},
      [&](double rate) -> std::optional<StepSummary> {
        if (++calls == 3) return std::nullopt;
        return model_step(rate, 1000, 30);
      },
      tried);
  EXPECT_EQ(reading.steps, 2);
  EXPECT_EQ(tried.size(), 2u);
  EXPECT_EQ(reading.rate, 400);  // the best so far, reported as such
}

TEST(CapacityTest, FixedLevelsGiveTheHighestThatMetAndTheLowestAboveThatFailed) {
  std::vector<StepSummary> steps(4);
  for (size_t i = 0; i < steps.size(); ++i) steps[i].level = 1000.0 * static_cast<double>(i + 1);
  steps[2].misses.push_back(StepMiss::slo);
  steps[3].misses.push_back(StepMiss::slo);
  const CapacityReading reading = capacity_from_steps(steps, 4000);
  EXPECT_TRUE(reading.found);
  EXPECT_EQ(reading.rate, 2000);
  EXPECT_EQ(reading.first_failing, 3000);
  EXPECT_FALSE(reading.whole_range);
}

// --rate 1000,2000,3000,4000 --slo ... interrupted after 2000: both met, nothing missed, and
// the top of the range (4000) never ran. That is not "the top of the range met the SLOs".
TEST(CapacityTest, FixedLevelsCutShortNeverReachedTheTopOfTheRange) {
  std::vector<StepSummary> steps(2);
  for (size_t i = 0; i < steps.size(); ++i) steps[i].level = 1000.0 * static_cast<double>(i + 1);
  const CapacityReading cut = capacity_from_steps(steps, 4000);
  EXPECT_TRUE(cut.found);
  EXPECT_EQ(cut.rate, 2000);
  EXPECT_EQ(cut.first_failing, 0);
  EXPECT_FALSE(cut.whole_range);
  EXPECT_TRUE(capacity_from_steps(steps, 2000).whole_range);
}

}  // namespace
}  // namespace hammer
