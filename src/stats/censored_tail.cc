// SPDX-License-Identifier: MIT
#include "stats/censored_tail.h"

#include <algorithm>
#include <cmath>

namespace hammer {
namespace {

// Percentiles in ten-thousandths of a percent: 99.99 -> 999,900; 100 -> 1,000,000.
constexpr int64_t kPercentScale = 10'000;
constexpr int64_t kWhole = 100 * kPercentScale;
// Counts up to this keep the products below in 64 bits (10^6 x 10^13 < 2^64).
constexpr int64_t kExactCountLimit = 10'000'000'000'000;

}  // namespace

bool CensoredTail::censors(double q) const {
  if (timed_out <= 0) return false;
  const int64_t scaled = std::clamp<int64_t>(std::llround(q * kPercentScale), 0, kWhole);
  if (scaled == 0) return answered == 0;
  // q/100 * (a + t) > a  <=>  q_s * t > (W - q_s) * a, with q_s = q scaled and W = 100 scaled.
  if (answered <= kExactCountLimit && timed_out <= kExactCountLimit) {
    return static_cast<uint64_t>(scaled) * static_cast<uint64_t>(timed_out) >
           static_cast<uint64_t>(kWhole - scaled) * static_cast<uint64_t>(answered);
  }
  return static_cast<long double>(scaled) * static_cast<long double>(timed_out) >
         static_cast<long double>(kWhole - scaled) * static_cast<long double>(answered);
}

double CensoredTail::answered_percent() const {
  const int64_t ended = answered + timed_out;
  if (timed_out <= 0 || ended <= 0) return 100.0;
  return 100.0 * static_cast<double>(answered) / static_cast<double>(ended);
}

TailFigure CensoredTail::at(const Histogram& answered_latencies, double q) const {
  if (censors(q)) return {bound(answered_latencies), true};
  return {answered_latencies.value_at_percentile(among_answered(q)), false};
}

int64_t CensoredTail::bound(const Histogram& answered_latencies) const {
  if (answered <= 0) return timeout_ns;
  // The rows below the answered share read the timed-out requests as slower than any answer
  // (among_answered): by the same reading each censored percentile is one of them, above the
  // slowest answer as well as the timeout. A looser bound (the answer `timed_out` ranks
  // below, wherever they lie) read "> 100.00ms" at p99 under a p95 of 142.74 ms (a new
  // user's trial): percentiles that fell as they rose.
  return std::max(timeout_ns, answered_latencies.value_at_percentile(100.0));
}

double CensoredTail::among_answered(double q) const {
  if (timed_out <= 0 || answered <= 0) return q;
  // The same rank among every request that ended, read from the answered ones: the timed out
  // all lie above, so rank q/100 * n is the answered histogram's percentile q * n / a.
  const double ended = static_cast<double>(answered + timed_out);
  return std::min(100.0, q * ended / static_cast<double>(answered));
}

TailFigure CensoredTail::max(const Histogram& answered_latencies) const {
  if (timed_out > 0) {
    return {answered > 0 ? std::max(timeout_ns, answered_latencies.max()) : timeout_ns, true};
  }
  return {answered_latencies.max(), false};
}

TailFigure CensoredTail::mean(const Histogram& answered_latencies) const {
  const double answered_sum =
      answered > 0 ? answered_latencies.mean() * static_cast<double>(answered) : 0.0;
  if (timed_out > 0) {
    const double sum = answered_sum + static_cast<double>(timeout_ns) * static_cast<double>(timed_out);
    return {std::llround(sum / static_cast<double>(answered + timed_out)), true};
  }
  return {std::llround(answered > 0 ? answered_latencies.mean() : 0.0), false};
}

}  // namespace hammer
