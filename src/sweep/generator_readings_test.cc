// SPDX-License-Identifier: MIT
#include "sweep/generator_readings.h"

#include <gtest/gtest.h>

#include <vector>

namespace hammer {
namespace {

StepSummary step_of(double level, double per_second) {
  StepSummary step;
  step.level = level;
  step.connections = static_cast<int64_t>(level);
  step.per_second = per_second;
  step.usable_cores = 1;
  return step;
}

SweepResult sweep_of(std::vector<StepSummary> steps, std::vector<StepSummary> control = {}) {
  SweepResult result;
  result.steps = std::move(steps);
  result.control_steps = std::move(control);
  return result;
}

TEST(GeneratorReadingsTest, NoControlStepsOrNothingAnsweredGivesNoControlReading) {
  EXPECT_FALSE(read_control(sweep_of({step_of(1, 100)})));
  EXPECT_FALSE(read_control(sweep_of({step_of(1, 0)}, {step_of(1, 500)})));
}

TEST(GeneratorReadingsTest, TheControlRatioIsTheBestControlOverTheBestStep) {
  const auto reading = read_control(
      sweep_of({step_of(1, 100), step_of(2, 200)}, {step_of(1, 300), step_of(2, 900)}));
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->best_control, 1u);
  EXPECT_DOUBLE_EQ(reading->control_best, 900);
  EXPECT_DOUBLE_EQ(reading->sweep_best, 200);
  EXPECT_DOUBLE_EQ(reading->ratio, 4.5);
  // Every level met and no knee: nothing reached a plateau.
  EXPECT_EQ(reading->verdict, ControlVerdict::room_to_spare);
}

TEST(GeneratorReadingsTest, HeadroomBelowTheThresholdDoesNotRuleTheGeneratorOut) {
  const double just_under = 100 * kMinControlHeadroom - 1;
  auto reading = read_control(sweep_of({step_of(1, 100)}, {step_of(1, just_under)}));
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->verdict, ControlVerdict::too_little_headroom);
  reading = read_control(sweep_of({step_of(1, 100)}, {step_of(1, 100 * kMinControlHeadroom)}));
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->verdict, ControlVerdict::room_to_spare);
}

TEST(GeneratorReadingsTest, WithHeadroomAMissedLevelOrAKneeIsTheServersPlateau) {
  StepSummary missed = step_of(2, 110);
  missed.misses.push_back(StepMiss::slo);
  auto reading = read_control(sweep_of({step_of(1, 100), missed}, {step_of(1, 1000)}));
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->verdict, ControlVerdict::plateau_is_servers);

  SweepResult kneed = sweep_of({step_of(1, 100), step_of(2, 110)}, {step_of(1, 1000)});
  kneed.knee = KneeReading{};
  reading = read_control(kneed);
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->verdict, ControlVerdict::plateau_is_servers);
}

TEST(GeneratorReadingsTest, TheBusiestStepIsTheLargestShareOfItsUsableCores) {
  StepSummary one_core = step_of(1, 100);
  one_core.cpu_cores = 0.6;  // 60% of one core
  StepSummary two_cores = step_of(2, 200);
  two_cores.usable_cores = 2;
  two_cores.cpu_cores = 1.0;  // more CPU, but 50% of two
  StepSummary unmeasured = step_of(4, 300);
  const GeneratorReading reading = read_generator(sweep_of({one_core, two_cores, unmeasured}));
  ASSERT_TRUE(reading.busiest);
  EXPECT_EQ(*reading.busiest, 0u);
  EXPECT_TRUE(reading.busy.empty());
  EXPECT_FALSE(read_generator(sweep_of({unmeasured})).busiest);
}

TEST(GeneratorReadingsTest, BusyAndLateLevelsAreListedInTheOrderRunWithTheirCounts) {
  StepSummary busy = step_of(8, 100);
  busy.cpu_cores = 0.9;
  busy.generator_busy = true;
  StepSummary saturated = step_of(16, 100);
  saturated.verdict_codes = {VerdictCode::generator_saturated};
  saturated.behind_generator = 40;
  saturated.threads_below_cpus = true;
  StepSummary late = step_of(2, 100);
  late.verdict_codes = {VerdictCode::generator_late};
  late.behind_generator = 3;
  StepSummary saturated_too = step_of(4, 100);
  saturated_too.verdict_codes = {VerdictCode::generator_saturated};
  saturated_too.behind_generator = 2;
  const GeneratorReading reading =
      read_generator(sweep_of({busy, saturated, late, saturated_too}));
  EXPECT_EQ(reading.busy, std::vector<size_t>{0});
  EXPECT_EQ(reading.saturated.levels, (std::vector<double>{16, 4}));
  EXPECT_EQ(reading.saturated.requests, 42);
  EXPECT_TRUE(reading.saturated.threads_can_grow);
  EXPECT_EQ(reading.late.levels, std::vector<double>{2});
  EXPECT_EQ(reading.late.requests, 3);
  EXPECT_FALSE(reading.late.threads_can_grow);
}

}  // namespace
}  // namespace hammer
