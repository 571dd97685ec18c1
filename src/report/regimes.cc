// SPDX-License-Identifier: MIT
// Two readings of the timeline. Both exist because the headline figures are honest sums that
// still hide something: throughput is requests / elapsed (never a mean of per-second samples,
// which would give three slow seconds of eleven 27% of the vote), so a cold start only shifts
// it a little — the regime note says which seconds were different and how to leave them out;
// percentiles cannot see 20 requests in 100,000 — the slow-request note counts them and says
// when they happened.
//
// Thresholds, and why. A second differs when it ran below half or above twice the median rate:
// wide enough that scheduling noise on a busy machine does not trip it, narrow enough that a
// cold start (often 10x slower) always does. The note fires only when the spread is real:
// stdev above half the mean, or one second below a fifth of the median. A stall is reported
// when max exceeds 10x p99.9 (a tail no percentile describes); the threshold for counting is
// 10x p50 unless --slow says otherwise. Rows whose median holds fewer than 10 requests are not
// read at all: their rates move in steps too coarse for a regime.
#include "report/regimes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/format.h"
#include "time/time_units.h"

namespace hammer {
namespace {

constexpr double kSpreadOverMean = 0.5;      // stdev above half the mean
constexpr double kFarBelowMedian = 0.2;      // one second below a fifth of the median
constexpr double kDifferentBelow = 0.5;      // seconds named: below half the median ...
constexpr double kDifferentAbove = 2.0;      // ... or above twice it
constexpr int64_t kStallOverP999 = 10;       // max above 10x p99.9
constexpr int64_t kDefaultSlowOverP50 = 10;  // default threshold: 10x p50
constexpr size_t kMaxSecondsNamed = 6;
// A row is read only when the median row holds at least this many requests: below it one
// request more or less moves a row past half or twice the median (-r 0.5 gives rows of 1, 0,
// 1, 0 by the schedule alone).
constexpr double kMinRequestsPerRow = 10;

std::string whole_rate(double per_second) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f", per_second);
  return buffer;
}

double rate_of(const SecondFigures& row) {
  return per_second(row.completed, row.length_ns);
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
  std::vector<const SecondFigures*> usable;
  for (const SecondFigures& row : seconds) {
    if (!row.warmup && row.length_ns > 0 && 2 * row.length_ns >= interval_ns) {
      usable.push_back(&row);
    }
  }
  if (usable.size() < 3) return std::nullopt;

  std::vector<double> rates;
  for (const SecondFigures* row : usable) rates.push_back(rate_of(*row));
  std::vector<double> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  const size_t middle = sorted.size() / 2;
  const double median =
      sorted.size() % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  if (median <= 0) return std::nullopt;
  if (median * static_cast<double>(interval_ns) / 1e9 < kMinRequestsPerRow) return std::nullopt;
  double mean = 0;
  for (double rate : rates) mean += rate;
  mean /= static_cast<double>(rates.size());
  double variance = 0;
  for (double rate : rates) variance += (rate - mean) * (rate - mean);
  const double stdev = std::sqrt(variance / static_cast<double>(rates.size()));
  const bool spread = stdev > kSpreadOverMean * mean || sorted.front() < kFarBelowMedian * median;
  if (!spread) return std::nullopt;

  // The slow seconds are the other regime when there are any (a cold start under a fast
  // majority); only when none is below half the median are the fast ones it (a slow majority).
  // Naming both would let one noisy fast second hide that the slow ones open the run.
  std::vector<size_t> different;
  for (size_t i = 0; i < usable.size(); ++i) {
    if (rates[i] < kDifferentBelow * median) different.push_back(i);
  }
  if (different.empty()) {
    for (size_t i = 0; i < usable.size(); ++i) {
      if (rates[i] > kDifferentAbove * median) different.push_back(i);
    }
  }
  if (different.empty()) return std::nullopt;

  std::vector<std::string> named;
  for (size_t i : different) {
    named.push_back(std::to_string(usable[i]->second) + " (" + whole_rate(rates[i]) + " req/s)");
  }
  std::string note = "per-second throughput shows two regimes: " +
                     std::string(different.size() == 1 ? "second " : "seconds ") +
                     capped_list(named, "seconds") + " against a median of " +
                     whole_rate(median) + " req/s; Requests/sec (" +
                     whole_rate(headline_per_second) + ") counts both";
  // Rows opening the measured part (no ordinary second before them) are a cold start that a
  // longer warm-up leaves out; rows later in the run are the server changing while measured.
  bool opening = true;
  for (size_t k = 0; k < different.size(); ++k) opening = opening && different[k] == k;
  if (opening) {
    const SecondFigures& last = *usable[different.back()];
    const int64_t end_ns = last.start_ns + last.length_ns;
    const int64_t warmup_s = (end_ns + 999'999'999) / 1'000'000'000;
    note += "; --warmup " + std::to_string(warmup_s) + "s would leave " +
            (different.size() == 1 ? "it" : "them") + " out of the figures";
  } else {
    note += "; they are not at the start, so a warm-up would not leave them out";
  }
  return note;
}

int64_t slow_threshold_ns(int64_t slow_ns, int64_t p50_ns) {
  return slow_ns > 0 ? slow_ns : kDefaultSlowOverP50 * p50_ns;
}

std::optional<std::string> slow_request_note(const std::vector<SecondFigures>& seconds,
                                             const SlowRequestFigures& figures) {
  if (figures.threshold_ns <= 0 || figures.max_ns <= figures.threshold_ns) return std::nullopt;
  if (!figures.threshold_given && figures.max_ns <= kStallOverP999 * figures.p999_ns) {
    return std::nullopt;
  }
  int64_t count = 0;
  std::vector<std::string> where;
  std::vector<const SecondFigures*> rows;
  for (const SecondFigures& row : seconds) {
    if (row.warmup || row.slow <= 0) continue;
    count += row.slow;
    rows.push_back(&row);
  }
  if (count == 0) return std::nullopt;
  std::string note = std::to_string(count) + (count == 1 ? " request took" : " requests took") +
                     " over " + format_duration_ns(figures.threshold_ns) + " (max " +
                     format_duration_ns(figures.max_ns) + "), ";
  if (rows.size() == 1) {
    note += (count == 1 ? "in second " : "all in second ") + std::to_string(rows[0]->second);
  } else {
    for (const SecondFigures* row : rows) {
      where.push_back(std::to_string(row->second) + " (" + std::to_string(row->slow) + ")");
    }
    note += "in seconds " + capped_list(where, "seconds");
  }
  if (figures.p999_ns <= figures.threshold_ns) {
    note += count == 1 ? " — no percentile shows it" : " — no percentile shows them";
  }
  return note;
}

}  // namespace hammer
