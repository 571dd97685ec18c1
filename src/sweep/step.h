// SPDX-License-Identifier: MIT
#pragma once
// StepSummary: the figures of one sweep step, kept instead of the step's RunResult (whose two
// histograms are 442 KB) so a sweep of many steps stays small; and whether the step met what
// a capacity search asks of it.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "run/result.h"
#include "run/verdicts.h"
#include "stats/censored_tail.h"
#include "sweep/slo.h"

namespace hammer {

/// A step counts as sustained only if fewer than this share of its requests left late for want
/// of a free connection (dispatch lag blamed on the server)...
inline constexpr double kMaxServerLateShare = 0.05;
/// ...and at most unsent_allowance() (run/verdicts.h) of its schedule was never sent.
/// Generator CPU above this share of its usable cores (threads, at most the CPUs online)
/// warns that the generator may have been the limit.
inline constexpr double kGeneratorBusyShare = 0.80;

/// Why a step does not count as sustained: the run failed, an --slo limit was missed, too many
/// requests were late because every connection was busy with the server, or too many were
/// never sent. kStepMissNames are the JSON report's names for them.
enum class StepMiss : uint8_t { failed, slo, server_late, unsent };
inline constexpr std::array<std::string_view, 4> kStepMissNames = {"failed", "slo", "server_late",
                                                                   "unsent"};
inline std::string_view step_miss_name(StepMiss miss) {
  return kStepMissNames[static_cast<size_t>(miss)];
}

struct StepSummary {
  double level = 0;          // connections, or req/s for rate sweeps
  int64_t connections = 0;
  int64_t threads = 0;
  double rate = 0;           // 0 in closed loop
  bool corrected = false;    // latency figures from the intended send time (open loop)

  int64_t elapsed_ns = 0;
  int64_t scheduled = 0;
  int64_t completed = 0;
  int64_t unsent = 0;
  int64_t errors = 0;        // failed requests: connect, read, write, timeout, parse
  int64_t non_2xx_3xx = 0;
  double per_second = 0;     // completed / elapsed

  bool has_latency = false;  // false when no response arrived
  /// The step's timeouts against the lead histogram: a percentile it censors() (and max, when
  /// any() timed out) below holds the timeout, a bound (stats/censored_tail.h).
  CensoredTail tail;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t p95_ns = 0;
  int64_t p99_ns = 0;
  int64_t p999_ns = 0;
  int64_t max_ns = 0;
  double mean_ns = 0;         // of the answered requests

  int64_t dispatched = 0;    // open loop: requests with a dispatch-lag sample
  int64_t behind_schedule = 0;
  int64_t behind_server = 0;
  int64_t behind_generator = 0;

  double cpu_cores = -1;     // generator CPU (user + sys) / step wall time; -1 unmeasured
  int64_t usable_cores = 0;  // min(threads, CPUs online)
  bool threads_below_cpus = false;  // more --threads would have cores to use
  bool generator_busy = false;

  /// The hiccup meter over the step's run: the stalls of VerdictThresholds::kHostStallVerdictNs
  /// and more that reached into its measured part, summed (the host_stalled verdict's stalls).
  bool host_measured = false;
  int64_t host_stall_ns = 0;

  /// The level over its runs (sweep/noise.h): how many were made, each one's p99 in the order
  /// run (-1 without latency), and whether they left it noisy. The figures above are one run's.
  int runs = 1;
  std::vector<int64_t> run_p99_ns;
  bool noisy = false;

  std::vector<SloOutcome> slo;
  bool slo_passed = true;
  std::vector<VerdictCode> verdict_codes;  // compute_verdicts() codes for the step
  bool failed = false;       // run_failed(): no response, or more failures than answers
  bool interrupted = false;
  /// The step could not start (its target stopped answering connects): why, in one line. Such
  /// a step has no figures, is failed, and ends the sweep.
  std::string start_error;

  /// The server stopped answering during the step (its server_stopped_answering verdict):
  /// its figures stop where the server did.
  bool server_stopped() const;
  /// The step measured its level whole: it started, no Ctrl-C cut it, it did not fail, and
  /// the server kept answering. Only such steps are points of the curve the knee and the
  /// collapse are read from (curve_of); the others keep their rows, marked.
  bool on_curve() const {
    return start_error.empty() && !interrupted && !failed && !server_stopped();
  }

  /// Why the step does not count as sustained under the limits; empty when it does.
  /// (hammer's own lateness is a warning, not a miss.)
  std::vector<StepMiss> misses;
  bool meets() const { return misses.empty(); }

  double control_per_second = -1;  // --control: the no-work route at this level; -1 none

  /// Little's law's requests in flight on average: answered per second x their mean latency,
  /// plus timed out per second x --timeout (each held its connection that long, then failed;
  /// left out, 33 timeouts at -c 100 read 14% low). 0 without latency.
  double in_flight() const;

  double behind_share() const { return share(behind_schedule); }
  double server_late_share() const { return share(behind_server); }
  double generator_late_share() const { return share(behind_generator); }

 private:
  double share(int64_t count) const {
    return dispatched > 0 ? static_cast<double>(count) / static_cast<double>(dispatched) : 0;
  }
};

/// A step at `level` before it has figures: what it was configured to run (level,
/// connections, threads, rate, stopwatch). summarize_step() and a step that could not start
/// both begin from it.
StepSummary step_at_level(const Config& step_config, double level);

/// The step's figures from its run. `cpu_cores` is the generator's CPU over the step (-1 when
/// not measured); `online_cpus` caps the usable cores. Fills slo, misses and generator_busy.
StepSummary summarize_step(const Config& step_config, double level, const RunResult& result,
                           const std::vector<Verdict>& verdicts, double cpu_cores,
                           int64_t online_cpus);

}  // namespace hammer
