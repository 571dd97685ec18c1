// SPDX-License-Identifier: MIT
#pragma once
// Line charts as inline SVG for the HTML report: axes with labelled ticks and units, one
// polyline per series (a step path for per-interval figures), shaded x ranges (warm-up) and marked x positions (knee, collapse).
// Coordinates are computed here, so the page needs no script to draw, and a test can count a
// curve's points in the DOM. Series are told apart by colour AND dash pattern, and the palette
// is Okabe-Ito's, so the chart reads for colour-blind readers and in black-and-white print.
#include <string>
#include <vector>

namespace hammer {

struct ChartPoint {
  double x;
  double y;
  double x_end = 0;  // a step series: the figure holds from x to x_end (one timeline row)
};

struct ChartSeries {
  std::string name;    // legend text; also the polyline's data-series attribute
  std::string colour;  // CSS colour
  std::string dash;    // SVG stroke-dasharray; empty for a solid line
  std::vector<ChartPoint> points;
  bool markers = false;  // draw a dot at every point (few points: sweep steps)
  // Each point is an interval's figure (a second of the timeline): drawn as a step, level from
  // x to x_end, as a <path> (class "series step"), never as a ramp from one interval to the
  // next. Adjacent intervals join with a vertical edge; a gap (no figure) breaks the line.
  bool steps = false;
};

struct ChartShade {
  double from_x;
  double to_x;
  std::string label;  // "warm-up"
};

struct ChartMark {
  double x;
  std::string label;  // "knee", "collapse"
};

struct ChartTick {
  double at;          // in axis units (already transformed for a log axis)
  std::string label;  // "99.9%"
};

struct Chart {
  std::string id;       // element id, for tests and links
  std::string title;    // the SVG's <title>, for screen readers
  std::string x_label;  // with its unit: "percentile", "time (s)"
  std::string y_label;  // with its unit: "latency (ms)"
  std::vector<ChartTick> x_ticks;  // empty: chosen from the data's range
  bool x_from_zero = false;        // the x axis starts at 0 (time since the run's start)
  double y_min = 0;                // the y axis starts here (0 unless the data goes below)
  std::vector<ChartSeries> series;
  std::vector<ChartShade> shades;
  std::vector<ChartMark> marks;
};

/// The chart as one <svg> element (viewBox 0 0 960 360, scales with the page width). A legend
/// too long for one row wraps onto more, each row 20 units more of height above the plot.
std::string render_svg_chart(const Chart& chart);

/// "Nice" round tick positions covering [low, high]: about `count` of them, at 1, 2 or 5 x
/// 10^k steps.
std::vector<double> nice_ticks(double low, double high, int count);

/// Text with &, <, >, " and ' escaped for HTML and SVG.
std::string escape_html(std::string_view text);

}  // namespace hammer
