// SPDX-License-Identifier: MIT
// A port of HdrHistogram (Java) PercentileIterator + outputPercentileDistribution. The
// iteration reports, for levels that step by 100/(5 * 2^k) percent within each halving of the
// distance to 100% (0, 10, 20 ... 50, 55 ... 75, 77.5 ...), the highest value equivalent to the
// first slot whose cumulative count reaches the level, then one last line at 100%. Floating
// point is double throughout, in the reference's order, so the levels land where Java's do.
//
// Numbers are formatted as java.util.Formatter does %.Nf: from the shortest decimal digits that
// round-trip the double, rounded half-up. printf rounds the exact binary value instead, and
// the two disagree on values such as 0.0625 at three decimals (Java 0.063, printf 0.062).
#include "report/hgrm.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "report/format.h"

namespace hammer {
namespace {

// `value` (finite, >= 0) with `decimals` digits after the point, rounded as Java does.
std::string java_fixed(double value, int decimals) {
  char buffer[64];
  const auto written =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<size_t>(written.ptr - buffer));
  const size_t e = text.find('e');
  std::string digits;  // the shortest significant digits; value = d0.d1d2... x 10^exponent
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  const auto digit_of_weight = [&](int power) {  // the digit worth 10^power
    const int i = exponent - power;
    return i >= 0 && i < static_cast<int>(digits.size()) ? digits[static_cast<size_t>(i)] : '0';
  };
  std::string grid;  // from 10^max(exponent, 0) down to 10^-decimals, no point
  for (int power = std::max(exponent, 0); power >= -decimals; --power) {
    grid += digit_of_weight(power);
  }
  if (digit_of_weight(-decimals - 1) >= '5') {  // half-up on the dropped digits
    size_t i = grid.size();
    for (;;) {
      if (i == 0) {
        grid.insert(grid.begin(), '1');
        break;
      }
      --i;
      if (grid[i] != '9') {
        ++grid[i];
        break;
      }
      grid[i] = '0';
    }
  }
  const size_t integer_digits = grid.size() - static_cast<size_t>(decimals);
  std::string out = grid.substr(0, integer_digits);
  // Appended in two steps: GCC 12's -Wrestrict misfires on `"." + std::string`.
  if (decimals > 0) {
    out += '.';
    out.append(grid, integer_digits);
  }
  return out;
}

// Histogram walk state, named as in the reference's iterators.
struct PercentileWalk {
  const Histogram& histogram;
  int ticks_per_half_distance;
  int64_t total = histogram.total_count();
  int32_t index = 0;
  int64_t count_to_index = 0;
  bool fresh_slot = true;
  double level_to = 0.0;
  bool reached_last = false;

  bool has_next() {
    if (count_to_index < total) return true;
    if (!reached_last && total > 0) {  // one more step, to 100%
      level_to = 100.0;
      reached_last = true;
      return true;
    }
    return false;
  }

  // The slot that reaches level_to; false past the last slot (cannot happen on a histogram
  // whose counts add up to its total).
  bool next(int64_t& value, double& level, int64_t& count) {
    while (index < histogram.counts_length()) {
      const int64_t count_at = histogram.count_at_index(index);
      if (fresh_slot) {
        count_to_index += count_at;
        fresh_slot = false;
      }
      if (count_at != 0 &&
          (100.0 * static_cast<double>(count_to_index)) / static_cast<double>(total) >=
              level_to) {
        value = histogram.highest_equivalent_value(histogram.value_from_index(index));
        level = level_to;
        count = count_to_index;
        if (!reached_last) advance_level();
        return true;
      }
      ++index;
      fresh_slot = true;
    }
    return false;
  }

  void advance_level() {
    const auto halvings =
        static_cast<int64_t>(std::log(100.0 / (100.0 - level_to)) / std::log(2.0));
    const auto ticks = static_cast<int64_t>(ticks_per_half_distance) *
                       static_cast<int64_t>(std::pow(2.0, static_cast<double>(halvings + 1)));
    level_to += 100.0 / static_cast<double>(ticks);
  }
};

}  // namespace

