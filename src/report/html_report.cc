// SPDX-License-Identifier: MIT
// The HTML report, top to bottom in the order a reader needs it: what went wrong first
// (verdicts, errors, non-2xx answers, notes), then the headline table with corrected beside
// uncorrected and their ratio, then the percentile spectrum — the product's whole argument as
// one picture: two curves on HdrHistogram's 1/(1-q) axis — then time within the run (timeline
// with warm-up shaded), dispatch lag with its cause, connect time and first requests, and the
// config and version at the foot. A sweep gets throughput and latency against the level with
// the knee and the collapse marked, Little's law and the --control ratio.
//
// Every figure is read from the typed document (document/run_document.h), as `hammer report`
// reads it for the text, and worded by the text report's own helpers, so the page and the text
// say each figure alike; latencies come from the histograms decoded from their HDR strings.
// Cells that carry a latency also carry it exactly (data-ns), so a test can compare the page
// with the document.
//
// This file holds the page's frame and a sweep's body; a single run's sections are
// html_run_sections.cc, the document's reading html_reading.cc, shared cells and the spectrum
// html_pieces.cc.
#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "document/sweep_document.h"
#include "report/format.h"
#include "report/html_pieces.h"
#include "report/html_reading.h"
#include "report/html_run_sections.h"
#include "report/json_report.h"
#include "report/svg_chart.h"
#include "report/sweep_noise_text.h"
#include "report/sweep_parts.h"
#include "report/sweep_report.h"

