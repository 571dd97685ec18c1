// SPDX-License-Identifier: MIT
#pragma once
// The values of the sweep flags: --slo KEY=LIMIT ("p99=50ms", "errors=1%"), and the lists and
// ranges that turn -c and --rate into sweeps ("1,2,5,10", "1k:20k:1k", "200:3000"). Each
// parser returns the value or a short reason; options.cc adds the flag's name and the value.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/expected.h"

namespace hammer {

/// Most steps a sweep may have: each is a full run of -d seconds.
inline constexpr size_t kMaxSweepLevels = 100;

/// "pNN[.N]" (any percentile parse_percentile() reads: p50, p95, p99.99) or "max" with a duration (a bare number is milliseconds; at
/// most 60 s, the histogram's range), or "errors" with a percentage ("1%", "0.5%", 0..100).
Expected<SloLimit, std::string> parse_slo(std::string_view text);

/// One --slo value: one KEY=LIMIT, or several separated by commas ("p99=50ms,errors=1%", as
/// --percentiles takes a list), each read by parse_slo(). No key may be given twice ("p99.9"
/// and "p99.90" are one).
Expected<std::vector<SloLimit>, std::string> parse_slo_list(std::string_view text);

/// True when `a` and `b` judge the same figure: the same key, or the same percentile.
bool same_slo(const SloLimit& a, const SloLimit& b);

/// True when a -c or --rate value is a list or range (it holds ',' or ':').
bool is_level_list(std::string_view text);

/// "1,2,5,10": whole numbers >= 1 and <= max, rising, at most kMaxSweepLevels.
Expected<std::vector<int64_t>, std::string> parse_connection_levels(std::string_view text,
                                                                    int64_t max);

/// A rate list "1000,2000,5k", a stepped range "1k:20k:1k" (start, stop, step: start, start +
/// step, ... up to stop inclusive), or a search range "200:3000" (returned as {low, high} with
/// *search = true). Each rate as parse_rate() reads it, within [min_rate, max_rate].
Expected<std::vector<double>, std::string> parse_rate_levels(std::string_view text,
                                                             double min_rate, double max_rate,
                                                             bool* search);

}  // namespace hammer
