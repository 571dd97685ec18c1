// SPDX-License-Identifier: MIT
#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/format.h"

namespace hammer {
namespace {

constexpr double kWidth = 960;
constexpr double kHeight = 360;
constexpr double kLeft = 78;    // room for the y tick labels and the axis label
constexpr double kRight = 20;
constexpr double kTop = 34;     // room for one row of legend
constexpr double kLegendRow = 20;  // each further row of legend
constexpr double kBottom = 52;  // room for the x tick labels and the axis label

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string tick_text(double value) {
  char buffer[32];
  if (value != 0 && std::fabs(value) < 0.01) {
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
  }
  return buffer;
}

struct Scale {
  double low;
  double high;
  double from;  // pixels
  double to;
  double operator()(double value) const {
    if (high <= low) return from;
    return from + (value - low) / (high - low) * (to - from);
  }
};

// Characters as drawn: a UTF-8 sequence ("—") is one.
size_t drawn_length(std::string_view text) {
  size_t length = 0;
  for (unsigned char c : text) length += (c & 0xC0) != 0x80 ? 1 : 0;
  return length;
}

// Where each series' legend entry goes: left to right from kLeft, onto a new row when the
// entry would pass the right edge. An entry is a 28-unit line sample, a gap, its name (13 px
// text, about 7.5 units a character: generous for the fonts a page falls back to) and a gap.
struct LegendSlot {
  double x;
  int row;
};
std::vector<LegendSlot> legend_layout(const std::vector<ChartSeries>& series) {
  std::vector<LegendSlot> slots;
  double x = kLeft;
  int row = 0;
  for (const ChartSeries& one : series) {
    const double width = 34 + 7.5 * static_cast<double>(drawn_length(one.name));
    if (x > kLeft && x + width > kWidth - kRight) {
      x = kLeft;
      ++row;
    }
    slots.push_back({x, row});
    x += width + 14;
  }
  return slots;
}

}  // namespace

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<double> nice_ticks(double low, double high, int count) {
  std::vector<double> ticks;
  if (!(high > low) || count < 1) {
    ticks.push_back(low);
    return ticks;
  }
  const double raw = (high - low) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= raw) break;
  }
  for (double tick = std::ceil(low / step) * step; tick <= high + step * 1e-9; tick += step) {
    ticks.push_back(std::fabs(tick) < step * 1e-9 ? 0.0 : tick);
  }
  // Covering: the last tick is at or above `high`, so an axis ends on a labelled tick.
  if (ticks.empty() || ticks.back() < high - step * 1e-9) {
    ticks.push_back((ticks.empty() ? std::ceil(low / step) * step : ticks.back()) + step);
  }
  return ticks;
}

