// SPDX-License-Identifier: MIT
#pragma once
// --metrics-listen: what a worker publishes for a Prometheus scrape while the run lasts.
//
// Each worker fills a LiveFigures of its own from its loop at most every
// Worker::kPublishIntervalNs (as it publishes the progress line's counters) and copies it into
// its slot of the LiveMetricsBoard under that slot's mutex: ten locks a second per worker,
// never one per request, so the hot path (send, receive, parse, record) still locks nothing.
// A scrape, on the metrics server's thread, takes each slot's copy under the same mutex and
// adds them up. Everything here is fixed-size: publishing allocates nothing.
//
// Latency is carried as cumulative bucket counts at fixed bounds (Prometheus's histogram
// type), counted from each HDR histogram at publish time: a bucket holds the values whose HDR
// slot lies at or below its bound, so a bound is exact to the histogram's own precision.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>

#include "run/phases.h"
#include "run/result.h"
#include "stats/histogram.h"

namespace hammer {

/// The buckets' upper bounds (`le`), in nanoseconds: 100 us to 50 s, 1-2.5-5 a decade; the
/// +Inf bucket is the count (and the only one for values past the histograms' 60 s top).
inline constexpr std::array<int64_t, 18> kLiveBucketBoundsNs = {
    100'000,        250'000,        500'000,        1'000'000,     2'500'000,
    5'000'000,      10'000'000,     25'000'000,     50'000'000,    100'000'000,
    250'000'000,    500'000'000,    1'000'000'000,  2'500'000'000, 5'000'000'000,
    10'000'000'000, 25'000'000'000, 50'000'000'000};
inline constexpr int kLiveBucketCount = static_cast<int>(kLiveBucketBoundsNs.size());

/// One histogram as Prometheus reads it: counts at or below each bound, the count, the sum.
struct LiveHistogram {
  std::array<int64_t, kLiveBucketCount> at_or_below{};
  int64_t count = 0;
  double sum_ns = 0;  // from the HDR slots' middle values, as its mean is

  /// Counts `histogram` into the buckets (one pass over its slots from min to max).
  void count_from(const Histogram& histogram);
  void add(const LiveHistogram& other);
};

/// One phase's figures (ramp, warm-up, measured: run/phases.h), as the RunResult of that
/// phase holds them so far.
struct LivePhase {
  bool present = false;  // the run has this phase (--ramp, --warmup; measured always)
  int64_t sent = 0;
  int64_t completed = 0;
  std::array<int64_t, kStatusClassCount> status_classes{};
  std::array<int64_t, kErrorKindCount> errors{};
  LiveHistogram corrected;  // open loop only
  LiveHistogram uncorrected;

  void take(const RunResult& phase);
  void add(const LivePhase& other);
};

struct LiveFigures {
  bool open_loop = false;
  std::array<LivePhase, kPhaseCount> phases;  // by Phase
  int64_t scheduled = 0;    // open loop: slots due so far (intended time passed), every phase
  int64_t in_flight = 0;    // requests sent and not yet answered or failed (resends included)
  int64_t connections = 0;  // connections up now
  LiveHistogram dispatch_lag;   // open loop, measured part: how late each request left
  int64_t behind_schedule = 0;  // of those, later than the lag threshold
  int64_t lag_threshold_ns = 0;

  void add(const LiveFigures& other);
};

/// One slot per worker; a scrape reads them all. Made before the run (the metrics server
/// serves it from before the first connect until hammer exits, so the last scrape reads the
/// final counts); run_load() sizes it to the run's workers before any of them starts.
class LiveMetricsBoard {
 public:
  /// A fresh slot per worker, every figure zero. Never while workers publish.
  void prepare(int64_t worker_count);
  /// Replaces worker `index`'s figures (its thread, every kPublishIntervalNs).
  void publish(int64_t index, const LiveFigures& figures);
  /// Every worker's latest figures added up (the metrics server's thread); zero before
  /// prepare().
  LiveFigures total() const;

 private:
  struct Slot {
    mutable std::mutex mutex;
    LiveFigures figures;
  };
  mutable std::mutex slots_mutex_;  // prepare() against total()
  int64_t worker_count_ = 0;
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace hammer
