// SPDX-License-Identifier: MIT
#include "report/svg_chart.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hammer {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t found = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++found;
  }
  return found;
}

TEST(SvgChartTest, NiceTicksAreRoundStepsCoveringTheRange) {
  EXPECT_EQ(nice_ticks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(nice_ticks(0, 0.9, 4), (std::vector<double>{0, 0.5, 1})) << "up to a tick >= 0.9";
  EXPECT_EQ(nice_ticks(0, 1234, 5), (std::vector<double>{0, 500, 1000, 1500}));
  EXPECT_EQ(nice_ticks(3, 3, 5), (std::vector<double>{3})) << "an empty range: one tick";
}

TEST(SvgChartTest, EscapesTextForHtmlAndSvg) {
  EXPECT_EQ(escape_html("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(escape_html(""), "");
}

TEST(SvgChartTest, OnePolylinePerSeriesWithItsPointsLegendShadeAndMarks) {
  Chart chart;
  chart.id = "c";
  chart.title = "Title <1>";
  chart.x_label = "time (s)";
  chart.y_label = "latency (ms)";
  chart.series.push_back({"p50", "#009E73", "", {{1, 1}, {2, 2}, {3, 1.5}}});
  chart.series.push_back({"p99", "#D55E00", "6 3", {{1, 4}, {2, 5}}, true});
  chart.shades.push_back({0, 1, "warm-up"});
  chart.marks.push_back({2, "knee"});
  const std::string svg = render_svg_chart(chart);
  EXPECT_TRUE(svg.starts_with("<svg class=\"chart\" id=\"c\" viewBox=\"0 0 960 360\""));
  EXPECT_TRUE(svg.ends_with("</svg>"));
  EXPECT_NE(svg.find("<title id=\"c-title\">Title &lt;1&gt;</title>"), std::string::npos);
  EXPECT_EQ(count(svg, "<polyline"), 2u);
  EXPECT_NE(svg.find("data-series=\"p50\" data-points=\"3\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"p99\" data-points=\"2\""), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray:6 3"), std::string::npos) << "told apart by dash too";
  EXPECT_EQ(count(svg, "<circle"), 2u) << "markers on the series that asks for them";
  EXPECT_EQ(count(svg, "<rect class=\"shade\""), 1u);
  EXPECT_NE(svg.find(">warm-up</text>"), std::string::npos);
  EXPECT_NE(svg.find(">knee</text>"), std::string::npos);
  EXPECT_NE(svg.find(">time (s)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">latency (ms)</text>"), std::string::npos);
}

TEST(SvgChartTest, AChartWithoutPointsIsStillAnEmptyChart) {
  Chart chart;
  chart.id = "empty";
  chart.series.push_back({"none", "#000", "", {}});
  const std::string svg = render_svg_chart(chart);
  EXPECT_NE(svg.find("data-points=\"0\""), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

// A one-second run has one timeline row: its point must show as a dot on an axis from 0, not
// vanish as a one-point line at the chart's left edge.
TEST(SvgChartTest, ASinglePointIsADotOnAnAxisFromZero) {
  Chart chart;
  chart.id = "one-row";
  chart.x_from_zero = true;
  chart.series = {{"requests/s", "#000", "", {{1.0, 490.0}}, true}};
  const std::string svg = render_svg_chart(chart);
  EXPECT_EQ(count(svg, "<circle"), 1u) << svg;
  EXPECT_NE(svg.find(">0<"), std::string::npos) << "the x axis starts at 0: " << svg;
  EXPECT_NE(svg.find(">1<"), std::string::npos) << svg;
}

// A per-second figure holds for its second: level from the row's start to its end, a vertical
// edge to the next row, and a gap (a second with no figure) breaks the line instead of being
// bridged by a ramp.
TEST(SvgChartTest, AStepSeriesIsLevelAcrossEachIntervalAndBreaksAtAGap) {
  Chart chart;
  chart.id = "steps";
  chart.x_from_zero = true;
  ChartSeries p99{"p99", "#D55E00", "", {{0, 1, 1}, {1, 5, 2}, {3, 1, 4}}};
  p99.steps = true;
  chart.series = {p99};
  const std::string svg = render_svg_chart(chart);
  EXPECT_EQ(count(svg, "<polyline"), 0u) << svg;
  ASSERT_EQ(count(svg, "<path class=\"series step\" data-series=\"p99\" data-points=\"3\""), 1u)
      << svg;
  const size_t d = svg.find(" d=\"", svg.find("class=\"series step\"")) + 4;
  const std::string path = svg.substr(d, svg.find('"', d) - d);
  // x: 0..4 s over 78..940; y: 0..5 ms over 308..34 (ticks up to 5).
  EXPECT_EQ(path, "M78.0 253.2 H293.5 V34.0 H509.0 M724.5 253.2 H940.0") << svg;
}

// A comparison's legend (six long names) does not fit one row: it wraps, the chart grows by a
// row's height for each row more, and no entry runs past the right edge.
TEST(SvgChartTest, ALegendTooLongForOneRowWrapsAndTheChartMakesRoomForIt) {
  Chart chart;
  chart.id = "legend";
  for (const char* name : {"corrected — before-the-change.json", "uncorrected — before-the-change.json",
                           "corrected — after-the-change.json", "uncorrected — after-the-change.json",
                           "corrected — third.json", "uncorrected — third.json"}) {
    chart.series.push_back({name, "#000", "", {{0, 1}, {1, 2}}});
  }
  const std::string svg = render_svg_chart(chart);
  const size_t box = svg.find("viewBox=\"0 0 960 ") + 17;
  const int height = std::stoi(svg.substr(box));
  EXPECT_GT(height, 360) << svg;
  EXPECT_EQ((height - 360) % 20, 0) << svg;
  size_t rows_seen = 0;
  for (int row = 0; row < 6; ++row) {
    if (svg.find("class=\"legend\" x=\"112.0\" y=\"" + std::to_string(18 + 20 * row) + ".0\"") !=
        std::string::npos) {
      ++rows_seen;
    }
  }
  EXPECT_EQ(static_cast<int>(rows_seen), 1 + (height - 360) / 20) << "each row starts at the left";
  for (size_t at = svg.find("<text class=\"legend\" x=\""); at != std::string::npos;
       at = svg.find("<text class=\"legend\" x=\"", at + 1)) {
    const double x = std::stod(svg.substr(at + 26));
    const size_t text = svg.find('>', at) + 1;
    const std::string name = svg.substr(text, svg.find('<', text) - text);
    size_t drawn = 0;
    for (unsigned char c : name) drawn += (c & 0xC0) != 0x80 ? 1 : 0;
    EXPECT_LE(x + 7.5 * static_cast<double>(drawn), 940.0) << name;
  }
}

}  // namespace
}  // namespace hammer
