// SPDX-License-Identifier: MIT
#include "cli/slo_flag.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "cli/percentile_flag.h"
#include "cli/units.h"

namespace hammer {
namespace {

constexpr int64_t kMaxSloNs = 60'000'000'000;  // the latency histogram's range

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// A plain non-negative decimal: digits with an optional fraction, nothing else.
bool parse_decimal(std::string_view text, double& out) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out,
                                   std::chars_format::fixed);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

}  // namespace

Expected<SloLimit, std::string> parse_slo(std::string_view text) {
  const std::string shape =
      "expected KEY=LIMIT, KEY pNN[.N] (any percentile: p50, p95, p99.9), max or errors (e.g. "
      "p99=50ms or errors=1%)";
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) return unexpected(shape);
  const std::string_view key = text.substr(0, equals);
  const std::string_view limit_text = text.substr(equals + 1);
  SloLimit limit;
  limit.key = std::string(key);
  limit.limit_text = std::string(limit_text);
  if (limit.kind() == SloKind::error_rate) {
    double percent = 0;
    if (!limit_text.ends_with('%') ||
        !parse_decimal(limit_text.substr(0, limit_text.size() - 1), percent) || percent > 100) {
      return unexpected(std::string("errors takes a percentage from 0% to 100% (e.g. errors=1%)"));
    }
    limit.error_rate = percent / 100;
    return limit;
  }
  double percentile = 100;  // "max"
  if (key != "max") {
    if (!key.starts_with('p')) return unexpected(shape);
    auto parsed = parse_percentile(key.substr(1));
    if (!parsed) return unexpected(std::string(key) + ": " + parsed.error());
    percentile = *parsed;
  }
  auto ns = parse_duration_ns(limit_text, kNanosPerMilli);
  if ((!ns && ns.error() == UnitError::too_large) || (ns && *ns > kMaxSloNs)) {
    return unexpected(std::string(key) + " must be at most 60s (the latency histogram's range)");
  }
  if (!ns || *ns <= 0) {
    return unexpected(std::string(key) +
                      " takes a duration > 0; a bare number is milliseconds (e.g. " +
                      std::string(key) + "=50ms)");
  }
  limit.percentile = percentile;
  limit.limit_ns = *ns;
  return limit;
}

bool same_slo(const SloLimit& a, const SloLimit& b) {
  return a.key == b.key ||
         (!a.is_error_rate() && !b.is_error_rate() && a.percentile == b.percentile);
}

Expected<std::vector<SloLimit>, std::string> parse_slo_list(std::string_view text) {
  std::vector<SloLimit> limits;
  for (std::string_view part : split(text, ',')) {
    auto limit = parse_slo(part);
    if (!limit) return unexpected(limit.error());
    for (const SloLimit& given : limits) {
      if (same_slo(given, *limit)) return unexpected(limit->key + " is given twice");
    }
    limits.push_back(std::move(*limit));
  }
  return limits;
}

bool is_level_list(std::string_view text) {
  return text.find(',') != std::string_view::npos || text.find(':') != std::string_view::npos;
}

Expected<std::vector<int64_t>, std::string> parse_connection_levels(std::string_view text,
                                                                    int64_t max) {
  const std::string shape = "expected rising whole numbers >= 1 for a sweep (e.g. 1,2,5,10)";
  if (text.find(':') != std::string_view::npos) return unexpected(shape);
  std::vector<int64_t> levels;
  for (std::string_view part : split(text, ',')) {
    if (auto count = parse_count(part); count && *count >= 1) {  // wrk's "1k"
      if (*count > max) return unexpected("must be at most " + std::to_string(max) + " per level");
      if (!levels.empty() && *count <= levels.back()) return unexpected(shape);
      levels.push_back(*count);
      continue;
    }
    int64_t level = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), level);
    const bool digits_only = !part.empty() && part.front() >= '0' && part.front() <= '9';
    if (ec == std::errc::result_out_of_range && digits_only) {
      return unexpected("must be at most " + std::to_string(max) + " per level");
    }
    if (ec != std::errc() || end != part.data() + part.size() || !digits_only || level < 1) {
      return unexpected(shape);
    }
    if (level > max) return unexpected("must be at most " + std::to_string(max) + " per level");
    if (!levels.empty() && level <= levels.back()) return unexpected(shape);
    levels.push_back(level);
  }
  if (levels.size() > kMaxSweepLevels) {
    return unexpected("a sweep has at most " + std::to_string(kMaxSweepLevels) + " levels");
  }
  return levels;
}

Expected<std::vector<double>, std::string> parse_rate_levels(std::string_view text,
                                                             double min_rate, double max_rate,
                                                             bool* search) {
  *search = false;
  const bool range = text.find(':') != std::string_view::npos;
  const std::string shape =
      range ? "expected a range start:stop:step, or low:high to search with --slo (e.g. "
              "1k:20k:1k or 200:3000)"
            : "expected rising rates > 0 for a sweep (e.g. 1000,2000,5000)";
  if (range && text.find(',') != std::string_view::npos) return unexpected(shape);
  std::vector<double> values;
  for (std::string_view part : split(text, range ? ':' : ',')) {
    auto rate = parse_rate(part);
    if ((!rate && rate.error() == UnitError::too_large) || (rate && *rate > max_rate)) {
      return unexpected(std::string("must be at most 10M req/s per level"));
    }
    if (!rate || *rate <= 0) return unexpected(shape);
    if (*rate < min_rate) return unexpected(std::string("must be at least 0.001 req/s per level"));
    values.push_back(*rate);
  }
  if (!range) {
    for (size_t i = 1; i < values.size(); ++i) {
      if (values[i] <= values[i - 1]) return unexpected(shape);
    }
    if (values.size() > kMaxSweepLevels) {
      return unexpected("a sweep has at most " + std::to_string(kMaxSweepLevels) + " levels");
    }
    return values;
  }
  if (values.size() < 2 || values.size() > 3 || values[1] <= values[0]) return unexpected(shape);
  if (values.size() == 2) {
    *search = true;
    return values;
  }
  const double start = values[0];
  const double stop = values[1];
  const double step = values[2];
  // A tolerance of a millionth of a step keeps 0.1:0.3:0.1 from losing its last level.
  const double count = std::floor((stop - start) / step + 1e-6) + 1;
  if (count > static_cast<double>(kMaxSweepLevels)) {
    return unexpected("a sweep has at most " + std::to_string(kMaxSweepLevels) +
                      " levels; this range has " + std::to_string(static_cast<int64_t>(count)));
  }
  std::vector<double> levels;
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
    levels.push_back(start + static_cast<double>(i) * step);
  }
  return levels;
}

}  // namespace hammer
