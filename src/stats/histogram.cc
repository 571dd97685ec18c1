// SPDX-License-Identifier: MIT
// HDR histogram: counts over HistogramGeometry's slots (histogram_geometry.cc has the bucket
// arithmetic and the memory figure), with HdrHistogram's rules for min, max, mean and
// percentiles so that figures match every other implementation's for the same counts.
#include "stats/histogram.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace hammer {

Histogram::Histogram()
    : Histogram(kDefaultLowestDiscernibleValue, kDefaultHighestTrackableValue,
                kDefaultSignificantFigures) {}

Histogram::Histogram(int64_t lowest_discernible_value, int64_t highest_trackable_value,
                     int significant_figures)
    : Histogram([&] {
        auto geometry = HistogramGeometry::make(lowest_discernible_value,
                                                highest_trackable_value, significant_figures);
        assert(geometry && "invalid histogram geometry");
        return geometry ? *geometry
                        : *HistogramGeometry::make(kDefaultLowestDiscernibleValue,
                                                   kDefaultHighestTrackableValue,
                                                   kDefaultSignificantFigures);
      }()) {}

Histogram::Histogram(const HistogramGeometry& geometry)
    : geometry_(geometry),
      counts_(static_cast<size_t>(geometry.counts_length())) {}  // zeroed

bool Histogram::is_valid_geometry(int64_t lowest, int64_t highest, int figures) {
  return HistogramGeometry::make(lowest, highest, figures).has_value();
}

int32_t Histogram::counts_length_for(int64_t lowest, int64_t highest, int figures) {
  const auto geometry = HistogramGeometry::make(lowest, highest, figures);
  return geometry ? geometry->counts_length() : 0;
}

Histogram& Histogram::operator=(const Histogram& other) {
  if (this == &other) return *this;
  if (geometry_ != other.geometry_ || !counts_) {
    *this = Histogram(other);  // different size: allocate, then move in
    return *this;
  }
  // Same geometry: reuse our allocation (pages zero in both stay untouched).
  counts_.assign_values(other.counts_);
  total_count_ = other.total_count_;
  out_of_range_count_ = other.out_of_range_count_;
  min_value_ = other.min_value_;
  max_value_ = other.max_value_;
  return *this;
}

Histogram::Histogram(Histogram&& other) noexcept { *this = std::move(other); }

Histogram& Histogram::operator=(Histogram&& other) noexcept {
  if (this == &other) return *this;
  geometry_ = other.geometry_;
  counts_ = std::move(other.counts_);
  total_count_ = other.total_count_;
  out_of_range_count_ = other.out_of_range_count_;
  min_value_ = other.min_value_;
  max_value_ = other.max_value_;
  // Leave `other` with no slots and no counts, so nothing reads the moved buffer.
  other.geometry_ = HistogramGeometry();
  other.total_count_ = 0;
  other.out_of_range_count_ = 0;
  other.min_value_ = INT64_MAX;
  other.max_value_ = 0;
  return *this;
}

void Histogram::record(int64_t value) {
  if (value < 0) value = 0;
  if (value > geometry_.highest_trackable_value()) [[unlikely]] {
    value = geometry_.highest_trackable_value();
    ++out_of_range_count_;
  }
  ++counts_[geometry_.index_for_in_range(value)];
  ++total_count_;
  if (value != 0 && value < min_value_) min_value_ = value;
  if (value > max_value_) max_value_ = value;
}

void Histogram::record_n(int64_t value, int64_t count) {
  if (count <= 0) return;
  if (value < 0) value = 0;
  if (value > geometry_.highest_trackable_value()) {
    value = geometry_.highest_trackable_value();
    out_of_range_count_ += count;
  }
  counts_[geometry_.index_for_in_range(value)] += count;
  total_count_ += count;
  if (value != 0 && value < min_value_) min_value_ = value;
  if (value > max_value_) max_value_ = value;
}

