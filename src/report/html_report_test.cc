// SPDX-License-Identifier: MIT
#include "report/html_report.h"

#include <gtest/gtest.h>

#include <string>

#include "json/json_value.h"
#include "report/hgrm.h"
#include "report/json_report.h"
#include "report/slo_report.h"
#include "report/report_test_support.h"
#include "report/svg_chart.h"
#include "report/sweep_report.h"
#include "report/verdict_text.h"
#include "run/verdicts.h"

namespace hammer {
namespace {

using testing::censored_run;
using testing::closed_loop_run;
using testing::open_loop_run;

// The page of one fabricated run, rendered as -o run.html renders it: through the document.
std::string page_of(const ReportInput& input) {
  auto document = parse_json(render_json_report(input));
  EXPECT_TRUE(document.has_value()) << document.error();
  auto html = render_html_report({{"run.json", &*document}});
  EXPECT_TRUE(html.has_value()) << html.error();
  return html ? *html : std::string();
}

size_t position(const std::string& page, const std::string& text) {
  const size_t at = page.find(text);
  EXPECT_NE(at, std::string::npos) << text;
  return at;
}

// The number in attribute `name` of the first element after `anchor`.
std::string attribute_after(const std::string& page, const std::string& anchor,
                            const std::string& name) {
  const size_t at = page.find(anchor);
  if (at == std::string::npos) return "";
  const size_t start = page.find(name + "=\"", at);
  if (start == std::string::npos) return "";
  const size_t value = start + name.size() + 2;
  return page.substr(value, page.find('"', value) - value);
}

TEST(HtmlReportTest, OneSelfContainedPageInTheOrderAReaderNeedsIt) {
  testing::FabricatedRun run = open_loop_run();
  // 1,500 req/s answered of 2,000 scheduled: over capacity, as the figures say it.
  run.result.completed = 15'000;
  run.result.status_classes = {0, 15'000, 0, 0, 0};
  run.verdicts = compute_verdicts(run.config, run.result, 0);
  ASSERT_FALSE(run.verdicts.empty());
  ASSERT_TRUE(std::holds_alternative<OverCapacityVerdict>(run.verdicts[0]));
  const std::string page = page_of(run.input());
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>\n")) << page.substr(0, 80);
  EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"),
            std::string::npos);
  for (const char* fetches : {"<script", "<link", "<img", "src=", "href=", "@import", "url("}) {
    EXPECT_EQ(page.find(fetches), std::string::npos) << fetches << " in a self-contained page";
  }
  // Findings, then the table, the spectrum, the timeline's place, dispatch lag, the footer.
  const size_t findings = position(page, "<section id=\"findings\">");
  const size_t latency = position(page, "<section id=\"latency\">");
  const size_t spectrum = position(page, "<section id=\"spectrum\">");
  const size_t dispatch = position(page, "<section id=\"dispatch\">");
  const size_t footer = position(page, "<footer id=\"config\">");
  EXPECT_LT(findings, latency);
  EXPECT_LT(latency, spectrum);
  EXPECT_LT(spectrum, dispatch);
  EXPECT_LT(dispatch, footer);
  // The verdict is verdict_text's sentence, judged from the document's figures as `hammer
  // report` judges them, not a wording of the page's own.
  const std::string sentence = verdict_sentence(run.verdicts[0]);
  EXPECT_NE(page.find(">" + escape_html(sentence) + "</li>"), std::string::npos) << sentence;
  EXPECT_NE(page.find("data-code=\"over_capacity\""), std::string::npos);
  EXPECT_NE(page.find("20 connections, 4 threads, 10s, open loop at 2000 req/s"),
            std::string::npos);
  EXPECT_NE(page.find("hammer " HAMMER_VERSION), std::string::npos) << "version at the foot";
}

// A run that missed an --slo exits 3 and its text says "SLO p99 <= 1.00us: ..., MISSED"; its
// page said "No verdict, no error" and nothing of the gate. Each SLO is now a finding, in the
// text report's words, a missed one first and marked as an error.
TEST(HtmlReportTest, EachSloIsAFindingInTheTextReportsWordsAMissedOneFirst) {
  testing::FabricatedRun run = open_loop_run();
  std::vector<SloLimit> limits(2);
  limits[0].key = "errors";
  limits[0].limit_text = "1%";
  limits[0].error_rate = 0.01;
  limits[1].key = "p99";
  limits[1].limit_text = "1us";
  limits[1].percentile = 99;
  limits[1].limit_ns = 1'000;
  const std::vector<SloOutcome> outcomes = evaluate_slos(limits, run.config, run.result);
  ASSERT_FALSE(outcomes[1].pass);
  ReportInput input = run.input();
  input.slo = &outcomes;
  const std::string page = page_of(input);
  const std::string lines = render_slo_lines(outcomes);
  const std::string errors_line = lines.substr(0, lines.find('\n'));
  const std::string p99_line = lines.substr(lines.find('\n') + 1, lines.rfind('\n') - lines.find('\n') - 1);
  ASSERT_NE(p99_line.find("MISSED"), std::string::npos) << lines;
  const size_t missed = position(page, "<li class=\"error\" data-slo=\"p99\">" + escape_html(p99_line) + "</li>");
  const size_t met = position(page, "<li class=\"ok\" data-slo=\"errors\">" + escape_html(errors_line) + "</li>");
  EXPECT_LT(missed, met);
  EXPECT_LT(position(page, "<section id=\"findings\">"), missed);
  EXPECT_LT(met, position(page, "<section id=\"latency\">"));
}

// --requests: the text report and the document give each line's figures; the page had none.
TEST(HtmlReportTest, ARequestsFileRunHasItsFiguresPerLine) {
  testing::FabricatedRun run = open_loop_run();
  run.config.requests_path = "mix.jsonl";
  for (int i = 0; i < 2; ++i) {
    RequestLine line;
    line.line_number = i + 1;
    line.method = i == 0 ? "GET" : "POST";
    line.path = i == 0 ? "/search" : "/items";
    line.name = i == 0 ? "search" : "/items";
    run.config.requests.push_back(line);
  }
  run.result.lines.resize(2);
  for (int64_t v = 1; v <= 100; ++v) run.result.lines[0].corrected.record(v * 100'000);
  run.result.lines[0].sent = run.result.lines[0].completed = 100;
  run.result.lines[0].status_classes = {0, 100, 0, 0, 0};
  run.result.lines[1].sent = 7;
  run.result.lines[1].completed = 5;
  run.result.lines[1].errors = {0, 0, 0, 2, 0};
  run.result.lines[1].status_classes = {0, 0, 0, 1, 4};
  for (int i = 0; i < 5; ++i) run.result.lines[1].corrected.record(3'000'000);
  const std::string page = page_of(run.input());
  const size_t section = position(page, "<section id=\"requests-by-line\">");
  EXPECT_LT(position(page, "<section id=\"latency\">"), section);
  const std::string first = "<tr><td>1</td><td class=\"name\">search</td><td class=\"name\">GET "
                            "/search</td><td>100</td><td>100</td><td>0</td><td>0</td>";
  const size_t row = position(page, first);
  const Histogram& h = run.result.lines[0].corrected;
  EXPECT_EQ(attribute_after(page.substr(row), first, "data-ns"),
            std::to_string(h.value_at_percentile(50)));
  position(page, "<tr><td>2</td><td class=\"name\">/items</td><td class=\"name\">POST "
                 "/items</td><td>7</td><td>5</td><td>2</td><td>5</td>");
  position(page, "mix.jsonl: the measured part per line of the file; latency corrected");
  // A run without --requests has no such section.
  EXPECT_EQ(page_of(open_loop_run().input()).find("requests-by-line"), std::string::npos);
}

TEST(HtmlReportTest, CorrectedBesideUncorrectedWithTheRatioFromTheHistograms) {
  const testing::FabricatedRun run = open_loop_run();
  const std::string page = page_of(run.input());
  const int64_t corrected = run.result.corrected.value_at_percentile(99);
  const int64_t uncorrected = run.result.uncorrected.value_at_percentile(99);
  const size_t row = position(page, "<tr data-percentile=\"99\">");
  const std::string cells = page.substr(row, page.find("</tr>", row) - row);
  EXPECT_NE(cells.find("data-ns=\"" + std::to_string(corrected) + "\""), std::string::npos)
      << cells;
  EXPECT_NE(cells.find("data-ns=\"" + std::to_string(uncorrected) + "\""), std::string::npos)
      << cells;
  EXPECT_NE(cells.find("10.0&times;"), std::string::npos) << "corrected is 10x: " << cells;
  EXPECT_LT(cells.find(std::to_string(corrected)), cells.find(std::to_string(uncorrected)))
      << "corrected first";
}

// The page of a run whose JSON document has every `censored` member removed: what a document
// written before censored percentiles reads like.
std::string page_without_censored_members(const ReportInput& input) {
  std::string text = render_json_report(input);
  for (size_t at; (at = text.find("\"censored\": [")) != std::string::npos;) {
    const size_t end = text.find(']', at);
    text.erase(at, end + 1 - at);
    // The member's comma: after it when it came first, else before it.
    if (text[at] == ',') {
      text.erase(at, 1);
    } else {
      const size_t comma = text.rfind(',', at);
      text.erase(comma, 1);
    }
  }
  EXPECT_EQ(text.find("\"censored\""), std::string::npos);
  auto document = parse_json(text);
  EXPECT_TRUE(document.has_value()) << document.error() << "\n" << text;
  if (!document) return "";
  auto html = render_html_report({{"old.json", &*document}});
  EXPECT_TRUE(html.has_value()) << html.error();
  return html ? *html : std::string();
}

TEST(HtmlReportTest, ACensoredPercentileIsAMarkedBoundNeverAValue) {
  testing::FabricatedRun run = censored_run();
  run.verdicts = compute_verdicts(run.config, run.result, 2);
  for (const std::string& page : {page_of(run.input()), page_without_censored_members(run.input())}) {
    const size_t row = position(page, "<tr data-percentile=\"99\">");
    const std::string cells = page.substr(row, page.find("</tr>", row) - row);
    EXPECT_NE(cells.find("class=\"censored\""), std::string::npos) << cells;
    EXPECT_NE(cells.find("&gt; 2.00s"), std::string::npos) << cells;
    EXPECT_EQ(cells.find("data-ns="), std::string::npos) << "no value to read: " << cells;
    const size_t max_row = position(page, "<tr data-percentile=\"max\">");
    const std::string max_cells = page.substr(max_row, page.find("</tr>", max_row) - max_row);
    EXPECT_NE(max_cells.find("&gt; 2.00s"), std::string::npos) << max_cells;
    const size_t p95_row = position(page, "<tr data-percentile=\"95\">");
    const std::string p95 = page.substr(p95_row, page.find("</tr>", p95_row) - p95_row);
    EXPECT_NE(p95.find("data-ns="), std::string::npos) << "95% of 100 were answered: " << p95;
  }
  // The warning is a finding, in the text report's words.
  EXPECT_NE(page_of(run.input()).find("data-code=\"censored_tail\""), std::string::npos);
}

TEST(HtmlReportTest, TheSpectrumOfACensoredRunStopsAtTheAnsweredShare) {
  const testing::FabricatedRun run = censored_run();
  const std::string page = page_of(run.input());
  // Every .hgrm line is a point, the slowest answer's too: it sits at 98%, a finite x.
  EXPECT_EQ(attribute_after(page, "data-series=\"uncorrected\"", "data-points"),
            std::to_string(percentile_steps(run.result.uncorrected).size()));
}

TEST(HtmlReportTest, TheSpectrumHasTheHgrmPointsOfBothCurves) {
  const testing::FabricatedRun run = open_loop_run();
  const std::string page = page_of(run.input());
  // Every .hgrm line but the 100% one (1/(1-1) is infinite) is a point of its curve.
  EXPECT_EQ(attribute_after(page, "data-series=\"corrected\"", "data-points"),
            std::to_string(percentile_steps(run.result.corrected).size() - 1));
  EXPECT_EQ(attribute_after(page, "data-series=\"uncorrected\"", "data-points"),
            std::to_string(percentile_steps(run.result.uncorrected).size() - 1));
  for (const char* tick : {">50%<", ">90%<", ">99%<", ">99.9%<"}) {
    EXPECT_NE(page.find(tick), std::string::npos) << tick << " on the 1/(1-q) axis";
  }
  EXPECT_NE(page.find("percentile (log scale of 1/(1-q))"), std::string::npos);
  EXPECT_NE(page.find("latency (ms)"), std::string::npos) << "axes name their units";
}

TEST(HtmlReportTest, ClosedLoopHasOneCurveAndSaysWhy) {
  testing::FabricatedRun run = closed_loop_run();
  run.config.connections = 1;
  run.config.threads = 1;
  const std::string page = page_of(run.input());
  EXPECT_EQ(page.find("data-series=\"corrected\""), std::string::npos);
  EXPECT_NE(page.find("data-series=\"uncorrected\""), std::string::npos);
  EXPECT_NE(page.find("1 connection, 1 thread, 10s, closed loop"), std::string::npos)
      << "no '1 threads'";
  EXPECT_EQ(page.find("1 threads"), std::string::npos);
}

TEST(HtmlReportTest, WhatTheDocumentSaysIsEscaped) {
  testing::FabricatedRun run = open_loop_run();
  run.config.url = "http://127.0.0.1:8082/<script>alert(1)</script>?a=1&b=\"2\"";
  const std::string page = page_of(run.input());
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(page.find("/&lt;script&gt;alert(1)&lt;/script&gt;?a=1&amp;b=&quot;2&quot;"),
            std::string::npos);
}

TEST(HtmlReportTest, TwoRunsAreComparedOnOneSpectrum) {
  const testing::FabricatedRun before = open_loop_run();
  const testing::FabricatedRun after = closed_loop_run();
  auto first = parse_json(render_json_report(before.input()));
  auto second = parse_json(render_json_report(after.input()));
  ASSERT_TRUE(first && second);
  auto page = render_html_report({{"before.json", &*first}, {"after.json", &*second}});
  ASSERT_TRUE(page.has_value()) << page.error();
  const size_t comparison = position(*page, "<section id=\"comparison\">");
  EXPECT_LT(comparison, position(*page, "<article id=\"run1\">"));
  EXPECT_LT(position(*page, "<article id=\"run1\">"), position(*page, "<article id=\"run2\">"));
  // Three curves overlaid: before's two, after's one (closed loop has no corrected).
  const size_t chart = position(*page, "id=\"comparison-chart\"");
  const std::string overlay = page->substr(chart, page->find("</svg>", chart) - chart);
  size_t curves = 0;
  for (size_t at = overlay.find("<polyline"); at != std::string::npos;
       at = overlay.find("<polyline", at + 1)) {
    ++curves;
  }
  EXPECT_EQ(curves, 3u) << overlay;
  EXPECT_NE(overlay.find("data-series=\"corrected — before.json\""), std::string::npos);
  // The caption names each curve drawn with the style it is drawn in: the first run solid and
  // dashed, the second's one curve dotted (its dash pattern in the polyline's style).
  const size_t caption = position(*page, "id=\"comparison-styles\"");
  const std::string words = page->substr(caption, page->find("</p>", caption) - caption);
  EXPECT_NE(words.find("corrected — before.json: solid"), std::string::npos) << words;
  EXPECT_NE(words.find("uncorrected — before.json: dashed"), std::string::npos) << words;
  EXPECT_NE(words.find("uncorrected — after.json: dotted"), std::string::npos) << words;
  EXPECT_NE(words.find("(closed loop: no corrected curve)"), std::string::npos) << words;
  EXPECT_EQ(words.find("corrected — after.json:"), words.find("uncorrected — after.json:") + 2)
      << "no corrected curve of after.json is named: " << words;
  EXPECT_EQ(attribute_after(overlay, "data-series=\"uncorrected — after.json\"", "style"),
            "stroke:#CC79A7;stroke-dasharray:2 3");
  EXPECT_EQ(attribute_after(overlay, "data-series=\"corrected — before.json\"", "style"),
            "stroke:#D55E00");
  EXPECT_EQ(page->find("shorter dashes"), std::string::npos) << "the old caption is gone";
}

// The footer lists what the run was given: an empty list (the default spectrum's percentiles)
// is left out, a list that has values is shown as one.
TEST(HtmlReportTest, TheConfigFooterLeavesOutEmptyValues) {
  testing::FabricatedRun run = open_loop_run();
  std::string page = page_of(run.input());
  std::string footer = page.substr(position(page, "<footer id=\"config\">"));
  EXPECT_EQ(footer.find("<dt>percentiles</dt>"), std::string::npos) << footer;
  EXPECT_EQ(footer.find("…"), std::string::npos) << footer;
  EXPECT_NE(footer.find("<dt>url</dt>"), std::string::npos) << footer;
  run.config.percentiles = {99.9, 99.99};
  page = page_of(run.input());
  footer = page.substr(position(page, "<footer id=\"config\">"));
  EXPECT_NE(footer.find("<dt>percentiles</dt><dd>99.9, 99.99</dd>"), std::string::npos) << footer;
}

TEST(HtmlReportTest, RefusesWhatItCannotRender) {
  auto foreign = parse_json("{\"latency\": {}}");
  ASSERT_TRUE(foreign);
  auto refused = render_html_report({{"x.json", &*foreign}});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error(), "x.json: not a hammer JSON document");

  const testing::FabricatedRun run = open_loop_run();
  std::string text = render_json_report(run.input());
  const size_t hdr = text.find("\"hdr\": \"") + 8;
  text.replace(hdr, 4, "!!!!");
  auto broken = parse_json(text);
  ASSERT_TRUE(broken) << broken.error();
  refused = render_html_report({{"b.json", &*broken}});
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(refused.error().starts_with("b.json: latency.")) << refused.error();

  EXPECT_FALSE(render_html_report({}).has_value());

  // A document of another schema (a later hammer's) may mean other things by the same
  // members: refused as hammer merge refuses it, never rendered as if it were schema 1.
  std::string later = render_json_report(run.input());
  const size_t schema = later.find("\"schema\": 1");
  ASSERT_NE(schema, std::string::npos);
  later.replace(schema, 11, "\"schema\": 2");
  auto future = parse_json(later);
  ASSERT_TRUE(future) << future.error();
  refused = render_html_report({{"later.json", &*future}});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error(),
            "later.json: schema 2 is not readable by this hammer (it reads schema 1)");
}

// A figure no run can have (an elapsed time of 1e300 ns) is refused by the typed reader with
// one line naming the member, as `hammer report`'s text refuses it: never undefined behaviour
// in a cast, never a page of made-up figures.
TEST(HtmlReportTest, OutOfRangeFiguresInASavedDocumentAreRefusedByName) {
  const testing::FabricatedRun run = open_loop_run();
  std::string text = render_json_report(run.input());
  const size_t elapsed = text.find("\"elapsed_ns\": ");
  ASSERT_NE(elapsed, std::string::npos);
  text.replace(elapsed, text.find(',', elapsed) - elapsed, "\"elapsed_ns\": 1e300");
  auto document = parse_json(text);
  ASSERT_TRUE(document) << document.error();
  auto page = render_html_report({{"odd.json", &*document}});
  ASSERT_FALSE(page.has_value());
  EXPECT_EQ(page.error(), "odd.json: elapsed_ns: expected an integer");
}

// The timeline shades what ran before the measured part, each phase with its own label, in the
// order a run takes them: the ramp, then the warm-up.
TEST(HtmlReportTest, TheTimelineShadesTheRampAndTheWarmUpApart) {
  testing::FabricatedRun run = open_loop_run();
  run.config.ramp_ns = 2'000'000'000;
  run.config.warmup_ns = 1'000'000'000;
  run.result.timeline.plan(run.config.warmup_ns, run.config.duration_ns, false,
                           run.config.ramp_ns);
  for (int32_t row = 0; row < 13; ++row) {
    run.result.timeline.set_row(row, 2'000, 0, 0, 1'000'000, run.result.uncorrected);
  }
  const std::string page = page_of(run.input());
  const size_t ramp = page.find(">ramp (not in the figures)<");
  const size_t warmup = page.find(">warm-up (not in the figures)<");
  ASSERT_NE(ramp, std::string::npos) << page;
  ASSERT_NE(warmup, std::string::npos) << page;
  EXPECT_LT(ramp, warmup) << "the ramp comes first";
  EXPECT_NE(page.find("The shaded parts are the ramp and the warm-up."), std::string::npos);

  // Each second is a step from its row's start, the first at the run's start (x = 0, the
  // axis, where the ramp's shading starts), never a point at the row's end.
  const size_t latency = position(page, "id=\"timeline-latency\"");
  const std::string chart = page.substr(latency, page.find("</svg>", latency) - latency);
  EXPECT_EQ(chart.find("<polyline"), std::string::npos) << chart;
  const std::string d = attribute_after(chart, "data-series=\"p99\"", "d");
  EXPECT_TRUE(d.starts_with("M78.0 ")) << d;
  // The fabricated run spans 10 s (its ramp and warm-up ran no time): ten rows, ten levels.
  EXPECT_EQ(attribute_after(chart, "data-series=\"p99\"", "data-points"), "10");
  size_t edges = 0;
  for (size_t at = d.find(" H"); at != std::string::npos; at = d.find(" H", at + 1)) ++edges;
  EXPECT_EQ(edges, 10u) << "one level per row: " << d;
  EXPECT_EQ(attribute_after(chart, "class=\"shade\"", "x"), "78.0") << "the ramp shades from 0";
}


// A sweep's noisy level is marked in the page's table as in the text's (issue 23).
TEST(HtmlReportTest, ASweepsNoisyLevelIsMarkedInItsTable) {
  Config config;
  config.url = "http://127.0.0.1:8082/";
  config.sweep.connections = {1, 2};
  SweepResult result;
  for (int64_t level : {1, 2}) {
    StepSummary step;
    step.level = static_cast<double>(level);
    step.connections = level;
    step.threads = 1;
    step.elapsed_ns = 1'000'000'000;
    step.completed = 1000;
    step.per_second = 1000;
    step.has_latency = true;
    step.p50_ns = step.p99_ns = step.max_ns = 1'000'000;
    step.mean_ns = 1e6;
    result.steps.push_back(step);
  }
  result.steps[1].noisy = true;
  result.steps[1].runs = 3;
  read_curve(config, result);
  auto document = parse_json(render_sweep_json(config, result));
  ASSERT_TRUE(document.has_value()) << document.error();
  auto html = render_html_report({{"sweep.json", &*document}});
  ASSERT_TRUE(html.has_value()) << html.error();
  EXPECT_NE(html->find("<tr><td>1</td>"), std::string::npos) << *html;
  EXPECT_NE(html->find("<tr class=\"noisy\"><td>2~ <small>(3 runs)</small></td>"),
            std::string::npos)
      << *html;
  EXPECT_NE(html->find("~ noisy: the level was still unsettled after its repeats"),
            std::string::npos);
  // The legend the text prints is among the findings too.
  EXPECT_NE(html->find("<li class=\"verdict\">~ noisy: 2 connections was still unsettled"),
            std::string::npos);
}

}  // namespace
}  // namespace hammer
