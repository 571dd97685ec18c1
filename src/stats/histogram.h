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

namespace hammer {

class Histogram {
 public:
  static constexpr int64_t kDefaultLowestDiscernibleValue = 1;            // 1 ns
  static constexpr int64_t kDefaultHighestTrackableValue = 60'000'000'000;  // 60 s
  static constexpr int kDefaultSignificantFigures = 3;

  /// 1 ns to 60 s at 3 significant figures: 27,648 counts, 221,184 bytes.
  Histogram();
  /// Any geometry HdrHistogram allows (lowest >= 1, highest >= 2 * lowest, figures 1..5);
  /// used to decode histograms written by other implementations.
  Histogram(int64_t lowest_discernible_value, int64_t highest_trackable_value,
            int significant_figures);

  Histogram(const Histogram& other);
  Histogram& operator=(const Histogram& other);
  Histogram(Histogram&&) noexcept;
  Histogram& operator=(Histogram&&) noexcept;
  ~Histogram();

  /// Records one value. Values below 0 record as 0; values above highest_trackable_value are
  /// clamped to it AND counted in out_of_range_count(), so a report can say so. Never
  /// allocates.
  void record(int64_t value);
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

  int64_t lowest_discernible_value() const { return lowest_discernible_value_; }
  int64_t highest_trackable_value() const { return highest_trackable_value_; }
  int significant_figures() const { return significant_figures_; }
  /// Number of count slots and their size in bytes (the allocation made at construction).
  int32_t counts_length() const { return counts_length_; }
  size_t counts_bytes() const { return static_cast<size_t>(counts_length_) * sizeof(int64_t); }

  /// Raw access for the V2 codec: the count in slot i, and the value a slot stands for.
  int64_t count_at_index(int32_t index) const { return counts_[index]; }
  void add_count_at_index(int32_t index, int64_t count);
  int64_t value_from_index(int32_t index) const;
  int32_t index_for(int64_t value) const;
  /// Lowest and highest values that are equivalent (land in the same slot) to `value`.
  int64_t lowest_equivalent_value(int64_t value) const;
  int64_t highest_equivalent_value(int64_t value) const;
  /// The value HdrHistogram reports for a slot: the middle of its equivalent range.
  int64_t median_equivalent_value(int64_t value) const;

 private:
  int64_t lowest_discernible_value_ = 0;
  int64_t highest_trackable_value_ = 0;
  int significant_figures_ = 0;
  int32_t unit_magnitude_ = 0;
  int32_t sub_bucket_half_count_magnitude_ = 0;
  int32_t sub_bucket_count_ = 0;
  int32_t sub_bucket_half_count_ = 0;
  int64_t sub_bucket_mask_ = 0;
  int32_t bucket_count_ = 0;
  int32_t counts_length_ = 0;
  std::unique_ptr<int64_t[]> counts_;
  int64_t total_count_ = 0;
  int64_t out_of_range_count_ = 0;
  int64_t min_value_ = INT64_MAX;  // smallest non-zero recorded value, HdrHistogram-style
  int64_t max_value_ = 0;
};

}  // namespace hammer
