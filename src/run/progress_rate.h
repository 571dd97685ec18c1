// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace hammer {

/// The progress line's completions per second, over the last second of reports rather than
/// since the previous one. Workers publish their counts every Worker::kPublishIntervalNs
/// (100 ms), as often as --progress-fd's reports come: over one interval a report sees one
/// publication or two, and a steady 500 req/s read 244, 517, 248, 746 (a new user's trial).
/// Over a second the staleness is a tenth of the span at most. Fixed-size: the reporting
/// thread allocates nothing for it.
class ProgressRate {
 public:
  static constexpr int64_t kWindowNs = 1'000'000'000;

  explicit ProgressRate(int64_t start_ns) { samples_[0] = {start_ns, 0}; }

  /// The rate from the oldest kept report no more than kWindowNs before `now_ns` (the start
  /// while the run is younger) to this one; then this report is kept.
  double add(int64_t now_ns, int64_t completed) {
    size_t oldest = newest_;
    for (size_t k = 1; k < count_; ++k) {
      const size_t index = (newest_ + samples_.size() - k) % samples_.size();
      if (now_ns - samples_[index].at_ns > kWindowNs) break;
      oldest = index;
    }
    const Sample& from = samples_[oldest];
    const double rate = static_cast<double>(completed - from.completed) * 1e9 /
                        static_cast<double>(std::max<int64_t>(now_ns - from.at_ns, 1));
    newest_ = (newest_ + 1) % samples_.size();
    samples_[newest_] = {now_ns, completed};
    count_ = std::min(count_ + 1, samples_.size());
    return rate;
  }

 private:
  struct Sample {
    int64_t at_ns = 0;
    int64_t completed = 0;
  };
  // 100 ms reports over a second, the start and a spare: a report further back than the
  // window is never the oldest one kept.
  std::array<Sample, 16> samples_{};
  size_t newest_ = 0;
  size_t count_ = 1;
};

}  // namespace hammer
