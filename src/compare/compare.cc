// SPDX-License-Identifier: MIT
//
// Is B slower than A, beyond noise? One run's p99 is one number; run it again and it moves.
// How far it moves is visible inside the run: its seconds are small runs of their own. The
// bootstrap resamples them: draw as many seconds as the run had, with replacement, add their
// histograms (never average percentiles), take the percentile; do the same for B; B - A of
// each draw is one sample of how the difference could have come out. The central
// `confidence` share of those samples is the interval. A row is worse when the whole interval
// is above 0 and the change exceeds min_relative_change of A, better when it is all below 0
// and as large, otherwise no change: the runs cannot tell the difference from their own noise.
//
// Nor can they tell it from the host's. Each latency holds one of hammer's wake-ups, and how
// late those come differs from run to run with whatever else the machine does: on a busy
// two-core host, two runs of one server an hour apart read p50 27 us and 52 us with intervals
// that did not overlap. The host meter in each run measured that directly (its oversleeps'
// spread: ~50 us at p50, ~0.7 ms at p95 that day), so a change at percentile q no larger than
// either run's host noise at q is no change too: the host alone moves a latency that far.
// The meter wakes on a fixed interval, so a long stall is one of its samples but holds every
// request due while it lasts: its samples are weighted by the time they held the host
// (time_weighted_oversleeps). Counted once, seven stalls of up to 66 ms in a 6 s run (4% of it
// lost) left the meter's p99 at 4.1 ms, and a run of a server 5 ms slower on an eighth of its
// requests read "better" at p99 against such a run (its p99 32 ms, the other's 10 ms).
//
// Nor can a run tell anything of a percentile it has too few requests above. The
// distribution-free interval of a run's q-quantile comes from its order statistics: its upper
// bound lies beyond the run's slowest request unless q^n <= (1 - confidence) / 2, that is
// unless n (1 - q) reaches about -ln((1 - confidence) / 2), 3.69 requests above it at 95%.
// p99.9 of 2,000 requests (2 above) and p99.99 (0.2) are past it; there the bootstrap, which
// never draws beyond a run's slowest request, reads one run's slowest request against the
// other's as a change: two runs of one server here read p99.99 3.65 ms and 3.02 ms with an
// interval of [-0.80, -0.10] ms, "better". Such rows are no change, and say why.
//
// Nor is a timed-out request's latency known: only that it exceeded --timeout. Each run's
// figures are read as its report reads them (stats/censored_tail.h), over every request that
// ended, so a percentile the timeouts reach is only the timeout, a bound. Read from the
// answered alone, a run with 10% of its requests timed out compared "no change" at p99 with a
// healthy one (61.90 ms against 112.33 ms, its own report saying p99 > 200 ms). A bound
// decides a row only where it lies beyond the other run's figure (B's timeout above A's p99:
// worse, by at least the difference); two bounds, or a bound within the floor, decide nothing.
//
// Seconds, not requests, are the unit resampled: requests in one second share its state (a GC
// pause, a full queue), so resampling single requests would claim a precision the run does not
// have. The resamples are seeded: the same two documents always give the same verdicts.
#include "compare/compare.h"

#include <algorithm>
#include <cmath>

#include "stats/censored_tail.h"

namespace hammer {

namespace {

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Histogram sum_of(const std::vector<Histogram>& seconds) {
  Histogram total(seconds.front().geometry());
  for (const Histogram& second : seconds) total.add(second);
  return total;
}

// Second i's timed-out requests (0 for a side that counts none per second).
int64_t timed_out_in(const CompareSide& side, size_t i) {
  return i < side.seconds_timed_out.size() ? side.seconds_timed_out[i] : 0;
}

int64_t seconds_timed_out_sum(const CompareSide& side) {
  int64_t sum = 0;
  for (size_t i = 0; i < side.seconds.size(); ++i) sum += timed_out_in(side, i);
  return sum;
}

// One resample: as many seconds as the side has, drawn with replacement, added up; returns
// their timed-out requests, added up too.
int64_t resample(const CompareSide& side, uint64_t& state, Histogram& out) {
  out.reset();
  int64_t timed_out = 0;
  const uint64_t n = side.seconds.size();
  for (uint64_t i = 0; i < n; ++i) {
    const size_t pick = static_cast<size_t>(splitmix(state) % n);
    out.add(side.seconds[pick]);
    timed_out += timed_out_in(side, pick);
  }
  return timed_out;
}

// Percentile q of every request that ended, as a run's report reads it: where the timed-out
// requests reach it, only --timeout, a bound (censored).
TailFigure figure_at(const Histogram& answered, int64_t timed_out, int64_t timeout_ns, double q) {
  return censored_tail(answered, timed_out, timeout_ns).at(answered, q);
}

double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] * (1 - fraction) + sorted[above] * fraction;
}

