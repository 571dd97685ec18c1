// SPDX-License-Identifier: MIT
#pragma once
// Timeline rows for the readings' tests (run/timeline_readings_test.cc, report/regimes_test.cc).
#include <cstdint>
#include <vector>

#include "run/timeline_readings.h"

namespace hammer::testing {

inline constexpr int64_t kRowSecond = 1'000'000'000;

/// Whole-second rows from per-second completion counts; the first `warmup` rows are warm-up,
/// `slow[i]` requests of row i were slow.
inline std::vector<SecondFigures> rows_of(const std::vector<int64_t>& completed, int warmup = 0,
                                          const std::vector<int64_t>& slow = {}) {
  std::vector<SecondFigures> rows;
  for (size_t i = 0; i < completed.size(); ++i) {
    SecondFigures row;
    row.second = static_cast<int32_t>(i + 1);
    row.start_ns = static_cast<int64_t>(i) * kRowSecond;
    row.length_ns = kRowSecond;
    row.warmup = static_cast<int>(i) < warmup;
    row.completed = completed[i];
    row.slow = i < slow.size() ? slow[i] : 0;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace hammer::testing
