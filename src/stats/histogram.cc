// SPDX-License-Identifier: MIT
// HDR histogram: HdrHistogram's bucket arithmetic (hdr_calculate_bucket_config in
// HdrHistogram_c, AbstractHistogram in Java), so that our counts array is slot-for-slot the
// one every other implementation builds for the same geometry and the V2 encoding interoperates.
//
// The bucket math. To keep `significant_figures` = 3 decimal digits we need single-unit
// resolution up to 2 * 10^3 = 2000, so a sub-bucket holds 2^ceil(log2(2000)) = 2048 slots
// (sub_bucket_count_magnitude = 11). Bucket 0 covers [0, 2048) one unit per slot. Each further
// bucket covers twice the range of the one before with the same number of distinct slots, so
// its slots are twice as wide: bucket b covers [1024 * 2^b, 2048 * 2^b) in 1024 slots of width
// 2^b. The lower half of every bucket b > 0 would repeat the range of bucket b - 1, so it is not
// stored: each bucket after the first adds only sub_bucket_count / 2 slots. A slot's width is
// therefore at most 1/1024 of the values in it, better than the promised 1/1000.
// `lowest_discernible_value` scales everything by 2^unit_magnitude (floor(log2(lowest))).
//
// Buckets are added, doubling the reach from 2048 << unit_magnitude, until the reach exceeds
// `highest_trackable_value`: for 1 ns .. 60 s that is 2048 * 2^25 > 6e10, i.e. 26 buckets, and
// counts_length = (bucket_count + 1) * (sub_bucket_count / 2) = 27 * 1024 = 27,648 slots of
// int64_t = 221,184 bytes, allocated once at construction. (HdrHistogram_c's test_create pins
// 23,552 for 1 .. 3.6e9: 22 buckets.) The log2 values are computed with integer arithmetic so
// exact powers of two cannot fall on the wrong side of a floating-point log.
//
// record() is O(1): the bucket is found from the count of leading zeros of (value | mask),
// the slot within it by a shift; no loop over buckets, no allocation.
#include "stats/histogram.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>

