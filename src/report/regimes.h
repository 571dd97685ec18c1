// SPDX-License-Identifier: MIT
#pragma once
// Readings of the per-second timeline that a single figure hides, as pure functions over
// per-second figures (so they are unit-tested without a run):
//  - two regimes: a few seconds ran far slower (or faster) than the rest — typically a cold
//    start — and the whole-run throughput mixes the two;
//  - rare stalls: a handful of requests far slower than the rest, too few for any percentile
//    to show (20 in 100,000 is below p99.9's resolution), visible only in max.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hammer {

/// One timeline row reduced to the figures the readings need.
struct SecondFigures {
  int32_t second = 0;     // 1-based row number from the run's start (warm-up rows included)
  int64_t start_ns = 0;   // offset of the row's start from the run's start
  int64_t length_ns = 0;  // the row's length (an interval; the last rows may be shorter)
  bool warmup = false;
  int64_t completed = 0;
  int64_t slow = 0;       // latencies above the slow-request threshold in this row
};

/// Regime detection over the measured rows (warm-up rows are ignored, and so are rows shorter
/// than half `interval_ns`): when per-second throughput spreads widely (stdev above half the
/// mean) or some second ran below a fifth of the median, names the seconds below half or
/// above twice the median with their rates, and, when they open the measured part, suggests
/// the --warmup that would cover them. nullopt when the run looks like one regime, or has
/// fewer than 3 usable rows. `headline_per_second` is the report's requests / elapsed.
std::optional<std::string> regime_note(const std::vector<SecondFigures>& seconds,
                                       int64_t interval_ns, double headline_per_second);

/// The figures behind the slow-request note, from the lead latency histogram.
struct SlowRequestFigures {
  int64_t threshold_ns = 0;     // --slow, or 10x p50
  bool threshold_given = false; // --slow was given: report any request above it
  int64_t max_ns = 0;
  int64_t p999_ns = 0;
};

/// Rare stalls: when some request took longer than the threshold and either --slow was given
/// or max is more than 10x p99.9, counts them and names the seconds they fell in ("20 requests
/// took over 100.00ms (max 316.00ms), all in second 1 — no percentile shows them"). Only
/// measured rows count. nullopt when there is nothing to say.
std::optional<std::string> slow_request_note(const std::vector<SecondFigures>& seconds,
                                             const SlowRequestFigures& figures);

/// The threshold the note uses: `slow_ns` when given (> 0), else 10x `p50_ns`.
int64_t slow_threshold_ns(int64_t slow_ns, int64_t p50_ns);

}  // namespace hammer