bool same_percentile(double a, double b) { return std::abs(a - b) < 1e-9; }

}  // namespace

bool Comparison::failed() const {
  return std::any_of(rows.begin(), rows.end(), [](const CompareRow& row) { return row.failed; });
}

Histogram time_weighted_oversleeps(const Histogram& oversleeps, int64_t interval_ns) {
  Histogram weighted = oversleeps;
  if (interval_ns <= 0) return weighted;
  // A saved run's interval may be anything: each slot adds at most kMaxStrides records, each
  // standing for `stride` missed wake-ups (exactly one per wake-up with the meter's 5 ms).
  constexpr int64_t kMaxStrides = 4096;
  for (int32_t index = 0; index < oversleeps.counts_length(); ++index) {
    const int64_t count = oversleeps.count_at_index(index);
    if (count == 0) continue;
    const int64_t value = oversleeps.median_equivalent_value(oversleeps.value_from_index(index));
    const int64_t stride = std::max<int64_t>(1, value / interval_ns / kMaxStrides);
    const int64_t step = stride * interval_ns;  // <= value: no overflow
    for (int64_t missed = value - step; missed >= interval_ns; missed -= step) {
      weighted.record_n(missed, count * stride);
    }
  }
  return weighted;
}

double tail_requests_needed(double confidence) {
  return -std::log(std::max(1e-12, (1 - confidence) / 2));
}

namespace {

int64_t spread_at(const Histogram& weighted_oversleeps, double q) {
  if (weighted_oversleeps.total_count() == 0) return 0;
  return std::max<int64_t>(
      0, weighted_oversleeps.value_at_percentile(q) - weighted_oversleeps.min());
}

Histogram weighted_of(const CompareSide& side) {
  return time_weighted_oversleeps(side.host_oversleeps, side.host_interval_ns);
}

}  // namespace

int64_t host_noise_ns(const CompareSide& side, double q) { return spread_at(weighted_of(side), q); }

