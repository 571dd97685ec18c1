// SPDX-License-Identifier: MIT
#pragma once
// Unit formatting for the text report: the one place where integer nanoseconds and byte counts
// become human units (style.md §2: convert only at the edges). Every scaled figure has two
// decimals, like wrk's units.c, so columns line up and a reader can compare them by eye.
#include <cstdint>
#include <string>

namespace hammer {

/// A duration in the largest unit that keeps the figure below 1000: "812ns" (whole
/// nanoseconds: nothing finer exists), "255.62us", "1.23ms", "2.00s", "75.00s" (seconds is the
/// largest unit). The unit is chosen after rounding, so 999'999 ns is "1.00ms", never
/// "1000.00us". Negative durations keep their sign: "-1.50ms".
std::string format_duration_ns(int64_t ns);

/// A byte count, 1024-based as wrk prints it: "512.00B", "152.31KB", "1.49MB", "2.00GB",
/// "1.00TB". The unit is chosen after rounding (1023.999 B is "1.00KB").
std::string format_bytes(double bytes);

/// A rate per second with two decimals, unscaled: "1999.51".
std::string format_rate(double per_second);

/// A plain number in its shortest exact form, no trailing zeros: 2000 -> "2000",
/// 2500.5 -> "2500.5". For figures the user typed (--rate), printed back as given.
std::string format_number(double value);

/// A count with thousands separators, for counts a reader compares by size: 19800 ->
/// "19,800", -1234 -> "-1,234", 999 -> "999".
std::string format_count(int64_t count);

/// A wall-clock instant in RFC 3339, UTC, to the millisecond: "2026-12-01T10:00:00.250Z".
std::string format_wall_time(int64_t unix_ns);

}  // namespace hammer
