// SPDX-License-Identifier: MIT
#pragma once
// Readings of a load curve, as pure functions over (level, throughput, latency) points so they
// can be tested without a server: the knee (throughput stops rising while latency keeps
// growing), a collapse (throughput falls as load rises), and Little's law (in flight =
// throughput x latency), which in a closed loop must give back the connection count.
#include <cstddef>
#include <optional>
#include <span>

namespace hammer {

/// One step of a sweep: the load offered (connections or req/s), what the server completed,
/// and the mean latency the stopwatch saw.
struct CurvePoint {
  double level = 0;
  double per_second = 0;
  double mean_latency_ns = 0;
};

/// Throughput must grow by more than this between steps to count as still rising.
inline constexpr double kKneeMinGain = 0.05;
/// Throughput this far below the best level before it counts as a collapse (noise stays
/// under it on a shared machine).
inline constexpr double kCollapseDrop = 0.10;

struct KneeReading {
  size_t index = 0;               // the knee's step in the points given
  double level = 0;
  double per_second = 0;          // throughput at the knee
  double best_after_per_second = 0;  // the most any later step reached
  double mean_latency_ns = 0;     // at the knee
  double last_level = 0;          // the last step, where latency is compared
  double last_mean_latency_ns = 0;
};

/// The first level after which no later step gains more than min_gain in throughput while
/// mean latency at the last step is more than min_gain above the knee's. nullopt when
/// throughput was still rising at the end (or fewer than two points).
std::optional<KneeReading> find_knee(std::span<const CurvePoint> points,
                                     double min_gain = kKneeMinGain);

struct CollapseReading {
  size_t held_index = 0;   // the level with the best throughput before the fall: the last that held
  size_t fell_index = 0;   // the first later step more than `drop` below it
  double held_level = 0;
  double held_per_second = 0;
  double fell_level = 0;
  double fell_per_second = 0;
};

/// The first step whose throughput is more than `drop` below the best of the steps before it,
/// and stays there: no later step climbs back to within `drop` of that best.
std::optional<CollapseReading> find_collapse(std::span<const CurvePoint> points,
                                             double drop = kCollapseDrop);

/// Little's law: requests in flight on average = throughput (req/s) x mean latency (s).
double littles_law_in_flight(double per_second, double mean_latency_ns);

/// How far `in_flight` is from `connections`, in % of `connections` (signed); 0 when
/// connections <= 0.
double littles_law_deviation_pct(double in_flight, double connections);

}  // namespace hammer
