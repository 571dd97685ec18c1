// SPDX-License-Identifier: MIT
#pragma once
// HDR histogram of int64_t values (nanoseconds in hammer): log-linear buckets that keep
// `significant_figures` decimal digits of precision across the whole trackable range, with
// O(1) record() and every byte allocated once at construction. See histogram.cc for the bucket
// arithmetic and the memory figure. Not thread-safe: each worker owns its own and they are
// add()ed once at the end of a run.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/zeroed_array.h"
#include "stats/histogram_geometry.h"

namespace hammer {

class Histogram {
 public:
  static constexpr int64_t kDefaultLowestDiscernibleValue = 1;            // 1 ns
  static constexpr int64_t kDefaultHighestTrackableValue = 60'000'000'000;  // 60 s
  static constexpr int kDefaultSignificantFigures = 3;

  /// 1 ns to 60 s at 3 significant figures: 27,648 counts, 221,184 bytes.
  Histogram();
  /// Any geometry HdrHistogram allows (lowest >= 1, highest >= 2 * lowest, figures 1..5);
  /// used to decode histograms written by other implementations. A geometry that fails
  /// is_valid_geometry() is a programming error: it asserts in debug builds and falls back to
  /// the default geometry otherwise.
  Histogram(int64_t lowest_discernible_value, int64_t highest_trackable_value,
            int significant_figures);
  /// A histogram of `geometry` (HistogramGeometry::make), every slot zero.
  explicit Histogram(const HistogramGeometry& geometry);
  /// True when the constructor accepts this geometry (as HdrHistogram_c's
  /// hdr_calculate_bucket_config would); decoders check untrusted input with it.
  static bool is_valid_geometry(int64_t lowest_discernible_value, int64_t highest_trackable_value,
                                int significant_figures);
  /// Number of count slots the geometry needs, without allocating them; 0 when invalid.
  static int32_t counts_length_for(int64_t lowest_discernible_value,
                                   int64_t highest_trackable_value, int significant_figures);

  Histogram(const Histogram& other) = default;
  /// Reuses this histogram's slots when the geometry is the same.
  Histogram& operator=(const Histogram& other);
  /// A moved-from histogram has no slots: only assign to it or destroy it.
  Histogram(Histogram&& other) noexcept;
  Histogram& operator=(Histogram&& other) noexcept;
  ~Histogram() = default;

  /// Records one value. Values below 0 record as 0; values above highest_trackable_value are
  /// clamped to it AND counted in out_of_range_count(), so a report can say so. Never
  /// allocates.
  void record(int64_t value);
  /// Records `count` (> 0; anything else is ignored) occurrences of `value`.
  void record_n(int64_t value, int64_t count);

  /// Adds every count of `other`. Same geometry: a straight sum of counts; different geometry:
  /// each of other's values re-recorded at its bucket's equivalent value.
  void add(const Histogram& other);
  void reset();

  int64_t total_count() const { return total_count_; }
  int64_t out_of_range_count() const { return out_of_range_count_; }
  /// Smallest and largest recorded values (bucket-equivalent, as HdrHistogram reports them);
  /// 0 when empty.
  int64_t min() const;
  int64_t max() const;
  double mean() const;
  double stdev() const;
  /// Value at percentile q in [0, 100] (q is clamped into that range); 0 when empty.
  /// percentile(0) == min(), percentile(100) == max().
  int64_t value_at_percentile(double q) const;

  const HistogramGeometry& geometry() const { return geometry_; }
  int64_t lowest_discernible_value() const { return geometry_.lowest_discernible_value(); }
  int64_t highest_trackable_value() const { return geometry_.highest_trackable_value(); }
  int significant_figures() const { return geometry_.significant_figures(); }
  /// Number of count slots and their size in bytes (the allocation made at construction);
  /// 0 once moved from.
  int32_t counts_length() const { return geometry_.counts_length(); }
  /// HdrHistogram's bucket geometry, as its percentile-distribution footer prints it.
  int32_t bucket_count() const { return geometry_.bucket_count(); }
  int32_t sub_bucket_count() const { return geometry_.sub_bucket_count(); }
  size_t counts_bytes() const { return static_cast<size_t>(counts_length()) * sizeof(int64_t); }

  /// Raw access for the V2 codec: the count in slot i (0 <= i < counts_length()), and the
  /// lowest value a slot stands for. add_count_at_index() keeps total, min and max in step
  /// (as HdrHistogram's decoders rebuild them); an index outside the slots is ignored.
  int64_t count_at_index(int32_t index) const { return counts_[index]; }
  void add_count_at_index(int32_t index, int64_t count);
  int64_t value_from_index(int32_t index) const { return geometry_.value_from_index(index); }
  /// Slot of `value`, after the same clamping record() applies (below 0 -> 0, above
  /// highest_trackable_value -> highest_trackable_value).
  int32_t index_for(int64_t value) const { return geometry_.index_for(value); }
  /// Lowest and highest values that are equivalent (land in the same slot) to `value`, after
  /// the same clamping as index_for().
  int64_t lowest_equivalent_value(int64_t value) const {
    return geometry_.lowest_equivalent_value(value);
  }
  int64_t highest_equivalent_value(int64_t value) const {
    return geometry_.highest_equivalent_value(value);
  }
  /// The value HdrHistogram reports for a slot: the middle of its equivalent range.
  int64_t median_equivalent_value(int64_t value) const {
    return geometry_.median_equivalent_value(value);
  }

 private:
  HistogramGeometry geometry_;
  ZeroedArray<int64_t> counts_;  // only the pages values fall in become resident
  int64_t total_count_ = 0;
  int64_t out_of_range_count_ = 0;
  int64_t min_value_ = INT64_MAX;  // smallest non-zero recorded value, HdrHistogram-style
  int64_t max_value_ = 0;
};

}  // namespace hammer
