// SPDX-License-Identifier: MIT
#pragma once
// Percentiles as typed: one ("99.9", in --slo p99.9=...) or a list (--percentiles
// 50,90,99.99). Each parser returns the value or a short reason; the caller adds the flag.
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace hammer {

/// A percentile strictly between 0 and 100, written as digits with an optional fraction of at
/// most kMaxPercentileDecimals places ("95", "99.9", "99.999"). 100 is the max, which every
/// report prints anyway; 0 would be the min.
Expected<double, std::string> parse_percentile(std::string_view text);

/// A comma-separated list of percentiles, each as parse_percentile() reads it, no duplicates,
/// at most kMaxPercentiles; returned rising, whatever order they were typed in.
Expected<std::vector<double>, std::string> parse_percentile_list(std::string_view text);

}  // namespace hammer
