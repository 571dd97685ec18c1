// SPDX-License-Identifier: MIT
#include "sweep/noise.h"

#include <gtest/gtest.h>

#include <vector>

#include "sweep/sweep.h"

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;

// One run of a level, 1 s measured, with its p99 and the host stalls (50 ms and more) the
// meter saw in it.
StepSummary run_of(double level, int64_t p99_ns, int64_t host_stall_ns = 0) {
  StepSummary run;
  run.level = level;
  run.connections = static_cast<int64_t>(level);
  run.elapsed_ns = 1'000 * kMs;
  run.completed = 1000;
  run.per_second = 1000;
  run.has_latency = true;
  run.p99_ns = p99_ns;
  run.host_measured = true;
  run.host_stall_ns = host_stall_ns;
  run.run_p99_ns = {p99_ns};
  return run;
}

TEST(NoiseTest, AHostStalledVerdictOrStallsOverOnePercentDisturbARun) {
  EXPECT_FALSE(host_disturbed(run_of(1, 5 * kMs)));
  // 10 ms of a 1 s run is exactly 1%: not over it.
  EXPECT_FALSE(host_disturbed(run_of(1, 5 * kMs, 10 * kMs)));
  EXPECT_TRUE(host_disturbed(run_of(1, 5 * kMs, 60 * kMs)));
  StepSummary stalled = run_of(1, 5 * kMs);
  stalled.verdict_codes.push_back(VerdictCode::host_stalled);
  EXPECT_TRUE(host_disturbed(stalled));
}

TEST(NoiseTest, P99ReproducesWithinOneAndAHalfTimesOrAMillisecond) {
  EXPECT_TRUE(p99_reproduces(run_of(1, 100 * kMs), run_of(1, 150 * kMs)));
  EXPECT_FALSE(p99_reproduces(run_of(1, 100 * kMs), run_of(1, 151 * kMs)));
  EXPECT_FALSE(p99_reproduces(run_of(1, 185 * kMs), run_of(1, 1492 * kMs)));
  // Sub-millisecond tails: 0.2 ms against 0.9 ms is 4.5x, but 0.7 ms apart.
  EXPECT_TRUE(p99_reproduces(run_of(1, kMs / 5), run_of(1, 9 * kMs / 10)));
  StepSummary silent = run_of(1, 0);
  silent.has_latency = false;
  EXPECT_FALSE(p99_reproduces(silent, run_of(1, kMs)));
  EXPECT_TRUE(p99_reproduces(silent, silent));
}

TEST(NoiseTest, AnUndisturbedFirstRunSettlesItsLevelAlone) {
  const std::vector<StepSummary> runs = {run_of(4, 20 * kMs)};
  EXPECT_EQ(judge_level(runs), LevelState::settled);
  const StepSummary level = settle_level(runs);
  EXPECT_EQ(level.runs, 1);
  EXPECT_FALSE(level.noisy);
}

TEST(NoiseTest, ADisturbedFirstRunIsRepeatedAndAnUndisturbedRepeatThatAgreesSettlesIt) {
  std::vector<StepSummary> runs = {run_of(4, 20 * kMs, 300 * kMs)};
  EXPECT_EQ(judge_level(runs), LevelState::repeat);
  runs.push_back(run_of(4, 22 * kMs));
  EXPECT_EQ(judge_level(runs), LevelState::settled);
  const StepSummary level = settle_level(runs);
  EXPECT_EQ(level.runs, 2);
  EXPECT_FALSE(level.noisy);
  EXPECT_EQ(level.host_stall_ns, 0);  // the quiet run's figures
  EXPECT_EQ(level.p99_ns, 22 * kMs);
  EXPECT_EQ(level.run_p99_ns, (std::vector<int64_t>{20 * kMs, 22 * kMs}));
}

TEST(NoiseTest, APeakThatDoesNotReproduceAsksForTheSecondRepeat) {
  // The freeze made the first p99; the quiet repeat does not give it back, the third does
  // give back the second's.
  std::vector<StepSummary> runs = {run_of(4, 320 * kMs, 300 * kMs), run_of(4, 20 * kMs)};
  EXPECT_EQ(judge_level(runs), LevelState::repeat);
  runs.push_back(run_of(4, 25 * kMs));
  EXPECT_EQ(judge_level(runs), LevelState::settled);
  const StepSummary level = settle_level(runs);
  EXPECT_EQ(level.runs, 3);
  EXPECT_FALSE(level.noisy);
  EXPECT_EQ(level.p99_ns, 25 * kMs);  // equally quiet: the higher p99, the conservative one
}

