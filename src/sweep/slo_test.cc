// SPDX-License-Identifier: MIT
#include "sweep/slo.h"

#include <gtest/gtest.h>

#include "sweep/step.h"

namespace hammer {
namespace {

SloLimit latency_limit(std::string key, double percentile, int64_t limit_ns) {
  SloLimit limit;
  limit.key = std::move(key);
  limit.percentile = percentile;
  limit.limit_ns = limit_ns;
  return limit;
}

SloLimit errors_limit(double rate) {
  SloLimit limit;
  limit.key = "errors";
  limit.error_rate = rate;
  return limit;
}

// 100 responses: 1 ms each but the slowest, which took 100 ms; recorded into `histogram`.
void record_run(Histogram& histogram, RunResult& result) {
  for (int i = 0; i < 99; ++i) histogram.record(1'000'000);
  histogram.record(100'000'000);
  result.completed = 100;
  result.status_classes[1] = 100;
  result.elapsed_ns = 1'000'000'000;
}

TEST(SloTest, LatencyLimitsReadTheUncorrectedHistogramInClosedLoop) {
  Config config;
  RunResult result;
  record_run(result.uncorrected, result);
  const auto outcomes = evaluate_slos(
      {latency_limit("p50", 50, 2'000'000), latency_limit("p99.9", 99.9, 50'000'000),
       latency_limit("max", 100, 200'000'000)},
      config, result);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].pass);
  EXPECT_NEAR(outcomes[0].measured, 1e6, 1e3);
  EXPECT_FALSE(outcomes[1].pass);
  EXPECT_NEAR(outcomes[1].measured, 100e6, 1e5);
  EXPECT_TRUE(outcomes[2].pass);
  EXPECT_FALSE(slos_pass(outcomes));
}

// 98 answered in 1 ms and 2 timed out after `timeout_ns`: p99 and max are censored, p98 is not.
RunResult censored_run(int64_t timeout_ns, Config& config) {
  config.timeout_ns = timeout_ns;
  RunResult result;
  for (int i = 0; i < 98; ++i) result.uncorrected.record(1'000'000);
  result.completed = 98;
  result.status_classes[1] = 98;
  result.errors[static_cast<int>(ErrorKind::timeout)] = 2;
  result.elapsed_ns = 1'000'000'000;
  return result;
}

