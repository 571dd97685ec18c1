// SPDX-License-Identifier: MIT
// The per-second timeline.
//
// Rows. The ramp (--ramp), then the warm-up, are cut into rows of one interval from t0 (the last may be shorter), and
// the measured part into rows of one interval from the end of the warm-up (the last may be
// shorter): a row is then wholly warm-up or wholly measured, and its rate is its completions
// over its own length. A request belongs to the row of its send time — the intended time in
// open loop — which is the same rule that assigns it to the warm-up or not, so the timeline's
// rows add up exactly to the warm-up and measured sections.
//
// Memory. Each row keeps a histogram at 2 significant figures from 1 us (2,560 slots, 20 KB),
// all rows in one slab allocated at setup. "Swapping the histogram at each second boundary" is
// then just indexing: recording computes the row from the send time (one division) and bumps a
// count, with no per-second work at all in the loop. The interval is one second unless the run
// would need more than kMaxRows rows; then it widens to whole seconds so the slab stays under
// kMaxRows x 20 KB per worker.
//
// Merging. Workers' timelines share the layout and the geometry, so adding is a straight sum of
// counts; per-second percentiles come from the summed histogram, never from averaged figures.
#include "run/timeline.h"

#include <algorithm>
#include <cassert>

#include "time/time_units.h"

