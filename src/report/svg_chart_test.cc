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

}  // namespace
}  // namespace hammer
