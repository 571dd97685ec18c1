// SPDX-License-Identifier: MIT
#pragma once
// A latency histogram holds the answered requests only: a request that timed out has no
// latency, only a lower bound (the timeout). Leaving it out is right, but reading percentiles
// of the answered alone is not: with 2% timed out, the answered p99 is a finite figure below
// the timeout while the true p99 of the requests sent lies above it. CensoredTail reads the
// percentiles of every request that ended (answered or timed out), the timed-out ones counted
// as slower than any answer:
//
//   nearest rank of q over all n = a + t requests:  r = ceil(q/100 * n)
//   r > a, i.e. q/100 * (a + t) > a  ->  censored: only "> timeout" is known
//   otherwise                        ->  the answered histogram at q * n / a
//
// The comparison is exact (integers, q in ten-thousandths of a percent, the finest a
// percentile label has: core/percentiles.h), so q at exactly the answered share is not
// censored (it is the slowest answer) and the next step up is. max is censored by any timeout.
#include <cstdint>

#include "stats/histogram.h"

namespace hammer {

/// One percentile of every request that ended: a value, or (censored) the lower bound only.
struct TailFigure {
  int64_t value_ns = 0;   // censored: a bound the true value is above (CensoredTail::bound)
  bool censored = false;
};

struct CensoredTail {
  int64_t answered = 0;    // values in the histogram
  int64_t timed_out = 0;   // requests that ended by --timeout (no value)
  int64_t timeout_ns = 0;  // --timeout: the bound of every censored figure

  /// Some percentiles (and max) are censored: a request timed out.
  bool any() const { return timed_out > 0; }
  /// q in (0, 100]: true when q/100 * (answered + timed_out) > answered (exact).
  bool censors(double q) const;
  /// 100 * answered / (answered + timed_out): percentiles above it are censored (100 if none).
  double answered_percent() const;
  /// The percentile of the answered histogram that holds rank q of every request that ended
  /// (q itself when none timed out); for q not censored.
  double among_answered(double q) const;
  /// Percentile q of every request that ended; the histogram must hold the `answered` values.
  TailFigure at(const Histogram& answered_latencies, double q) const;
  /// What is known of every censored percentile: at least the timeout, and at least the
  /// slowest answer, as the percentiles below it read the timed-out requests as slower than
  /// any answer (so the figures never fall as the percentile rises). The two differ only
  /// where answers took longer than the timeout: the corrected stopwatch counts the wait for a
  /// connection, which --timeout (from the send) does not bound; a p99 read "> 200.00ms"
  /// beside a p90 of 421 ms.
  int64_t bound(const Histogram& answered_latencies) const;
  /// The slowest request: censored when any timed out, at least the timeout and the slowest
  /// answer.
  TailFigure max(const Histogram& answered_latencies) const;
  /// The mean of every request that ended: censored when any timed out, then a bound the true
  /// mean exceeds, each timed-out request counted at the timeout (it took longer). The
  /// answered requests' own mean would hide them: 10% of requests past 100 ms read as a mean
  /// of 0.59 ms. (No such bound exists for the standard deviation: it is unknown then.)
  TailFigure mean(const Histogram& answered_latencies) const;
};

/// The tail of `answered_latencies` given that `timed_out` requests ended by `timeout_ns`.
inline CensoredTail censored_tail(const Histogram& answered_latencies, int64_t timed_out,
                                  int64_t timeout_ns) {
  return {answered_latencies.total_count(), timed_out > 0 ? timed_out : 0, timeout_ns};
}

}  // namespace hammer
