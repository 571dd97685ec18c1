// SPDX-License-Identifier: MIT
#pragma once
// Unit formatting for the text report: the one place where integer nanoseconds and byte counts
// become human units (style.md §2: convert only at the edges). Every scaled figure has two
// decimals, like wrk's units.c, so columns line up and a reader can compare them by eye.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

/// `value` with exactly `decimals` decimals, unscaled: (2.5, 1) -> "2.5", (1.006, 2) -> "1.01".
std::string format_fixed(double value, int decimals);

/// A run's planned length as wrk prints it: "10s" for whole seconds, otherwise "1.50s",
/// "500.00ms" (the text header's and the HTML heading's).
std::string planned_duration(int64_t ns);

/// `text` right-aligned in `width` columns: spaces before it, never cut ("7", 3 -> "  7";
/// a text at least `width` long comes back as it is).
std::string pad_left(std::string_view text, size_t width);

/// `text` left-aligned in `width` columns: spaces after it, never cut.
std::string pad_right(std::string_view text, size_t width);

/// A table's cells. Right- or left-aligned in `width` as pad_left and pad_right, and a text
/// that fills the width keeps one space on the side of its neighbour, so that cells never run
/// together ("430.08us> 150.00ms" where a censored figure fills its column).
std::string right_cell(std::string_view text, size_t width);
std::string left_cell(std::string_view text, size_t width);

/// The non-empty lines of `text` (a report's sentences, one per line), views into it.
std::vector<std::string_view> text_lines(std::string_view text);

/// A wall-clock instant in RFC 3339, UTC, to the millisecond: "2026-12-01T10:00:00.250Z".
std::string format_wall_time(int64_t unix_ns);

}  // namespace hammer
