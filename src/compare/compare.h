// SPDX-License-Identifier: MIT
#pragma once
// `hammer compare A.json B.json`: did B's percentiles move beyond noise? See compare.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "stats/histogram.h"

namespace hammer {

enum class CompareVerdict : uint8_t { better, no_change, worse };

/// --fail-if p99+10%: fail when row `percentile` is worse beyond noise and B - A exceeds
/// `percent` of A, or when the runs cannot show that it is not (CompareRow::gate_unjudged).
struct FailIf {
  double percentile = 99;
  double percent = 10;
};

struct CompareSettings {
  int resamples = 1000;
  uint64_t seed = 1;
  double confidence = 0.95;
  /// A change smaller than this fraction of A is "no change" whatever its interval: two runs
  /// on one machine differ by a few percent (CPU frequency, scheduling) that no resampling of
  /// one run's seconds can see, and the per-second histograms resolve about 1%.
  double min_relative_change = 0.05;
};

/// One run as compare reads it: its lead-stopwatch histogram (the figures the report printed)
/// and its measured seconds' histograms (the timeline's rows), which the bootstrap resamples.
struct CompareSide {
  Histogram whole;
  std::vector<Histogram> seconds;
  /// The run's host meter: every wake-up's oversleep (HostReading::oversleeps); empty when
  /// the run had no meter. Its spread at a percentile is the host's own noise there.
  Histogram host_oversleeps;
  /// The sleep each of the meter's wake-ups asked for (HostReading::interval_ns); 0 when
  /// unknown, and then each oversleep counts once.
  int64_t host_interval_ns = 0;
  /// Requests that ended by --timeout have no latency, only a bound (stats/censored_tail.h):
  /// the measured part's count, each measured second's (beside `seconds`), and the bound.
  int64_t timed_out = 0;
  std::vector<int64_t> seconds_timed_out;
  int64_t timeout_ns = 0;
  /// The host meter's long stalls (HostReading::kLongStallNs and more): how many, the time
  /// they took, the longest. The report names them beside the figures they are in.
  int64_t host_long_stalls = 0;
  int64_t host_lost_ns = 0;
  int64_t host_max_stall_ns = 0;
};

/// What the report says of each run beside the rows: its timeouts and its host's stalls.
struct CompareSideFacts {
  int64_t ended = 0;      // answered + timed out
  int64_t timed_out = 0;
  int64_t timeout_ns = 0;
  int64_t host_long_stalls = 0;
  int64_t host_lost_ns = 0;
  int64_t host_max_stall_ns = 0;
};

/// How far the host alone moved a request's latency at percentile q in this run: the
/// meter's oversleep at q above its least (the least is the timer's constant slack, which
/// every wake-up pays alike), with each oversleep weighted by the time it held the host (see
/// time_weighted_oversleeps). 0 without a meter.
int64_t host_noise_ns(const CompareSide& side, double q);

/// The meter's oversleeps as a request arriving at any instant meets them: a stall of S held
/// every instant inside it, so it counts as S, S - interval, S - 2 interval, ... down to one
/// interval (HdrHistogram's recordValueWithExpectedInterval, jHiccup's correction), not once.
/// One wake-up in a thousand that stalled 100 ms at a 5 ms interval is then 20 samples in a
/// thousand: a p99 it moves, where counted once it moved nothing. `interval_ns` <= 0: a copy.
Histogram time_weighted_oversleeps(const Histogram& oversleeps, int64_t interval_ns);

struct CompareRow {
  double percentile = 0;
  int64_t a_ns = 0;         // from the whole histograms, as each run reported it
  int64_t b_ns = 0;
  double delta_ns = 0;      // B - A of the seconds added up (what the interval is about)
  double low_ns = 0;        // the bootstrap interval of delta_ns
  double high_ns = 0;
  CompareVerdict verdict = CompareVerdict::no_change;
  bool failed = false;      // a --fail-if row that is worse beyond its threshold
  double fail_percent = -1; // the threshold that row was judged by; < 0: none
  double host_noise_ns = 0;  // the larger of the two runs' host noise at this percentile
  // No change only because the change is within host_noise_ns: the interval and the
  // relative floor alone would have given a verdict.
  bool within_host_noise = false;
  // Requests above this percentile, on average, in the run that has fewer: n (1 - q).
  double tail_requests = 0;
  // No change because tail_requests is under tail_requests_needed(): a run has too few
  // requests above the percentile to place it (see compare.cc).
  bool too_few_requests = false;
  // The run's timeouts censor its figure at this percentile: a_ns / b_ns is only --timeout,
  // a bound the true figure lies above (and delta_ns a bound with it).
  bool a_censored = false;
  bool b_censored = false;
  // No verdict: a figure is only a bound, and the bound decides nothing (both censored, or
  // the bound is within the floor of the other's figure).
  bool censored_unjudged = false;
  // The --fail-if row failed because the runs could not judge it (too few seconds or
  // requests, or a censored figure), not because B was shown worse: a gate passes only when
  // the runs show it does.
  bool gate_unjudged = false;
};

/// Fewer measured seconds than this in either run and there is nothing to resample: one
/// second resampled is itself every time, an interval of zero width around whatever it read.
inline constexpr int64_t kMinSecondsToCompare = 3;

struct Comparison {
  std::vector<CompareRow> rows;
  CompareSettings settings;
  int64_t a_seconds = 0;
  int64_t b_seconds = 0;
  CompareSideFacts a_facts;
  CompareSideFacts b_facts;
  /// A run had fewer than kMinSecondsToCompare measured seconds: no row is judged (each is no
  /// change, its interval the one-sample difference), and the report says so.
  bool too_few_seconds = false;
  bool failed() const;
};

/// How many requests a run needs above a percentile, on average, for `confidence` to place
/// it below the run's slowest request: -ln((1 - confidence) / 2), 3.69 at 95%.
double tail_requests_needed(double confidence);

/// Compares B with A at each of `percentiles`: B - A with a bootstrap interval (resampling
/// each run's seconds with replacement, seeded, settings.resamples times) and a verdict.
/// Sides with fewer than kMinSecondsToCompare seconds get intervals of zero width around the
/// difference and no verdict (Comparison::too_few_seconds).
Comparison compare_runs(const CompareSide& a, const CompareSide& b,
                        const std::vector<double>& percentiles, const CompareSettings& settings,
                        const std::vector<FailIf>& fail_ifs = {});

}  // namespace hammer
