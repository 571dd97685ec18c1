// SPDX-License-Identifier: MIT
//
// When the host, not the server, may have made the figures.
//
// host_stalled. A stall of S ns stopped every thread of hammer for S: what it does to the
// latencies follows from the stopwatch.
// - Open loop, the slots are spread evenly in time, so a stall of S holds back the slots that
//   came due in it, each by between 0 and S (design.md §1's pause arithmetic): of them, the
//   share S - v of the time waited longer than v. Stalls add: the share of all slots that a
//   host stall alone pushed above v is sum(S - v) over the measured time.
// - Closed loop, nothing is sent during a stall (that is the loop's blind spot), but every
//   request in flight when it began waits it out: one stall pushes `connections` requests
//   above any v < S.
// A reported percentile q (value v) could have been made by the host when the share of
// requests the stalls pushed above v/2 exceeds 1 - q/100: then the stalls alone account for at
// least half of the figure, for as many requests as lie above it. Half, not all of v: a
// percentile the stall itself made sits exactly where its delayed share equals 1 - q (the pause
// arithmetic again), so a test against v itself would be a coin toss for the very percentiles
// the host made. Those percentiles are named. And whatever the percentiles, a host frozen for
// more than 1% of the measured time (kHostFrozenShare, in stalls of 50 ms and more) gets the
// verdict: hammer could neither send nor read then, so a backlog, a throughput dip or a
// latency from then is the host's as much as the server's (seen: a run niced beside four busy
// loops lost 3.29 s of 4.14 s and read as "over capacity"; the over-capacity rule now leaves
// that time out, run/verdicts.cc). Only stalls from kHostStallVerdictNs (50 ms) on count: a busy
// machine (a CI runner building beside two e2e tests) oversleeps by 10-30 ms often, and a
// verdict that fired for them would fire on every run there, telling nothing; a stall of
// 50 ms or more is a frozen host by any reading. Only stalls that reach into the measured part
// count: one in the warm-up moved no measured figure.
//
// generator_bound. In a closed loop hammer sends as fast as answers come back, so a worker on
// the CPU all the time is its own limit: the request rate is as much the generator's as the
// server's. Above 90% of the workers' wall time on a CPU (user + system, their thread clocks)
// the verdict says so; more threads help only while they are fewer than the CPUs.
#include "run/host_verdicts.h"

#include <algorithm>

#include "core/percentiles.h"
#include "run/phases.h"
#include "stats/censored_tail.h"