std::vector<PercentileStep> percentile_steps(const Histogram& histogram,
                                             int ticks_per_half_distance) {
  std::vector<PercentileStep> steps;
  PercentileWalk walk{histogram, ticks_per_half_distance};
  while (walk.has_next()) {
    PercentileStep step{};
    if (!walk.next(step.value_ns, step.level, step.total_count)) break;
    steps.push_back(step);
  }
  return steps;
}

std::string render_hgrm(const Histogram& histogram, int ticks_per_half_distance,
                        double ns_per_output_unit, const CensoredTail& tail) {
  // The timed out lie above every value: each level is a share of all that ended.
  const double answered_share = tail.any() ? tail.answered_percent() / 100.0 : 1.0;
  const int digits = histogram.significant_figures();
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount",
                "1/(1-Percentile)");
  out += line;

  for (const PercentileStep& step : percentile_steps(histogram, ticks_per_half_distance)) {
    const int64_t value = step.value_ns;
    const double level = step.level;
    const int64_t count = step.total_count;
    const double quantile = level / 100.0 * answered_share;
    out += pad_left(java_fixed(static_cast<double>(value) / ns_per_output_unit, digits), 12);
    out += ' ';
    out += pad_left(java_fixed(quantile, 12), 2);
    out += ' ';
    out += pad_left(std::to_string(count), 10);
    if (level != 100.0 || answered_share < 1.0) {
      out += ' ';
      out += pad_left(java_fixed(1.0 / (1.0 - quantile), 2), 14);
    }
    out += '\n';
  }

  // Mean and standard deviation over slot medians, summed in double as the reference does.
  double mean = 0;
  double deviation_total = 0;
  if (histogram.total_count() > 0) {
    double sum = 0;
    for (int32_t i = 0; i < histogram.counts_length(); ++i) {
      const int64_t count = histogram.count_at_index(i);
      if (count == 0) continue;
      sum += static_cast<double>(histogram.median_equivalent_value(histogram.value_from_index(i))) *
             static_cast<double>(count);
    }
    mean = sum / static_cast<double>(histogram.total_count());
    for (int32_t i = 0; i < histogram.counts_length(); ++i) {
      const int64_t count = histogram.count_at_index(i);
      if (count == 0) continue;
      const double deviation =
          static_cast<double>(histogram.median_equivalent_value(histogram.value_from_index(i))) -
          mean;
      deviation_total += deviation * deviation * static_cast<double>(count);
    }
  }
  const double stdev =
      histogram.total_count() > 0
          ? std::sqrt(deviation_total / static_cast<double>(histogram.total_count()))
          : 0.0;
  out += "#[Mean    = " + pad_left(java_fixed(mean / ns_per_output_unit, digits), 12) +
         ", StdDeviation   = " + pad_left(java_fixed(stdev / ns_per_output_unit, digits), 12) +
         "]\n";
  out += "#[Max     = " +
         pad_left(java_fixed(static_cast<double>(histogram.max()) / ns_per_output_unit, digits),
                  12) +
         ", Total count    = " + pad_left(std::to_string(histogram.total_count()), 12) + "]\n";
  out += "#[Buckets = " + pad_left(std::to_string(histogram.bucket_count()), 12) +
         ", SubBuckets     = " + pad_left(std::to_string(histogram.sub_bucket_count()), 12) +
         "]\n";
  if (tail.any()) {
    out += "#[Timed out = " + pad_left(std::to_string(tail.timed_out), 12) + ", after " +
           java_fixed(static_cast<double>(tail.timeout_ns) / ns_per_output_unit, digits) +
           ": no value; every percentile above " + java_fixed(answered_share, 12) +
           " is above that (censored)]\n";
  }
  return out;
}

}  // namespace hammer
