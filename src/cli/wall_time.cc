// SPDX-License-Identifier: MIT
// Parsing of wall-clock instants for --start-at. Every field is range-checked (a 31st of
// February or a 25th hour is refused, not normalised as timegm would), because a fleet started
// at a silently shifted instant would look like a clock problem.
#include "cli/wall_time.h"
#include "platform/utc_time.h"

#include <cctype>
#include <ctime>

namespace hammer {
namespace {

bool read_digits(std::string_view text, size_t& pos, size_t count, int64_t& out) {
  if (pos + count > text.size()) return false;
  int64_t value = 0;
  for (size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  pos += count;
  out = value;
  return true;
}

bool expect(std::string_view text, size_t& pos, char wanted) {
  if (pos >= text.size() || text[pos] != wanted) return false;
  ++pos;
  return true;
}

// ".25" -> 250'000'000 ns; at most 9 digits.
bool read_fraction_ns(std::string_view text, size_t& pos, int64_t& ns) {
  ns = 0;
  if (pos >= text.size() || text[pos] != '.') return true;
  ++pos;
  size_t digits = 0;
  int64_t scale = 100'000'000;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (++digits > 9) return false;
    ns += (text[pos] - '0') * scale;
    scale /= 10;
    ++pos;
  }
  return digits > 0;
}

int days_in_month(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

Expected<int64_t, std::string> parse_unix_seconds(std::string_view text) {
  size_t pos = 0;
  int64_t seconds = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (seconds > 9'000'000'000LL) return unexpected(std::string("too far in the future"));
    seconds = seconds * 10 + (text[pos] - '0');
    ++pos;
  }
  int64_t fraction_ns = 0;
  if (pos == 0 || !read_fraction_ns(text, pos, fraction_ns) || pos != text.size()) {
    return unexpected(std::string("expected an RFC 3339 time (2026-12-01T10:00:00Z) or Unix "
                                  "seconds"));
  }
  return seconds * 1'000'000'000 + fraction_ns;
}

}  // namespace

Expected<int64_t, std::string> parse_wall_time_ns(std::string_view text) {
  if (text.find('-') == std::string_view::npos && text.find(':') == std::string_view::npos) {
    return parse_unix_seconds(text);
  }
  const std::string shape = "expected an RFC 3339 time (2026-12-01T10:00:00Z) or Unix seconds";
  size_t pos = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, pos, 4, year) || !expect(text, pos, '-') ||
      !read_digits(text, pos, 2, month) || !expect(text, pos, '-') ||
      !read_digits(text, pos, 2, day)) {
    return unexpected(shape);
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')) {
    return unexpected(std::string("expected a time and a zone after the date "
                                  "(2026-12-01T10:00:00Z)"));
  }
  ++pos;
  int64_t fraction_ns = 0;
  if (!read_digits(text, pos, 2, hour) || !expect(text, pos, ':') ||
      !read_digits(text, pos, 2, minute) || !expect(text, pos, ':') ||
      !read_digits(text, pos, 2, second) || !read_fraction_ns(text, pos, fraction_ns)) {
    return unexpected(shape);
  }
  int64_t offset_s = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int64_t sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t offset_hours = 0, offset_minutes = 0;
    if (!read_digits(text, pos, 2, offset_hours) || !expect(text, pos, ':') ||
        !read_digits(text, pos, 2, offset_minutes) || offset_hours > 23 || offset_minutes > 59) {
      return unexpected(std::string("bad zone offset (expected Z, +hh:mm or -hh:mm)"));
    }
    offset_s = sign * (offset_hours * 3600 + offset_minutes * 60);
  } else {
    return unexpected(std::string("missing zone (end with Z for UTC, or +hh:mm)"));
  }
  if (pos != text.size()) return unexpected(shape);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) ||
      hour > 23 || minute > 59 || second > 60) {
    return unexpected(std::string("no such date or time"));
  }
  std::tm broken{};
  broken.tm_year = static_cast<int>(year - 1900);
  broken.tm_mon = static_cast<int>(month - 1);
  broken.tm_mday = static_cast<int>(day);
  broken.tm_hour = static_cast<int>(hour);
  broken.tm_min = static_cast<int>(minute);
  broken.tm_sec = static_cast<int>(second == 60 ? 59 : second);  // a leap second: its :59
  const int64_t since_epoch_s = static_cast<int64_t>(hammer::utc_seconds(&broken)) - offset_s;
  if (since_epoch_s < 0) return unexpected(std::string("before 1970"));
  return since_epoch_s * 1'000'000'000 + fraction_ns;
}

}  // namespace hammer
