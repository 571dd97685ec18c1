// SPDX-License-Identifier: MIT
#include "report/compare_html.h"

#include <gtest/gtest.h>

#include <string>

#include "json/json_value.h"
#include "report/compare_report.h"
#include "report/json_report.h"
#include "report/report_test_support.h"

namespace hammer {
namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

Comparison three_rows() {
  Comparison comparison;
  comparison.a_seconds = 10;
  comparison.b_seconds = 10;
  CompareRow better{50, 1'000'000, 800'000, -200'000, -250'000, -150'000,
                    CompareVerdict::better, false, -1};
  CompareRow same{90, 2'000'000, 2'010'000, 10'000, -5'000, 30'000, CompareVerdict::no_change,
                  false, -1};
  CompareRow worse{99, 4'000'000, 6'000'000, 2'000'000, 1'500'000, 2'500'000,
                   CompareVerdict::worse, true, 10};
  comparison.rows = {better, same, worse};
  return comparison;
}

TEST(CompareHtmlTest, RowsVerdictsGatesBothCurvesAndBothConfigs) {
  const testing::FabricatedRun run = testing::open_loop_run();
  auto a = parse_json(render_json_report(run.input()));
  auto b = parse_json(render_json_report(run.input()));
  ASSERT_TRUE(a && b);
  auto page = render_compare_html(three_rows(), {"a.json", "b.json", "corrected"}, *a, *b);
  ASSERT_TRUE(page) << page.error();
  EXPECT_EQ(page->rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(page->find("<script"), std::string::npos);
  // One row per percentile, each with its verdict as a class and an attribute.
  EXPECT_EQ(count_of(*page, "<tr data-percentile="), 3u);
  EXPECT_NE(page->find("data-percentile=\"50\" data-verdict=\"better\" class=\"verdict-better\""),
            std::string::npos);
  EXPECT_NE(page->find("data-percentile=\"90\" data-verdict=\"no_change\""), std::string::npos);
  EXPECT_NE(page->find("data-percentile=\"99\" data-verdict=\"worse\" class=\"verdict-worse\""),
            std::string::npos);
  EXPECT_NE(page->find("[+1.50ms, +2.50ms]"), std::string::npos) << *page;
  // The gate, tripped, in the findings and in its own table.
  EXPECT_NE(page->find("data-gate=\"99\" data-tripped=\"true\""), std::string::npos);
  EXPECT_NE(page->find("--fail-if p99+10% tripped"), std::string::npos);
  // Both runs' curves on the one chart: corrected and uncorrected of each (open loop).
  const size_t chart = page->find("id=\"comparison-chart\"");
  ASSERT_NE(chart, std::string::npos);
  const std::string overlay = page->substr(chart, page->find("</svg>", chart) - chart);
  EXPECT_EQ(count_of(overlay, "<polyline"), 4u);
  EXPECT_NE(overlay.find("data-series=\"corrected — a.json\""), std::string::npos);
  EXPECT_NE(overlay.find("data-series=\"corrected — b.json\""), std::string::npos);
  // Both configurations, side by side.
  EXPECT_NE(page->find("<tr data-member=\"url\"><td class=\"name\">url</td>"), std::string::npos);
  // Section order: findings first, the configurations at the foot.
  EXPECT_LT(page->find("id=\"findings\""), page->find("id=\"fail-if\""));
  EXPECT_LT(page->find("id=\"fail-if\""), chart);
  EXPECT_LT(chart, page->find("<footer id=\"config\">"));
}

TEST(CompareHtmlTest, WhatTheDocumentsAndLabelsSayIsEscaped) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.url = "http://127.0.0.1:8082/<script>alert(1)</script>?a=1&b=\"2\"";
  auto a = parse_json(render_json_report(run.input()));
  auto b = parse_json(render_json_report(run.input()));
  ASSERT_TRUE(a && b);
  auto page =
      render_compare_html(three_rows(), {"<b>a.json", "b&.json", "corrected"}, *a, *b);
  ASSERT_TRUE(page) << page.error();
  EXPECT_EQ(page->find("<script"), std::string::npos);
  EXPECT_EQ(page->find("<b>a.json"), std::string::npos);
  EXPECT_NE(page->find("&lt;b&gt;a.json"), std::string::npos);
  EXPECT_NE(page->find("b&amp;.json"), std::string::npos);
  EXPECT_NE(page->find("/&lt;script&gt;alert(1)&lt;/script&gt;?a=1&amp;b=&quot;2&quot;"),
            std::string::npos);
}

TEST(CompareHtmlTest, NoGateSaysSoAndNoChangeIsAFinding) {
  const testing::FabricatedRun run = testing::open_loop_run();
  auto a = parse_json(render_json_report(run.input()));
  ASSERT_TRUE(a);
  Comparison comparison = three_rows();
  for (CompareRow& row : comparison.rows) {
    row.verdict = CompareVerdict::no_change;
    row.failed = false;
    row.fail_percent = -1;
  }
  auto page = render_compare_html(comparison, {"a.json", "b.json", "corrected"}, *a, *a);
  ASSERT_TRUE(page) << page.error();
  EXPECT_NE(page->find("No change beyond noise at any percentile."), std::string::npos);
  EXPECT_NE(page->find("No --fail-if gate was given."), std::string::npos);
  EXPECT_EQ(page->find("data-gate="), std::string::npos);
}

TEST(CompareHtmlTest, AGateTheRunsCouldNotJudgeSaysSoInItsCellAsTheTextDoes) {
  const testing::FabricatedRun run = testing::open_loop_run();
  auto a = parse_json(render_json_report(run.input()));
  ASSERT_TRUE(a);
  Comparison comparison = three_rows();
  comparison.too_few_seconds = true;
  comparison.a_seconds = 1;
  comparison.b_seconds = 1;
  for (CompareRow& row : comparison.rows) {
    row.verdict = CompareVerdict::no_change;
    row.failed = row.fail_percent >= 0;  // as compare_runs judges a gate it cannot show holds
    row.gate_unjudged = row.failed;
  }
  auto page = render_compare_html(comparison, {"a.json", "b.json", "corrected"}, *a, *a);
  ASSERT_TRUE(page) << page.error();
  const std::string cell = compare_gate_outcome_text(comparison, comparison.rows[2]);
  EXPECT_EQ(cell.rfind("FAIL, not judged: too few measured seconds (A 1, B 1; 3 needed", 0), 0u)
      << cell;
  EXPECT_NE(page->find("<td class=\"name\">" + cell + "</td>"), std::string::npos) << *page;
  const std::string text = render_compare_text(comparison, {"a.json", "b.json", "corrected"});
  EXPECT_NE(text.find("--fail-if p99+10%: " + cell + "\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace hammer