void Histogram::add_count_at_index(int32_t index, int64_t count) {
  if (index < 0 || index >= counts_length() || count == 0) return;
  counts_[index] += count;
  total_count_ += count;
  if (count < 0) return;  // HdrHistogram allows subtracting; min/max then stay as they were
  int64_t value = value_from_index(index);
  if (value != 0 && value < min_value_) min_value_ = value;
  if (value > max_value_) max_value_ = value;
}

void Histogram::add(const Histogram& other) {
  if (geometry_ == other.geometry_) {
    // Untouched slots stay untouched: their pages need not become resident (ZeroedArray).
    for (int32_t i = 0; i < counts_length(); ++i) {
      if (other.counts_[i] != 0) counts_[i] += other.counts_[i];
    }
    total_count_ += other.total_count_;
    out_of_range_count_ += other.out_of_range_count_;
    min_value_ = std::min(min_value_, other.min_value_);
    max_value_ = std::max(max_value_, other.max_value_);
    return;
  }
  // Different geometry: re-record each of other's slots at its lowest equivalent value, as
  // HdrHistogram's add() does. Its out-of-range values sit in the slot of its highest value;
  // when that slot is beyond our range too, record_n() already counts them.
  for (int32_t i = 0; i < other.counts_length(); ++i) {
    if (other.counts_[i] > 0) record_n(other.value_from_index(i), other.counts_[i]);
  }
  bool others_overflow_counted =
      other.lowest_equivalent_value(other.highest_trackable_value()) > geometry_.highest_trackable_value();
  if (!others_overflow_counted) out_of_range_count_ += other.out_of_range_count_;
}

void Histogram::reset() {
  if (counts_length() > 0) std::memset(counts_.get(), 0, counts_bytes());
  total_count_ = 0;
  out_of_range_count_ = 0;
  min_value_ = INT64_MAX;
  max_value_ = 0;
}

int64_t Histogram::min() const {
  if (total_count_ == 0) return 0;
  if (counts_[0] > 0 || min_value_ == INT64_MAX) return 0;
  return lowest_equivalent_value(min_value_);
}

int64_t Histogram::max() const {
  if (total_count_ == 0 || max_value_ == 0) return 0;
  return highest_equivalent_value(max_value_);
}

double Histogram::mean() const {
  if (total_count_ <= 0) return 0.0;
  long double sum = 0;  // count * value can pass INT64_MAX: 1e9 requests at 60 s
  for (int32_t i = 0; i < counts_length(); ++i) {
    if (counts_[i] != 0) {
      sum += static_cast<long double>(counts_[i]) *
             static_cast<long double>(median_equivalent_value(value_from_index(i)));
    }
  }
  return static_cast<double>(sum / static_cast<long double>(total_count_));
}

double Histogram::stdev() const {
  if (total_count_ <= 0) return 0.0;
  long double mean_value = mean();
  long double sum_of_squares = 0;
  for (int32_t i = 0; i < counts_length(); ++i) {
    if (counts_[i] != 0) {
      long double deviation =
          static_cast<long double>(median_equivalent_value(value_from_index(i))) - mean_value;
      sum_of_squares += deviation * deviation * static_cast<long double>(counts_[i]);
    }
  }
  return static_cast<double>(std::sqrt(sum_of_squares / static_cast<long double>(total_count_)));
}

int64_t Histogram::value_at_percentile(double q) const {
  if (total_count_ <= 0) return 0;
  if (!(q >= 0.0)) q = 0.0;  // also catches NaN
  if (q > 100.0) q = 100.0;
  // hdr_value_at_percentile: the rank is rounded to nearest, at least the first value.
  auto count_at_percentile = static_cast<int64_t>((q / 100.0) * static_cast<double>(total_count_) + 0.5);
  count_at_percentile = std::clamp<int64_t>(count_at_percentile, 1, total_count_);
  int64_t running = 0;
  for (int32_t i = 0; i < counts_length(); ++i) {
    running += counts_[i];
    if (running >= count_at_percentile) {
      int64_t value = value_from_index(i);
      return q == 0.0 ? lowest_equivalent_value(value) : highest_equivalent_value(value);
    }
  }
  return max();  // counts and total disagree (negative counts added): fall back
}

}  // namespace hammer
