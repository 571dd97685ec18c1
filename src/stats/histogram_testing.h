// SPDX-License-Identifier: MIT
#pragma once
// Test helpers shared by the histogram and V2 codec tests (header-only, test binaries only).
#include <gtest/gtest.h>

#include <cstdint>

#include "stats/histogram.h"

namespace hammer::testing {

/// Same geometry, every slot's count, total, min and max.
inline ::testing::AssertionResult same_counts(const Histogram& a, const Histogram& b) {
  if (a.lowest_discernible_value() != b.lowest_discernible_value() ||
      a.highest_trackable_value() != b.highest_trackable_value() ||
      a.significant_figures() != b.significant_figures() ||
      a.counts_length() != b.counts_length()) {
    return ::testing::AssertionFailure() << "geometry differs";
  }
  for (int32_t i = 0; i < a.counts_length(); ++i) {
    if (a.count_at_index(i) != b.count_at_index(i)) {
      return ::testing::AssertionFailure()
             << "slot " << i << " (value " << a.value_from_index(i) << "): " << a.count_at_index(i)
             << " vs " << b.count_at_index(i);
    }
  }
  if (a.total_count() != b.total_count()) {
    return ::testing::AssertionFailure() << "total " << a.total_count() << " vs " << b.total_count();
  }
  if (a.min() != b.min() || a.max() != b.max()) {
    return ::testing::AssertionFailure() << "min/max " << a.min() << "/" << a.max() << " vs "
                                         << b.min() << "/" << b.max();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace hammer::testing
