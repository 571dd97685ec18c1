// SPDX-License-Identifier: MIT
// The compare page, top to bottom in the order a reader needs it: the findings (what moved
// beyond noise, the gates' outcome, then every row with B - A and its interval), the --fail-if
// gates, both runs' spectra overlaid (the same chart `hammer report A.json B.json` draws), and
// both configurations side by side with the members that differ marked. The rows' wording is
// the text table's (compare_report.h); every text taken from a document is escaped.
#include "report/compare_html.h"

#include <algorithm>
#include <vector>

#include "core/percentiles.h"
#include "report/format.h"
#include "report/html_pieces.h"
#include "report/html_reading.h"
#include "report/html_report.h"
#include "report/html_run_sections.h"
#include "report/svg_chart.h"

namespace hammer {
namespace {

using namespace html;

constexpr const char* kCompareStyle = R"CSS(
td.verdict { text-align: left; font-weight: 600; }
tr.verdict-worse td.verdict { background: #fbe9e1; color: #8a3300; }
tr.verdict-better td.verdict { background: #e3f4ee; color: #005c43; }
tr.verdict-no_change td.verdict { color: #444; }
tr.tripped td { background: #fbe9e1; }
tr.differs td { background: #fdf1e3; }
td.value { text-align: left; word-break: break-all; }
)CSS";

std::string label_of(const CompareRow& row) { return percentile_label(row.percentile); }

std::string ns_cell(int64_t ns, bool censored) {
  return std::string("<td ") + (censored ? "class=\"censored\" data-censored" : "data-ns") + "=\"" +
         std::to_string(ns) + "\">" + escape_html(compare_figure_text(ns, censored)) + "</td>";
}

std::string findings(const Comparison& comparison) {
  std::string items;
  // The runs' timeouts and host stalls first: they say how far the rows can be read.
  for (const std::string& side : compare_side_notes(comparison)) {
    items += "<li class=\"verdict\">" + escape_html(side) + "</li>";
  }
  for (const CompareRow& row : comparison.rows) {
    if (row.verdict == CompareVerdict::no_change) continue;
    items += std::string("<li class=\"") +
             (row.verdict == CompareVerdict::worse ? "verdict" : "ok") + "\">p" + label_of(row) +
             ": B is " + compare_verdict_text(row.verdict) + " beyond noise, B - A " +
             escape_html(compare_delta_text(row)) + " (" + escape_html(compare_percent_text(row)) +
             " of A), interval " + escape_html(compare_interval_text(row)) + "</li>";
  }
  if (std::none_of(comparison.rows.begin(), comparison.rows.end(), [](const CompareRow& row) {
        return row.verdict != CompareVerdict::no_change;
      })) {
    items += "<li class=\"ok\">No change beyond noise at any percentile.</li>";
  }
  for (const CompareRow& row : comparison.rows) {
    if (row.fail_percent < 0 || !row.failed) continue;
    items += "<li class=\"error\">" + escape_html(compare_gate_text(row)) +
             " tripped: exit status 3</li>";
  }
  return items;
}

std::string rows_table(const Comparison& comparison) {
  std::string rows;
  for (const CompareRow& row : comparison.rows) {
    const char* code = compare_verdict_code(row.verdict);
    rows += "<tr data-percentile=\"" + label_of(row) + "\" data-verdict=\"" + code +
            "\" class=\"verdict-" + code + "\"><td>p" + label_of(row) + "</td>" +
            ns_cell(row.a_ns, row.a_censored) + ns_cell(row.b_ns, row.b_censored) +
            "<td data-delta-ns=\"" +
            std::to_string(whole_ns(row.delta_ns)) + "\">" + escape_html(compare_delta_text(row)) +
            "</td><td>" + escape_html(compare_percent_text(row)) + "</td><td data-low-ns=\"" +
            std::to_string(whole_ns(row.low_ns)) + "\" data-high-ns=\"" +
            std::to_string(whole_ns(row.high_ns)) + "\">" +
            escape_html(compare_interval_text(row)) + "</td><td class=\"verdict\">" +
            escape_html(compare_row_verdict_text(comparison, row)) + "</td></tr>";
  }
  return "<table id=\"compare-rows\"><tr><th>percentile</th><th>A</th><th>B</th>"
         "<th>B - A</th><th>of A</th><th>interval</th><th class=\"name\">verdict</th></tr>" +
         rows + "</table>";
}

std::string gates_section(const Comparison& comparison) {
  std::string rows;
  for (const CompareRow& row : comparison.rows) {
    if (row.fail_percent < 0) continue;
    rows += "<tr data-gate=\"" + label_of(row) + "\" data-tripped=\"" +
            (row.failed ? "true" : "false") + "\" class=\"" + (row.failed ? "tripped" : "pass") +
            "\"><td class=\"name\"><code>" + escape_html(compare_gate_text(row)) +
            "</code></td><td class=\"name\">" + escape_html(compare_row_verdict_text(comparison, row)) + ", " +
            escape_html(compare_percent_text(row)) + "</td><td class=\"name\">" +
            escape_html(compare_gate_outcome_text(comparison, row)) + "</td></tr>";
  }
  const std::string body =
      rows.empty() ? "<p class=\"caption\">No --fail-if gate was given.</p>"
                   : "<table id=\"gates\"><tr><th class=\"name\">gate</th><th class=\"name\">"
                     "the row</th><th class=\"name\">outcome</th></tr>" + rows + "</table>";
  return "<section id=\"fail-if\"><h2>Gates</h2>" + body + "</section>";
}

// Every config member either run has, in A's order then B's extras: A's value beside B's.
std::string configs_footer(const RunView& a, const RunView& b) {
  const JsonValue* a_config = a.document->find("config");
  const JsonValue* b_config = b.document->find("config");
  std::vector<std::string> names;
  for (const JsonValue* config : {a_config, b_config}) {
    if (config == nullptr) continue;
    for (const auto& [name, value] : config->members) {
      bool seen = false;
      for (const std::string& known : names) seen = seen || known == name;
      if (!seen) names.push_back(name);
    }
  }
  std::string rows;
  for (const std::string& name : names) {
    const JsonValue* a_value = a_config != nullptr ? a_config->find(name) : nullptr;
    const JsonValue* b_value = b_config != nullptr ? b_config->find(name) : nullptr;
    const std::string a_text = a_value != nullptr ? config_value_text(*a_value) : "";
    const std::string b_text = b_value != nullptr ? config_value_text(*b_value) : "";
    if (a_text.empty() && b_text.empty()) continue;
    rows += "<tr data-member=\"" + escape_html(name) + "\"" +
            (a_text != b_text ? " class=\"differs\"" : "") + "><td class=\"name\">" +
            escape_html(name) + "</td><td class=\"value\">" + escape_html(a_text) +
            "</td><td class=\"value\">" + escape_html(b_text) + "</td></tr>";
  }
  const auto version = [](const RunView& run) {
    return "hammer " + escape_html(text_at(run.document, {"hammer", "version"}));
  };
  return "<footer id=\"config\"><h2>Configurations</h2><p>A: <strong>" + version(a) +
         "</strong> &middot; B: <strong>" + version(b) + "</strong> (members that differ are "
         "shaded)</p><table id=\"configs\"><tr><th class=\"name\">config</th><th class=\"name\">"
         "A " + escape_html(a.label) + "</th><th class=\"name\">B " + escape_html(b.label) +
         "</th></tr>" + rows + "</table></footer>";
}

}  // namespace

Expected<std::string, std::string> render_compare_html(const Comparison& comparison,
                                                       const CompareLabels& labels,
                                                       const JsonValue& a, const JsonValue& b) {
  auto a_run = read_run({labels.a, &a});
  if (!a_run) return unexpected(a_run.error());
  auto b_run = read_run({labels.b, &b});
  if (!b_run) return unexpected(b_run.error());
  const CompareSettings& settings = comparison.settings;
  const std::string title = "hammer compare: B " + labels.b + " against A " + labels.a;
  const std::string subtitle =
      escape_html(labels.stopwatch) + " latency; " + format_fixed(settings.confidence * 100, 0) +
      "% intervals from " + std::to_string(settings.resamples) +
      " bootstrap resamples of the measured seconds (A " + std::to_string(comparison.a_seconds) +
      ", B " + std::to_string(comparison.b_seconds) + ", seed " +
      std::to_string(settings.seed) + "); changes under " +
      format_fixed(settings.min_relative_change * 100, 0) +
      "% of A, or within either run's host noise (how far its host meter's wake-ups spread at "
      "that percentile), or at a percentile with fewer than " +
      format_fixed(tail_requests_needed(settings.confidence), 1) +
      " requests above it in either run, are no change" +
      (comparison.too_few_seconds ? "; " + escape_html(compare_too_few_seconds_text(comparison))
                                  : std::string());
  const std::vector<const RunView*> views = {&*a_run, &*b_run};
  const std::string body =
      "<section id=\"findings\"><h2>Findings</h2><ul class=\"findings\">" +
      findings(comparison) + "</ul>" + rows_table(comparison) + "</section>" +
      gates_section(comparison) +
      "<section id=\"comparison\"><h2>Percentile spectra</h2><ul class=\"findings\">"
      "<li class=\"note\"><strong>A " + escape_html(a_run->label) + "</strong>: " +
      run_heading(*a_run) + "</li><li class=\"note\"><strong>B " + escape_html(b_run->label) +
      "</strong>: " + run_heading(*b_run) + "</li></ul>" +
      spectrum_chart(views, "comparison-chart") + spectrum_styles_caption(views) + "</section>";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; img-src data:\">"
         "<title>" + escape_html(title) + "</title><style>" + page_style() + kCompareStyle +
         "</style></head><body><header><h1>" + escape_html(title) +
         "</h1><p class=\"subtitle\">" + subtitle + "</p></header>\n" + body + "\n" +
         configs_footer(*a_run, *b_run) + "</body></html>\n";
}

}  // namespace hammer
