// SPDX-License-Identifier: MIT
#pragma once
// Readings of the per-second timeline that a single figure hides, as pure functions over
// per-second figures (so they are unit-tested without a run); report/regimes.h words them:
//  - two regimes: a few seconds ran far slower (or faster) than the rest — typically a cold
//    start — and the whole-run throughput mixes the two;
//  - rare stalls: a handful of requests far slower than the rest, too few for any percentile
//    to show (20 in 100,000 is below p99.9's resolution), visible only in max.
//
// Thresholds, and why. A second differs when it ran below half or above twice the median rate:
// wide enough that scheduling noise on a busy machine does not trip it, narrow enough that a
// cold start (often 10x slower) always does. The reading exists only when the spread is real:
// stdev above half the mean, or one second below a fifth of the median. A stall is read when
// max exceeds 10x p99.9 (a tail no percentile describes); the threshold for counting is 10x
// p50 unless --slow says otherwise. Rows whose median holds fewer than 10 requests are not
// read at all: their rates move in steps too coarse for a regime.
#include <cstdint>
#include <optional>
#include <vector>

namespace hammer {

inline constexpr double kRegimeSpreadOverMean = 0.5;  // stdev above half the mean
inline constexpr double kRegimeFarBelowMedian = 0.2;  // one second below a fifth of the median
inline constexpr double kRegimeDifferentBelow = 0.5;  // seconds named: below half the median ...
inline constexpr double kRegimeDifferentAbove = 2.0;  // ... or above twice it
/// A row is read only when the median row holds at least this many requests: below it one
/// request more or less moves a row past half or twice the median (-r 0.5 gives rows of 1, 0,
/// 1, 0 by the schedule alone).
inline constexpr double kRegimeMinRequestsPerRow = 10;
inline constexpr int64_t kStallOverP999 = 10;       // max above 10x p99.9
inline constexpr int64_t kDefaultSlowOverP50 = 10;  // default slow threshold: 10x p50

/// One timeline row reduced to the figures the readings need.
struct SecondFigures {
  int32_t second = 0;     // 1-based row number from the run's start (warm-up rows included)
  int64_t start_ns = 0;   // offset of the row's start from the run's start
  int64_t length_ns = 0;  // the row's length (an interval; the last rows may be shorter)
  bool warmup = false;
  int64_t completed = 0;
  int64_t slow = 0;       // latencies above the slow-request threshold in this row
};

struct SecondRate {
  int32_t second = 0;
  double per_second = 0;
};

struct RegimeReading {
  /// The seconds of the other regime, in order: the slow ones when any ran below
  /// kRegimeDifferentBelow of the median, else the fast ones (above kRegimeDifferentAbove).
  std::vector<SecondRate> different;
  double median_per_second = 0;
  /// They open the measured part (no ordinary second before them): a cold start that a
  /// --warmup of warmup_to_leave_out_s whole seconds leaves out. False: the server changed
  /// while measured, and a warm-up would not help.
  bool opening = false;
  int64_t warmup_to_leave_out_s = 0;
};

/// Over the measured rows (warm-up rows are ignored, and so are rows shorter than half
/// `interval_ns`). nullopt when the run looks like one regime, or has fewer than 3 usable rows.
std::optional<RegimeReading> read_regimes(const std::vector<SecondFigures>& seconds,
                                          int64_t interval_ns);

/// The figures behind the slow-request reading, from the lead latency histogram.
struct SlowRequestFigures {
  int64_t threshold_ns = 0;     // --slow, or 10x p50
  bool threshold_given = false; // --slow was given: report any request above it
  int64_t max_ns = 0;
  int64_t p999_ns = 0;
};

struct SlowSecond {
  int32_t second = 0;
  int64_t slow = 0;
};

struct SlowRequestReading {
  int64_t count = 0;               // measured requests above the threshold
  std::vector<SlowSecond> seconds; // the measured rows they fell in, in order
  bool no_percentile_shows = false;  // p99.9 is at or below the threshold
};

/// Rare stalls: when some request took longer than the threshold and either --slow was given
/// or max is more than kStallOverP999 x p99.9, counts them and names their seconds. Only
/// measured rows count. nullopt when there is nothing to say.
std::optional<SlowRequestReading> read_slow_requests(const std::vector<SecondFigures>& seconds,
                                                     const SlowRequestFigures& figures);

/// The threshold the reading uses: `slow_ns` when given (> 0), else kDefaultSlowOverP50 x
/// `p50_ns`.
int64_t slow_threshold_ns(int64_t slow_ns, int64_t p50_ns);

}  // namespace hammer
