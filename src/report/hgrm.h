// SPDX-License-Identifier: MIT
#pragma once
// The .hgrm file: HdrHistogram's "percentile distribution" text, the form wrk2 prints and the
// HdrHistogram plotter (hdrhistogram.github.io/HdrHistogram/plotFiles.html) and
// HistogramLogAnalyzer read. It is written here exactly as the Java reference's
// AbstractHistogram.outputPercentileDistribution(out, 5, 1e6) writes it — same iteration,
// same columns, same rounding — so tools built on that output read hammer's file unchanged;
// tests/hgrm compares the two byte for byte.
#include <string>

#include "stats/histogram.h"

namespace hammer {

/// Percentile levels per halving of the distance to 100% (the reference's default).
inline constexpr int kHgrmTicksPerHalfDistance = 5;
/// Values are recorded in ns and written in ms, the unit the plotter's axis assumes.
inline constexpr double kHgrmNsPerOutputUnit = 1e6;

/// The whole file: header, one line per percentile step, the 100% line, and the
/// Mean/StdDeviation, Max/Total count and Buckets/SubBuckets footer.
std::string render_hgrm(const Histogram& histogram,
                        int ticks_per_half_distance = kHgrmTicksPerHalfDistance,
                        double ns_per_output_unit = kHgrmNsPerOutputUnit);

}  // namespace hammer
