// SPDX-License-Identifier: MIT
#pragma once
// Units at the edges: the only place hammer turns the text of a flag into nanoseconds or
// requests/s. Inside, every time is int64_t nanoseconds. The other direction, figures back into
// text, is the report's (report/format.h).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "time/time_units.h"

namespace hammer {

/// Why a duration or a rate did not parse. Callers decide on this (a value too large gets its
/// own message naming the limit); describe() words it.
enum class UnitError : uint8_t {
  malformed,     // not digits with an optional fraction and suffix
  unknown_unit,  // a suffix that is no unit ("10x", "5mm")
  too_large,     // beyond what the type holds
};
std::string_view describe(UnitError error);

/// Parses a non-negative duration: digits, an optional fraction, an optional unit
/// (`ns`, `us`, `ms`, `s`, `m`, `h`): "10", "1.5s", "500ms", "2m"; or several such parts, each
/// with its unit, added up as Go writes durations: "1m30s", "1h30m", "1s500ms". A bare number
/// (alone) counts `default_unit_ns` (e.g. kNanosPerSecond for --duration, kNanosPerMilli for
/// --timeout). Fractions finer than 1 ns are truncated. No sign, no spaces, no exponent.
/// Range checks beyond int64_t are the caller's.
Expected<int64_t, UnitError> parse_duration_ns(std::string_view text, int64_t default_unit_ns);

/// Parses a non-negative rate in requests/s: digits with an optional fraction and an optional
/// suffix `k`/`K` (x1,000) or `M` (x1,000,000): "2000", "2k", "1.5k", "0.5", "1M". A lower-case
/// `m` is refused, because next to durations it reads as milli. Or requests per a period, as
/// vegeta writes it: "50/s", "100/1m", "1k/500ms" (the period is a duration with its unit; a
/// bare unit is one of it).
Expected<double, UnitError> parse_rate(std::string_view text);

/// Parses a count as wrk writes one with an SI suffix: digits with an optional fraction and a
/// suffix `k`/`K` (x1,000) or `M` (x1,000,000) whose product is whole: "1k", "10K", "1.5k",
/// "1M". A count without a suffix is malformed here: plain numbers keep their own parser and
/// its messages. Range checks (>= 1, a flag's maximum) are the caller's.
Expected<int64_t, UnitError> parse_count(std::string_view text);

}  // namespace hammer