TEST(NoiseTest, TwoDisturbedRunsThatAgreeDoNotSettleALevel) {
  std::vector<StepSummary> runs = {run_of(4, 300 * kMs, 250 * kMs),
                                   run_of(4, 310 * kMs, 260 * kMs)};
  EXPECT_EQ(judge_level(runs), LevelState::repeat);
}

TEST(NoiseTest, ALevelUnsettledAfterTwoRepeatsIsNoisyAndReportsItsQuietestRun) {
  const std::vector<StepSummary> runs = {run_of(4, 320 * kMs, 300 * kMs),
                                         run_of(4, 90 * kMs, 120 * kMs),
                                         run_of(4, 20 * kMs, 0)};
  ASSERT_EQ(runs.size(), static_cast<size_t>(1 + kMaxRepeats));
  EXPECT_EQ(judge_level(runs), LevelState::noisy);
  EXPECT_EQ(reported_run(runs), 2u);
  const StepSummary level = settle_level(runs);
  EXPECT_TRUE(level.noisy);
  EXPECT_EQ(level.runs, 3);
  EXPECT_EQ(level.p99_ns, 20 * kMs);
}

TEST(NoiseTest, RepeatsCutShortLeaveAnUnsettledLevelNoisy) {
  const std::vector<StepSummary> runs = {run_of(4, 320 * kMs, 300 * kMs)};
  EXPECT_TRUE(settle_level(runs, /*unfinished=*/true).noisy);
  EXPECT_FALSE(settle_level(std::vector<StepSummary>{run_of(4, 20 * kMs)}, true).noisy);
}

TEST(NoiseTest, AReadingIsUnreadableWhenALevelThatPlacesItIsNoisy) {
  std::vector<StepSummary> steps = {run_of(1, kMs), run_of(2, kMs), run_of(4, kMs),
                                    run_of(8, kMs)};
  const std::vector<double> deciding = {2, 4};
  EXPECT_EQ(reading_noise(steps, deciding), ReadingNoise::clean);
  steps[3].noisy = true;
  EXPECT_EQ(reading_noise(steps, deciding), ReadingNoise::rests_on_noisy);
  steps[1].noisy = true;
  EXPECT_EQ(reading_noise(steps, deciding), ReadingNoise::unreadable);
}

TEST(NoiseTest, TheKneeIsPlacedByItsLevelAndTheNextOne) {
  const std::vector<StepSummary> steps = {run_of(8, kMs), run_of(1, kMs), run_of(4, kMs),
                                          run_of(2, kMs)};
  KneeReading knee;
  knee.level = 2;
  EXPECT_EQ(knee_levels(steps, knee), (std::vector<double>{2, 4}));
  knee.level = 8;
  EXPECT_EQ(knee_levels(steps, knee), (std::vector<double>{8}));
}

TEST(NoiseTest, TheCapacityIsPlacedByTheLastLevelThatMetAndTheFirstThatMissed) {
  const std::vector<StepSummary> steps = {run_of(100, kMs), run_of(200, kMs), run_of(400, kMs)};
  CapacityReading capacity;
  capacity.found = true;
  capacity.rate = 200;
  capacity.first_failing = 400;
  EXPECT_EQ(capacity_levels(steps, capacity), (std::vector<double>{200, 400}));
  CapacityReading none;
  EXPECT_EQ(capacity_levels(steps, none), (std::vector<double>{100}));
}

