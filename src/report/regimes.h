// SPDX-License-Identifier: MIT
#pragma once
// The words of the two timeline readings (run/timeline_readings.h decides them): the note on
// two regimes of throughput, and the note on rare stalls no percentile shows.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/timeline_readings.h"

namespace hammer {

/// "per-second throughput shows two regimes: seconds 1 (20 req/s) and 2 (25 req/s) against a
/// median of 1000 req/s; ..." with the --warmup that would leave them out when they open the
/// run. nullopt when read_regimes() finds one regime. `headline_per_second` is the report's
/// requests / elapsed.
std::optional<std::string> regime_note(const std::vector<SecondFigures>& seconds,
                                       int64_t interval_ns, double headline_per_second);

/// "20 requests took over 100.00ms (max 316.00ms), all in second 1 — no percentile shows
/// them"; nullopt when read_slow_requests() finds nothing to say.
std::optional<std::string> slow_request_note(const std::vector<SecondFigures>& seconds,
                                             const SlowRequestFigures& figures);

}  // namespace hammer
