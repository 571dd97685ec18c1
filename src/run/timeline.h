// SPDX-License-Identifier: MIT
#pragma once
// Timeline: the run cut into one-second rows (warm-up rows first, then measured rows), each
// with its own latency histogram, completion count, error count and exact maximum. A worker
// plans its timeline once at setup (one slab of counts for every row: nothing is allocated per
// request or per second) and records each request in the row of its send time; run/ adds the
// workers' timelines into one once the run is over. See timeline.cc for the row layout.
#include <cstdint>
#include <vector>

#include "core/zeroed_array.h"

#include "stats/histogram.h"

namespace hammer {

class Timeline {
 public:
  /// At most this many rows: a longer run widens its rows (2 s, 3 s, ...) so that the slab
  /// stays bounded (kMaxRows x ~20 KB per worker).
  static constexpr int32_t kMaxRows = 300;
  /// Row histograms: 1 us to 60 s at 2 significant figures (~1% precision, 2,560 slots).
  static constexpr int64_t kLowestDiscernibleNs = 1'000;
  static constexpr int kSignificantFigures = 2;

  struct Row {
    int64_t start_ns = 0;   // offset of the row's start from the run's start (t0)
    int64_t length_ns = 0;  // the last warm-up row and the last measured row may be shorter
    bool warmup = false;    // before the measured part: the warm-up's rows, and the ramp's
    bool ramp = false;      // --ramp: the ramp's rows (warmup is true too: not measured)
    int64_t completed = 0;  // responses to requests sent in this row
    int64_t errors = 0;     // failed requests sent in this row, and connect errors in it
    int64_t timed_out = 0;  // of the errors, requests that timed out: they censor the row's
                            // tail percentiles (stats/censored_tail.h)
    int64_t max_ns = 0;     // exact largest latency recorded in this row
  };

  /// An empty timeline (no rows); record() must not be called on it.
  Timeline() = default;

  /// Lays out the rows for a run of `warmup_ns` (0 for none) then `duration_ns`, and allocates
  /// every row's counts at once. Warm-up rows start at t0; measured rows start at the end of
  /// the warm-up, so no row mixes the two phases.
  /// With `both_stopwatches` (open loop), each row also keeps a histogram of the other
  /// stopwatch (record_other()), for interval logs that carry corrected and uncorrected.
  /// With `ramp_ns`, the ramp's rows come first (from t0), then the warm-up's, then the
  /// measured ones: each phase starts a row of its own.
  /// Rows are a whole second, widened by whole seconds until they number at most kMaxRows;
  /// `interval_ns` > 0 sets their width instead (hammer merge: the shards' own, so that a
  /// fleet whose start times spread over a few more rows still takes every shard's rows).
  /// `open_ended` (-n in closed loop, whose duration_ns is only the 24h bound): the rows stay
  /// a second wide, at most kMaxRows of them, and the last measured row runs to duration_ns,
  /// taking every request sent after the ones before it (reports cut it at the run's end).
  void plan(int64_t warmup_ns, int64_t duration_ns, bool both_stopwatches = false,
            int64_t ramp_ns = 0, int64_t interval_ns = 0, bool open_ended = false);

  /// The run's t0, once known (rows are offsets from it).
  void set_start(int64_t start_ns) { start_ns_ = start_ns; }

  /// Row of an absolute time (ns); times before t0 fall in the first row, times after the end
  /// in the last. O(1): one division.
  int32_t row_for(int64_t ns) const;

  /// One response: `latency_ns` for a request sent (intended, in open loop) at `send_ns`.
  /// Never allocates.
  void record(int64_t send_ns, int64_t latency_ns) {
    const int32_t row = row_for(send_ns);
    Row& totals = rows_[static_cast<size_t>(row)];
    ++totals.completed;
    if (latency_ns > totals.max_ns) totals.max_ns = latency_ns;
    ++counts_[static_cast<size_t>(row) * counts_length_ + geometry_index(latency_ns)];
  }
  /// The same response on the other stopwatch (uncorrected when record() got the corrected
  /// latency); nothing unless planned with both stopwatches. Never allocates.
  void record_other(int64_t send_ns, int64_t latency_ns) {
    if (other_counts_.size() == 0) return;
    other_counts_[static_cast<size_t>(row_for(send_ns)) * counts_length_ +
                  geometry_index(latency_ns)] += 1;
  }
  void record_error(int64_t ns, bool timed_out = false) {
    Row& row = rows_[static_cast<size_t>(row_for(ns))];
    ++row.errors;
    if (timed_out) ++row.timed_out;
  }

  /// Adds `other` row by row (histograms added, never averaged). An empty timeline takes
  /// other's layout; two planned ones must share it.
  void add(const Timeline& other);
  /// Adds `other`'s row r into row r + `row_shift` (>= 0), for shards whose runs started
  /// `row_shift` intervals after this timeline's: rows that fall past the end are added to the
  /// last row. Both must be planned with the same interval.
  void add_shifted(const Timeline& other, int32_t row_shift);
  /// Fills row `row` from saved figures (a document read back): its completions, errors (of
  /// which `timed_out` timed out), exact max and latency histogram (re-recorded into the row
  /// geometry when it differs).
  void set_row(int32_t row, int64_t completed, int64_t errors, int64_t timed_out, int64_t max_ns,
               const Histogram& latencies);
  /// Fills row `row`'s other-stopwatch histogram from a saved one (a timeline planned with
  /// both stopwatches only).
  void set_other_row(int32_t row, const Histogram& latencies);

  bool empty() const { return rows_.empty(); }
  int64_t interval_ns() const { return interval_ns_; }
  int64_t warmup_ns() const { return warmup_ns_; }
  int64_t ramp_ns() const { return ramp_ns_; }
  const std::vector<Row>& rows() const { return rows_; }

  /// The row's latency histogram (allocates: for reports, after the run).
  Histogram row_histogram(int32_t row) const;
  /// True when rows keep the other stopwatch too (plan(..., true)).
  bool has_other() const { return other_counts_.size() != 0; }
  /// The row's other-stopwatch histogram (empty without has_other()).
  Histogram other_row_histogram(int32_t row) const;
  /// How many of the row's latencies are above `threshold_ns` (to the histogram's ~1%
  /// precision), counted from its histogram.
  int64_t count_above(int32_t row, int64_t threshold_ns) const;

 private:
  size_t geometry_index(int64_t value) const {
    return static_cast<size_t>(geometry_.index_for(value));
  }

  int64_t start_ns_ = 0;
  int64_t warmup_ns_ = 0;
  int64_t ramp_ns_ = 0;
  int32_t ramp_rows_ = 0;
  int64_t interval_ns_ = 1'000'000'000;
  int32_t warmup_rows_ = 0;
  size_t counts_length_ = 0;
  // Where a latency lands in a row's counts (counts_length_ slots per row); set by plan().
  HistogramGeometry geometry_;
  std::vector<Row> rows_;
  // rows_.size() x counts_length_, lazily zeroed: a row keeps resident only the pages its
  // latencies fell in.
  ZeroedArray<int64_t> counts_;
  ZeroedArray<int64_t> other_counts_;  // the same layout for the other stopwatch, or empty
};

}  // namespace hammer
