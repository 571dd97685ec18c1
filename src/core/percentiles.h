// SPDX-License-Identifier: MIT
#pragma once
// Which percentiles a report prints. The default spectrum is fixed (and is what every JSON
// document carries, so a schema-1 reader always finds its keys); --percentiles picks the rows
// the text report prints and adds keys to JSON's percentiles_ns. A percentile's label is its
// shortest decimal spelling ("50", "99.9", "99.99"): the text row reads "99.9%", the JSON key
// "99.9", the --slo key "p99.9".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace hammer {

/// The default spectrum, rising. --latency prints all of it; the short text report stops at 99.
inline const std::vector<double>& default_percentiles() {
  static const std::vector<double> spectrum = {50, 75, 90, 95, 99, 99.9, 99.99};
  return spectrum;
}

/// Most rows --percentiles may ask for; each is one line of text and one JSON key per histogram.
inline constexpr size_t kMaxPercentiles = 32;
/// Most decimal places a percentile may have (99.9999 is 1 in a million).
inline constexpr int kMaxPercentileDecimals = 4;

/// "50", "99.9", "99.99": at most kMaxPercentileDecimals places, no trailing zeros.
inline std::string percentile_label(double q) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", kMaxPercentileDecimals, q);
  std::string label = text;
  while (!label.empty() && label.back() == '0') label.pop_back();
  if (!label.empty() && label.back() == '.') label.pop_back();
  return label;
}

/// `rows` with `more` added, rising, one row per label: the rows of runs reported as one (a
/// merge of shards that asked for different --percentiles prints every row any asked for).
inline std::vector<double> union_of_percentiles(std::vector<double> rows,
                                                const std::vector<double>& more) {
  for (double q : more) {
    bool present = false;
    for (double row : rows) present = present || percentile_label(row) == percentile_label(q);
    if (!present) rows.push_back(q);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace hammer