namespace hammer {
namespace {

HistogramGeometry row_geometry() {
  static const HistogramGeometry geometry = *HistogramGeometry::make(
      Timeline::kLowestDiscernibleNs, Histogram::kDefaultHighestTrackableValue,
      Timeline::kSignificantFigures);
  return geometry;
}

int64_t rows_for(int64_t span_ns, int64_t interval_ns) {
  return span_ns <= 0 ? 0 : (span_ns + interval_ns - 1) / interval_ns;
}

}  // namespace

void Timeline::plan(int64_t warmup_ns, int64_t duration_ns, bool both_stopwatches,
                    int64_t ramp_ns, int64_t interval_ns, bool open_ended) {
  geometry_ = row_geometry();
  counts_length_ = static_cast<size_t>(geometry_.counts_length());
  warmup_ns_ = std::max<int64_t>(warmup_ns, 0);
  ramp_ns_ = std::max<int64_t>(ramp_ns, 0);
  interval_ns_ = interval_ns > 0 ? interval_ns : kNanosPerSecond;
  // Open-ended, the measured part needs one row at least; its last row takes the rest.
  const auto measured_rows_for = [&](int64_t interval) {
    return open_ended ? 1 : rows_for(duration_ns, interval);
  };
  while (interval_ns <= 0 &&
         rows_for(ramp_ns_, interval_ns_) + rows_for(warmup_ns_, interval_ns_) +
                 measured_rows_for(interval_ns_) >
             kMaxRows) {
    interval_ns_ += kNanosPerSecond;
  }
  ramp_rows_ = static_cast<int32_t>(rows_for(ramp_ns_, interval_ns_));
  warmup_rows_ = static_cast<int32_t>(rows_for(warmup_ns_, interval_ns_));
  int64_t measured_count = std::max<int64_t>(rows_for(duration_ns, interval_ns_), 1);
  if (open_ended) {
    measured_count = std::min<int64_t>(
        measured_count, std::max<int64_t>(kMaxRows - ramp_rows_ - warmup_rows_, 1));
  }
  const auto measured_rows = static_cast<int32_t>(measured_count);
  rows_.assign(static_cast<size_t>(ramp_rows_ + warmup_rows_ + measured_rows), Row{});
  for (int32_t i = 0; i < ramp_rows_; ++i) {
    Row& row = rows_[static_cast<size_t>(i)];
    row.start_ns = i * interval_ns_;
    row.length_ns = std::min(interval_ns_, ramp_ns_ - row.start_ns);
    row.warmup = true;
    row.ramp = true;
  }
  for (int32_t i = 0; i < warmup_rows_; ++i) {
    Row& row = rows_[static_cast<size_t>(ramp_rows_ + i)];
    const int64_t offset = i * interval_ns_;
    row.start_ns = ramp_ns_ + offset;
    row.length_ns = std::min(interval_ns_, warmup_ns_ - offset);
    row.warmup = true;
  }
  for (int32_t i = 0; i < measured_rows; ++i) {
    Row& row = rows_[static_cast<size_t>(ramp_rows_ + warmup_rows_ + i)];
    const int64_t offset = i * interval_ns_;
    row.start_ns = ramp_ns_ + warmup_ns_ + offset;
    row.length_ns = std::max<int64_t>(std::min(interval_ns_, duration_ns - offset), 1);
    if (open_ended && i == measured_rows - 1) {
      row.length_ns = std::max<int64_t>(duration_ns - offset, 1);
    }
  }
  counts_ = ZeroedArray<int64_t>(rows_.size() * counts_length_);
  other_counts_ = both_stopwatches ? ZeroedArray<int64_t>(rows_.size() * counts_length_)
                                   : ZeroedArray<int64_t>();
}

int32_t Timeline::row_for(int64_t ns) const {
  const int64_t offset = ns - start_ns_;
  int64_t row = 0;
  if (offset < ramp_ns_) {
    row = offset < 0 ? 0 : offset / interval_ns_;
  } else if (offset < ramp_ns_ + warmup_ns_) {
    row = ramp_rows_ + (offset - ramp_ns_) / interval_ns_;
  } else {
    row = ramp_rows_ + warmup_rows_ + (offset - ramp_ns_ - warmup_ns_) / interval_ns_;
  }
  const int64_t last = static_cast<int64_t>(rows_.size()) - 1;
  return static_cast<int32_t>(std::min(row, last));
}

void Timeline::add(const Timeline& other) {
  if (other.empty()) return;
  if (empty()) {
    *this = other;
    return;
  }
  assert(rows_.size() == other.rows_.size() && counts_.size() == other.counts_.size());
  const size_t row_count = std::min(rows_.size(), other.rows_.size());
  for (size_t i = 0; i < row_count; ++i) {
    rows_[i].completed += other.rows_[i].completed;
    rows_[i].errors += other.rows_[i].errors;
    rows_[i].timed_out += other.rows_[i].timed_out;
    rows_[i].max_ns = std::max(rows_[i].max_ns, other.rows_[i].max_ns);
  }
  const size_t count_slots = std::min(counts_.size(), other.counts_.size());
  for (size_t i = 0; i < count_slots; ++i) {
    if (other.counts_[i] != 0) counts_[i] += other.counts_[i];
  }
  const size_t other_slots = std::min(other_counts_.size(), other.other_counts_.size());
  for (size_t i = 0; i < other_slots; ++i) {
    if (other.other_counts_[i] != 0) other_counts_[i] += other.other_counts_[i];
  }
}

void Timeline::add_shifted(const Timeline& other, int32_t row_shift) {
  if (other.empty() || empty()) return;
  assert(counts_length_ == other.counts_length_ && row_shift >= 0);
  const size_t last = rows_.size() - 1;
  for (size_t i = 0; i < other.rows_.size(); ++i) {
    const size_t target = std::min(i + static_cast<size_t>(row_shift), last);
    Row& row = rows_[target];
    row.completed += other.rows_[i].completed;
    row.errors += other.rows_[i].errors;
    row.timed_out += other.rows_[i].timed_out;
    row.max_ns = std::max(row.max_ns, other.rows_[i].max_ns);
    for (size_t slot = 0; slot < counts_length_; ++slot) {
      counts_[target * counts_length_ + slot] += other.counts_[i * counts_length_ + slot];
    }
    if (has_other() && other.has_other()) {
      for (size_t slot = 0; slot < counts_length_; ++slot) {
        other_counts_[target * counts_length_ + slot] +=
            other.other_counts_[i * counts_length_ + slot];
      }
    }
  }
}

void Timeline::set_other_row(int32_t row, const Histogram& latencies) {
  if (!has_other() || row < 0 || static_cast<size_t>(row) >= rows_.size()) return;
  for (int32_t i = 0; i < latencies.counts_length(); ++i) {
    const int64_t count = latencies.count_at_index(i);
    if (count != 0) {
      other_counts_[static_cast<size_t>(row) * counts_length_ +
                    geometry_index(latencies.value_from_index(i))] += count;
    }
  }
}

Histogram Timeline::other_row_histogram(int32_t row) const {
  Histogram histogram(row_geometry());
  if (!has_other()) return histogram;
  const size_t base = static_cast<size_t>(row) * counts_length_;
  for (size_t i = 0; i < counts_length_; ++i) {
    if (other_counts_[base + i] != 0) {
      histogram.add_count_at_index(static_cast<int32_t>(i), other_counts_[base + i]);
    }
  }
  return histogram;
}

void Timeline::set_row(int32_t row, int64_t completed, int64_t errors, int64_t timed_out,
                       int64_t max_ns, const Histogram& latencies) {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return;
  Row& target = rows_[static_cast<size_t>(row)];
  target.completed = completed;
  target.errors = errors;
  target.timed_out = timed_out;
  target.max_ns = max_ns;
  int64_t* counts = &counts_[static_cast<size_t>(row) * counts_length_];
  for (int32_t i = 0; i < latencies.counts_length(); ++i) {
    const int64_t count = latencies.count_at_index(i);
    if (count != 0) counts[geometry_index(latencies.value_from_index(i))] += count;
  }
}

Histogram Timeline::row_histogram(int32_t row) const {
  Histogram histogram(row_geometry());
  const size_t base = static_cast<size_t>(row) * counts_length_;
  for (size_t i = 0; i < counts_length_; ++i) {
    if (counts_[base + i] != 0) {
      histogram.add_count_at_index(static_cast<int32_t>(i), counts_[base + i]);
    }
  }
  return histogram;
}

int64_t Timeline::count_above(int32_t row, int64_t threshold_ns) const {
  if (counts_length_ == 0) return 0;
  // Slots strictly above the one holding the threshold: a value in the threshold's own slot
  // is within the histogram's precision of it and is not counted.
  const size_t base = static_cast<size_t>(row) * counts_length_;
  int64_t count = 0;
  for (size_t i = geometry_index(threshold_ns) + 1; i < counts_length_; ++i) {
    count += counts_[base + i];
  }
  return count;
}

}  // namespace hammer
