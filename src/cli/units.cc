// SPDX-License-Identifier: MIT
// Parsing is exact decimal arithmetic, not floating point: "0.1s" must be 100,000,000 ns, not
// 99,999,999 after a binary round trip. Formatting rounds half up in integers for the same
// reason — printf's "%.2f" rounds binary approximations and would print 1.005ms as "1.00ms".
#include "cli/units.h"

#include <array>
#include <charconv>
#include <initializer_list>
#include <cmath>
#include <cstdio>
#include <limits>

namespace hammer {
namespace {

__extension__ typedef unsigned __int128 Wide;  // for fraction * unit before the division

struct Decimal {
  std::string_view whole;     // at least one digit
  std::string_view fraction;  // digits after '.', possibly empty
  std::string_view suffix;    // everything after the number
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Splits "12.5ms" into "12", "5", "ms". Refuses ".5", "5." and anything not starting with a
// digit, so signs, spaces and exponents never reach from_chars.
bool split_decimal(std::string_view text, Decimal& out) {
  size_t i = 0;
  while (i < text.size() && is_digit(text[i])) ++i;
  if (i == 0) return false;
  out.whole = text.substr(0, i);
  out.fraction = {};
  if (i < text.size() && text[i] == '.') {
    size_t start = ++i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i == start) return false;
    out.fraction = text.substr(start, i - start);
  }
  out.suffix = text.substr(i);
  return true;
}

struct UnitName {
  std::string_view name;
  int64_t ns;
};

constexpr std::array<UnitName, 6> kDurationUnits = {{{"ns", int64_t{1}},
                                                     {"us", kNanosPerMicro},
                                                     {"ms", kNanosPerMilli},
                                                     {"s", kNanosPerSecond},
                                                     {"m", kNanosPerMinute},
                                                     {"h", kNanosPerHour}}};

}  // namespace

std::string_view describe(UnitError error) {
  switch (error) {
    case UnitError::malformed:
      return "not a number";
    case UnitError::unknown_unit:
      return "unknown unit";
    case UnitError::too_large:
      return "too large";
  }
  return "not a number";
}

namespace {

// One number (digits and an optional fraction) times its unit, exactly.
Expected<int64_t, UnitError> part_ns(const Decimal& number, int64_t unit_ns) {
  uint64_t whole_part = 0;
  auto [end, ec] = std::from_chars(number.whole.data(), number.whole.data() + number.whole.size(),
                                   whole_part);
  (void)end;
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (ec != std::errc() || whole_part > kMax / static_cast<uint64_t>(unit_ns)) {
    return unexpected(UnitError::too_large);
  }

  // 18 fraction digits resolve far below 1 ns for every unit (the hour is 3.6e12 ns); later
  // digits could only change the truncated result by the last nanosecond.
  std::string_view digits = number.fraction.substr(0, 18);
  uint64_t fraction = 0;
  uint64_t scale = 1;
  for (char c : digits) {
    fraction = fraction * 10 + static_cast<uint64_t>(c - '0');
    scale *= 10;
  }
  auto fraction_ns = static_cast<uint64_t>(Wide{fraction} * static_cast<uint64_t>(unit_ns) / scale);

  uint64_t total = whole_part * static_cast<uint64_t>(unit_ns);
  if (fraction_ns > kMax - total) return unexpected(UnitError::too_large);
  return static_cast<int64_t>(total + fraction_ns);
}

}  // namespace

Expected<int64_t, UnitError> parse_duration_ns(std::string_view text, int64_t default_unit_ns) {
  Decimal number;
  if (!split_decimal(text, number)) return unexpected(UnitError::malformed);
  if (number.suffix.empty()) return part_ns(number, default_unit_ns);
  // One or more parts, each a number and its unit ("90s", "1m30s", "1h2m3.5s"), added up. A
  // unit runs to the next digit, so "1ms" is milliseconds and "1m5s" a minute and 5 seconds.
  int64_t total = 0;
  std::string_view rest = text;
  while (!rest.empty()) {
    if (!split_decimal(rest, number)) return unexpected(UnitError::malformed);
    size_t unit_end = 0;
    while (unit_end < number.suffix.size() && !is_digit(number.suffix[unit_end])) ++unit_end;
    const std::string_view unit = number.suffix.substr(0, unit_end);
    if (unit.empty()) return unexpected(UnitError::malformed);  // "1m30": a part without unit
    int64_t unit_ns = 0;
    for (const UnitName& known : kDurationUnits) {
      if (known.name == unit) unit_ns = known.ns;
    }
    if (unit_ns == 0) return unexpected(UnitError::unknown_unit);
    auto part = part_ns(number, unit_ns);
    if (!part) return part;
    if (*part > std::numeric_limits<int64_t>::max() - total) {
      return unexpected(UnitError::too_large);
    }
    total += *part;
    rest = number.suffix.substr(unit_end);
  }
  return total;
}

Expected<double, UnitError> parse_rate(std::string_view text) {
  // "COUNT/PERIOD" (vegeta's form): COUNT requests per PERIOD, a duration with its unit; a
  // bare unit is one of it ("50/s", "100/1m", "1k/500ms").
  if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
    auto count = parse_rate(text.substr(0, slash));
    if (!count) return count;
    const std::string_view period = text.substr(slash + 1);
    if (period.empty()) return unexpected(UnitError::malformed);
    if (!is_digit(period.front())) {  // a bare unit: one of it
      for (const UnitName& known : kDurationUnits) {
        if (known.name == period) return *count * 1e9 / static_cast<double>(known.ns);
      }
      return unexpected(UnitError::unknown_unit);
    }
    Decimal bare;
    if (split_decimal(period, bare) && bare.suffix.empty()) {
      return unexpected(UnitError::malformed);  // "50/10": ten what?
    }
    auto period_ns = parse_duration_ns(period, kNanosPerSecond);
    if (!period_ns) return unexpected(period_ns.error());
    if (*period_ns <= 0) return unexpected(UnitError::malformed);
    return *count * 1e9 / static_cast<double>(*period_ns);
  }
  Decimal number;
  if (!split_decimal(text, number)) return unexpected(UnitError::malformed);
  double multiplier = 1;
  if (number.suffix == "k" || number.suffix == "K") {
    multiplier = 1e3;
  } else if (number.suffix == "M") {
    multiplier = 1e6;
  } else if (!number.suffix.empty()) {
    return unexpected(UnitError::unknown_unit);
  }
  std::string_view numeric = text.substr(0, text.size() - number.suffix.size());
  double value = 0;
  auto [end, ec] = std::from_chars(numeric.data(), numeric.data() + numeric.size(), value,
                                   std::chars_format::fixed);
  if (ec != std::errc() || end != numeric.data() + numeric.size()) {
    return unexpected(UnitError::too_large);
  }
  value *= multiplier;
  if (!std::isfinite(value)) return unexpected(UnitError::too_large);
  return value;
}

