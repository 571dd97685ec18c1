// SPDX-License-Identifier: MIT
#include "report/html_pieces.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/format.h"
#include "report/hgrm.h"
#include "report/report_input.h"
#include "report/svg_chart.h"

namespace hammer::html {
namespace {

// HdrHistogram's x axis: log10(1 / (1 - q)), so 90%, 99%, 99.9% are evenly spaced.
double spectrum_x(double quantile) { return std::log10(1.0 / (1.0 - quantile)); }

// The curve of every request that ended: the answered histogram's levels scaled to the share
// answered, so with timeouts it stops at that share; past it no value exists to draw.
std::vector<ChartPoint> spectrum_points(const Histogram& histogram, const CensoredTail& tail) {
  std::vector<ChartPoint> points;
  const double answered_share = tail.answered_percent() / 100.0;
  for (const PercentileStep& step : percentile_steps(histogram)) {
    // 1/(1-1) is infinite: the max is in the table. With timeouts the slowest answer sits at
    // the answered share, a finite x: the curve ends there.
    if (step.level >= 100.0 && answered_share >= 1.0) continue;
    points.push_back({spectrum_x(step.level / 100.0 * answered_share),
                      static_cast<double>(step.value_ns) / 1e6});
  }
  return points;
}

// Each run's two line styles, by its place in the comparison (the first is a single run's
// page's too). No two patterns are alike, so in black-and-white print each curve is still one
// run's one stopwatch. A fourth run takes the first's styles again: the legend names it.
struct RunLineStyle {
  const char* corrected_colour;
  const char* corrected_dash;
  const char* corrected_words;
  const char* uncorrected_colour;
  const char* uncorrected_dash;
  const char* uncorrected_words;
};
constexpr RunLineStyle kRunStyles[] = {
    {kVermillion, "", "solid", kBlue, "6 3", "dashed"},
    {kGreen, "14 5", "long dashes", kPurple, "2 3", "dotted"},
    {kOrange, "10 3 2 3", "dash-dot", kSky, "1 6", "sparse dots"},
};

const RunLineStyle& run_style(size_t index) {
  return kRunStyles[index % (sizeof kRunStyles / sizeof kRunStyles[0])];
}

std::string series_suffix(const std::vector<const RunView*>& runs, const RunView* run) {
  return runs.size() > 1 ? " — " + run->label : "";
}

}  // namespace

// A censored figure is shown as its bound, marked, never as a value (data-censored). The words
// are the text report's (tail_figure_text: "12.34ms", "> 2.00s").
std::string latency_cell(const Histogram* histogram, const CensoredTail& tail, double q,
                         bool max) {
  if (histogram == nullptr || histogram->total_count() == 0) return "<td>-</td>";
  const TailFigure figure = max ? tail.max(*histogram) : tail.at(*histogram, q);
  const std::string shown = escape_html(tail_figure_text(figure));
  if (figure.censored) {
    return "<td class=\"censored\" data-censored=\"" + std::to_string(figure.value_ns) +
           "\">" + shown + " <small>(timed out)</small></td>";
  }
  return "<td data-ns=\"" + std::to_string(figure.value_ns) + "\">" + shown + "</td>";
}

std::string ratio_cell(const Histogram* corrected, const CensoredTail& corrected_tail,
                       const Histogram* uncorrected, const CensoredTail& uncorrected_tail,
                       double q, bool max) {
  if (corrected == nullptr || uncorrected == nullptr || corrected->total_count() == 0 ||
      uncorrected->total_count() == 0) {
    return "<td>-</td>";
  }
  const TailFigure top = max ? corrected_tail.max(*corrected) : corrected_tail.at(*corrected, q);
  const TailFigure bottom =
      max ? uncorrected_tail.max(*uncorrected) : uncorrected_tail.at(*uncorrected, q);
  if (bottom.value_ns <= 0 || top.censored || bottom.censored) return "<td>-</td>";
  // One decimal, as the text report's ratio column ("10.0x").
  const std::string ratio =
      format_fixed(static_cast<double>(top.value_ns) / static_cast<double>(bottom.value_ns), 1);
  return "<td class=\"ratio\">" + ratio + "&times;</td>";
}

std::string whole(double value) { return format_fixed(value, 0); }

// A document's nanoseconds as an integer. A saved document may say anything (1e300, -5): the
// conversion is clamped, since casting a double outside int64's range is undefined.
int64_t whole_ns(double ns) {
  if (!(ns > 0)) return 0;
  if (ns >= 9.2e18) return static_cast<int64_t>(9.2e18);
  return static_cast<int64_t>(ns);
}

// "1 thread", "4 threads".
std::string counted(double count, const char* noun) {
  return whole(count) + " " + noun + (whole(count) == "1" ? "" : "s");
}

std::string percent_label(double q) {  // 0.999 -> "99.9%"
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g%%", q * 100);
  return buffer;
}

std::string spectrum_chart(const std::vector<const RunView*>& runs, const std::string& id) {
  Chart chart;
  chart.id = id;
  chart.title = "Latency by percentile, corrected and uncorrected";
  chart.x_label = "percentile (log scale of 1/(1-q))";
  chart.y_label = "latency (ms)";
  double x_max = 2;
  size_t index = 0;
  for (const RunView* run : runs) {
    const std::string suffix = series_suffix(runs, run);
    const RunLineStyle& style = run_style(index);
    if (run->corrected()) {
      ChartSeries series{"corrected" + suffix, style.corrected_colour, style.corrected_dash,
                         spectrum_points(*run->corrected(), run->corrected_tail)};
      if (!series.points.empty()) x_max = std::max(x_max, series.points.back().x);
      chart.series.push_back(std::move(series));
    }
    ChartSeries series{"uncorrected" + suffix, style.uncorrected_colour, style.uncorrected_dash,
                       spectrum_points(run->uncorrected(), run->uncorrected_tail)};
    if (!series.points.empty()) x_max = std::max(x_max, series.points.back().x);
    chart.series.push_back(std::move(series));
    ++index;
  }
  chart.x_ticks.push_back({0, "0%"});
  chart.x_ticks.push_back({spectrum_x(0.5), "50%"});
  double quantile = 0.9;
  for (int nines = 1; nines <= 7 && spectrum_x(quantile) <= std::ceil(x_max) + 1e-9; ++nines) {
    chart.x_ticks.push_back({spectrum_x(quantile), percent_label(quantile)});
    quantile = 1 - (1 - quantile) / 10;
  }
  return render_svg_chart(chart);
}

std::string spectrum_styles_caption(const std::vector<const RunView*>& runs) {
  const auto curve = [&](const std::string& name, const char* dash, const char* words) {
    return "<span data-series=\"" + escape_html(name) + "\" data-dash=\"" + dash + "\">" +
           escape_html(name) + ": " + words + "</span>";
  };
  std::string caption;
  size_t index = 0;
  for (const RunView* run : runs) {
    const RunLineStyle& style = run_style(index++);
    const std::string suffix = series_suffix(runs, run);
    std::string curves;
    if (run->corrected()) {
      curves = curve("corrected" + suffix, style.corrected_dash, style.corrected_words) + ", ";
    }
    curves += curve("uncorrected" + suffix, style.uncorrected_dash, style.uncorrected_words);
    if (!run->corrected()) curves += " (closed loop: no corrected curve)";
    caption += (caption.empty() ? "" : "; ") + curves;
  }
  return "<p class=\"caption\" id=\"comparison-styles\">Each curve has its own colour and line "
         "style: " + caption + ".</p>";
}

}  // namespace hammer::html
