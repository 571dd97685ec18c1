// SPDX-License-Identifier: MIT
// Why these definitions. A single-threaded server that takes 1 ms per request holds about
// 1,000 req/s whatever the concurrency; past the point where it is always busy, more
// connections only queue: throughput stays flat and mean latency grows in proportion (Little's
// law, in flight = throughput x latency, gives the connection count back). The knee is the
// level where that starts: the first step after which no later step adds more than 5%
// throughput, provided latency at the end of the curve is above the knee's. Requiring every
// later step to stay flat, not only the next one, keeps one noisy step from moving the knee
// early. A collapse is different: throughput *falling* as load rises (thrashing, timeouts);
// it is named with the last level that held, 10% being above the noise of a shared machine.
#include "sweep/knee.h"

#include <algorithm>

namespace hammer {

std::optional<KneeReading> find_knee(std::span<const CurvePoint> points, double min_gain) {
  if (points.size() < 2) return std::nullopt;
  const CurvePoint& last = points.back();
  for (size_t i = 0; i + 1 < points.size(); ++i) {
    double best_after = 0;
    for (size_t j = i + 1; j < points.size(); ++j) {
      best_after = std::max(best_after, points[j].per_second);
    }
    const bool flat = best_after <= points[i].per_second * (1 + min_gain);
    const bool latency_grows = last.mean_latency_ns > points[i].mean_latency_ns * (1 + min_gain);
    if (flat && latency_grows) {
      return KneeReading{i,
                         points[i].level,
                         points[i].per_second,
                         best_after,
                         points[i].mean_latency_ns,
                         last.level,
                         last.mean_latency_ns};
    }
  }
  return std::nullopt;
}

std::optional<CollapseReading> find_collapse(std::span<const CurvePoint> points, double drop) {
  size_t best = 0;
  for (size_t j = 1; j < points.size(); ++j) {
    const double floor = points[best].per_second * (1 - drop);
    // A fall that a higher level climbs back from is a dip, not a collapse: one noisy level
    // (877, 610, 967 req/s) read as "Collapse" beside "Knee: none, still rising".
    const bool recovers = std::any_of(points.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                                      points.end(),
                                      [&](const CurvePoint& later) { return later.per_second >= floor; });
    if (points[j].per_second < floor && !recovers) {
      return CollapseReading{best,
                             j,
                             points[best].level,
                             points[best].per_second,
                             points[j].level,
                             points[j].per_second};
    }
    if (points[j].per_second > points[best].per_second) best = j;
  }
  return std::nullopt;
}

double littles_law_in_flight(double per_second, double mean_latency_ns) {
  return per_second * mean_latency_ns / 1e9;
}

double littles_law_deviation_pct(double in_flight, double connections) {
  if (connections <= 0) return 0;
  return (in_flight - connections) / connections * 100.0;
}

}  // namespace hammer
