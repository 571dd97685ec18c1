// SPDX-License-Identifier: MIT
// The timer_floor verdict: said when, and only when, coarse platform timers show in the
// dispatch lag of requests that had an idle connection waiting for them.
#include <gtest/gtest.h>

#include <variant>

#include "run/verdicts.h"

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;

Config open_loop_config() {
  Config config;
  config.rate = 1000;
  config.connections = 10;
  return config;
}

// 1000 requests answered, all on time except for the dispatch lag described.
RunResult run_with_idle_lag(int64_t granularity_ns, int64_t idle_dispatched, int64_t mean_ns) {
  RunResult result;
  result.elapsed_ns = 1000 * kMs;
  result.scheduled = 1000;
  result.sent = 1000;
  result.completed = 1000;
  result.lag.threshold_ns = kMs;
  result.lag.dispatched = 1000;
  result.lag.sum_ns = idle_dispatched * mean_ns;
  result.lag.max_ns = 2 * mean_ns;
  result.lag.idle_dispatched = idle_dispatched;
  result.lag.idle_sum_ns = idle_dispatched * mean_ns;
  result.lag.timer_granularity_ns = granularity_ns;
  for (int i = 0; i < 1000; ++i) result.uncorrected.record(200'000);
  return result;
}

const TimerFloorVerdict* timer_floor_of(const std::vector<Verdict>& verdicts) {
  for (const Verdict& verdict : verdicts) {
    if (const auto* timer = std::get_if<TimerFloorVerdict>(&verdict)) return timer;
  }
  return nullptr;
}

TEST(TimerFloorVerdictTest, MillisecondTimersWithMeasuredLagAreNamedWithTheirFigures) {
  const auto verdicts =
      compute_verdicts(open_loop_config(), run_with_idle_lag(kMs, 900, kMs / 2), 0);
  const TimerFloorVerdict* timer = timer_floor_of(verdicts);
  ASSERT_NE(timer, nullptr);
  EXPECT_EQ(timer->timer_granularity_ns, kMs);
  EXPECT_EQ(timer->mean_idle_lag_ns, kMs / 2);
  EXPECT_EQ(timer->idle_dispatched, 900);
  EXPECT_EQ(timer->max_lag_ns, kMs);
}

TEST(TimerFloorVerdictTest, NanosecondTimersNeverBlameTheTimersWhateverTheLag) {
  // Linux (epoll_pwait2): lag there is the CPU's, which generator_saturated speaks for.
  const auto verdicts = compute_verdicts(open_loop_config(), run_with_idle_lag(1, 900, kMs / 2), 0);
  EXPECT_EQ(timer_floor_of(verdicts), nullptr);
}

TEST(TimerFloorVerdictTest, CoarseTimersThatDidNotShowInTheLagAreNotMentioned) {
  // A worker that woke early enough (or spun) met its slots: nothing to say.
  const auto verdicts =
      compute_verdicts(open_loop_config(), run_with_idle_lag(kMs, 900, kMs / 20), 0);
  EXPECT_EQ(timer_floor_of(verdicts), nullptr);
}

TEST(TimerFloorVerdictTest, ClosedLoopOrTooFewSamplesSayNothing) {
  Config closed = open_loop_config();
  closed.rate = 0;
  EXPECT_EQ(timer_floor_of(compute_verdicts(closed, run_with_idle_lag(kMs, 900, kMs), 0)), nullptr);
  EXPECT_EQ(timer_floor_of(compute_verdicts(open_loop_config(), run_with_idle_lag(kMs, 9, kMs), 0)),
            nullptr);
}

}  // namespace
}  // namespace hammer
