// SPDX-License-Identifier: MIT
// Issue 24, one document model: a single run's page says each figure as the text report says
// it. Each test renders one fabricated run's document twice — the page, and the text as
// `hammer report` prints it from the same document — and reads the figures out of both.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "document/run_document.h"
#include "json/json_value.h"
#include "report/html_report.h"
#include "report/json_report.h"
#include "report/report_test_support.h"
#include "report/text_report.h"
#include "run/verdicts.h"

namespace hammer {
namespace {

using testing::lines_of;

struct Rendered {
  std::string text;  // as `hammer report run.json` prints it
  std::string page;  // as `hammer report run.json -o run.html` writes it
  RunDocument typed;
};

Rendered render_both(const ReportInput& input) {
  Rendered rendered;
  auto document = parse_json(render_json_report(input));
  EXPECT_TRUE(document.has_value()) << document.error();
  if (!document) return rendered;
  auto page = render_html_report({{"run.json", &*document}});
  EXPECT_TRUE(page.has_value()) << page.error();
  if (page) rendered.page = *page;
  auto typed = read_run_document(*document);
  EXPECT_TRUE(typed.has_value()) << typed.error();
  if (!typed) return rendered;
  rendered.typed = std::move(*typed);
  const std::vector<Verdict> verdicts = compute_verdicts(
      rendered.typed.config, rendered.typed.result, rendered.typed.machine_cpus);
  ReportInput saved{rendered.typed.config, rendered.typed.result, verdicts, {}};
  if (rendered.typed.notes) saved.saved_notes = &*rendered.typed.notes;
  rendered.text = render_text_report(saved);
  return rendered;
}

// A cell's text as a reader sees it: tags dropped, the page's entities and the "(timed out)"
// mark (the text prints it once per row, the page in each cell) taken off.
std::string shown_text(std::string html) {
  std::string text;
  for (size_t i = 0; i < html.size(); ++i) {
    if (html[i] == '<') {
      i = html.find('>', i);
      if (i == std::string::npos) break;
      continue;
    }
    text += html[i];
  }
  for (const auto& [entity, plain] : {std::pair<std::string, std::string>{"&gt;", ">"},
                                      {"&times;", "x"},
                                      {"&amp;", "&"}}) {
    for (size_t at; (at = text.find(entity)) != std::string::npos;) {
      text.replace(at, entity.size(), plain);
    }
  }
  const std::string mark = " (timed out)";
  if (text.ends_with(mark)) text.erase(text.size() - mark.size());
  return text;
}

// The cells of the first row after `anchor`, as shown.
std::vector<std::string> cells_after(const std::string& page, const std::string& anchor) {
  std::vector<std::string> cells;
  const size_t at = page.find(anchor);
  EXPECT_NE(at, std::string::npos) << anchor;
  if (at == std::string::npos) return cells;
  const size_t row = page.rfind("<tr", at);
  const size_t end = page.find("</tr>", at);
  for (size_t cell = page.find("<td", row); cell < end; cell = page.find("<td", cell + 1)) {
    const size_t open = page.find('>', cell) + 1;
    cells.push_back(shown_text(page.substr(open, page.find("</td>", open) - open)));
  }
  return cells;
}

// A text line's words, a censored figure ("> 2.00s") one word, the "(timed out)" mark dropped.
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream stream(line);
  for (std::string word; stream >> word;) {
    if (word == "(timed" || word == "out)") continue;
    if (!words.empty() && words.back() == ">") {
      words.back() += " " + word;
    } else {
      words.push_back(word);
    }
  }
  return words;
}

// The lines of `text` after the first one that starts with `heading` (and `skip` more), up to
// the first that `belongs` refuses.
template <typename Belongs>
std::vector<std::string> block_after(const std::string& text, const std::string& heading,
                                     size_t skip, Belongs belongs) {
  std::vector<std::string> block;
  const std::vector<std::string> lines = lines_of(text);
  size_t i = 0;
  while (i < lines.size() && !lines[i].starts_with(heading)) ++i;
  for (i += 1 + skip; i < lines.size() && belongs(lines[i]); ++i) block.push_back(lines[i]);
  return block;
}

std::string line_starting(const std::string& text, const std::string& prefix) {
  for (const std::string& line : lines_of(text)) {
    if (line.starts_with(prefix)) return line;
  }
  ADD_FAILURE() << "no line starts with '" << prefix << "' in\n" << text;
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HtmlRunSectionsTest, TheLatencyTableHasTheTextReportsFigures) {
  testing::FabricatedRun open = testing::open_loop_run();
  testing::FabricatedRun censored = testing::censored_run();
  for (testing::FabricatedRun* run : {&open, &censored}) {
    run->config.print_latency = true;  // the text's full spectrum: every row the page has
    const Rendered both = render_both(run->input());
    const bool open_loop = run->config.open_loop();
    const auto latency_rows = block_after(both.text, "  Latency (", open_loop ? 1 : 0,
                                          [](const std::string& line) {
                                            const std::vector<std::string> words = words_of(line);
                                            return !words.empty() && (words[0].ends_with("%") ||
                                                                      words[0] == "max");
                                          });
    ASSERT_GE(latency_rows.size(), 8u) << both.text;
    for (const std::string& line : latency_rows) {
      const std::vector<std::string> words = words_of(line);
      std::string label = words[0];
      if (label.ends_with("%")) label.pop_back();
      const std::vector<std::string> cells =
          cells_after(both.page, "<tr data-percentile=\"" + label + "\">");
      ASSERT_EQ(cells.size(), 4u) << line;
      if (open_loop) {
        ASSERT_EQ(words.size(), 4u) << line;
        EXPECT_EQ(cells[1], words[1]) << line;
        EXPECT_EQ(cells[2], words[2]) << line;
        EXPECT_EQ(cells[3], words[3]) << "the ratio: " << line;
      } else {
        EXPECT_EQ(cells[1], "-") << "closed loop has no corrected figure";
        EXPECT_EQ(cells[2], words[1]) << line;
      }
    }
    // The counts under the table: "Requests/sec" and "N requests in ELAPSED".
    const std::vector<std::string> counts = cells_after(both.page, "id=\"requests-per-second\"");
    ASSERT_EQ(counts.size(), 4u);
    EXPECT_EQ(counts[0], words_of(line_starting(both.text, "Requests/sec"))[1]);
    const std::vector<std::string> totals =
        words_of(line_starting(both.text, "  " + counts[1] + " requests in "));
    ASSERT_GE(totals.size(), 4u);
    EXPECT_EQ(totals[3], counts[3] + ",") << "elapsed";
    EXPECT_EQ(counts[2], std::to_string(run->result.sent));
  }
}

TEST(HtmlRunSectionsTest, DispatchLagAndColdStartHaveTheTextReportsFigures) {
  testing::FabricatedRun run = testing::open_loop_run();
  for (int64_t i = 1; i <= 20; ++i) run.result.connect_time.record(i * 37'000);
  for (int64_t i = 1; i <= 20; ++i) run.result.first_requests.record(i * 211'000);
  const Rendered both = render_both(run.input());
  const std::vector<std::string> lag = cells_after(both.page, "actual send &minus; intended");
  ASSERT_EQ(lag.size(), 7u);
  EXPECT_TRUE(has(line_starting(both.text, "Dispatch lag"),
                  "mean " + lag[1] + ", max " + lag[2] + ", " + lag[3] +
                      " requests behind schedule (server " + lag[4] + ", hammer " + lag[5]))
      << both.text;
  const std::vector<std::string> connect = cells_after(both.page, ">connect time<");
  ASSERT_EQ(connect.size(), 6u);
  EXPECT_TRUE(has(line_starting(both.text, "Connect "), "p50 " + connect[2] + ", p99 " +
                                                            connect[3] + ", max " + connect[4] +
                                                            " (" + connect[1] + " connects)"))
      << both.text;
  const std::vector<std::string> first = cells_after(both.page, ">first requests<");
  ASSERT_EQ(first.size(), 6u);
  EXPECT_TRUE(has(line_starting(both.text, "First requests"),
                  "p50 " + first[2] + ", max " + first[4] + " (" + first[1] + ", "))
      << both.text;
  // Closed loop: no schedule, so neither the text nor the page has a dispatch lag.
  const Rendered closed = render_both(testing::closed_loop_run().input());
  EXPECT_FALSE(has(closed.text, "Dispatch lag"));
  EXPECT_FALSE(has(closed.page, "id=\"dispatch-lag\""));
}

// Every line of a --requests file, the aggregated entry after the 64 with figures of their own
// included, and a line whose timeouts censor its p99 ("> 2.00s" in both).
TEST(HtmlRunSectionsTest, EachRequestsLineHasTheTextReportsFigures) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.requests_path = "mix.jsonl";
  for (int i = 0; i < 66; ++i) {
    RequestLine line;
    line.line_number = i + 1;
    line.method = i % 2 == 0 ? "GET" : "POST";
    line.path = "/item/" + std::to_string(i);
    line.name = "item " + std::to_string(i);
    run.config.requests.push_back(line);
  }
  run.result.lines.resize(static_cast<size_t>(line_stats_entries(66)));
  LineStats& fast = run.result.lines[0];
  for (int64_t v = 1; v <= 100; ++v) fast.corrected.record(v * 100'000);
  for (int64_t v = 1; v <= 100; ++v) fast.uncorrected.record(v * 10'000);
  fast.sent = fast.completed = 100;
  fast.status_classes = {0, 100, 0, 0, 0};
  LineStats& timing_out = run.result.lines[1];
  timing_out.sent = 7;
  timing_out.completed = 5;
  timing_out.errors = {0, 0, 0, 2, 0};
  timing_out.status_classes = {0, 0, 0, 1, 4};
  for (int i = 0; i < 5; ++i) timing_out.corrected.record(3'000'000);
  LineStats& aggregated = run.result.lines.back();
  aggregated.sent = aggregated.completed = 3;
  aggregated.status_classes = {0, 3, 0, 0, 0};
  for (int i = 0; i < 3; ++i) aggregated.corrected.record(900'000);
  const Rendered both = render_both(run.input());
  const auto rows = block_after(both.text, "Requests by line (", 1, [](const std::string& line) {
    return line.find('|') != std::string::npos && !line.starts_with("  (");
  });
  ASSERT_EQ(rows.size(), run.result.lines.size()) << both.text;
  bool censored_seen = false;
  for (const std::string& line : rows) {
    const std::vector<std::string> words = words_of(line);
    size_t bar = 0;
    while (bar < words.size() && words[bar] != "|") ++bar;
    ASSERT_GE(bar, 7u) << line;
    const std::vector<std::string> cells = cells_after(both.page, "<tr><td>" + words[0] + "</td>");
    ASSERT_EQ(cells.size(), 10u) << line;
    EXPECT_EQ(cells[4], words[1]) << "completed: " << line;
    EXPECT_EQ(cells[5], words[2]) << "failed: " << line;
    EXPECT_EQ(cells[6], words[3]) << "not 2xx/3xx: " << line;
    // The page leads with the corrected stopwatch, the text's columns left of '|'.
    EXPECT_EQ(cells[7], words[bar - 3]) << "p50: " << line;
    EXPECT_EQ(cells[8], words[bar - 2]) << "p99: " << line;
    EXPECT_EQ(cells[9], words[bar - 1]) << "max: " << line;
    EXPECT_TRUE(line.ends_with("  " + cells[1])) << "name: " << line;
    censored_seen = censored_seen || cells[8].starts_with("> ");
  }
  EXPECT_TRUE(censored_seen) << "line 2's timeouts censor its p99";
  EXPECT_TRUE(has(both.page, "<tr><td>65-66</td><td class=\"name\">(requests 65-66, "
                             "aggregated)</td><td class=\"name\">-</td><td>3</td>"));
}

// The timeline's rows are the text's --timeline rows; a second whose figure timeouts censor
// (the text's "> 2.00s") draws no point, as a second without responses ("-") draws none.
TEST(HtmlRunSectionsTest, TheTimelineDrawsTheTextReportsRows) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.print_timeline = true;
  run.result.timeline.plan(0, run.config.duration_ns);
  run.result.timeline.set_start(0);
  for (int64_t i = 1; i <= 1000; ++i) run.result.timeline.record(i * 9'000'000, i * 10'000);
  for (int i = 0; i < 30; ++i) run.result.timeline.record_error(100'000'000, /*timed_out=*/true);
  const Rendered both = render_both(run.input());
  const auto rows = block_after(both.text, "Timeline (per ", 1, [](const std::string& line) {
    const std::vector<std::string> words = words_of(line);
    return words.size() == 8 && words[0].find_first_not_of("0123456789") == std::string::npos;
  });
  ASSERT_EQ(rows.size(), 10u) << both.text;
  size_t drawn[3] = {0, 0, 0};  // p50, p99, max
  bool censored_seen = false;
  for (const std::string& line : rows) {
    const std::vector<std::string> words = words_of(line);
    for (size_t figure = 0; figure < 3; ++figure) {
      const std::string& shown = words[4 + figure];
      censored_seen = censored_seen || shown.starts_with("> ");
      if (shown != "-" && !shown.starts_with("> ")) ++drawn[figure];
    }
  }
  EXPECT_TRUE(censored_seen) << both.text;
  const auto points = [&](const std::string& series) {
    const std::string chart_id =
        series == "requests/s" ? "timeline-throughput" : "timeline-latency";
    const size_t chart = both.page.find("id=\"" + chart_id + "\"");
    const size_t at = both.page.find("data-series=\"" + series + "\"", chart);
    const size_t value = both.page.find("data-points=\"", at) + 13;
    return both.page.substr(value, both.page.find('"', value) - value);
  };
  EXPECT_EQ(points("requests/s"), std::to_string(rows.size()));
  EXPECT_EQ(points("p50"), std::to_string(drawn[0]));
  EXPECT_EQ(points("p99"), std::to_string(drawn[1]));
  EXPECT_EQ(points("max"), std::to_string(drawn[2]));

  // A result that kept no timeline writes no rows, reads back with none, and has no timeline
  // in the text or on the page (not ten empty seconds).
  testing::FabricatedRun bare = testing::open_loop_run();
  bare.config.print_timeline = true;
  const Rendered none = render_both(bare.input());
  EXPECT_TRUE(none.typed.result.timeline.empty());
  EXPECT_FALSE(has(none.text, "Timeline (per "));
  EXPECT_FALSE(has(none.page, "id=\"timeline\""));
}

// The heading's rate and length as the text's header prints them back: 2500.5 req/s (not
// 2501), 1.50s (not "1.5 s").
TEST(HtmlRunSectionsTest, TheHeadingSaysTheRateAndLengthAsTheTextDoes) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.rate = 2500.5;
  run.config.duration_ns = 1'500'000'000;
  const Rendered both = render_both(run.input());
  EXPECT_TRUE(has(both.text, "Running 1.50s test @ http://127.0.0.1:8082/\n")) << both.text;
  EXPECT_TRUE(has(both.text, "open loop @ 2500.5 req/s")) << both.text;
  EXPECT_TRUE(has(both.page, "20 connections, 4 threads, 1.50s, open loop at 2500.5 req/s"));
  run.config.rate = 0;
  run.config.requests_count = 500;
  const Rendered counted = render_both(run.input());
  EXPECT_TRUE(has(counted.text, "Running 500 requests @ ")) << counted.text;
  EXPECT_TRUE(has(counted.page, "4 threads, 500 requests, closed loop"));
}

}  // namespace
}  // namespace hammer
