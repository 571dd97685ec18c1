// SPDX-License-Identifier: MIT
#pragma once
// --slo limits checked against a run: each latency key reads the histogram the stopwatch
// leads with (corrected in open loop, uncorrected otherwise), "errors" reads the error rate.
// A run meets a limit when its figure is at or below it; a run with no response has no
// latency and meets no latency limit. cli/slo_flag parses the limits.
// A percentile that timeouts censor (stats/censored_tail.h) is known only to exceed --timeout:
// it misses a limit at or below the timeout, and one above it cannot be judged — the true
// figure may be under the limit or not. Unjudged is not met (an SLO holds only when shown to);
// the outcome says which, so the report can ask for a --timeout above the limit.
#include <vector>

#include "core/config.h"
#include "run/result.h"

namespace hammer {

struct SloOutcome {
  SloLimit limit;
  bool has_measured = false;  // false: no response, so no latency figure exists
  double measured = 0;        // ns for latency keys; a fraction (0..1) for errors
  bool pass = false;
  /// The percentile is censored by timeouts: `measured` is --timeout, a bound the true figure
  /// exceeds. Never a pass.
  bool censored = false;
  /// Censored with the limit above the bound: the figure may meet the limit or not (counted as
  /// a miss; a --timeout above the limit would decide it).
  bool unjudged = false;
};

/// Failed requests (socket errors, timeouts, parse errors) and responses other than 2xx/3xx,
/// over every request that ended (completed + failed); 1 when none ended.
double error_rate(const RunResult& result);

std::vector<SloOutcome> evaluate_slos(const std::vector<SloLimit>& limits, const Config& config,
                                      const RunResult& result);

/// True when every outcome passed (and so when there are none).
bool slos_pass(const std::vector<SloOutcome>& outcomes);

}  // namespace hammer
