// SPDX-License-Identifier: MIT
// A sweep's document read back must render what the sweep rendered: the text report letter for
// letter and the JSON document byte for byte, for sweeps that carry every kind of member (SLO
// outcomes censored by timeouts, dispatch lag, --control steps, a noisy repeated level, a busy
// generator, a step that could not start, a capacity search).
#include <gtest/gtest.h>

#include <string>

#include "document/sweep_document.h"
#include "json/json_value.h"
#include "report/sweep_report.h"

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;

SloLimit limit_of(const std::string& key, int64_t limit_ns, double error_rate = 0) {
  SloLimit limit;
  limit.key = key;
  limit.percentile = key == "max" ? 100 : key == "errors" ? 0 : std::stod(key.substr(1));
  limit.limit_ns = limit_ns;
  limit.error_rate = error_rate;
  return limit;
}

// An open-loop step at `rate` on `connections` and `threads`: its coordinates alone.
StepSummary open_loop_step(double rate, int64_t connections, int64_t threads) {
  StepSummary step;
  step.level = rate;
  step.connections = connections;
  step.threads = threads;
  step.rate = rate;
  step.corrected = true;
  return step;
}

StepSummary rate_step(double rate, double per_second, int64_t timed_out) {
  StepSummary step = open_loop_step(rate, 4, 2);
  step.elapsed_ns = 1'000 * kMs;
  step.scheduled = static_cast<int64_t>(rate);
  step.completed = static_cast<int64_t>(per_second);
  step.unsent = 3;
  step.errors = timed_out + 2;
  step.non_2xx_3xx = 5;
  step.per_second = per_second;
  step.has_latency = true;
  step.tail = {step.completed, timed_out, 200 * kMs};
  step.p50_ns = 1'234'567;
  step.p90_ns = 2'345'678;
  step.p95_ns = 3'456'789;
  step.p99_ns = step.tail.censors(99) ? 200 * kMs : 9'876'543;
  step.p999_ns = step.tail.censors(99.9) ? 200 * kMs : 12'000'000;
  step.max_ns = step.tail.any() ? 200 * kMs : 15'000'001;
  step.mean_ns = 1'500'123;  // whole ns, as summarize_step() keeps it
  step.dispatched = step.scheduled - step.unsent;
  step.behind_schedule = 40;
  step.behind_server = 30;
  step.behind_generator = 10;
  step.cpu_cores = 1.73;
  step.usable_cores = 2;
  step.threads_below_cpus = true;
  step.generator_busy = true;
  step.host_measured = true;
  step.host_stall_ns = 61 * kMs;
  step.run_p99_ns = {step.p99_ns};
  step.verdict_codes = {VerdictCode::server_behind, VerdictCode::generator_late};
  return step;
}

void judge(const Config& config, StepSummary& step) {
  for (const SloLimit& limit : config.slos) {
    SloOutcome outcome;
    outcome.limit = limit;
    outcome.has_measured = true;
    if (limit.is_error_rate()) {
      outcome.measured = 0.0123;
      outcome.pass = outcome.measured <= limit.error_rate;
    } else {
      outcome.censored = step.tail.censors(limit.percentile);
      outcome.measured = static_cast<double>(outcome.censored ? 200 * kMs : step.p99_ns);
      outcome.unjudged = outcome.censored && limit.limit_ns > 200 * kMs;
      outcome.pass = !outcome.censored && outcome.measured <= static_cast<double>(limit.limit_ns);
    }
    step.slo.push_back(outcome);
  }
  step.slo_passed = slos_pass(step.slo);
  if (!step.slo_passed) step.misses.push_back(StepMiss::slo);
}

// A rate sweep with --slo and --control: every member a step can carry.
struct Sweep {
  Config config;
  SweepResult result;
};

// A sweep of `connections` on `threads` against `url`, nothing run yet.
Sweep sweep_of(const char* url, int64_t connections, int64_t threads) {
  Sweep sweep;
  sweep.config.url = url;
  sweep.config.connections = connections;
  sweep.config.threads = threads;
  return sweep;
}