TEST(NoiseTest, ReadCurveMarksTheCollapseANoisyLevelMadeUnreadable) {
  // Throughput falls at 4 connections, the level a freeze left noisy, and stays down.
  std::vector<StepSummary> steps = {run_of(1, kMs), run_of(2, kMs), run_of(4, kMs),
                                    run_of(8, kMs)};
  const double per_second[] = {1000, 2000, 1200, 1100};
  const double mean_ns[] = {1e6, 1e6, 3.3e6, 3.8e6};
  for (size_t i = 0; i < steps.size(); ++i) {
    steps[i].per_second = per_second[i];
    steps[i].mean_ns = mean_ns[i];
  }
  steps[2].noisy = true;
  Config config;
  config.sweep.connections = {1, 2, 4, 8};
  SweepResult result;
  result.steps = steps;
  read_curve(config, result);
  ASSERT_TRUE(result.collapse);
  EXPECT_EQ(result.collapse->fell_level, 4);
  EXPECT_EQ(result.collapse_noise, ReadingNoise::unreadable);
  // Quiet, the same curve is read without a word about noise.
  result.steps[2].noisy = false;
  read_curve(config, result);
  EXPECT_EQ(result.collapse_noise, ReadingNoise::clean);
  EXPECT_EQ(result.knee_noise, ReadingNoise::clean);
}

TEST(NoiseTest, TheMostTimeASweepCanTakeCountsEveryRepeatAndTheWarmUp) {
  Config config;
  config.sweep.connections = {1, 2, 4, 8};
  config.duration_ns = 5'000 * kMs;
  config.warmup_ns = 1'000 * kMs;
  EXPECT_EQ(sweep_max_runs(config), 12);
  EXPECT_EQ(sweep_max_duration_ns(config), 72'000 * kMs);
  config.sweep.control_url = "http://127.0.0.1:1/noop";
  EXPECT_EQ(sweep_max_runs(config), 16);  // the control steps are run once each
  Config search;
  search.sweep.search_low = 100;
  search.sweep.search_high = 1000;
  search.duration_ns = 2'000 * kMs;
  EXPECT_EQ(sweep_max_runs(search), CapacitySearch{}.max_steps * 3);
  EXPECT_EQ(sweep_max_duration_ns(search), CapacitySearch{}.max_steps * 3 * 2'000 * kMs);
}


TEST(NoiseTest, MeasureLevelRepeatsAtMostTwiceAndStopsOnceSettled) {
  int repeats = 0;
  // A host that stalls every run: two repeats, then noisy.
  StepSummary level = measure_level(run_of(2, 300 * kMs, 200 * kMs), [&] {
    ++repeats;
    return std::optional<StepSummary>(run_of(2, 300 * kMs, 200 * kMs));
  });
  EXPECT_EQ(repeats, kMaxRepeats);
  EXPECT_EQ(level.runs, 3);
  EXPECT_TRUE(level.noisy);
  // A quiet first run is never repeated.
  repeats = 0;
  level = measure_level(run_of(2, 20 * kMs), [&] {
    ++repeats;
    return std::optional<StepSummary>(run_of(2, 20 * kMs));
  });
  EXPECT_EQ(repeats, 0);
  EXPECT_EQ(level.runs, 1);
  // A stalled run whose p99 the first quiet repeat gives back: one repeat.
  repeats = 0;
  level = measure_level(run_of(2, 20 * kMs, 300 * kMs), [&] {
    ++repeats;
    return std::optional<StepSummary>(run_of(2, 21 * kMs));
  });
  EXPECT_EQ(repeats, 1);
  EXPECT_EQ(level.runs, 2);
  EXPECT_FALSE(level.noisy);
}

TEST(NoiseTest, MeasureLevelCutShortKeepsItsWholeRunsAndACutFirstRunIsNotNoisy) {
  int repeats = 0;
  StepSummary level = measure_level(run_of(2, 300 * kMs, 200 * kMs), [&] {
    ++repeats;
    return std::optional<StepSummary>();  // Ctrl-C, or the server went away
  });
  EXPECT_EQ(repeats, 1);
  EXPECT_EQ(level.runs, 1);
  EXPECT_TRUE(level.noisy);
  StepSummary cut = run_of(2, 300 * kMs, 200 * kMs);
  cut.interrupted = true;
  repeats = 0;
  level = measure_level(cut, [&] {
    ++repeats;
    return std::optional<StepSummary>(run_of(2, 20 * kMs));
  });
  EXPECT_EQ(repeats, 0);
  EXPECT_FALSE(level.noisy);
  EXPECT_TRUE(level.interrupted);
}

}  // namespace
}  // namespace hammer
