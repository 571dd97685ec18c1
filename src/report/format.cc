// SPDX-License-Identifier: MIT
// Scaled units with two decimals. The unit is picked from the *rounded* figure so a value just
// under a boundary does not print as "1000.00us" or "1024.00KB".
#include "report/format.h"
#include "platform/utc_time.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string_view>

namespace hammer {
namespace {

struct Unit {
  std::string_view name;
  double scale;
};

std::string two_decimals(double value, std::string_view unit) {
  char buffer[64];
  const int length = std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string text(buffer, length > 0 ? static_cast<size_t>(length) : 0);
  text.append(unit);
  return text;
}

/// Formats `value` in the first unit (smallest first) whose rounded figure is below `limit`,
/// or in the last unit.
template <size_t N>
std::string scaled(double value, const std::array<Unit, N>& units, double limit) {
  for (size_t i = 0; i < N; ++i) {
    const double figure = value / units[i].scale;
    const double rounded = std::round(figure * 100.0) / 100.0;
    if (std::fabs(rounded) < limit || i + 1 == N) return two_decimals(figure, units[i].name);
  }
  return {};  // unreachable: the last unit always returns
}

}  // namespace

std::string format_duration_ns(int64_t ns) {
  if (ns > -1000 && ns < 1000) return std::to_string(ns) + "ns";
  static constexpr std::array<Unit, 3> kUnits = {
      Unit{"us", 1e3}, Unit{"ms", 1e6}, Unit{"s", 1e9}};
  return scaled(static_cast<double>(ns), kUnits, 1000.0);
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes)) return "-";
  static constexpr std::array<Unit, 5> kUnits = {
      Unit{"B", 1.0}, Unit{"KB", 1024.0}, Unit{"MB", 1024.0 * 1024},
      Unit{"GB", 1024.0 * 1024 * 1024}, Unit{"TB", 1024.0 * 1024 * 1024 * 1024}};
  return scaled(bytes, kUnits, 1024.0);
}

std::string format_rate(double per_second) {
  if (!std::isfinite(per_second)) return "-";
  return two_decimals(per_second, "");
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return "-";
  // Fixed notation, shortest digits that read back exactly: the plain shortest form writes
  // 100000 as "1e+05". The buffer holds any double in fixed form (DBL_MAX has 309 digits,
  // the smallest subnormal 767 characters).
  char buffer[800];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  return std::string(buffer, result.ptr);
}

std::string format_count(int64_t count) {
  const bool negative = count < 0;
  // Through unsigned, so INT64_MIN keeps its magnitude.
  uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(count)
                                : static_cast<uint64_t>(count);
  std::string digits;
  int in_group = 0;
  do {
    if (in_group == 3) {
      digits += ',';
      in_group = 0;
    }
    digits += static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
    ++in_group;
  } while (magnitude > 0);
  if (negative) digits += '-';
  return std::string(digits.rbegin(), digits.rend());
}

std::string format_wall_time(int64_t unix_ns) {
  const int64_t seconds = unix_ns >= 0 ? unix_ns / 1'000'000'000 : (unix_ns - 999'999'999) / 1'000'000'000;
  const int64_t millis = (unix_ns - seconds * 1'000'000'000) / 1'000'000;
  const time_t whole = static_cast<time_t>(seconds);
  std::tm broken{};
  utc_calendar(whole, &broken);
  char text[48];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", broken.tm_year + 1900,
                broken.tm_mon + 1, broken.tm_mday, broken.tm_hour, broken.tm_min, broken.tm_sec,
                static_cast<int>(millis));
  return text;
}

std::string format_fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::vector<std::string_view> text_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t start = 0, end = 0; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

std::string planned_duration(int64_t ns) {
  if (ns > 0 && ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  return format_duration_ns(ns);
}

std::string pad_left(std::string_view text, size_t width) {
  std::string padded;
  if (text.size() < width) padded.assign(width - text.size(), ' ');
  padded.append(text);
  return padded;
}

std::string pad_right(std::string_view text, size_t width) {
  std::string padded(text);
  if (padded.size() < width) padded.append(width - padded.size(), ' ');
  return padded;
}

std::string right_cell(std::string_view text, size_t width) {
  if (text.size() < width) return pad_left(text, width);
  std::string padded = " ";
  padded += text;
  return padded;
}

std::string left_cell(std::string_view text, size_t width) {
  if (text.size() < width) return pad_right(text, width);
  std::string padded(text);
  padded += ' ';
  return padded;
}

}  // namespace hammer