namespace hammer {
namespace {

using namespace html;

constexpr const char* kStyle = R"CSS(
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 1200px; padding: 20px 28px; }
h1 { font-size: 24px; margin: 0 0 2px; }
h2 { font-size: 19px; margin: 26px 0 8px; border-bottom: 1px solid #ccc; padding-bottom: 3px; }
h3 { font-size: 16px; margin: 16px 0 6px; }
.subtitle { color: #444; margin: 0 0 12px; word-break: break-all; }
section { break-inside: avoid; page-break-inside: avoid; }
table { border-collapse: collapse; margin: 6px 0 10px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #bbb; padding: 3px 10px; text-align: right; }
th { background: #eee; }
tr.noisy td { background: #fdf1e3; }
td.name, th.name { text-align: left; }
ul.findings { padding-left: 0; list-style: none; margin: 6px 0; }
ul.findings li { border-left: 5px solid #888; padding: 4px 10px; margin: 4px 0; background: #f6f6f6; }
ul.findings li.verdict { border-color: #D55E00; }
ul.findings li.error { border-color: #000; background: #fbe9e1; }
ul.findings li.ok { border-color: #009E73; }
ul.findings li.note { border-color: #0072B2; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
svg.chart { width: 100%; height: auto; max-width: 1100px; display: block; margin: 4px 0 4px; }
svg.chart .grid { stroke: #ddd; stroke-width: 1; }
svg.chart .axis { stroke: #333; stroke-width: 1.2; }
svg.chart .tick { font-size: 12px; fill: #333; }
svg.chart .axis-label { font-size: 13px; fill: #111; }
svg.chart .legend { font-size: 13px; fill: #111; }
svg.chart .series { fill: none; stroke-width: 2.2; stroke-linejoin: round; }
svg.chart .legend-line { stroke-width: 3; }
svg.chart .shade { fill: #000; fill-opacity: 0.08; }
svg.chart .shade-label, svg.chart .mark-label { font-size: 12px; fill: #333; }
svg.chart .mark { stroke: #000; stroke-width: 1.4; stroke-dasharray: 2 3; }
.caption { color: #444; font-size: 13px; margin: 0 0 10px; }
footer { margin-top: 28px; border-top: 1px solid #ccc; padding-top: 8px; color: #333; font-size: 13px; }
footer dl { display: grid; grid-template-columns: max-content 1fr; gap: 1px 14px; margin: 6px 0; }
footer dt { font-weight: 600; } footer dd { margin: 0; word-break: break-all; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2 { break-after: avoid; }
}
)CSS";

// ---- sweeps ----

// A latency cell: a censored figure is the timeout, a bound, and says so.
std::string sweep_latency_cell(const StepSummary& step, int64_t ns, bool censored) {
  if (!step.has_latency) return "<td>-</td>";
  if (censored) {
    return "<td class=\"censored\" data-censored=\"" + std::to_string(ns) + "\">&gt; " +
           format_duration_ns(ns) + " <small>(timed out)</small></td>";
  }
  return "<td data-ns=\"" + std::to_string(ns) + "\">" + format_duration_ns(ns) + "</td>";
}

std::string sweep_body(const SweepDocument& document) {
  const Config& config = document.config;
  const SweepResult& result = document.result;
  const bool by_rate = result.kind == SweepKind::rate;
  const std::string level_label = by_rate ? "offered rate (req/s)" : "connections";
  ChartSeries throughput{"achieved requests/s", kBlue, "", {}, true};
  ChartSeries control{"--control route, requests/s", kBlack, "4 3", {}, true};
  ChartSeries p50{"p50", kGreen, "", {}, true};
  ChartSeries p99{"p99", kVermillion, "6 3", {}, true};
  std::string rows;
  bool any_noisy = false;
  std::vector<const StepSummary*> ordered;
  for (const StepSummary& step : result.steps) ordered.push_back(&step);
  std::stable_sort(ordered.begin(), ordered.end(), [](const StepSummary* a, const StepSummary* b) {
    return a->level < b->level;
  });
  for (const StepSummary* step : ordered) {
    const double level = step->level;
    throughput.points.push_back({level, step->per_second});
    // A censored figure is the timeout, a bound: the charts draw no point for it.
    if (step->has_latency && !step->tail.censors(50)) p50.points.push_back({level, step->p50_ns / 1e6});
    if (step->has_latency && !step->tail.censors(99)) p99.points.push_back({level, step->p99_ns / 1e6});
    if (step->control_per_second >= 0) control.points.push_back({level, step->control_per_second});
    // A level its repeats left noisy is marked as the text table marks it (sweep/noise.h).
    any_noisy = any_noisy || step->noisy;
    std::string little = "-";
    if (sweep_parts::littles_law_applies(config) && step->has_latency) {
      const double in_flight = step->in_flight();
      little = format_fixed(in_flight, 1) + " (" +
               format_fixed(littles_law_deviation_pct(in_flight, sweep_parts::littles_law_expected(config, *step)), 0) +
               "%)";
    }
    rows += std::string(step->noisy ? "<tr class=\"noisy\">" : "<tr>") + "<td>" +
            format_fixed(level, level == std::floor(level) ? 0 : 2) +
            (step->noisy ? std::string(kNoisyMark) : "") +
            (step->runs > 1 ? " <small>(" + std::to_string(step->runs) + " runs)</small>" : "") +
            "</td><td>" + format_fixed(step->per_second, 1) + "</td>" +
            sweep_latency_cell(*step, step->p50_ns, step->tail.censors(50)) +
            sweep_latency_cell(*step, step->p99_ns, step->tail.censors(99)) +
            sweep_latency_cell(*step, step->max_ns, step->tail.any()) + "<td>" +
            std::to_string(step->errors) + "</td><td>" + little + "</td><td>" +
            (step->meets() ? "yes" : "no") + "</td></tr>";
  }
  // Marks on the charts come from the readings; the sentences (knee, collapse, capacity, the
  // --control ratio) are the text report's own (render_sweep_summary), one per line.
  std::vector<ChartMark> marks;
  if (result.knee) marks.push_back({result.knee->level, "knee"});
  if (result.collapse) marks.push_back({result.collapse->fell_level, "collapse"});
  std::string readings;
  const std::string summary = render_sweep_summary(config, result);
  for (const std::string_view line : text_lines(summary)) {
    readings += "<li class=\"verdict\">" + escape_html(std::string(line)) + "</li>";
  }
  if (readings.empty()) readings = "<li class=\"ok\">No finding.</li>";
  Chart rate_chart;
  rate_chart.id = "sweep-throughput";
  rate_chart.title = "Throughput against the level";
  rate_chart.x_label = level_label;
  rate_chart.y_label = "requests/s";
  rate_chart.series = {throughput};
  if (!control.points.empty()) rate_chart.series.push_back(control);
  rate_chart.marks = marks;
  Chart latency_chart;
  latency_chart.id = "sweep-latency";
  latency_chart.title = "Latency against the level";
  latency_chart.x_label = level_label;
  latency_chart.y_label = "latency (ms)";
  latency_chart.series = {p50, p99};
  latency_chart.marks = marks;
  return "<section id=\"findings\"><h2>Findings</h2><ul class=\"findings\">" + readings +
         "</ul></section><section id=\"sweep\"><h2>Throughput and latency by level</h2>" +
         render_svg_chart(rate_chart) + render_svg_chart(latency_chart) +
         "<table id=\"steps\"><tr><th>level</th><th>req/s</th><th>p50</th><th>p99</th>"
         "<th>max</th><th>errors</th><th>Little's law in flight (vs connections)</th>"
         "<th>meets</th></tr>" + rows + "</table><p class=\"caption\">Little's law: requests "
         "in flight = throughput &times; mean latency (a timed-out request counted as holding "
         "its connection for --timeout); far from the connection count, "
         "requests waited somewhere other than the server." +
         (any_noisy ? std::string(" ") + std::string(kNoisyMark) +
                          " noisy: the level was still unsettled after its repeats (host stalls, "
                          "or p99s that did not reproduce); its row shows its quietest run."
                    : std::string()) +
         "</p></section>";
}

std::string page(const std::string& title, const std::string& subtitle, const std::string& body,
                 const JsonValue* footer_document) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; img-src data:\">"
         "<title>" + escape_html(title) + "</title><style>" + kStyle + "</style></head><body>"
         "<header><h1>" + escape_html(title) + "</h1><p class=\"subtitle\">" + subtitle +
         "</p></header>\n" + body + "\n" + config_footer(footer_document) + "</body></html>\n";
}

}  // namespace

namespace html {
const char* page_style() { return kStyle; }
}  // namespace html

std::string html_label_for(const std::string& document_path) {
  if (document_path.empty()) return "this run";
  const size_t slash = document_path.find_last_of("/\\");
  return slash == std::string::npos ? document_path : document_path.substr(slash + 1);
}

Expected<std::string, std::string> render_html_report(const std::vector<HtmlSource>& sources) {
  if (sources.empty()) return unexpected(std::string("no document to render"));
  for (const HtmlSource& source : sources) {
    if (source.document == nullptr || !source.document->is_object() ||
        source.document->find("hammer") == nullptr) {
      return unexpected(source.label + ": not a hammer JSON document");
    }
    // Another schema may mean other things by the same members (docs/json.md): refused, as
    // hammer merge refuses it.
    const JsonValue* schema = source.document->at({"hammer", "schema"});
    const std::optional<int64_t> version = schema ? schema->as_int() : std::nullopt;
    if (version != kJsonSchemaVersion) {
      return unexpected(source.label + ": schema " +
                        (schema != nullptr && schema->is_number() ? schema->text : "(none)") +
                        " is not readable by this hammer (it reads schema " +
                        std::to_string(kJsonSchemaVersion) + ")");
    }
  }
  const bool sweep = sources.front().document->find("sweep") != nullptr;
  if (sweep) {
    if (sources.size() > 1) {
      return unexpected(std::string("a sweep is rendered alone; give its document by itself"));
    }
    auto document = read_sweep_document(*sources[0].document);
    if (!document) return unexpected(sources[0].label + ": " + document.error());
    return page("hammer sweep: " + document->config.url, escape_html(sources[0].label),
                sweep_body(*document), sources[0].document);
  }
  std::vector<RunView> runs;
  for (const HtmlSource& source : sources) {
    if (source.document->find("sweep") != nullptr) {
      return unexpected(source.label + ": a sweep is rendered alone");
    }
    auto run = read_run(source);
    if (!run) return unexpected(run.error());
    runs.push_back(std::move(*run));
  }
  if (runs.size() == 1) {
    return page("hammer report: " + runs[0].typed.config.url,
                run_heading(runs[0]) + " &middot; " + escape_html(runs[0].label),
                single_run_body(runs[0], ""), runs[0].document);
  }
  // Two or more: the overlay first, then each run in full.
  std::vector<const RunView*> views;
  std::string list;
  for (const RunView& run : runs) {
    views.push_back(&run);
    list += "<li class=\"note\"><strong>" + escape_html(run.label) + "</strong>: " +
            run_heading(run) + "</li>";
  }
  std::string body = "<section id=\"comparison\"><h2>Comparison</h2><ul class=\"findings\">" +
                     list + "</ul>" + spectrum_chart(views, "comparison-chart") +
                     spectrum_styles_caption(views) + "</section>";
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string prefix = "run" + std::to_string(i + 1) + "-";
    body += "<article id=\"run" + std::to_string(i + 1) + "\"><h2>" + escape_html(runs[i].label) +
            "</h2>" + single_run_body(runs[i], prefix) + "</article>";
  }
  return page("hammer report: " + std::to_string(runs.size()) + " runs compared",
              escape_html(runs[0].label) + " and " + std::to_string(runs.size() - 1) +
                  " more",
              body, runs[0].document);
}

}  // namespace hammer
