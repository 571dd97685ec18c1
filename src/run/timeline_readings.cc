// SPDX-License-Identifier: MIT
// Both readings exist because the headline figures are honest sums that still hide something:
// throughput is requests / elapsed (never a mean of per-second samples, which would give three
// slow seconds of eleven 27% of the vote), so a cold start only shifts it a little — the regime
// reading says which seconds were different and how to leave them out; percentiles cannot see
// 20 requests in 100,000 — the slow-request reading counts them and says when they happened.
#include "run/timeline_readings.h"

#include <algorithm>
#include <cmath>

#include "time/time_units.h"

namespace hammer {

std::optional<RegimeReading> read_regimes(const std::vector<SecondFigures>& seconds,
                                          int64_t interval_ns) {
  std::vector<const SecondFigures*> usable;
  for (const SecondFigures& row : seconds) {
    if (!row.warmup && row.length_ns > 0 && 2 * row.length_ns >= interval_ns) {
      usable.push_back(&row);
    }
  }
  if (usable.size() < 3) return std::nullopt;

  std::vector<double> rates;
  for (const SecondFigures* row : usable) rates.push_back(per_second(row->completed, row->length_ns));
  std::vector<double> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  const size_t middle = sorted.size() / 2;
  const double median =
      sorted.size() % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  if (median <= 0) return std::nullopt;
  if (median * static_cast<double>(interval_ns) / 1e9 < kRegimeMinRequestsPerRow) {
    return std::nullopt;
  }
  double mean = 0;
  for (double rate : rates) mean += rate;
  mean /= static_cast<double>(rates.size());
  double variance = 0;
  for (double rate : rates) variance += (rate - mean) * (rate - mean);
  const double stdev = std::sqrt(variance / static_cast<double>(rates.size()));
  const bool spread =
      stdev > kRegimeSpreadOverMean * mean || sorted.front() < kRegimeFarBelowMedian * median;
  if (!spread) return std::nullopt;

  // The slow seconds are the other regime when there are any (a cold start under a fast
  // majority); only when none is below half the median are the fast ones it (a slow majority).
  // Naming both would let one noisy fast second hide that the slow ones open the run.
  std::vector<size_t> different;
  for (size_t i = 0; i < usable.size(); ++i) {
    if (rates[i] < kRegimeDifferentBelow * median) different.push_back(i);
  }
  if (different.empty()) {
    for (size_t i = 0; i < usable.size(); ++i) {
      if (rates[i] > kRegimeDifferentAbove * median) different.push_back(i);
    }
  }
  if (different.empty()) return std::nullopt;

  RegimeReading reading;
  reading.median_per_second = median;
  for (size_t i : different) reading.different.push_back({usable[i]->second, rates[i]});
  // Rows opening the measured part (no ordinary second before them) are a cold start that a
  // longer warm-up leaves out; rows later in the run are the server changing while measured.
  reading.opening = true;
  for (size_t k = 0; k < different.size(); ++k) reading.opening = reading.opening && different[k] == k;
  if (reading.opening) {
    const SecondFigures& last = *usable[different.back()];
    const int64_t end_ns = last.start_ns + last.length_ns;
    reading.warmup_to_leave_out_s = (end_ns + kNanosPerSecond - 1) / kNanosPerSecond;
  }
  return reading;
}

int64_t slow_threshold_ns(int64_t slow_ns, int64_t p50_ns) {
  return slow_ns > 0 ? slow_ns : kDefaultSlowOverP50 * p50_ns;
}

std::optional<SlowRequestReading> read_slow_requests(const std::vector<SecondFigures>& seconds,
                                                     const SlowRequestFigures& figures) {
  if (figures.threshold_ns <= 0 || figures.max_ns <= figures.threshold_ns) return std::nullopt;
  if (!figures.threshold_given && figures.max_ns <= kStallOverP999 * figures.p999_ns) {
    return std::nullopt;
  }
  SlowRequestReading reading;
  for (const SecondFigures& row : seconds) {
    if (row.warmup || row.slow <= 0) continue;
    reading.count += row.slow;
    reading.seconds.push_back({row.second, row.slow});
  }
  if (reading.count == 0) return std::nullopt;
  reading.no_percentile_shows = figures.p999_ns <= figures.threshold_ns;
  return reading;
}

}  // namespace hammer