namespace hammer {
namespace {

// The percentiles the report prints: --percentiles when given, else the default rows up to 99
// (the full spectrum with --latency), as report/'s text_percentiles().
std::vector<double> reported_percentiles(const Config& config) {
  if (!config.percentiles.empty()) return config.percentiles;
  std::vector<double> rows;
  for (double q : default_percentiles()) {
    if (config.print_latency || q <= 99.0) rows.push_back(q);
  }
  return rows;
}

// The stalls of `min_stall_ns` and more that reach into the measured part (offsets from t0:
// after the ramp and the warm-up).
std::vector<HostStall> measured_long_stalls(
    const Config& config, const RunResult& result,
    int64_t min_stall_ns = VerdictThresholds::kHostStallVerdictNs) {
  const int64_t measured_from_ns = Phases(config).measured_offset_ns();
  const int64_t measured_to_ns = measured_from_ns + result.elapsed_ns;
  std::vector<HostStall> stalls;
  for (const HostStall& stall : result.host.long_stalls) {
    if (stall.length_ns >= min_stall_ns && stall.at_ns + stall.length_ns > measured_from_ns &&
        stall.at_ns < measured_to_ns) {
      stalls.push_back(stall);
    }
  }
  return stalls;
}

}  // namespace

int64_t host_frozen_ns(const Config& config, const RunResult& result, int64_t min_stall_ns) {
  const HostReading& host = result.host;
  if (!host.measured() || result.elapsed_ns <= 0) return 0;
  const int64_t measured_from_ns = Phases(config).measured_offset_ns();
  const int64_t measured_to_ns = measured_from_ns + result.elapsed_ns;
  int64_t frozen_ns = 0;
  for (const HostStall& stall : measured_long_stalls(config, result, min_stall_ns)) {
    frozen_ns += std::min(stall.at_ns + stall.length_ns, measured_to_ns) -
                 std::max(stall.at_ns, measured_from_ns);
  }
  return std::min(frozen_ns / host.meters, result.elapsed_ns);
}

int64_t longest_measured_stall_ns(const Config& config, const RunResult& result) {
  int64_t longest = 0;
  for (const HostStall& stall :
       measured_long_stalls(config, result, HostReading::kLongStallNs)) {
    longest = std::max(longest, stall.length_ns);
  }
  return longest;
}

std::optional<HostStalledVerdict> host_stalled_verdict(const Config& config,
                                                       const RunResult& result) {
  const HostReading& host = result.host;
  const bool corrected = config.corrected_stopwatch_leads();
  const Histogram& lead = corrected ? result.corrected : result.uncorrected;
  if (!host.measured() || lead.total_count() == 0 || result.elapsed_ns <= 0 ||
      host.max_ns < VerdictThresholds::kHostStallVerdictNs) {
    return std::nullopt;
  }
  const std::vector<HostStall> stalls = measured_long_stalls(config, result);
  if (stalls.empty()) return std::nullopt;

  HostStalledVerdict verdict;
  // The figures as the table prints them: of every request that ended, timed-out ones slower
  // than any answer. A censored one is only a bound ("> 100.00ms"), which no stall made; the
  // answered histogram's own figure would quote a number the table does not show (a new
  // user's trial: "p99 (82.97ms)" beside a table's "99% > 100.00ms").
  const CensoredTail tail =
      censored_tail(lead, result.error_count(ErrorKind::timeout), config.timeout_ns);
  for (double q : reported_percentiles(config)) {
    const TailFigure figure = tail.at(lead, q);
    if (figure.censored) continue;
    const int64_t value_ns = figure.value_ns;
    const int64_t reach_ns = value_ns / 2;  // the stalls account for half of the figure
    double share = 0;
    if (config.open_loop()) {
      // Every meter (shard) held back only its own slots: its share of the whole schedule.
      int64_t delayed_ns = 0;
      for (const HostStall& stall : stalls) delayed_ns += std::max<int64_t>(stall.length_ns - reach_ns, 0);
      share = static_cast<double>(delayed_ns) /
              (static_cast<double>(result.elapsed_ns) * static_cast<double>(host.meters));
    } else {
      const int64_t longer = std::count_if(stalls.begin(), stalls.end(), [&](const HostStall& s) {
        return s.length_ns > reach_ns;
      });
      const double in_flight = static_cast<double>(config.connections * std::max<int64_t>(config.pipeline, 1)) /
                               static_cast<double>(host.meters);
      share = static_cast<double>(longer) * in_flight /
              static_cast<double>(std::max<int64_t>(result.completed, 1));
    }
    if (share > 1.0 - q / 100.0) verdict.moved.push_back({q, value_ns});
  }
  verdict.frozen_ns = host_frozen_ns(config, result);
  verdict.frozen_share =
      static_cast<double>(verdict.frozen_ns) / static_cast<double>(result.elapsed_ns);
  if (verdict.moved.empty() && verdict.frozen_share <= VerdictThresholds::kHostFrozenShare) {
    return std::nullopt;
  }
  verdict.max_stall_ns = host.max_ns;
  for (const HostStall& stall : host.long_stalls) {
    if (stall.length_ns == host.max_ns) {
      verdict.max_stall_at_ns = stall.at_ns;
      break;
    }
  }
  verdict.long_stalls = host.long_count;
  verdict.lost_ns = host.long_sum_ns;
  verdict.observed_ns = host.observed_ns;
  verdict.steal_ns = host.steal_ns;
  verdict.corrected = corrected;
  return verdict;
}

std::optional<GeneratorBoundVerdict> generator_bound_verdict(const Config& config,
                                                             const RunResult& result,
                                                             int64_t cpus) {
  const GeneratorCpu& cpu = result.generator_cpu;
  if (config.open_loop() || !cpu.measured() ||
      cpu.share() <= VerdictThresholds::kGeneratorBoundShare) {
    return std::nullopt;
  }
  return GeneratorBoundVerdict{cpu.share(), cpu.busiest_share, config.threads, cpus,
                               cpus > 0 && config.threads < cpus};
}

}  // namespace hammer
