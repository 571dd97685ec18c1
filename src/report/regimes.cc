// SPDX-License-Identifier: MIT
// The timeline readings in words (run/timeline_readings.h has the rules and their thresholds).
#include "report/regimes.h"

#include <cstdio>

#include "report/format.h"

namespace hammer {
namespace {

constexpr size_t kMaxSecondsNamed = 6;

std::string whole_rate(double per_second) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f", per_second);
  return buffer;
}

/// "a", "a and b", "a, b and c".
std::string join_words(const std::vector<std::string>& words) {
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) text += i + 1 == words.size() ? " and " : ", ";
    text += words[i];
  }
  return text;
}

/// Named items, at most kMaxSecondsNamed, then "N more".
std::string capped_list(std::vector<std::string> items, std::string_view more_noun) {
  if (items.size() > kMaxSecondsNamed) {
    const size_t more = items.size() - (kMaxSecondsNamed - 1);
    items.resize(kMaxSecondsNamed - 1);
    items.push_back(std::to_string(more) + " more " + std::string(more_noun));
  }
  return join_words(items);
}

}  // namespace

std::optional<std::string> regime_note(const std::vector<SecondFigures>& seconds,
                                       int64_t interval_ns, double headline_per_second) {
  const std::optional<RegimeReading> reading = read_regimes(seconds, interval_ns);
  if (!reading) return std::nullopt;
  std::vector<std::string> named;
  for (const SecondRate& row : reading->different) {
    named.push_back(std::to_string(row.second) + " (" + whole_rate(row.per_second) + " req/s)");
  }
  const bool one = reading->different.size() == 1;
  std::string note = "per-second throughput shows two regimes: " +
                     std::string(one ? "second " : "seconds ") + capped_list(named, "seconds") +
                     " against a median of " + whole_rate(reading->median_per_second) +
                     " req/s; Requests/sec (" + whole_rate(headline_per_second) + ") counts both";
  if (reading->opening) {
    note += "; --warmup " + std::to_string(reading->warmup_to_leave_out_s) + "s would leave " +
            (one ? "it" : "them") + " out of the figures";
  } else {
    note += "; they are not at the start, so a warm-up would not leave them out";
  }
  return note;
}

std::optional<std::string> slow_request_note(const std::vector<SecondFigures>& seconds,
                                             const SlowRequestFigures& figures) {
  const std::optional<SlowRequestReading> reading = read_slow_requests(seconds, figures);
  if (!reading) return std::nullopt;
  const int64_t count = reading->count;
  std::string note = std::to_string(count) + (count == 1 ? " request took" : " requests took") +
                     " over " + format_duration_ns(figures.threshold_ns) + " (max " +
                     format_duration_ns(figures.max_ns) + "), ";
  if (reading->seconds.size() == 1) {
    note += (count == 1 ? "in second " : "all in second ") +
            std::to_string(reading->seconds[0].second);
  } else {
    std::vector<std::string> where;
    for (const SlowSecond& row : reading->seconds) {
      where.push_back(std::to_string(row.second) + " (" + std::to_string(row.slow) + ")");
    }
    note += "in seconds " + capped_list(where, "seconds");
  }
  if (reading->no_percentile_shows) {
    note += count == 1 ? " — no percentile shows it" : " — no percentile shows them";
  }
  return note;
}

}  // namespace hammer
