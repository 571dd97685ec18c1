// SPDX-License-Identifier: MIT
// The HDR histogram's geometry: HdrHistogram's bucket arithmetic (hdr_calculate_bucket_config
// in HdrHistogram_c, AbstractHistogram in Java), so that a counts array is slot-for-slot the
// one every other implementation builds for the same geometry and the V2 encoding
// interoperates.
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
// int64_t = 221,184 bytes, which Histogram allocates once at construction. (HdrHistogram_c's
// test_create pins 23,552 for 1 .. 3.6e9: 22 buckets.) The log2 values are computed with integer arithmetic so
// exact powers of two cannot fall on the wrong side of a floating-point log.
//
// record() is O(1): the bucket is found from the count of leading zeros of (value | mask),
// the slot within it by a shift; no loop over buckets, no allocation.
#include "stats/histogram_geometry.h"

#include <algorithm>
#include <cassert>

namespace hammer {
namespace {

constexpr int kMinSignificantFigures = 1;
constexpr int kMaxSignificantFigures = 5;

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

}  // namespace

// hdr_calculate_bucket_config; nothing where HdrHistogram_c would return EINVAL.
std::optional<HistogramGeometry> HistogramGeometry::make(int64_t lowest, int64_t highest,
                                                         int figures) {
  if (lowest < 1 || figures < kMinSignificantFigures || figures > kMaxSignificantFigures) {
    return std::nullopt;
  }
  if (lowest > INT64_MAX / 2 || lowest * 2 > highest) return std::nullopt;
  int64_t largest_value_with_single_unit_resolution = 2;
  for (int i = 0; i < figures; ++i) largest_value_with_single_unit_resolution *= 10;
  int32_t sub_bucket_count_magnitude = 0;  // ceil(log2(2 * 10^figures))
  while ((int64_t{1} << sub_bucket_count_magnitude) < largest_value_with_single_unit_resolution) {
    ++sub_bucket_count_magnitude;
  }
  HistogramGeometry g;
  g.lowest_discernible_value_ = lowest;
  g.highest_trackable_value_ = highest;
  g.significant_figures_ = figures;
  g.sub_bucket_half_count_magnitude_ = std::max(sub_bucket_count_magnitude, 1) - 1;
  g.unit_magnitude_ = floor_log2(lowest);
  if (g.unit_magnitude_ + g.sub_bucket_half_count_magnitude_ > 61) return std::nullopt;
  g.leading_zero_count_base_ = 64 - g.unit_magnitude_ - (g.sub_bucket_half_count_magnitude_ + 1);
  g.sub_bucket_count_ = int32_t{1} << (g.sub_bucket_half_count_magnitude_ + 1);
  g.sub_bucket_half_count_ = g.sub_bucket_count_ / 2;
  g.sub_bucket_mask_ = (static_cast<int64_t>(g.sub_bucket_count_) - 1) << g.unit_magnitude_;
  g.bucket_count_ = buckets_needed_to_cover(highest, g.sub_bucket_count_, g.unit_magnitude_);
  g.counts_length_ = (g.bucket_count_ + 1) * (g.sub_bucket_count_ / 2);
  return g;
}

int32_t HistogramGeometry::index_for(int64_t value) const {
  return index_for_in_range(std::clamp<int64_t>(value, 0, highest_trackable_value_));
}

int64_t HistogramGeometry::value_from_index(int32_t index) const {
  assert(index >= 0 && index < counts_length_);
  int32_t bucket_index = (index >> sub_bucket_half_count_magnitude_) - 1;
  int32_t sub_bucket_index = (index & (sub_bucket_half_count_ - 1)) + sub_bucket_half_count_;
  if (bucket_index < 0) {
    sub_bucket_index -= sub_bucket_half_count_;
    bucket_index = 0;
  }
  return static_cast<int64_t>(sub_bucket_index) << (bucket_index + unit_magnitude_);
}

int64_t HistogramGeometry::size_of_equivalent_range(int64_t value) const {
  const int32_t bucket_index =
      leading_zero_count_base_ - std::countl_zero(static_cast<uint64_t>(value | sub_bucket_mask_));
  const auto sub_bucket_index = static_cast<int32_t>(value >> (bucket_index + unit_magnitude_));
  const int32_t adjusted_bucket =
      sub_bucket_index >= sub_bucket_count_ ? bucket_index + 1 : bucket_index;
  return int64_t{1} << (unit_magnitude_ + adjusted_bucket);
}

int64_t HistogramGeometry::lowest_equivalent_value(int64_t value) const {
  return value_from_index(index_for(value));
}

int64_t HistogramGeometry::highest_equivalent_value(int64_t value) const {
  const int64_t clamped = std::clamp<int64_t>(value, 0, highest_trackable_value_);
  // lowest + (size - 1), not (lowest + size) - 1: the top slot may end at INT64_MAX.
  return lowest_equivalent_value(clamped) + (size_of_equivalent_range(clamped) - 1);
}

int64_t HistogramGeometry::median_equivalent_value(int64_t value) const {
  const int64_t clamped = std::clamp<int64_t>(value, 0, highest_trackable_value_);
  return lowest_equivalent_value(clamped) + (size_of_equivalent_range(clamped) >> 1);
}

}  // namespace hammer