Sweep rate_sweep() {
  Sweep sweep = sweep_of("http://127.0.0.1:8082/work", 4, 2);
  Config& config = sweep.config;
  config.rate = 4'000;
  config.duration_ns = 1'000 * kMs;
  config.warmup_ns = 250 * kMs;
  config.timeout_ns = 200 * kMs;
  config.sweep.rates = {1'000, 2'000.5, 4'000};
  config.sweep.control_url = "http://127.0.0.1:8082/noop";
  config.slos = {limit_of("p99", 50 * kMs), limit_of("errors", 0, 0.05)};
  SweepResult& result = sweep.result;
  result.kind = SweepKind::rate;
  result.steps = {rate_step(1'000, 990, 0), rate_step(2'000.5, 1'950.25, 30),
                  rate_step(4'000, 2'100, 0)};
  result.steps[1].runs = 3;
  result.steps[1].noisy = true;
  result.steps[1].run_p99_ns = {200 * kMs, -1, 9'000'000};
  result.steps[1].generator_busy = false;
  result.steps[2].host_measured = false;
  result.steps[2].cpu_cores = -1;
  result.steps[2].generator_busy = false;
  result.steps[2].misses.push_back(StepMiss::server_late);
  for (StepSummary& step : result.steps) judge(config, step);
  StepSummary control = rate_step(4, 9'000, 0);
  control.level = 4;
  control.rate = 0;
  control.corrected = false;
  control.dispatched = 0;
  control.control_per_second = -1;
  result.control_steps = {control};
  result.steps[0].control_per_second = 9'000;
  result.collapse = CollapseReading{1, 2, 2'000.5, 1'950.25, 4'000, 2'100};
  result.capacity = CapacityReading{true, 1'000, 2'000.5, false, false, 3};
  result.knee_noise = ReadingNoise::rests_on_noisy;
  result.capacity_noise = ReadingNoise::unreadable;
  return sweep;
}

// A capacity search whose last step could not start (the server died).
Sweep stopped_search() {
  Sweep sweep = sweep_of("http://127.0.0.1:8082/", 8, 1);
  Config& config = sweep.config;
  config.threads_given = true;
  config.rate = 800;
  config.duration_ns = 500 * kMs;
  config.sweep.search_low = 100;
  config.sweep.search_high = 800;
  config.slos = {limit_of("p99.9", 30 * kMs)};
  SweepResult& result = sweep.result;
  result.kind = SweepKind::rate;
  result.search = true;
  result.steps = {rate_step(100, 100, 0)};
  judge(config, result.steps[0]);
  StepSummary dead = open_loop_step(450, 8, 1);
  dead.failed = true;
  dead.misses = {StepMiss::failed};
  dead.start_error = "cannot connect to 127.0.0.1:8082: Connection refused";
  dead.run_p99_ns = {-1};
  result.steps.push_back(dead);
  result.capacity = CapacityReading{true, 100, 0, false, false, 2};
  result.stopped = dead.start_error;
  return sweep;
}

// A closed-loop connection sweep: Little's law, a knee, an interrupted last step.
Sweep connection_sweep() {
  Sweep sweep = sweep_of("http://127.0.0.1:8082/", 4, 2);
  Config& config = sweep.config;
  config.cpus_available = 2;
  config.duration_ns = 1'000 * kMs;
  config.sweep.connections = {1, 2, 4};
  SweepResult& result = sweep.result;
  const double per_second[] = {10'000, 19'000, 19'100};
  for (int i = 0; i < 3; ++i) {
    StepSummary step = rate_step(0, per_second[i], 0);
    step.level = 1 << i;
    step.connections = 1 << i;
    step.rate = 0;
    step.corrected = false;
    step.scheduled = 0;
    step.unsent = 0;
    step.dispatched = step.behind_schedule = step.behind_server = step.behind_generator = 0;
    step.mean_ns = 100'001.0 * (i + 1);
    result.steps.push_back(step);
  }
  result.steps[2].interrupted = true;
  result.steps[2].elapsed_ns = 420 * kMs;
  result.interrupted = true;
  result.knee = KneeReading{1, 2, 19'000, 19'100, 200'002, 4, 300'003};
  return sweep;
}

void expect_round_trip(const Sweep& sweep) {
  const std::string json = render_sweep_json(sweep.config, sweep.result);
  auto parsed = parse_json(json);
  ASSERT_TRUE(parsed) << parsed.error();
  auto document = read_sweep_document(*parsed);
  ASSERT_TRUE(document) << document.error();
  EXPECT_EQ(render_sweep_text(document->config, document->result),
            render_sweep_text(sweep.config, sweep.result));
  EXPECT_EQ(render_sweep_json(document->config, document->result), json);
}

TEST(SweepDocumentTest, ARateSweepWithSloControlNoiseAndTimeoutsReadsBackWhole) {
  expect_round_trip(rate_sweep());
}

TEST(SweepDocumentTest, AStoppedCapacitySearchReadsBackWhole) { expect_round_trip(stopped_search()); }

TEST(SweepDocumentTest, AnInterruptedConnectionSweepReadsBackWhole) {
  expect_round_trip(connection_sweep());
}

// The fixture's text must carry what the reader has to restore, or the round trip proves little.
TEST(SweepDocumentTest, TheFixturesPrintWhatTheReaderMustRestore) {
  const Sweep sweep = rate_sweep();
  const std::string text = render_sweep_text(sweep.config, sweep.result);
  for (const char* expected : {"> 200.00ms", "Control @ http://127.0.0.1:8082/noop", "~",
                               "3 runs", "or add --threads", "Collapse:", "Capacity:",
                               "missed: p99 > 200.00ms (timed out) > 50.00ms"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  }
  const Sweep search = stopped_search();
  EXPECT_NE(render_sweep_text(search.config, search.result).find("failed: cannot connect"),
            std::string::npos);
}

TEST(SweepDocumentTest, ABadMemberIsNamed) {
  const Sweep sweep = rate_sweep();
  std::string json = render_sweep_json(sweep.config, sweep.result);
  const std::string misses = "\"misses\": []";
  json.replace(json.find(misses), misses.size(), "\"misses\": [\"tired\"]");
  auto parsed = parse_json(json);
  ASSERT_TRUE(parsed) << parsed.error();
  auto document = read_sweep_document(*parsed);
  ASSERT_FALSE(document);
  EXPECT_EQ(document.error(),
            "sweep.steps[0].misses[0]: expected one of failed, slo, server_late, unsent");
}

TEST(SweepDocumentTest, ASingleRunsDocumentIsNotASweep) {
  auto parsed = parse_json(R"({"hammer": {"version": "x", "schema": 1}, "config": {}})");
  ASSERT_TRUE(parsed);
  auto document = read_sweep_document(*parsed);
  ASSERT_FALSE(document);
  EXPECT_EQ(document.error(), "a single run's document, not a sweep");
}

}  // namespace
}  // namespace hammer