std::string render_svg_chart(const Chart& chart) {
  double x_low = 0, x_high = 1, y_high = 0;
  bool any = false;
  for (const ChartSeries& series : chart.series) {
    for (const ChartPoint& point : series.points) {
      if (!any) {
        x_low = x_high = point.x;
        any = true;
      }
      x_low = std::min(x_low, point.x);
      x_high = std::max(x_high, series.steps ? point.x_end : point.x);
      y_high = std::max(y_high, point.y);
    }
  }
  for (const ChartShade& shade : chart.shades) {
    x_low = std::min(x_low, shade.from_x);
    x_high = std::max(x_high, shade.to_x);
  }
  if (!chart.x_ticks.empty()) {
    x_low = std::min(x_low, chart.x_ticks.front().at);
    x_high = std::max(x_high, chart.x_ticks.back().at);
  }
  if (chart.x_from_zero) x_low = std::min(x_low, 0.0);
  if (x_high <= x_low) x_high = x_low + 1;
  const std::vector<double> y_ticks = nice_ticks(chart.y_min, y_high > chart.y_min ? y_high : 1, 5);
  const double y_top = std::max(y_ticks.back(), y_high);
  const std::vector<LegendSlot> legend = legend_layout(chart.series);
  const int legend_rows = legend.empty() ? 1 : legend.back().row + 1;
  const double top = kTop + kLegendRow * (legend_rows - 1);
  const double height = kHeight + kLegendRow * (legend_rows - 1);
  const Scale x{x_low, x_high, kLeft, kWidth - kRight};
  const Scale y{chart.y_min, y_top, height - kBottom, top};

  std::string svg = "<svg class=\"chart\" id=\"" + escape_html(chart.id) +
                    "\" viewBox=\"0 0 960 " + std::to_string(static_cast<int>(height)) +
                    "\" role=\"img\" aria-labelledby=\"" +
                    escape_html(chart.id) + "-title\">";
  svg += "<title id=\"" + escape_html(chart.id) + "-title\">" + escape_html(chart.title) +
         "</title>";
  for (const ChartShade& shade : chart.shades) {
    svg += "<rect class=\"shade\" x=\"" + number(x(shade.from_x)) + "\" y=\"" + number(top) +
           "\" width=\"" + number(std::max(0.0, x(shade.to_x) - x(shade.from_x))) +
           "\" height=\"" + number(height - kBottom - top) + "\"/>";
    svg += "<text class=\"shade-label\" x=\"" + number(x(shade.from_x) + 4) + "\" y=\"" +
           number(top + 14) + "\">" + escape_html(shade.label) + "</text>";
  }
  // Grid and y ticks.
  for (double tick : y_ticks) {
    const std::string at = number(y(tick));
    svg += "<line class=\"grid\" x1=\"" + number(kLeft) + "\" x2=\"" + number(kWidth - kRight) +
           "\" y1=\"" + at + "\" y2=\"" + at + "\"/>";
    svg += "<text class=\"tick\" text-anchor=\"end\" x=\"" + number(kLeft - 6) + "\" y=\"" + at +
           "\" dy=\"4\">" + tick_text(tick) + "</text>";
  }
  // X ticks: given (log axes label their own) or nice ones.
  std::vector<ChartTick> x_ticks = chart.x_ticks;
  if (x_ticks.empty()) {
    for (double tick : nice_ticks(x_low, x_high, 8)) x_ticks.push_back({tick, tick_text(tick)});
  }
  for (const ChartTick& tick : x_ticks) {
    if (tick.at < x_low - 1e-9 || tick.at > x_high + 1e-9) continue;
    const std::string at = number(x(tick.at));
    svg += "<line class=\"grid\" x1=\"" + at + "\" x2=\"" + at + "\" y1=\"" + number(top) +
           "\" y2=\"" + number(height - kBottom) + "\"/>";
    // A label at the right edge ends there instead of being cut by the viewBox.
    const bool at_right_edge = x(tick.at) > kWidth - kRight - 30;
    svg += std::string("<text class=\"tick\" text-anchor=\"") +
           (at_right_edge ? "end" : "middle") + "\" x=\"" + at + "\" y=\"" +
           number(height - kBottom + 18) + "\">" + escape_html(tick.label) + "</text>";
  }
  // Axes and their labels (units included by the caller).
  svg += "<line class=\"axis\" x1=\"" + number(kLeft) + "\" x2=\"" + number(kLeft) + "\" y1=\"" +
         number(top) + "\" y2=\"" + number(height - kBottom) + "\"/>";
  svg += "<line class=\"axis\" x1=\"" + number(kLeft) + "\" x2=\"" + number(kWidth - kRight) +
         "\" y1=\"" + number(height - kBottom) + "\" y2=\"" + number(height - kBottom) + "\"/>";
  svg += "<text class=\"axis-label\" text-anchor=\"middle\" x=\"" +
         number((kLeft + kWidth - kRight) / 2) + "\" y=\"" + number(height - 10) + "\">" +
         escape_html(chart.x_label) + "</text>";
  svg += "<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(16 " +
         number((top + height - kBottom) / 2) + ") rotate(-90)\">" +
         escape_html(chart.y_label) + "</text>";
  for (const ChartMark& mark : chart.marks) {
    const std::string at = number(x(mark.x));
    svg += "<line class=\"mark\" x1=\"" + at + "\" x2=\"" + at + "\" y1=\"" + number(top) +
           "\" y2=\"" + number(height - kBottom) + "\"/>";
    svg += "<text class=\"mark-label\" x=\"" + number(x(mark.x) + 4) + "\" y=\"" +
           number(top + 28) + "\">" + escape_html(mark.label) + "</text>";
  }
  // Series, then the legend along the top (legend_layout's rows).
  for (size_t index = 0; index < chart.series.size(); ++index) {
    const ChartSeries& series = chart.series[index];
    const std::string style = "stroke:" + series.colour +
                              (series.dash.empty() ? "" : ";stroke-dasharray:" + series.dash);
    if (series.steps) {
      // Level across each interval; a vertical edge to the next when it starts where this
      // one ends, a new subpath after a gap.
      std::string path;
      double end = 0;
      for (size_t at = 0; at < series.points.size(); ++at) {
        const ChartPoint& point = series.points[at];
        const bool joined = at > 0 && std::fabs(point.x - end) < 1e-9;
        if (!path.empty()) path += ' ';
        if (joined) {
          path += 'V';
        } else {
          path += 'M';
          path += number(x(point.x));
          path += ' ';
        }
        path += number(y(point.y));
        path += " H";
        path += number(x(point.x_end));
        end = point.x_end;
      }
      svg += "<path class=\"series step\" data-series=\"" + escape_html(series.name) +
             "\" data-points=\"" + std::to_string(series.points.size()) + "\" style=\"" + style +
             "\" d=\"" + path + "\"/>";
    } else {
      std::string points;
      for (const ChartPoint& point : series.points) {
        if (!points.empty()) points += ' ';
        points += number(x(point.x)) + "," + number(y(point.y));
      }
      svg += "<polyline class=\"series\" data-series=\"" + escape_html(series.name) +
             "\" data-points=\"" + std::to_string(series.points.size()) + "\" style=\"" + style +
             "\" points=\"" + points + "\"/>";
    }
    if (series.markers) {
      for (const ChartPoint& point : series.points) {
        const double at = series.steps ? (point.x + point.x_end) / 2 : point.x;
        svg += "<circle class=\"dot\" r=\"3.5\" cx=\"" + number(x(at)) + "\" cy=\"" +
               number(y(point.y)) + "\" style=\"fill:" + series.colour + "\"/>";
      }
    }
    const LegendSlot& slot = legend[index];
    const double row_y = 14 + kLegendRow * slot.row;
    svg += "<line class=\"legend-line\" x1=\"" + number(slot.x) + "\" x2=\"" +
           number(slot.x + 28) + "\" y1=\"" + number(row_y) + "\" y2=\"" + number(row_y) +
           "\" style=\"" + style + "\"/>";
    svg += "<text class=\"legend\" x=\"" + number(slot.x + 34) + "\" y=\"" +
           number(row_y + 4) + "\">" + escape_html(series.name) + "</text>";
  }
  svg += "</svg>";
  return svg;
}

}  // namespace hammer
