// SPDX-License-Identifier: MIT
#pragma once
// Units at the edges: the only place hammer turns text into nanoseconds or requests/s
// (parsing flags) and nanoseconds or bytes back into text (the report). Inside, every time is
// int64_t nanoseconds; keeping both directions here, as wrk's units.c keeps scan_time and
// format_time_us together, means a "ms" can only mean one thing.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace hammer {

inline constexpr int64_t kNanosecondUnit = 1;
inline constexpr int64_t kMicrosecondUnit = 1'000;
inline constexpr int64_t kMillisecondUnit = 1'000'000;
inline constexpr int64_t kSecondUnit = 1'000'000'000;
inline constexpr int64_t kMinuteUnit = 60 * kSecondUnit;
inline constexpr int64_t kHourUnit = 60 * kMinuteUnit;

/// Parses a non-negative duration: digits, an optional fraction, an optional unit
/// (`ns`, `us`, `ms`, `s`, `m`, `h`): "10", "1.5s", "500ms", "2m". Without a unit the number
/// counts `default_unit_ns` (e.g. kSecondUnit for --duration, kMillisecondUnit for
/// --timeout). Fractions finer than 1 ns are truncated. No sign, no spaces, no exponent.
/// The error is a short reason ("not a duration", "too large") for the caller to wrap with
/// the flag's name; range checks beyond int64_t are the caller's.
Expected<int64_t, std::string> parse_duration_ns(std::string_view text, int64_t default_unit_ns);

/// Parses a non-negative rate in requests/s: digits with an optional fraction and an optional
/// suffix `k`/`K` (x1,000) or `M` (x1,000,000): "2000", "2k", "1.5k", "0.5", "1M". A lower-case
/// `m` is refused, because next to durations it reads as milli. The error is a short reason.
Expected<double, std::string> parse_rate(std::string_view text);

}  // namespace hammer
