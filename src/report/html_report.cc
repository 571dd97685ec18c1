// SPDX-License-Identifier: MIT
// The HTML report, top to bottom in the order a reader needs it: what went wrong first
// (verdicts, errors, non-2xx answers, notes), then the headline table with corrected beside
// uncorrected and their ratio, then the percentile spectrum — the product's whole argument as
// one picture: two curves on HdrHistogram's 1/(1-q) axis — then time within the run (timeline
// with warm-up shaded), dispatch lag with its cause, connect time and first requests, and the
// config and version at the foot. A sweep gets throughput and latency against the level with
// the knee and the collapse marked, Little's law and the --control ratio.
//
// Every figure is read from the JSON document: counts and per-second rows as written,
// latencies from the histograms decoded from their HDR strings. Cells that carry a latency
// also carry it exactly (data-ns), so a test can compare the page with the document.
#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

#include "document/run_document.h"
#include "report/format.h"
#include "report/hgrm.h"
#include "report/host_report.h"
#include "report/json_report.h"
#include "report/slo_report.h"
#include "report/svg_chart.h"
#include "report/sweep_noise_text.h"
#include "report/verdict_text.h"
#include "stats/histogram_v2.h"

namespace hammer {
namespace {

// Okabe-Ito: distinguishable with every common colour-vision deficiency.
constexpr const char* kVermillion = "#D55E00";
constexpr const char* kBlue = "#0072B2";
constexpr const char* kGreen = "#009E73";
constexpr const char* kPurple = "#CC79A7";
constexpr const char* kOrange = "#E69F00";
constexpr const char* kSky = "#56B4E9";
constexpr const char* kBlack = "#000000";

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

// ---- reading the document ----

const JsonValue* at(const JsonValue* node, std::initializer_list<std::string_view> path) {
  return node == nullptr ? nullptr : node->at(path);
}

std::optional<double> number_at(const JsonValue* node,
                                std::initializer_list<std::string_view> path) {
  const JsonValue* value = at(node, path);
  return value ? value->as_double() : std::nullopt;
}

double number_or(const JsonValue* node, std::initializer_list<std::string_view> path,
                 double fallback) {
  return number_at(node, path).value_or(fallback);
}

std::string text_at(const JsonValue* node, std::initializer_list<std::string_view> path) {
  const JsonValue* value = at(node, path);
  return value && value->is_string() ? value->text : std::string();
}

// A histogram of the document ("latency.corrected"); nullopt when the member is null (a
// closed-loop run has no corrected histogram). A bad HDR string is an error.
Expected<std::optional<Histogram>, std::string> histogram_at(
    const JsonValue* document, std::initializer_list<std::string_view> path,
    const std::string& name) {
  const JsonValue* node = at(document, path);
  if (node == nullptr || node->is_null()) return std::optional<Histogram>();
  const JsonValue* hdr = node->find("hdr");
  if (hdr == nullptr || !hdr->is_string()) {
    return unexpected(name + ".hdr: expected an HdrHistogram string");
  }
  auto decoded = decode_v2_base64(hdr->text);
  if (!decoded) return unexpected(name + ".hdr: " + decoded.error());
  return std::optional<Histogram>(std::move(*decoded));
}

struct RunView {
  std::string label;
  const JsonValue* document;
  std::optional<Histogram> corrected;
  std::optional<Histogram> uncorrected;
  std::optional<Histogram> connect;
  std::optional<Histogram> first_requests;
  bool corrected_leads = false;
  // What the run's timeouts censor in each latency histogram (stats/censored_tail.h), from the
  // document's counts: older documents, written before `censored` existed, are read the same.
  CensoredTail corrected_tail;
  CensoredTail uncorrected_tail;
};

Expected<RunView, std::string> read_run(const HtmlSource& source) {
  RunView run{source.label, source.document, {}, {}, {}, {}, false, {}, {}};
  struct Wanted {
    std::optional<Histogram>* into;
    std::initializer_list<std::string_view> path;
    const char* name;
  };
  const Wanted wanted[] = {{&run.corrected, {"latency", "corrected"}, "latency.corrected"},
                           {&run.uncorrected, {"latency", "uncorrected"}, "latency.uncorrected"},
                           {&run.connect, {"connect"}, "connect"},
                           {&run.first_requests, {"first_requests"}, "first_requests"}};
  for (const Wanted& item : wanted) {
    auto histogram = histogram_at(source.document, item.path, item.name);
    if (!histogram) return unexpected(source.label + ": " + histogram.error());
    *item.into = std::move(*histogram);
  }
  if (!run.uncorrected) return unexpected(source.label + ": latency.uncorrected: missing");
  run.corrected_leads = text_at(source.document, {"config", "stopwatch"}) == "corrected";
  const auto timed_out = static_cast<int64_t>(number_or(source.document, {"errors", "timeout"}, 0));
  const int64_t timeout_ns = std::llround(number_or(source.document, {"config", "timeout_ms"}, 0) * 1e6);
  if (run.corrected) run.corrected_tail = censored_tail(*run.corrected, timed_out, timeout_ns);
  run.uncorrected_tail = censored_tail(*run.uncorrected, timed_out, timeout_ns);
  return run;
}

// ---- small HTML pieces ----

// A censored figure is shown as its bound, marked, never as a value (data-censored).
std::string latency_cell(const Histogram* histogram, const CensoredTail& tail, double q,
                         bool max = false) {
  if (histogram == nullptr || histogram->total_count() == 0) return "<td>-</td>";
  const TailFigure figure = max ? tail.max(*histogram) : tail.at(*histogram, q);
  if (figure.censored) {
    return "<td class=\"censored\" data-censored=\"" + std::to_string(figure.value_ns) +
           "\">&gt; " + format_duration_ns(figure.value_ns) + " <small>(timed out)</small></td>";
  }
  return "<td data-ns=\"" + std::to_string(figure.value_ns) + "\">" +
         format_duration_ns(figure.value_ns) + "</td>";
}

std::string ratio_cell(const Histogram* corrected, const CensoredTail& corrected_tail,
                       const Histogram* uncorrected, const CensoredTail& uncorrected_tail,
                       double q, bool max = false) {
  if (corrected == nullptr || uncorrected == nullptr || corrected->total_count() == 0 ||
      uncorrected->total_count() == 0) {
    return "<td>-</td>";
  }
  const TailFigure top = max ? corrected_tail.max(*corrected) : corrected_tail.at(*corrected, q);
  const TailFigure bottom =
      max ? uncorrected_tail.max(*uncorrected) : uncorrected_tail.at(*uncorrected, q);
  if (bottom.value_ns <= 0 || top.censored || bottom.censored) return "<td>-</td>";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f&times;",
                static_cast<double>(top.value_ns) / static_cast<double>(bottom.value_ns));
  return std::string("<td class=\"ratio\">") + buffer + "</td>";
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

// ---- the spectrum ----

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

std::string spectrum_chart(const std::vector<const RunView*>& runs, const std::string& id) {
  Chart chart;
  chart.id = id;
  chart.title = "Latency by percentile, corrected and uncorrected";
  chart.x_label = "percentile (log scale of 1/(1-q))";
  chart.y_label = "latency (ms)";
  const char* corrected_colours[] = {kVermillion, kGreen, kOrange};
  const char* uncorrected_colours[] = {kBlue, kPurple, kSky};
  double x_max = 2;
  size_t index = 0;
  for (const RunView* run : runs) {
    const std::string suffix = runs.size() > 1 ? " — " + run->label : "";
    const size_t colour = index % 3;
    if (run->corrected) {
      ChartSeries series{"corrected" + suffix, corrected_colours[colour],
                         index == 0 ? "" : "9 4",
                         spectrum_points(*run->corrected, run->corrected_tail)};
      if (!series.points.empty()) x_max = std::max(x_max, series.points.back().x);
      chart.series.push_back(std::move(series));
    }
    ChartSeries series{"uncorrected" + suffix, uncorrected_colours[colour],
                       index == 0 ? "6 3" : "2 3",
                       spectrum_points(*run->uncorrected, run->uncorrected_tail)};
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

// ---- sections of a single run ----

// The document's --slo outcomes, read back into the text report's own types so the page words
// each one as the text report does (render_slo_lines), never in words of its own.
std::vector<SloOutcome> slo_outcomes(const JsonValue* doc) {
  std::vector<SloOutcome> outcomes;
  const JsonValue* slo = doc->find("slo");
  if (slo == nullptr || !slo->is_array()) return outcomes;
  for (const JsonValue& entry : slo->items) {
    SloOutcome outcome;
    outcome.limit.key = text_at(&entry, {"key"});
    const double limit = entry.find("limit") ? entry.find("limit")->as_double().value_or(0) : 0;
    if (outcome.limit.is_error_rate()) {
      outcome.limit.error_rate = limit;
    } else {
      outcome.limit.limit_ns = std::llround(limit);
    }
    const JsonValue* measured = entry.find("measured");
    outcome.has_measured = measured != nullptr && measured->is_number();
    if (outcome.has_measured) outcome.measured = measured->as_double().value_or(0);
    const JsonValue* pass = entry.find("pass");
    outcome.pass = pass != nullptr && pass->boolean;
    // Absent from documents older than censored percentiles: false, as they were written.
    const JsonValue* censored = entry.find("censored");
    outcome.censored = censored != nullptr && censored->boolean;
    const JsonValue* unjudged = entry.find("unjudged");
    outcome.unjudged = unjudged != nullptr && unjudged->boolean;
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

// One finding per SLO, met or missed: its line of the text report.
std::string slo_items(const std::vector<SloOutcome>& outcomes, bool passed) {
  std::string items;
  for (const SloOutcome& outcome : outcomes) {
    if (outcome.pass != passed) continue;
    std::string line = render_slo_lines({outcome});
    if (!line.empty() && line.back() == '\n') line.pop_back();
    items += std::string("<li class=\"") + (passed ? "ok" : "error") + "\" data-slo=\"" +
             escape_html(outcome.limit.key) + "\">" + escape_html(line) + "</li>";
  }
  return items;
}

std::string findings_section(const RunView& run) {
  const JsonValue* doc = run.document;
  const std::vector<SloOutcome> slo = slo_outcomes(doc);
  std::string items;
  // The verdicts' sentences are the document's: verdict_text wrote them (the text report's
  // words), so the page never words a verdict itself. Those that say the figures describe
  // failures come first, as in the text report.
  if (const JsonValue* verdicts = doc->find("verdicts")) {
    for (const bool first : {true, false}) {
      for (const JsonValue& verdict : verdicts->items) {
        const std::string code = text_at(&verdict, {"code"});
        const std::optional<VerdictCode> known = verdict_code_from_name(code);
        if ((known && verdict_comes_first(*known)) != first) continue;
        std::string text = text_at(&verdict, {"text"});
        if (text.empty()) text = code;
        items += std::string("<li class=\"") + (first ? "error" : "verdict") +
                 "\" data-code=\"" + escape_html(code) + "\">" + escape_html(text) + "</li>";
      }
    }
  }
  // The host's reading, worded as the text report words it (report/host_report.h).
  RunResult host_figures;
  read_host_figures(*doc, host_figures);
  for (const std::string& line :
       {host_line(host_figures.host), generator_cpu_line(host_figures.generator_cpu)}) {
    if (!line.empty()) items += "<li class=\"verdict\" data-host>" + escape_html(line) + "</li>";
  }
  if (const JsonValue* errors = doc->find("errors")) {
    std::string listed;
    double total = 0;
    for (const auto& [kind, count] : errors->members) {
      const double value = count.as_double().value_or(0);
      if (value <= 0) continue;
      total += value;
      listed += (listed.empty() ? "" : ", ") + escape_html(kind) + " " + whole(value);
    }
    if (total > 0) {
      items += "<li class=\"error\" id=\"errors\">Errors: " + whole(total) + " (" + listed +
               ")</li>";
    }
  }
  // Answers that were not 2xx or 3xx, by class and by code when the document has codes.
  std::string non_ok;
  if (const JsonValue* classes = doc->find("status")) {
    for (const auto& [name, count] : classes->members) {
      const double value = count.as_double().value_or(0);
      if (value > 0 && name != "2xx" && name != "3xx") {
        non_ok += (non_ok.empty() ? "" : ", ") + escape_html(name) + " " + whole(value);
      }
    }
  }
  if (!non_ok.empty()) {
    items += "<li class=\"error\" id=\"non-2xx\">Responses not 2xx or 3xx: " + non_ok + "</li>";
  }
  if (const JsonValue* notes = doc->find("notes")) {
    for (const JsonValue& note : notes->items) {
      items += "<li class=\"note\">" + escape_html(note.text) + "</li>";
    }
  }
  if (items.empty()) {
    items = "<li class=\"ok\">No verdict, no error, every response 2xx or 3xx.</li>";
  }
  // A missed --slo is why the run exited 3: it leads; the met ones close the list.
  items = slo_items(slo, false) + items + slo_items(slo, true);
  return "<section id=\"findings\"><h2>Findings</h2><ul class=\"findings\">" + items +
         "</ul></section>";
}

std::string summary_table(const RunView& run) {
  const Histogram* corrected = run.corrected ? &*run.corrected : nullptr;
  const Histogram* uncorrected = &*run.uncorrected;
  const JsonValue* doc = run.document;
  std::string html = "<table class=\"summary\" id=\"summary\"><tr><th class=\"name\"></th>";
  html += "<th>corrected<br><small>from intended send</small></th>";
  html += "<th>uncorrected<br><small>from actual send</small></th>";
  html += "<th>ratio<br><small>corrected / uncorrected</small></th></tr>";
  const JsonValue* percentiles = at(doc, {"latency", "uncorrected", "percentiles_ns"});
  std::vector<std::pair<std::string, double>> rows;
  if (percentiles != nullptr) {
    for (const auto& [label, value] : percentiles->members) {
      rows.emplace_back(label, std::atof(label.c_str()));
    }
  }
  for (const auto& [label, q] : rows) {
    html += "<tr data-percentile=\"" + escape_html(label) + "\"><td class=\"name\">p" +
            escape_html(label) + "</td>" + latency_cell(corrected, run.corrected_tail, q) +
            latency_cell(uncorrected, run.uncorrected_tail, q) +
            ratio_cell(corrected, run.corrected_tail, uncorrected, run.uncorrected_tail, q) +
            "</tr>";
  }
  html += "<tr data-percentile=\"max\"><td class=\"name\">max</td>" +
          latency_cell(corrected, run.corrected_tail, 100, true) +
          latency_cell(uncorrected, run.uncorrected_tail, 100, true) +
          ratio_cell(corrected, run.corrected_tail, uncorrected, run.uncorrected_tail, 100,
                     true) +
          "</tr></table>";
  const double per_second = number_or(doc, {"requests", "per_second"}, 0);
  html += "<table class=\"counts\"><tr><th class=\"name\">requests/s</th><td id=\"requests-per-second\">" +
          format_fixed(per_second, 2) + "</td><th class=\"name\">completed</th><td id=\"completed\">" +
          whole(number_or(doc, {"requests", "completed"}, 0)) +
          "</td><th class=\"name\">sent</th><td>" + whole(number_or(doc, {"requests", "sent"}, 0)) +
          "</td><th class=\"name\">elapsed</th><td>" +
          format_duration_ns(whole_ns(number_or(doc, {"elapsed_ns"}, 0))) +
          "</td></tr></table>";
  if (!corrected) {
    html += "<p class=\"caption\">Closed loop: each request waits for the previous one, so "
            "there is no intended send time and no corrected latency.</p>";
  }
  return html;
}

std::string timeline_section(const RunView& run, const std::string& id) {
  const JsonValue* rows = at(run.document, {"timeline", "rows"});
  if (rows == nullptr || rows->items.empty()) return "";
  ChartSeries requests{"requests/s", kBlue, "", {}};
  ChartSeries errors{"errors/s", kBlack, "4 3", {}};
  ChartSeries p50{"p50", kGreen, "", {}};
  ChartSeries p99{"p99", kVermillion, "6 3", {}};
  ChartSeries max{"max", kPurple, "2 3", {}};
  // A short run has one or two rows: a line needs two points, so every row gets a dot too.
  const bool few_rows = rows->items.size() <= 3;
  for (ChartSeries* series : {&requests, &errors, &p50, &p99, &max}) series->markers = few_rows;
  // The rows before the measured part, each phase shaded with its own label: the ramp, then
  // the warm-up (the order a run takes them in).
  std::optional<ChartShade> ramp;
  std::optional<ChartShade> warmup;
  auto extend = [](std::optional<ChartShade>& shade, double from, double to, const char* label) {
    if (!shade) shade = ChartShade{from, to, label};
    shade->to_x = to;
  };
  for (const JsonValue& row : rows->items) {
    const double start = number_or(&row, {"start_s"}, 0);
    const double length = number_or(&row, {"length_s"}, 1);
    const double x = start + length;  // a row is plotted at its end: "by then"
    requests.points.push_back({x, number_or(&row, {"per_second"}, 0)});
    errors.points.push_back({x, number_or(&row, {"errors"}, 0) / (length > 0 ? length : 1)});
    // A censored figure is the timeout, a bound: no point is drawn for it.
    const auto censored = [&](const char* name) {
      const JsonValue* names = row.find("censored");
      return names != nullptr &&
             std::any_of(names->items.begin(), names->items.end(),
                         [&](const JsonValue& item) { return item.text == name; });
    };
    for (auto [key, name, series] :
         {std::tuple<const char*, const char*, ChartSeries*>{"p50_ns", "50", &p50},
          {"p99_ns", "99", &p99},
          {"max_ns", "max", &max}}) {
      if (auto value = number_at(&row, {key}); value && !censored(name)) {
        series->points.push_back({x, *value / 1e6});
      }
    }
    const std::string phase = text_at(&row, {"phase"});
    if (phase == "ramp") extend(ramp, start, start + length, "ramp (not in the figures)");
    if (phase == "warmup") extend(warmup, start, start + length, "warm-up (not in the figures)");
  }
  Chart throughput;
  throughput.id = id + "-throughput";
  throughput.title = "Requests and errors per second over the run";
  throughput.x_label = "time since start (s)";
  throughput.y_label = "per second";
  throughput.x_from_zero = true;
  throughput.series = {requests, errors};
  Chart latency;
  latency.id = id + "-latency";
  latency.title = "Latency per second over the run";
  latency.x_label = "time since start (s)";
  latency.y_label = "latency (ms)";
  latency.x_from_zero = true;
  latency.series = {p50, p99, max};
  for (const std::optional<ChartShade>* shade : {&ramp, &warmup}) {
    if (!*shade) continue;
    throughput.shades.push_back(**shade);
    latency.shades.push_back(**shade);
  }
  const char* shaded = ramp && warmup ? " The shaded parts are the ramp and the warm-up."
                       : ramp           ? " The shaded part is the ramp."
                       : warmup         ? " The shaded part is the warm-up."
                                        : "";
  return "<section id=\"" + id + "\"><h2>Timeline</h2><p class=\"caption\">Each second's "
         "requests by their send time" +
         std::string(run.corrected_leads ? " (intended)" : "") +
         "; latency from the " + (run.corrected_leads ? "corrected" : "uncorrected") +
         " stopwatch." + shaded + "</p>" +
         render_svg_chart(throughput) + render_svg_chart(latency) + "</section>";
}

std::string histogram_line(const char* name, const std::optional<Histogram>& histogram,
                           const char* unit_note) {
  if (!histogram || histogram->total_count() == 0) return "";
  return "<tr><td class=\"name\">" + std::string(name) + "</td><td>" +
         whole(static_cast<double>(histogram->total_count())) + "</td>" +
         latency_cell(&*histogram, {}, 50) + latency_cell(&*histogram, {}, 99) +
         latency_cell(&*histogram, {}, 100, true) + "<td class=\"name\">" + unit_note +
         "</td></tr>";
}

std::string cold_start_section(const RunView& run) {
  const JsonValue* lag = run.document->find("dispatch_lag");
  std::string html = "<section id=\"dispatch\"><h2>Dispatch lag, connect time, first requests</h2>";
  if (lag != nullptr && lag->is_object()) {
    const double behind = number_or(lag, {"behind_schedule"}, 0);
    const double server = number_or(lag, {"cause", "server"}, 0);
    const double generator = number_or(lag, {"cause", "generator"}, 0);
    html += "<table id=\"dispatch-lag\"><tr><th class=\"name\">dispatch lag</th><th>mean</th>"
            "<th>max</th><th>behind schedule</th><th>server's fault</th><th>hammer's fault</th>"
            "<th>peak backlog</th></tr><tr><td class=\"name\">actual send &minus; intended "
            "send</td><td>" +
            format_duration_ns(whole_ns(number_or(lag, {"mean_ns"}, 0))) +
            "</td><td>" + format_duration_ns(whole_ns(number_or(lag, {"max_ns"}, 0))) +
            "</td><td>" + whole(behind) + "</td><td>" + whole(server) + "</td><td>" +
            whole(generator) + "</td><td>" + whole(number_or(lag, {"peak_backlog"}, 0)) +
            "</td></tr></table><p class=\"caption\">A request is behind schedule when it left "
            "more than " +
            format_duration_ns(whole_ns(number_or(lag, {"threshold_ns"}, 0))) +
            " late. The server's fault: every connection was busy waiting for it. hammer's "
            "fault: a connection was idle, so the generator itself was late.</p>";
  } else {
    html += "<p class=\"caption\">Closed loop: requests have no schedule, so no dispatch "
            "lag.</p>";
  }
  const std::string rows =
      histogram_line("connect time", run.connect, "connect() to writable") +
      histogram_line("first requests", run.first_requests,
                     "uncorrected, first request on each new connection");
  if (!rows.empty()) {
    html += "<table id=\"cold-start\"><tr><th class=\"name\"></th><th>count</th><th>p50</th>"
            "<th>p99</th><th>max</th><th class=\"name\"></th></tr>" + rows + "</table>";
  }
  return html + "</section>";
}

// --requests: the measured part per line of the file, as the text report's "Requests by line"
// and the document's requests_file say it; latencies from each line's own histogram (HDR, 2
// significant digits), on the stopwatch the page leads with.
std::string lines_section(const RunView& run) {
  const JsonValue* file = run.document->find("requests_file");
  if (file == nullptr || !file->is_object()) return "";
  const JsonValue* lines = file->find("lines");
  if (lines == nullptr || !lines->is_array() || lines->items.empty()) return "";
  const std::string_view lead = run.corrected_leads ? "corrected" : "uncorrected";
  std::string rows;
  for (const JsonValue& entry : lines->items) {
    double errors = 0;
    if (const JsonValue* kinds = entry.find("errors")) {
      for (const auto& [kind, count] : kinds->members) errors += count.as_double().value_or(0);
    }
    double non_ok = 0;
    for (const char* status : {"1xx", "4xx", "5xx"}) non_ok += number_or(&entry, {"status", status}, 0);
    auto histogram = histogram_at(&entry, {"latency", lead}, "requests_file line");
    const Histogram* lead_histogram =
        histogram && histogram->has_value() ? &**histogram : nullptr;
    const CensoredTail tail =
        lead_histogram == nullptr
            ? CensoredTail{}
            : censored_tail(*lead_histogram,
                            static_cast<int64_t>(number_or(&entry, {"errors", "timeout"}, 0)),
                            run.uncorrected_tail.timeout_ns);
    const std::string method = text_at(&entry, {"method"});
    const std::string path = text_at(&entry, {"path"});
    rows += "<tr><td>" + escape_html(text_at(&entry, {"lines"})) + "</td><td class=\"name\">" +
            escape_html(text_at(&entry, {"name"})) + "</td><td class=\"name\">" +
            escape_html(method.empty() ? std::string("-") : method + " " + path) + "</td><td>" +
            whole(number_or(&entry, {"sent"}, 0)) + "</td><td>" +
            whole(number_or(&entry, {"completed"}, 0)) + "</td><td>" + whole(errors) +
            "</td><td>" + whole(non_ok) + "</td>" + latency_cell(lead_histogram, tail, 50) +
            latency_cell(lead_histogram, tail, 99) + latency_cell(lead_histogram, tail, 100, true) +
            "</tr>";
  }
  return "<section id=\"requests-by-line\"><h2>Requests by line</h2><table id=\"lines\"><tr>"
         "<th>line</th><th class=\"name\">name</th><th class=\"name\">request</th><th>sent</th>"
         "<th>completed</th><th>failed</th><th>not 2xx/3xx</th><th>p50</th><th>p99</th>"
         "<th>max</th></tr>" +
         rows + "</table><p class=\"caption\">" + escape_html(text_at(file, {"path"})) +
         ": the measured part per line of the file; latency " + std::string(lead) +
         ", from each line's own histogram (2 significant digits).</p></section>";
}

std::string config_footer(const JsonValue* doc) {
  std::string html = "<footer id=\"config\"><strong>hammer " +
                     escape_html(text_at(doc, {"hammer", "version"})) + "</strong> &middot; JSON "
                     "schema " + whole(number_or(doc, {"hammer", "schema"}, 0)) + "<dl>";
  if (const JsonValue* config = doc->find("config")) {
    for (const auto& [name, value] : config->members) {
      std::string shown;
      switch (value.kind) {
        case JsonValue::Kind::null: shown = "none"; break;
        case JsonValue::Kind::boolean: shown = value.boolean ? "true" : "false"; break;
        case JsonValue::Kind::number:
        case JsonValue::Kind::string: shown = value.text; break;
        default: shown = "…"; break;
      }
      html += "<dt>" + escape_html(name) + "</dt><dd>" + escape_html(shown) + "</dd>";
    }
  }
  return html + "</dl></footer>";
}

std::string run_heading(const RunView& run) {
  const JsonValue* doc = run.document;
  const std::string mode = text_at(doc, {"config", "mode"});
  std::string line = escape_html(text_at(doc, {"config", "method"})) + " " +
                     escape_html(text_at(doc, {"config", "url"})) + " &middot; " +
                     counted(number_or(doc, {"config", "connections"}, 0), "connection") +
                     ", " + counted(number_or(doc, {"config", "threads"}, 0), "thread") + ", " +
                     format_fixed(number_or(doc, {"config", "duration_s"}, 0), 1) + " s";
  if (mode == "open") {
    line += ", open loop at " + whole(number_or(doc, {"config", "rate"}, 0)) + " req/s";
  } else {
    line += ", closed loop";
  }
  return line;
}

std::string single_run_body(const RunView& run, const std::string& prefix) {
  std::string html = findings_section(run);
  html += "<section id=\"" + prefix + "latency\"><h2>Latency</h2>" + summary_table(run) + "</section>";
  html += "<section id=\"" + prefix + "spectrum\"><h2>Percentile spectrum</h2>" +
          spectrum_chart({&run}, prefix + "spectrum-chart") +
          "<p class=\"caption\">Latency at each percentile; the x axis spreads the tail "
          "(90%, 99%, 99.9% are equally far apart). The corrected curve times each request "
          "from when it was due; the uncorrected one from when it was actually sent, which "
          "is what a closed-loop tool reports. The gap between them is the wait a real "
          "client would have had.</p></section>";
  html += timeline_section(run, prefix + "timeline");
  html += lines_section(run);
  html += cold_start_section(run);
  return html;
}

// ---- sweeps ----

std::string sweep_body(const HtmlSource& source) {
  const JsonValue* doc = source.document;
  const JsonValue* sweep = doc->find("sweep");
  const bool by_rate = text_at(sweep, {"kind"}) == "rate";
  const std::string level_label = by_rate ? "offered rate (req/s)" : "connections";
  const JsonValue* steps = sweep->find("steps");
  ChartSeries throughput{"achieved requests/s", kBlue, "", {}, true};
  ChartSeries control{"--control route, requests/s", kBlack, "4 3", {}, true};
  ChartSeries p50{"p50", kGreen, "", {}, true};
  ChartSeries p99{"p99", kVermillion, "6 3", {}, true};
  std::string rows;
  bool any_noisy = false;
  if (steps != nullptr) {
    std::vector<const JsonValue*> ordered;
    for (const JsonValue& step : steps->items) ordered.push_back(&step);
    std::sort(ordered.begin(), ordered.end(), [](const JsonValue* a, const JsonValue* b) {
      return number_or(a, {"level"}, 0) < number_or(b, {"level"}, 0);
    });
    for (const JsonValue* step : ordered) {
      const double level = number_or(step, {"level"}, 0);
      throughput.points.push_back({level, number_or(step, {"requests", "per_second"}, 0)});
      // A censored figure is the timeout, a bound: the charts draw no point for it.
      const auto censored = [&](const char* key) {
        const JsonValue* names = at(step, {"latency_ns", "censored"});
        if (names == nullptr) return false;
        return std::any_of(names->items.begin(), names->items.end(),
                           [&](const JsonValue& name) { return name.text == key; });
      };
      if (auto value = number_at(step, {"latency_ns", "50"}); value && !censored("50")) {
        p50.points.push_back({level, *value / 1e6});
      }
      if (auto value = number_at(step, {"latency_ns", "99"}); value && !censored("99")) {
        p99.points.push_back({level, *value / 1e6});
      }
      if (auto value = number_at(step, {"control_per_second"})) control.points.push_back({level, *value});
      const auto latency = [&](const char* key) {
        auto value = number_at(step, {"latency_ns", key});
        if (value && censored(key)) {
          return "<td class=\"censored\" data-censored=\"" + whole(*value) + "\">&gt; " +
                 format_duration_ns(whole_ns(*value)) + " <small>(timed out)</small></td>";
        }
        return value ? "<td data-ns=\"" + whole(*value) + "\">" +
                           format_duration_ns(whole_ns(*value)) + "</td>"
                     : std::string("<td>-</td>");
      };
      const auto little = number_at(step, {"littles_law", "in_flight"});
      const auto deviation = number_at(step, {"littles_law", "deviation_pct"});
      // A level its repeats left noisy is marked as the text table marks it (sweep/noise.h).
      const JsonValue* noisy_member = step->find("noisy");
      const bool noisy = noisy_member != nullptr && noisy_member->boolean;
      any_noisy = any_noisy || noisy;
      const auto runs = number_at(step, {"runs"});
      rows += std::string(noisy ? "<tr class=\"noisy\">" : "<tr>") + "<td>" +
              format_fixed(level, level == std::floor(level) ? 0 : 2) +
              (noisy ? std::string(kNoisyMark) : "") +
              (runs && *runs > 1 ? " <small>(" + whole(*runs) + " runs)</small>" : "") + "</td><td>" +
              format_fixed(number_or(step, {"requests", "per_second"}, 0), 1) + "</td>" +
              latency("50") + latency("99") + latency("max") + "<td>" +
              whole(number_or(step, {"errors"}, 0)) + "</td><td>" +
              (little ? format_fixed(*little, 1) + (deviation ? " (" + format_fixed(*deviation, 0) + "%)" : "")
                      : std::string("-")) +
              "</td><td>" + (at(step, {"meets"}) && at(step, {"meets"})->boolean ? "yes" : "no") +
              "</td></tr>";
    }
  }
  // Marks on the charts come from the figures; the sentences (knee, collapse, capacity, the
  // --control ratio) from the document's summary, which sweep_report wrote with the text
  // report's words.
  std::vector<ChartMark> marks;
  if (const JsonValue* knee = sweep->find("knee"); knee && knee->is_object()) {
    marks.push_back({number_or(knee, {"level"}, 0), "knee"});
  }
  if (const JsonValue* collapse = sweep->find("collapse"); collapse && collapse->is_object()) {
    marks.push_back({number_or(collapse, {"fell_level"}, 0), "collapse"});
  }
  std::string readings;
  if (const JsonValue* summary = sweep->find("summary")) {
    for (const JsonValue& line : summary->items) {
      if (line.is_string()) readings += "<li class=\"verdict\">" + escape_html(line.text) + "</li>";
    }
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
    return page("hammer sweep: " + text_at(sources[0].document, {"config", "url"}),
                escape_html(sources[0].label), sweep_body(sources[0]), sources[0].document);
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
    return page("hammer report: " + text_at(runs[0].document, {"config", "url"}),
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
                     "<p class=\"caption\">Solid and long dashes: the first run; shorter "
                     "dashes: the others.</p></section>";
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
