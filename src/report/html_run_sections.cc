// SPDX-License-Identifier: MIT
#include "report/html_run_sections.h"

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "document/run_document.h"
#include "report/format.h"
#include "report/host_report.h"
#include "report/html_pieces.h"
#include "report/http2_report.h"
#include "report/lines_report.h"
#include "report/report_input.h"
#include "report/slo_report.h"
#include "report/svg_chart.h"
#include "report/timeline_report.h"
#include "report/tls_report.h"
#include "report/verdict_text.h"
#include "run/verdicts.h"
#include "sweep/slo.h"

namespace hammer::html {
namespace {

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
  // Judged again from the document's figures, as `hammer report` judges them: the page and the
  // text say the same verdicts and --slo outcomes in the same words (verdict_text,
  // slo_report), whatever sentences an older hammer stored.
  const RunDocument& typed = run.typed;
  const RunResult& result = typed.result;
  const std::vector<SloOutcome> slo = evaluate_slos(typed.slo_limits, typed.config, result);
  const std::vector<Verdict> verdicts =
      compute_verdicts(typed.config, result, typed.machine_cpus);
  std::string items;
  // Those that say the figures describe failures come first, as in the text report.
  for (const bool first : {true, false}) {
    for (const Verdict& verdict : verdicts) {
      const VerdictCode code = verdict_code(verdict);
      if (verdict_comes_first(code) != first) continue;
      items += std::string("<li class=\"") + (first ? "error" : "verdict") + "\" data-code=\"" +
               escape_html(verdict_code_name(code)) + "\">" +
               escape_html(verdict_sentence(verdict)) + "</li>";
    }
  }
  // The host's reading, worded as the text report words it (report/host_report.h).
  for (const std::string& line :
       {host_line(result.host), generator_cpu_line(result.generator_cpu)}) {
    if (!line.empty()) items += "<li class=\"verdict\" data-host>" + escape_html(line) + "</li>";
  }
  // https: the text report's TLS lines (version, cipher, handshakes, -k, failures).
  for (const std::string& line :
       tls_lines(result.tls, result.handshake_time, result.error_count(ErrorKind::tls))) {
    items += "<li class=\"verdict\" data-tls>" + escape_html(line) + "</li>";
  }
  // --http2: the text report's HTTP/2 lines (streams allowed, ends, overhead, first byte).
  for (const std::string& line : http2_lines(result.http2)) {
    items += "<li class=\"verdict\" data-http2>" + escape_html(line) + "</li>";
  }
  std::string listed;
  int64_t total_errors = 0;
  for (int kind = 0; kind < kErrorKindCount; ++kind) {
    if (result.errors[kind] <= 0) continue;
    total_errors += result.errors[kind];
    listed += (listed.empty() ? "" : ", ") + escape_html(kErrorKindNames[kind]) + " " +
              whole(static_cast<double>(result.errors[kind]));
  }
  if (total_errors > 0) {
    items += "<li class=\"error\" id=\"errors\">Errors: " +
             whole(static_cast<double>(total_errors)) + " (" + listed + ")</li>";
  }
  // Answers that were not 2xx or 3xx, by class.
  std::string non_ok;
  for (int index = 0; index < kStatusClassCount; ++index) {
    const int64_t count = result.status_classes[index];
    if (count > 0 && !is_ok_status_class(static_cast<StatusClass>(index))) {
      non_ok += (non_ok.empty() ? "" : ", ") + escape_html(kStatusClassNames[index]) + " " +
                whole(static_cast<double>(count));
    }
  }
  if (!non_ok.empty()) {
    items += "<li class=\"error\" id=\"non-2xx\">Responses not 2xx or 3xx: " + non_ok + "</li>";
  }
  // The notes the run printed, as it worded them (some come from facts the document does not
  // keep: the first socket error, the engine's fallback).
  if (typed.notes) {
    for (const std::string& note : *typed.notes) {
      items += "<li class=\"note\">" + escape_html(note) + "</li>";
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

// The text report's input for the saved run, for the helpers the text report renders with
// (summarize_timeline): figures only, so no verdict and no note is read from it.
ReportInput text_report_input(const RunView& run) {
  static const std::vector<Verdict> kNoVerdicts;
  return ReportInput{run.typed.config, run.typed.result, kNoVerdicts, {}, nullptr, nullptr,
                     nullptr};
}

std::string summary_table(const RunView& run) {
  const Config& config = run.typed.config;
  const RunResult& result = run.typed.result;
  const Histogram* corrected = run.corrected();
  const Histogram* uncorrected = &run.uncorrected();
  std::string html = "<table class=\"summary\" id=\"summary\"><tr><th class=\"name\"></th>";
  html += "<th>corrected<br><small>from intended send</small></th>";
  html += "<th>uncorrected<br><small>from actual send</small></th>";
  html += "<th>ratio<br><small>corrected / uncorrected</small></th></tr>";
  // The document's rows (the whole default spectrum and the --percentiles): the page has room
  // for every one the text prints with --latency; each figure is the text's for its row.
  for (const PercentilePoint& point : json_percentiles(config)) {
    html += "<tr data-percentile=\"" + escape_html(point.label) + "\"><td class=\"name\">p" +
            escape_html(point.label) + "</td>" +
            latency_cell(corrected, run.corrected_tail, point.q) +
            latency_cell(uncorrected, run.uncorrected_tail, point.q) +
            ratio_cell(corrected, run.corrected_tail, uncorrected, run.uncorrected_tail, point.q) +
            "</tr>";
  }
  html += "<tr data-percentile=\"max\"><td class=\"name\">max</td>" +
          latency_cell(corrected, run.corrected_tail, 100, true) +
          latency_cell(uncorrected, run.uncorrected_tail, 100, true) +
          ratio_cell(corrected, run.corrected_tail, uncorrected, run.uncorrected_tail, 100,
                     true) +
          "</tr></table>";
  // As the text's "Requests/sec" and "N requests in ELAPSED" say them.
  html += "<table class=\"counts\"><tr><th class=\"name\">requests/s</th>"
          "<td id=\"requests-per-second\">" +
          format_rate(requests_per_second(result)) +
          "</td><th class=\"name\">completed</th><td id=\"completed\">" +
          std::to_string(result.completed) + "</td><th class=\"name\">sent</th><td>" +
          std::to_string(result.sent) + "</td><th class=\"name\">elapsed</th><td>" +
          format_duration_ns(result.elapsed_ns) + "</td></tr></table>";
  if (!corrected) {
    html += "<p class=\"caption\">Closed loop: each request waits for the previous one, so "
            "there is no intended send time and no corrected latency.</p>";
  }
  return html;
}

std::string timeline_section(const RunView& run, const std::string& id) {
  // The rows the text's --timeline table and the JSON timeline print (summarize_timeline).
  const std::vector<TimelineRowSummary> rows = summarize_timeline(text_report_input(run));
  if (rows.empty()) return "";
  ChartSeries requests{"requests/s", kBlue, "", {}};
  ChartSeries errors{"errors/s", kBlack, "4 3", {}};
  ChartSeries p50{"p50", kGreen, "", {}};
  ChartSeries p99{"p99", kVermillion, "6 3", {}};
  ChartSeries max{"max", kPurple, "2 3", {}};
  // Each row is a second's figure: drawn level across its second, as a step from the row's
  // start to its end (a 200 ms stall is one tall second, not a ramp into and out of it), from
  // the run's start at 0, the warm-up and ramp included under their shading.
  for (ChartSeries* series : {&requests, &errors, &p50, &p99, &max}) series->steps = true;
  // The rows before the measured part, each phase shaded with its own label: the ramp, then
  // the warm-up (the order a run takes them in).
  std::optional<ChartShade> ramp;
  std::optional<ChartShade> warmup;
  auto extend = [](std::optional<ChartShade>& shade, double from, double to, const char* label) {
    if (!shade) shade = ChartShade{from, to, label};
    shade->to_x = to;
  };
  for (const TimelineRowSummary& row : rows) {
    const double start = static_cast<double>(row.figures.start_ns) / 1e9;
    const double length = static_cast<double>(row.figures.length_ns) / 1e9;
    const double end = start + length;
    requests.points.push_back({start, row.per_second, end});
    errors.points.push_back(
        {start, static_cast<double>(row.errors) / (length > 0 ? length : 1), end});
    // A second without responses has no latency; a censored figure is the timeout, a bound
    // (the text prints "> 2.00s"): no point is drawn for either.
    if (row.figures.completed > 0) {
      for (auto [value_ns, censored, series] :
           {std::tuple<int64_t, bool, ChartSeries*>{row.p50_ns, row.p50_censored, &p50},
            {row.p99_ns, row.p99_censored, &p99},
            {row.max_ns, row.max_censored, &max}}) {
        if (!censored) series->points.push_back({start, static_cast<double>(value_ns) / 1e6, end});
      }
    }
    const std::string_view phase = timeline_phase_name(row);
    if (phase == "ramp") extend(ramp, start, end, "ramp (not in the figures)");
    if (phase == "warmup") extend(warmup, start, end, "warm-up (not in the figures)");
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

std::string histogram_line(const char* name, const Histogram& histogram,
                           const char* unit_note) {
  if (histogram.total_count() == 0) return "";
  // No timeout censors these (a failed connect has no time): the histogram's own figures, as
  // the text's "Connect" and "First requests" lines print them.
  const CensoredTail uncensored = censored_tail(histogram, 0, 0);
  return "<tr><td class=\"name\">" + std::string(name) + "</td><td>" +
         std::to_string(histogram.total_count()) + "</td>" +
         latency_cell(&histogram, uncensored, 50) + latency_cell(&histogram, uncensored, 99) +
         latency_cell(&histogram, uncensored, 100, true) + "<td class=\"name\">" + unit_note +
         "</td></tr>";
}

std::string cold_start_section(const RunView& run) {
  const Config& config = run.typed.config;
  const RunResult& result = run.typed.result;
  std::string html = "<section id=\"dispatch\"><h2>Dispatch lag, connect time, first "
                     "requests</h2>";
  // Open loop only, as the text's "Dispatch lag" line (and the document's dispatch_lag).
  if (config.open_loop()) {
    const DispatchLag& lag = result.lag;
    html += "<table id=\"dispatch-lag\"><tr><th class=\"name\">dispatch lag</th><th>mean</th>"
            "<th>max</th><th>behind schedule</th><th>server's fault</th><th>hammer's fault</th>"
            "<th>peak backlog</th></tr><tr><td class=\"name\">actual send &minus; intended "
            "send</td><td>" +
            format_duration_ns(mean_dispatch_lag_ns(lag)) + "</td><td>" +
            format_duration_ns(lag.max_ns) + "</td><td>" + std::to_string(lag.behind_schedule) +
            "</td><td>" + std::to_string(lag.behind_server) + "</td><td>" +
            std::to_string(lag.behind_generator) + "</td><td>" +
            std::to_string(lag.peak_backlog) +
            "</td></tr></table><p class=\"caption\">A request is behind schedule when it left "
            "more than " +
            format_duration_ns(lag.threshold_ns) +
            " late. The server's fault: every connection was busy waiting for it. hammer's "
            "fault: a connection was idle, so the generator itself was late.</p>";
  } else {
    html += "<p class=\"caption\">Closed loop: requests have no schedule, so no dispatch "
            "lag.</p>";
  }
  const std::string rows =
      histogram_line("connect time", result.connect_time, "connect() to writable") +
      histogram_line("TLS handshake", result.handshake_time,
                     "after the TCP connect, to the TLS connection's establishment") +
      histogram_line("first requests", result.first_requests,
                     "uncorrected, first request on each new connection");
  if (!rows.empty()) {
    html += "<table id=\"cold-start\"><tr><th class=\"name\"></th><th>count</th><th>p50</th>"
            "<th>p99</th><th>max</th><th class=\"name\"></th></tr>" + rows + "</table>";
  }
  return html + "</section>";
}

// --requests: the measured part per line of the file, as the text report's "Requests by line"
// says it; latencies from each line's own histogram (HDR, 2 significant digits), on the
// stopwatch the page leads with.
std::string lines_section(const RunView& run) {
  const Config& config = run.typed.config;
  const std::vector<LineStats>& stats = run.typed.result.lines;
  if (config.requests.empty() || stats.empty()) return "";
  const std::string_view lead = run.corrected_leads ? "corrected" : "uncorrected";
  std::string rows;
  for (size_t i = 0; i < stats.size(); ++i) {
    const LineStats& line = stats[i];
    const LineLabel labelled = line_label(config, i);
    // A line has a corrected histogram only in open loop, as the run has.
    const Histogram& histogram = run.corrected_leads ? line.corrected : line.uncorrected;
    const CensoredTail tail =
        tail_of(config, line.errors[static_cast<int>(ErrorKind::timeout)], histogram);
    std::string request = "-";
    if (labelled.line != nullptr) {
      request = labelled.line->method;
      request += " ";
      request += labelled.line->path;
    }
    rows += "<tr><td>" + escape_html(labelled.label) + "</td><td class=\"name\">" +
            escape_html(labelled.name) + "</td><td class=\"name\">" + escape_html(request) +
            "</td><td>" + std::to_string(line.sent) + "</td><td>" +
            std::to_string(line.completed) + "</td><td>" +
            std::to_string(line.failed_requests()) + "</td><td>" +
            std::to_string(line.non_2xx_3xx()) + "</td>" + latency_cell(&histogram, tail, 50) +
            latency_cell(&histogram, tail, 99) + latency_cell(&histogram, tail, 100, true) +
            "</tr>";
  }
  return "<section id=\"requests-by-line\"><h2>Requests by line</h2><table id=\"lines\"><tr>"
         "<th>line</th><th class=\"name\">name</th><th class=\"name\">request</th><th>sent</th>"
         "<th>completed</th><th>failed</th><th>not 2xx/3xx</th><th>p50</th><th>p99</th>"
         "<th>max</th></tr>" +
         rows + "</table><p class=\"caption\">" + escape_html(config.requests_path) +
         ": the measured part per line of the file; latency " + std::string(lead) +
         ", from each line's own histogram (2 significant digits).</p></section>";
}

}  // namespace

std::string config_value_text(const JsonValue& value) {
  // A value that says nothing (an empty list, object or string) is "". A list of plain values
  // is shown as the list.
  std::string shown;
  switch (value.kind) {
    case JsonValue::Kind::null: shown = "none"; break;
    case JsonValue::Kind::boolean: shown = value.boolean ? "true" : "false"; break;
    case JsonValue::Kind::number:
    case JsonValue::Kind::string: shown = value.text; break;
    case JsonValue::Kind::array:
      for (const JsonValue& item : value.items) {
        const bool plain = item.is_number() || item.is_string();
        shown += (shown.empty() ? "" : ", ") + (plain ? item.text : std::string("…"));
      }
      break;
    default: shown = value.members.empty() ? "" : "…"; break;
  }
  return shown;
}

// The footer alone reads the document by path, on purpose: it lists every config member the
// document has, as written (a later hammer's too, which the typed Config cannot know), and it
// is a sweep's footer as well as a single run's.
std::string config_footer(const JsonValue* doc) {
  std::string html = "<footer id=\"config\"><strong>hammer " +
                     escape_html(text_at(doc, {"hammer", "version"})) + "</strong> &middot; JSON "
                     "schema " + whole(number_or(doc, {"hammer", "schema"}, 0)) + "<dl>";
  if (const JsonValue* config = doc->find("config")) {
    for (const auto& [name, value] : config->members) {
      // The footer lists what the run was given.
      const std::string shown = config_value_text(value);
      if (shown.empty()) continue;
      html += "<dt>" + escape_html(name) + "</dt><dd>" + escape_html(shown) + "</dd>";
    }
  }
  return html + "</dl></footer>";
}

std::string run_heading(const RunView& run) {
  const Config& config = run.typed.config;
  std::string line = escape_html(config.method) + " " + escape_html(config.url) + " &middot; " +
                     counted(static_cast<double>(config.connections), "connection") + ", " +
                     counted(static_cast<double>(config.threads), "thread") + ", ";
  const std::string length = planned_duration(config.duration_ns);
  // -n: the count is the run's length (closed loop, the duration is only the 24h bound).
  if (config.requests_count > 0) {
    line += counted(static_cast<double>(config.requests_count), "request") +
            (config.open_loop() ? " in " + length : std::string());
  } else {
    line += length;
  }
  if (config.open_loop()) {
    // The rate as the user gave it, as the text's header prints it back (2500.5, not 2501).
    line += ", open loop at " + format_number(config.rate) + " req/s";
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

}  // namespace hammer::html