TEST(SloTest, ACensoredPercentileMissesALimitAtOrBelowTheTimeout) {
  Config config;
  const RunResult result = censored_run(2'000'000'000, config);
  const auto outcomes = evaluate_slos(
      {latency_limit("p99", 99, 2'000'000'000), latency_limit("p99", 99, 500'000'000),
       latency_limit("p98", 98, 2'000'000), latency_limit("max", 100, 2'000'000'000)},
      config, result);
  ASSERT_EQ(outcomes.size(), 4u);
  // The answered p99 is 1 ms and would have passed both: the true p99 is above 2 s.
  for (size_t k : {size_t{0}, size_t{1}, size_t{3}}) {
    EXPECT_FALSE(outcomes[k].pass) << k;
    EXPECT_TRUE(outcomes[k].censored) << k;
    EXPECT_FALSE(outcomes[k].unjudged) << k;
    EXPECT_EQ(outcomes[k].measured, 2e9) << k;
  }
  // p98 is rank 98 of 100: the slowest answer, a real figure that meets its limit.
  EXPECT_TRUE(outcomes[2].pass);
  EXPECT_FALSE(outcomes[2].censored);
  EXPECT_FALSE(slos_pass(outcomes));
}

TEST(SloTest, ACensoredPercentileWithALimitAboveTheTimeoutCannotBeJudgedAndIsNoPass) {
  Config config;
  const RunResult result = censored_run(2'000'000'000, config);
  const auto outcomes = evaluate_slos({latency_limit("p99", 99, 5'000'000'000)}, config, result);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].censored);
  EXPECT_TRUE(outcomes[0].unjudged);
  EXPECT_FALSE(outcomes[0].pass);
}

TEST(SloTest, LatencyLimitsReadTheCorrectedHistogramInOpenLoop) {
  Config config;
  config.rate = 100;
  RunResult result;
  record_run(result.corrected, result);
  result.uncorrected.record(1'000);  // fast by the other stopwatch: must not be read
  const auto outcomes = evaluate_slos({latency_limit("p99.9", 99.9, 10'000'000)}, config, result);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].pass);

  config.closed_loop_stopwatch = true;  // --closed-loop leads with the uncorrected figures
  EXPECT_TRUE(evaluate_slos({latency_limit("p99.9", 99.9, 10'000'000)}, config, result)[0].pass);
}

TEST(SloTest, AnyPercentileIsReadFromTheHistogram) {
  Config config;
  RunResult result;
  // 1,000 responses: 1 ms each but the 20 slowest, which took 50 ms (2% of them).
  for (int i = 0; i < 980; ++i) result.uncorrected.record(1'000'000);
  for (int i = 0; i < 20; ++i) result.uncorrected.record(50'000'000);
  result.completed = 1000;
  const auto outcomes = evaluate_slos(
      {latency_limit("p95", 95, 2'000'000), latency_limit("p97.5", 97.5, 2'000'000),
       latency_limit("p99.99", 99.99, 2'000'000)},
      config, result);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].pass);   // p95 is 1 ms
  EXPECT_NEAR(outcomes[0].measured, 1e6, 1e4);
  EXPECT_TRUE(outcomes[1].pass);   // p97.5 is still 1 ms: 98% are
  EXPECT_FALSE(outcomes[2].pass);  // p99.99 is 50 ms
  EXPECT_NEAR(outcomes[2].measured, 50e6, 1e6);
}

TEST(SloTest, ARunWithoutResponsesMeetsNoLatencyLimit) {
  Config config;
  RunResult result;
  result.errors[static_cast<int>(ErrorKind::timeout)] = 5;
  const auto outcomes =
      evaluate_slos({latency_limit("p99", 99, 60'000'000'000), errors_limit(1.0)}, config, result);
  EXPECT_FALSE(outcomes[0].has_measured);
  EXPECT_FALSE(outcomes[0].pass);
  EXPECT_TRUE(outcomes[1].pass);  // 100% errors is within a 100% limit
  EXPECT_DOUBLE_EQ(outcomes[1].measured, 1.0);
}

TEST(SloTest, ErrorRateCountsFailedRequestsAndNon2xxOverEveryRequestThatEnded) {
  RunResult result;
  result.completed = 95;
  result.status_classes[1] = 90;
  result.status_classes[4] = 5;  // 5xx answers count as errors
  result.errors[static_cast<int>(ErrorKind::timeout)] = 5;
  EXPECT_DOUBLE_EQ(error_rate(result), 10.0 / 100.0);
  Config config;
  EXPECT_TRUE(evaluate_slos({errors_limit(0.10)}, config, result)[0].pass);
  EXPECT_FALSE(evaluate_slos({errors_limit(0.09)}, config, result)[0].pass);
  EXPECT_DOUBLE_EQ(error_rate(RunResult{}), 1.0);
}

TEST(SloTest, NoLimitsPass) { EXPECT_TRUE(slos_pass({})); }

TEST(StepSummaryTest, AStepMissesWhenTheServerMadeRequestsLateOrLeftThemUnsent) {
  Config config;
  config.rate = 1000;
  config.threads = 2;
  RunResult result;
  record_run(result.corrected, result);
  result.scheduled = 1000;
  result.lag.dispatched = 1000;
  StepSummary step = summarize_step(config, 1000, result, {}, 0.1, 2);
  EXPECT_TRUE(step.meets());
  EXPECT_FALSE(step.generator_busy);
  EXPECT_TRUE(step.corrected);
  EXPECT_DOUBLE_EQ(step.per_second, 100);

  result.lag.behind_server = 50;  // 5%: at the bound, which it must stay under
  result.unsent = 11;             // above max(10, 1% of 1000)
  step = summarize_step(config, 1000, result, {}, 1.7, 2);
  EXPECT_EQ(step.misses, (std::vector<StepMiss>{StepMiss::server_late, StepMiss::unsent}));
  EXPECT_TRUE(step.generator_busy);  // 1.7 of 2 usable cores is over 80%
  EXPECT_DOUBLE_EQ(step.server_late_share(), 0.05);
}

TEST(StepSummaryTest, AClosedLoopStepHasNoDispatchBoundsButFailsWhenTheRunFailed) {
  Config config;
  config.connections = 4;
  config.threads = 4;
  RunResult result;
  StepSummary step = summarize_step(config, 4, result, {}, -1, 16);
  EXPECT_EQ(step.misses, (std::vector<StepMiss>{StepMiss::failed}));
  EXPECT_FALSE(step.has_latency);
  EXPECT_FALSE(step.generator_busy);  // not measured
  EXPECT_EQ(step.usable_cores, 4);
}

}  // namespace
}  // namespace hammer
