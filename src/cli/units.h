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

/// Formats a duration with two decimals in the largest unit that keeps the figure >= 1:
/// 812 -> "812ns", 255'620 -> "255.62us", 1'234'567 -> "1.23ms", 2'000'000'000 -> "2.00s".
/// Nanoseconds print whole; seconds are the largest unit ("120.00s"). Rounds half up, and a
/// value that rounds to 1000 moves up a unit (999'999 -> "1.00ms"). Negative values get "-".
std::string format_duration_ns(int64_t ns);

/// Formats a byte count 1024-based, as wrk does: B, KB, MB, GB, TB, where 1KB = 1024 bytes.
/// Under 1024 prints whole ("512B"); above, two decimals ("152.31KB", "1.49MB").
std::string format_bytes(int64_t bytes);

/// Formats a count or rate plainly with two decimals, for figures such as Requests/sec:
/// 1999.514 -> "1999.51". NaN or infinity prints "-": the report never shows "nan".
std::string format_count(double value);

/// Formats a count 1000-based with two decimals and a suffix k, M, G, as wrk's format_metric:
/// 999 -> "999.00", 1'020 -> "1.02k", 2'500'000 -> "2.50M". NaN or infinity prints "-".
std::string format_metric(double value);

}  // namespace hammer
