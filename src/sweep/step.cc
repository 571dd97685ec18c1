// SPDX-License-Identifier: MIT
#include "sweep/step.h"

#include <algorithm>
#include <cmath>

#include "run/host_verdicts.h"
#include "run/verdicts.h"
#include "sweep/knee.h"
#include "time/time_units.h"

namespace hammer {

double StepSummary::in_flight() const {
  if (!has_latency) return 0;
  return littles_law_in_flight(per_second, mean_ns) +
         littles_law_in_flight(hammer::per_second(tail.timed_out, elapsed_ns),
                               static_cast<double>(tail.timeout_ns));
}

bool StepSummary::server_stopped() const {
  return std::find(verdict_codes.begin(), verdict_codes.end(),
                   VerdictCode::server_stopped_answering) != verdict_codes.end();
}

StepSummary step_at_level(const Config& step_config, double level) {
  StepSummary step;
  step.level = level;
  step.connections = step_config.connections;
  step.threads = step_config.threads;
  step.rate = step_config.open_loop() ? step_config.rate : 0;
  step.corrected = step_config.corrected_stopwatch_leads();
  return step;
}

StepSummary summarize_step(const Config& step_config, double level, const RunResult& result,
                           const std::vector<Verdict>& verdicts, double cpu_cores,
                           int64_t online_cpus) {
  StepSummary step = step_at_level(step_config, level);

  step.elapsed_ns = result.elapsed_ns;
  step.scheduled = result.scheduled;
  step.completed = result.completed;
  step.unsent = result.unsent;
  step.errors = result.failed_requests();
  step.non_2xx_3xx = result.non_2xx_3xx();
  step.per_second = per_second(result.completed, result.elapsed_ns);

  const Histogram& histogram = step.corrected ? result.corrected : result.uncorrected;
  step.has_latency = histogram.total_count() > 0;
  step.tail = censored_tail(histogram, result.error_count(ErrorKind::timeout),
                            step_config.timeout_ns);
  if (step.has_latency) {
    step.p50_ns = step.tail.at(histogram, 50).value_ns;
    step.p90_ns = step.tail.at(histogram, 90).value_ns;
    step.p95_ns = step.tail.at(histogram, 95).value_ns;
    step.p99_ns = step.tail.at(histogram, 99).value_ns;
    step.p999_ns = step.tail.at(histogram, 99.9).value_ns;
    step.max_ns = step.tail.max(histogram).value_ns;
    // In whole ns, as the document keeps it, so a sweep read back (hammer report) works its
    // Little's law from the very figure the sweep did.
    step.mean_ns = std::round(histogram.mean());
  }

  step.dispatched = result.lag.dispatched;
  step.behind_schedule = result.lag.behind_schedule;
  step.behind_server = result.lag.behind_server;
  step.behind_generator = result.lag.behind_generator;

  step.cpu_cores = cpu_cores;
  step.usable_cores = std::max<int64_t>(1, std::min(step.threads, online_cpus));
  step.threads_below_cpus = step.threads < online_cpus;
  step.generator_busy =
      cpu_cores >= 0 && cpu_cores > kGeneratorBusyShare * static_cast<double>(step.usable_cores);

  // The stalls the host_stalled verdict weighs (run/host_verdicts.cc): 50 ms and more,
  // within the measured part, which follows the ramp and the warm-up.
  step.host_measured = result.host.measured();
  step.host_stall_ns = host_frozen_ns(step_config, result);
  step.run_p99_ns = {step.has_latency ? step.p99_ns : -1};

  step.slo = evaluate_slos(step_config.slos, step_config, result);
  step.slo_passed = slos_pass(step.slo);
  for (const Verdict& verdict : verdicts) step.verdict_codes.push_back(verdict_code(verdict));
  step.failed = run_failed(step_config, result);
  step.interrupted = result.interrupted;

  if (step.failed) step.misses.push_back(StepMiss::failed);
  if (!step.slo_passed) step.misses.push_back(StepMiss::slo);
  if (step_config.open_loop()) {
    if (step.server_late_share() >= kMaxServerLateShare) step.misses.push_back(StepMiss::server_late);
    if (step.unsent > unsent_allowance(step.scheduled)) step.misses.push_back(StepMiss::unsent);
  }
  // Lateness that was hammer's own (generator_saturated) is not held against the server: the
  // report warns about it instead, and only the server's share bounds a capacity.
  return step;
}

}  // namespace hammer
