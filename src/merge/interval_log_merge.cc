// SPDX-License-Identifier: MIT
#include "merge/interval_log_merge.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace hammer {

IntervalLog merge_interval_logs(const std::vector<IntervalLog>& logs) {
  IntervalLog merged;
  if (logs.empty()) return merged;
  int64_t earliest = INT64_MAX;
  int64_t interval_ns = 0;
  for (const IntervalLog& log : logs) {
    earliest = std::min(earliest, log.start_unix_ns);
    if (interval_ns == 0 && !log.intervals.empty()) interval_ns = log.intervals.front().length_ns;
  }
  if (interval_ns <= 0) interval_ns = 1'000'000'000;
  merged.start_unix_ns = earliest;
  merged.base_unix_ns = earliest;
  merged.comments.push_back("[hammer merge: " + std::to_string(logs.size()) +
                            " interval logs added per tag and interval]");
  // (slot, tag) -> index into merged.intervals; a map keeps the output in time order.
  std::map<std::pair<int64_t, std::string>, size_t> placed;
  std::vector<IntervalHistogram> intervals;
  for (const IntervalLog& log : logs) {
    for (const IntervalHistogram& interval : log.intervals) {
      const int64_t absolute = log.base_unix_ns + interval.start_ns;
      const int64_t slot = static_cast<int64_t>(std::floor(
          static_cast<double>(absolute - earliest) / static_cast<double>(interval_ns) + 0.5));
      const int64_t slot_from_start = std::max<int64_t>(slot, 0);  // before StartTime: first
      auto [it, inserted] =
          placed.emplace(std::make_pair(slot_from_start, interval.tag), intervals.size());
      if (inserted) {
        IntervalHistogram copy = interval;
        copy.start_ns = slot_from_start * interval_ns;
        intervals.push_back(std::move(copy));
      } else {
        IntervalHistogram& target = intervals[it->second];
        target.histogram.add(interval.histogram);
        target.length_ns = std::max(target.length_ns, interval.length_ns);
      }
    }
  }
  for (const auto& [key, index] : placed) merged.intervals.push_back(std::move(intervals[index]));
  return merged;
}

}  // namespace hammer
