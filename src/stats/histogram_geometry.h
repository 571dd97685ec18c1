// SPDX-License-Identifier: MIT
#pragma once
// HistogramGeometry: where each value lands in an HDR histogram's counts, and back. A plain
// value (copyable, comparable, no allocation), so a histogram and anything that indexes
// counts laid out like one (the timeline's per-second rows) share one definition of the
// bucket arithmetic; see histogram_geometry.cc for the math and HdrHistogram's names for it.
#include <bit>
#include <cstdint>
#include <optional>

namespace hammer {

class HistogramGeometry {
 public:
  /// The geometry HdrHistogram builds for (lowest >= 1, highest >= 2 * lowest, figures 1..5);
  /// nothing where HdrHistogram_c's hdr_calculate_bucket_config would refuse it.
  static std::optional<HistogramGeometry> make(int64_t lowest_discernible_value,
                                               int64_t highest_trackable_value,
                                               int significant_figures);

  int64_t lowest_discernible_value() const { return lowest_discernible_value_; }
  int64_t highest_trackable_value() const { return highest_trackable_value_; }
  int significant_figures() const { return significant_figures_; }
  /// Number of count slots a histogram of this geometry holds.
  int32_t counts_length() const { return counts_length_; }
  /// HdrHistogram's bucket geometry, as its percentile-distribution footer prints it.
  int32_t bucket_count() const { return bucket_count_; }
  int32_t sub_bucket_count() const { return sub_bucket_count_; }

  /// Slot of `value`, 0 <= value <= highest_trackable_value(): the recording fast path.
  int32_t index_for_in_range(int64_t value) const;
  /// Slot of `value` after clamping it into [0, highest_trackable_value()].
  int32_t index_for(int64_t value) const;
  /// The lowest value slot `index` stands for (0 <= index < counts_length()).
  int64_t value_from_index(int32_t index) const;
  /// Lowest, highest and middle values equivalent to `value` (in the same slot), after the
  /// same clamping as index_for().
  int64_t lowest_equivalent_value(int64_t value) const;
  int64_t highest_equivalent_value(int64_t value) const;
  int64_t median_equivalent_value(int64_t value) const;

  bool operator==(const HistogramGeometry&) const = default;

  /// No slots at all (what a moved-from histogram is left with); use make() for a real one.
  HistogramGeometry() = default;

 private:
  int64_t size_of_equivalent_range(int64_t value) const;

  int64_t lowest_discernible_value_ = 0;
  int64_t highest_trackable_value_ = 0;
  int significant_figures_ = 0;
  int32_t unit_magnitude_ = 0;
  int32_t leading_zero_count_base_ = 0;  // 64 - unit_magnitude - (half_count_magnitude + 1)
  int32_t sub_bucket_half_count_magnitude_ = 0;
  int32_t sub_bucket_count_ = 0;
  int32_t sub_bucket_half_count_ = 0;
  int64_t sub_bucket_mask_ = 0;
  int32_t bucket_count_ = 0;
  int32_t counts_length_ = 0;
};

// Defined inline: record() calls it for every response.
inline int32_t HistogramGeometry::index_for_in_range(int64_t value) const {
  // The bucket is the power of two just above value, counted from the top of bucket 0
  // (value | mask keeps every value below 2048 << unit_magnitude in bucket 0).
  const int32_t bucket_index =
      leading_zero_count_base_ - std::countl_zero(static_cast<uint64_t>(value | sub_bucket_mask_));
  const auto sub_bucket_index = static_cast<int32_t>(value >> (bucket_index + unit_magnitude_));
  // Buckets after the first store only their upper half: ((bucket + 1) * half) + (sub - half).
  return ((bucket_index + 1) << sub_bucket_half_count_magnitude_) +
         (sub_bucket_index - sub_bucket_half_count_);
}

}  // namespace hammer