namespace hammer {
namespace {

constexpr int kMinSignificantFigures = 1;
constexpr int kMaxSignificantFigures = 5;

struct Geometry {
  int32_t unit_magnitude = 0;
  int32_t sub_bucket_half_count_magnitude = 0;
  int32_t sub_bucket_count = 0;
  int32_t bucket_count = 0;
  int32_t counts_length = 0;
};

int32_t floor_log2(int64_t value) {
  return 63 - std::countl_zero(static_cast<uint64_t>(value));
}

int32_t buckets_needed_to_cover(int64_t value, int32_t sub_bucket_count, int32_t unit_magnitude) {
  int64_t smallest_untrackable_value = static_cast<int64_t>(sub_bucket_count) << unit_magnitude;
  int32_t buckets_needed = 1;
  while (smallest_untrackable_value <= value) {
    if (smallest_untrackable_value > INT64_MAX / 2) return buckets_needed + 1;
    smallest_untrackable_value <<= 1;
    ++buckets_needed;
  }
  return buckets_needed;
}

// hdr_calculate_bucket_config; false where HdrHistogram_c would return EINVAL.
bool compute_geometry(int64_t lowest, int64_t highest, int figures, Geometry* out) {
  if (lowest < 1 || figures < kMinSignificantFigures || figures > kMaxSignificantFigures) {
    return false;
  }
  if (lowest > INT64_MAX / 2 || lowest * 2 > highest) return false;
  int64_t largest_value_with_single_unit_resolution = 2;
  for (int i = 0; i < figures; ++i) largest_value_with_single_unit_resolution *= 10;
  int32_t sub_bucket_count_magnitude = 0;  // ceil(log2(2 * 10^figures))
  while ((int64_t{1} << sub_bucket_count_magnitude) < largest_value_with_single_unit_resolution) {
    ++sub_bucket_count_magnitude;
  }
  Geometry g;
  g.sub_bucket_half_count_magnitude = std::max(sub_bucket_count_magnitude, 1) - 1;
  g.unit_magnitude = floor_log2(lowest);
  if (g.unit_magnitude + g.sub_bucket_half_count_magnitude > 61) return false;
  g.sub_bucket_count = int32_t{1} << (g.sub_bucket_half_count_magnitude + 1);
  g.bucket_count = buckets_needed_to_cover(highest, g.sub_bucket_count, g.unit_magnitude);
  g.counts_length = (g.bucket_count + 1) * (g.sub_bucket_count / 2);
  *out = g;
  return true;
}

}  // namespace

Histogram::Histogram()
    : Histogram(kDefaultLowestDiscernibleValue, kDefaultHighestTrackableValue,
                kDefaultSignificantFigures) {}

Histogram::Histogram(int64_t lowest_discernible_value, int64_t highest_trackable_value,
                     int significant_figures) {
  bool valid = is_valid_geometry(lowest_discernible_value, highest_trackable_value,
                                 significant_figures);
  assert(valid && "invalid histogram geometry");
  if (valid) {
    init_geometry(lowest_discernible_value, highest_trackable_value, significant_figures);
  } else {
    init_geometry(kDefaultLowestDiscernibleValue, kDefaultHighestTrackableValue,
                  kDefaultSignificantFigures);
  }
  counts_ = ZeroedArray<int64_t>(static_cast<size_t>(counts_length_));  // zeroed
}

void Histogram::init_geometry(int64_t lowest, int64_t highest, int figures) {
  Geometry g;
  compute_geometry(lowest, highest, figures, &g);
  lowest_discernible_value_ = lowest;
  highest_trackable_value_ = highest;
  significant_figures_ = figures;
  unit_magnitude_ = g.unit_magnitude;
  sub_bucket_half_count_magnitude_ = g.sub_bucket_half_count_magnitude;
  leading_zero_count_base_ = 64 - unit_magnitude_ - (sub_bucket_half_count_magnitude_ + 1);
  sub_bucket_count_ = g.sub_bucket_count;
  sub_bucket_half_count_ = g.sub_bucket_count / 2;
  sub_bucket_mask_ = (static_cast<int64_t>(sub_bucket_count_) - 1) << unit_magnitude_;
  bucket_count_ = g.bucket_count;
  counts_length_ = g.counts_length;
}

bool Histogram::is_valid_geometry(int64_t lowest, int64_t highest, int figures) {
  Geometry g;
  return compute_geometry(lowest, highest, figures, &g);
}

int32_t Histogram::counts_length_for(int64_t lowest, int64_t highest, int figures) {
  Geometry g;
  return compute_geometry(lowest, highest, figures, &g) ? g.counts_length : 0;
}

Histogram::Histogram(const Histogram& other)
    : lowest_discernible_value_(other.lowest_discernible_value_),
      highest_trackable_value_(other.highest_trackable_value_),
      significant_figures_(other.significant_figures_),
      unit_magnitude_(other.unit_magnitude_),
      leading_zero_count_base_(other.leading_zero_count_base_),
      sub_bucket_half_count_magnitude_(other.sub_bucket_half_count_magnitude_),
      sub_bucket_count_(other.sub_bucket_count_),
      sub_bucket_half_count_(other.sub_bucket_half_count_),
      sub_bucket_mask_(other.sub_bucket_mask_),
      bucket_count_(other.bucket_count_),
      counts_length_(other.counts_length_),
      counts_(other.counts_),
      total_count_(other.total_count_),
      out_of_range_count_(other.out_of_range_count_),
      min_value_(other.min_value_),
      max_value_(other.max_value_) {
}

Histogram& Histogram::operator=(const Histogram& other) {
  if (this == &other) return *this;
  if (!same_geometry(other) || !counts_) {
    *this = Histogram(other);  // different size: allocate, then move in
    return *this;
  }
  // Same geometry: reuse our allocation.
  std::memcpy(counts_.get(), other.counts_.get(), counts_bytes());
  total_count_ = other.total_count_;
  out_of_range_count_ = other.out_of_range_count_;
  min_value_ = other.min_value_;
  max_value_ = other.max_value_;
  return *this;
}

Histogram::Histogram(Histogram&& other) noexcept { *this = std::move(other); }

Histogram& Histogram::operator=(Histogram&& other) noexcept {
  if (this == &other) return *this;
  lowest_discernible_value_ = other.lowest_discernible_value_;
  highest_trackable_value_ = other.highest_trackable_value_;
  significant_figures_ = other.significant_figures_;
  unit_magnitude_ = other.unit_magnitude_;
  leading_zero_count_base_ = other.leading_zero_count_base_;
  sub_bucket_half_count_magnitude_ = other.sub_bucket_half_count_magnitude_;
  sub_bucket_count_ = other.sub_bucket_count_;
  sub_bucket_half_count_ = other.sub_bucket_half_count_;
  sub_bucket_mask_ = other.sub_bucket_mask_;
  bucket_count_ = other.bucket_count_;
  counts_length_ = other.counts_length_;
  counts_ = std::move(other.counts_);
  total_count_ = other.total_count_;
  out_of_range_count_ = other.out_of_range_count_;
  min_value_ = other.min_value_;
  max_value_ = other.max_value_;
  // Leave `other` with no slots and no counts, so nothing reads the moved buffer.
  other.counts_length_ = 0;
  other.total_count_ = 0;
  other.out_of_range_count_ = 0;
  other.min_value_ = INT64_MAX;
  other.max_value_ = 0;
  return *this;
}

Histogram::~Histogram() = default;

bool Histogram::same_geometry(const Histogram& other) const {
  return lowest_discernible_value_ == other.lowest_discernible_value_ &&
         highest_trackable_value_ == other.highest_trackable_value_ &&
         significant_figures_ == other.significant_figures_ &&
         counts_length_ == other.counts_length_;
}

int32_t Histogram::index_for_in_range(int64_t value) const {
  // The bucket is the power of two just above value, counted from the top of bucket 0
  // (value | mask keeps every value below 2048 << unit_magnitude in bucket 0).
  int32_t bucket_index =
      leading_zero_count_base_ - std::countl_zero(static_cast<uint64_t>(value | sub_bucket_mask_));
  auto sub_bucket_index = static_cast<int32_t>(value >> (bucket_index + unit_magnitude_));
  // Buckets after the first store only their upper half: ((bucket + 1) * half) + (sub - half).
  return ((bucket_index + 1) << sub_bucket_half_count_magnitude_) +
         (sub_bucket_index - sub_bucket_half_count_);
}

int32_t Histogram::index_for(int64_t value) const {
  return index_for_in_range(std::clamp<int64_t>(value, 0, highest_trackable_value_));
}

int64_t Histogram::value_from_index(int32_t index) const {
  assert(index >= 0 && index < counts_length_);
  int32_t bucket_index = (index >> sub_bucket_half_count_magnitude_) - 1;
  int32_t sub_bucket_index = (index & (sub_bucket_half_count_ - 1)) + sub_bucket_half_count_;
  if (bucket_index < 0) {
    sub_bucket_index -= sub_bucket_half_count_;
    bucket_index = 0;
  }
  return static_cast<int64_t>(sub_bucket_index) << (bucket_index + unit_magnitude_);
}

int64_t Histogram::size_of_equivalent_range(int64_t value) const {
  int32_t bucket_index =
      leading_zero_count_base_ - std::countl_zero(static_cast<uint64_t>(value | sub_bucket_mask_));
  auto sub_bucket_index = static_cast<int32_t>(value >> (bucket_index + unit_magnitude_));
  int32_t adjusted_bucket = sub_bucket_index >= sub_bucket_count_ ? bucket_index + 1 : bucket_index;
  return int64_t{1} << (unit_magnitude_ + adjusted_bucket);
}

int64_t Histogram::lowest_equivalent_value(int64_t value) const {
  return value_from_index(index_for(value));
}

int64_t Histogram::highest_equivalent_value(int64_t value) const {
  int64_t clamped = std::clamp<int64_t>(value, 0, highest_trackable_value_);
  // lowest + (size - 1), not (lowest + size) - 1: the top slot may end at INT64_MAX.
  return lowest_equivalent_value(clamped) + (size_of_equivalent_range(clamped) - 1);
}

int64_t Histogram::median_equivalent_value(int64_t value) const {
  int64_t clamped = std::clamp<int64_t>(value, 0, highest_trackable_value_);
  return lowest_equivalent_value(clamped) + (size_of_equivalent_range(clamped) >> 1);
}

void Histogram::record(int64_t value) {
  if (value < 0) value = 0;
  if (value > highest_trackable_value_) [[unlikely]] {
    value = highest_trackable_value_;
    ++out_of_range_count_;
  }
  ++counts_[index_for_in_range(value)];
  ++total_count_;
  if (value != 0 && value < min_value_) min_value_ = value;
  if (value > max_value_) max_value_ = value;
}

void Histogram::record_n(int64_t value, int64_t count) {
  if (count <= 0) return;
  if (value < 0) value = 0;
  if (value > highest_trackable_value_) {
    value = highest_trackable_value_;
    out_of_range_count_ += count;
  }
  counts_[index_for_in_range(value)] += count;
  total_count_ += count;
  if (value != 0 && value < min_value_) min_value_ = value;
  if (value > max_value_) max_value_ = value;
}

void Histogram::add_count_at_index(int32_t index, int64_t count) {
  if (index < 0 || index >= counts_length_ || count == 0) return;
  counts_[index] += count;
  total_count_ += count;
  if (count < 0) return;  // HdrHistogram allows subtracting; min/max then stay as they were
  int64_t value = value_from_index(index);
  if (value != 0 && value < min_value_) min_value_ = value;
  if (value > max_value_) max_value_ = value;
}

void Histogram::add(const Histogram& other) {
  if (same_geometry(other)) {
    // Untouched slots stay untouched: their pages need not become resident (ZeroedArray).
    for (int32_t i = 0; i < counts_length_; ++i) {
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
  for (int32_t i = 0; i < other.counts_length_; ++i) {
    if (other.counts_[i] > 0) record_n(other.value_from_index(i), other.counts_[i]);
  }
  bool others_overflow_counted =
      other.lowest_equivalent_value(other.highest_trackable_value_) > highest_trackable_value_;
  if (!others_overflow_counted) out_of_range_count_ += other.out_of_range_count_;
}

void Histogram::reset() {
  if (counts_length_ > 0) std::memset(counts_.get(), 0, counts_bytes());
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
  for (int32_t i = 0; i < counts_length_; ++i) {
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
  for (int32_t i = 0; i < counts_length_; ++i) {
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
  for (int32_t i = 0; i < counts_length_; ++i) {
    running += counts_[i];
    if (running >= count_at_percentile) {
      int64_t value = value_from_index(i);
      return q == 0.0 ? lowest_equivalent_value(value) : highest_equivalent_value(value);
    }
  }
  return max();  // counts and total disagree (negative counts added): fall back
}

}  // namespace hammer
