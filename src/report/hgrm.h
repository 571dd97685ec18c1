// SPDX-License-Identifier: MIT
#pragma once
// The .hgrm file: HdrHistogram's "percentile distribution" text, the form wrk2 prints and the
// HdrHistogram plotter (hdrhistogram.github.io/HdrHistogram/plotFiles.html) and
// HistogramLogAnalyzer read. It is written here exactly as the Java reference's
// AbstractHistogram.outputPercentileDistribution(out, 5, 1e6) writes it — same iteration,
// same columns, same rounding — so tools built on that output read hammer's file unchanged;
// tests/hgrm compares the two byte for byte.
#include <cstdint>
#include <string>
#include <vector>

#include "stats/censored_tail.h"
#include "stats/histogram.h"

namespace hammer {

/// Percentile levels per halving of the distance to 100% (the reference's default).
inline constexpr int kHgrmTicksPerHalfDistance = 5;
/// Values are recorded in ns and written in ms, the unit the plotter's axis assumes.
inline constexpr double kHgrmNsPerOutputUnit = 1e6;

/// One line of the distribution: the value reached at a percentile level.
struct PercentileStep {
  int64_t value_ns;    // the highest value equivalent to the slot that reached the level
  double level;        // the level iterated to, in percent (the last step is exactly 100)
  int64_t total_count; // values at or below value_ns
};

/// Every line of the distribution, in order, the 100% line last; empty for an empty histogram.
/// The HTML report plots these same points, so its curve and the .hgrm agree point for point.
std::vector<PercentileStep> percentile_steps(
    const Histogram& histogram, int ticks_per_half_distance = kHgrmTicksPerHalfDistance);

/// The whole file: header, one line per percentile step, the 100% line, and the
/// Mean/StdDeviation, Max/Total count and Buckets/SubBuckets footer.
/// With `tail` holding timeouts, the Percentile column is over every request that ended (the
/// answered count over answered + timed out), so the distribution stops at the answered share
/// instead of claiming 1.0 with a finite value; a #[Timed out ...] footer line says so. Without
/// timeouts the file is the reference's, byte for byte.
std::string render_hgrm(const Histogram& histogram,
                        int ticks_per_half_distance = kHgrmTicksPerHalfDistance,
                        double ns_per_output_unit = kHgrmNsPerOutputUnit,
                        const CensoredTail& tail = {});

}  // namespace hammer