Comparison compare_runs(const CompareSide& a, const CompareSide& b,
                        const std::vector<double>& percentiles, const CompareSettings& settings,
                        const std::vector<FailIf>& fail_ifs) {
  Comparison comparison;
  comparison.settings = settings;
  const auto facts_of = [](const CompareSide& side) {
    return CompareSideFacts{side.whole.total_count() + side.timed_out, side.timed_out,
                            side.timeout_ns,  side.host_long_stalls,
                            side.host_lost_ns, side.host_max_stall_ns};
  };
  comparison.a_facts = facts_of(a);
  comparison.b_facts = facts_of(b);
  comparison.a_seconds = static_cast<int64_t>(a.seconds.size());
  comparison.b_seconds = static_cast<int64_t>(b.seconds.size());
  comparison.too_few_seconds = comparison.a_seconds < kMinSecondsToCompare ||
                               comparison.b_seconds < kMinSecondsToCompare;
  const bool resampled = !comparison.too_few_seconds && settings.resamples > 0;
  const Histogram a_sum = resampled ? sum_of(a.seconds) : a.whole;
  const Histogram b_sum = resampled ? sum_of(b.seconds) : b.whole;
  const int64_t a_sum_timed_out = resampled ? seconds_timed_out_sum(a) : a.timed_out;
  const int64_t b_sum_timed_out = resampled ? seconds_timed_out_sum(b) : b.timed_out;
  const Histogram a_host = weighted_of(a);
  const Histogram b_host = weighted_of(b);
  // deltas[r][row]: B - A of resample r at each percentile.
  std::vector<std::vector<double>> deltas(percentiles.size());
  if (resampled) {
    uint64_t state = settings.seed;
    Histogram a_draw(a.seconds.front().geometry());
    Histogram b_draw(b.seconds.front().geometry());
    for (int r = 0; r < settings.resamples; ++r) {
      const int64_t a_timed_out = resample(a, state, a_draw);
      const int64_t b_timed_out = resample(b, state, b_draw);
      for (size_t i = 0; i < percentiles.size(); ++i) {
        const double q = percentiles[i];
        deltas[i].push_back(
            static_cast<double>(figure_at(b_draw, b_timed_out, b.timeout_ns, q).value_ns) -
            static_cast<double>(figure_at(a_draw, a_timed_out, a.timeout_ns, q).value_ns));
      }
    }
  }
  const double tail = (1 - settings.confidence) / 2;
  const double requests_needed = tail_requests_needed(settings.confidence);
  const double fewer_requests = static_cast<double>(
      std::min(a.whole.total_count() + a.timed_out, b.whole.total_count() + b.timed_out));
  for (size_t i = 0; i < percentiles.size(); ++i) {
    const double q = percentiles[i];
    CompareRow row;
    row.percentile = q;
    const TailFigure a_figure = figure_at(a.whole, a.timed_out, a.timeout_ns, q);
    const TailFigure b_figure = figure_at(b.whole, b.timed_out, b.timeout_ns, q);
    row.a_ns = a_figure.value_ns;
    row.b_ns = b_figure.value_ns;
    row.a_censored = a_figure.censored;
    row.b_censored = b_figure.censored;
    const int64_t a_sum_ns = figure_at(a_sum, a_sum_timed_out, a.timeout_ns, q).value_ns;
    const int64_t b_sum_ns = figure_at(b_sum, b_sum_timed_out, b.timeout_ns, q).value_ns;
    row.delta_ns = static_cast<double>(b_sum_ns) - static_cast<double>(a_sum_ns);
    row.low_ns = row.delta_ns;
    row.high_ns = row.delta_ns;
    if (resampled) {
      std::sort(deltas[i].begin(), deltas[i].end());
      row.low_ns = quantile_of_sorted(deltas[i], tail);
      row.high_ns = quantile_of_sorted(deltas[i], 1 - tail);
    }
    const double floor_ns = settings.min_relative_change * static_cast<double>(a_sum_ns);
    row.host_noise_ns =
        static_cast<double>(std::max(spread_at(a_host, q), spread_at(b_host, q)));
    row.tail_requests = fewer_requests * (1 - q / 100);
    const bool up = row.low_ns > 0 && row.delta_ns > floor_ns;
    const bool down = row.high_ns < 0 && -row.delta_ns > floor_ns;
    if (comparison.too_few_seconds) {
      // Nothing says how far the difference could have come out otherwise: no verdict.
    } else if (row.a_censored || row.b_censored) {
      // A bound decides only beyond the other side's figure: B's timeout above A's figure by
      // more than the floor and the host's noise (B - A is then at least delta_ns), or A's
      // timeout as far above B's figure. Both bounds, or one too near, decide nothing. With
      // few requests above the percentile, only a bound beyond the other run's slowest
      // answer (a run without timeouts: its slowest is known) decides.
      const double margin_ns = std::max(floor_ns, row.host_noise_ns);
      const auto beyond_slowest = [](int64_t bound_ns, const CompareSide& other) {
        return other.timed_out == 0 && bound_ns > other.whole.max();
      };
      const bool enough = row.tail_requests >= requests_needed;
      if (row.b_censored && !row.a_censored && row.delta_ns > margin_ns) {
        if (enough || beyond_slowest(row.b_ns, a)) {
          row.verdict = CompareVerdict::worse;
        } else {
          row.too_few_requests = true;
        }
      } else if (row.a_censored && !row.b_censored && -row.delta_ns > margin_ns) {
        if (enough || beyond_slowest(row.a_ns, b)) {
          row.verdict = CompareVerdict::better;
        } else {
          row.too_few_requests = true;
        }
      } else {
        row.censored_unjudged = true;
      }
    } else if ((up || down) && row.tail_requests < requests_needed) {
      row.too_few_requests = true;
    } else if ((up || down) && std::abs(row.delta_ns) <= row.host_noise_ns) {
      row.within_host_noise = true;
    } else if (up) {
      row.verdict = CompareVerdict::worse;
    } else if (down) {
      row.verdict = CompareVerdict::better;
    }
    for (const FailIf& rule : fail_ifs) {
      if (!same_percentile(rule.percentile, q)) continue;
      row.fail_percent = rule.percent;
      const double limit_ns = rule.percent / 100 * static_cast<double>(a_sum_ns);
      // With B's figure a bound, delta_ns is one too: beyond the limit, B is beyond it.
      const bool shown_beyond = row.verdict == CompareVerdict::worse && row.delta_ns > limit_ns;
      const bool cannot_show = comparison.too_few_seconds || row.too_few_requests ||
                               row.censored_unjudged || row.b_censored;
      row.failed = shown_beyond || cannot_show;
      row.gate_unjudged = !shown_beyond && cannot_show;
    }
    comparison.rows.push_back(row);
  }
  return comparison;
}

}  // namespace hammer