Expected<int64_t, UnitError> parse_count(std::string_view text) {
  Decimal number;
  if (!split_decimal(text, number)) return unexpected(UnitError::malformed);
  uint64_t multiplier = 0;
  if (number.suffix == "k" || number.suffix == "K") {
    multiplier = 1'000;
  } else if (number.suffix == "M") {
    multiplier = 1'000'000;
  } else {
    return unexpected(UnitError::malformed);
  }
  // Exactly, in integers: "1.5k" is 15 x 1000 / 10.
  uint64_t digits = 0;
  uint64_t scale = 1;
  for (std::string_view part : {number.whole, number.fraction}) {
    for (char c : part) {
      if (digits > (std::numeric_limits<uint64_t>::max() - 9) / 10) {
        return unexpected(UnitError::too_large);
      }
      digits = digits * 10 + static_cast<uint64_t>(c - '0');
    }
  }
  for (size_t i = 0; i < number.fraction.size(); ++i) {
    if (scale > std::numeric_limits<uint64_t>::max() / 10) return unexpected(UnitError::malformed);
    scale *= 10;
  }
  if (digits > std::numeric_limits<uint64_t>::max() / multiplier) {
    return unexpected(UnitError::too_large);
  }
  const uint64_t product = digits * multiplier;
  if (product % scale != 0) return unexpected(UnitError::malformed);  // not whole
  const uint64_t count = product / scale;
  if (count > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return unexpected(UnitError::too_large);
  }
  return static_cast<int64_t>(count);
}

}  // namespace hammer
