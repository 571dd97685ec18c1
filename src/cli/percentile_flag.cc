// SPDX-License-Identifier: MIT
#include "cli/percentile_flag.h"

#include <algorithm>
#include <charconv>

#include "core/percentiles.h"

namespace hammer {

Expected<double, std::string> parse_percentile(std::string_view text) {
  const std::string shape =
      "expected a percentile between 0 and 100 with at most " +
      std::to_string(kMaxPercentileDecimals) + " decimals (e.g. 95, 99.9 or 99.99)";
  if (text.empty() || text.front() < '0' || text.front() > '9') return unexpected(shape);
  const size_t dot = text.find('.');
  if (dot != std::string_view::npos) {
    const size_t decimals = text.size() - dot - 1;
    if (decimals == 0 || decimals > static_cast<size_t>(kMaxPercentileDecimals)) {
      return unexpected(shape);
    }
  }
  double value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size()) return unexpected(shape);
  if (value <= 0 || value >= 100) {
    return unexpected(std::string("must be above 0 and below 100 (max is always reported)"));
  }
  return value;
}

Expected<std::vector<double>, std::string> parse_percentile_list(std::string_view text) {
  std::vector<double> values;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string_view part =
        text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    auto value = parse_percentile(part);
    if (!value) return unexpected(value.error());
    // Compared by label: 99.9 and 99.90 are one row.
    for (double given : values) {
      if (percentile_label(given) == percentile_label(*value)) {
        return unexpected(percentile_label(*value) + " is given twice");
      }
    }
    values.push_back(*value);
    if (values.size() > kMaxPercentiles) {
      return unexpected("at most " + std::to_string(kMaxPercentiles) + " percentiles");
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace hammer
