// SPDX-License-Identifier: MIT
// Rendering time within the run. The warm-up gets its own short section (requests, req/s, p50,
// p99, max, errors) so the user sees what was left out and for how long, instead of a tool
// quietly discarding it. The timeline's rows come from per-row histograms added across workers;
// every per-second figure is computed from those sums, none is a mean of per-worker figures.
#include "report/timeline_report.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "report/format.h"
#include "report/host_report.h"
#include "report/json_report.h"
#include "stats/histogram_v2.h"
#include "time/time_units.h"

namespace hammer {
namespace {

const Histogram& lead_of(const Config& config, const RunResult& result) {
  return config.corrected_stopwatch_leads() ? result.corrected : result.uncorrected;
}

std::string seconds_text(int64_t ns) {
  if (ns > 0 && ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  return format_duration_ns(ns);
}

}  // namespace

std::string_view timeline_phase_name(const TimelineRowSummary& row) {
  return row.ramp ? "ramp" : row.figures.warmup ? "warmup" : "measured";
}

int64_t report_slow_threshold_ns(const ReportInput& input) {
  return slow_threshold_ns(input.config.slow_ns, lead_histogram(input).value_at_percentile(50));
}

std::vector<TimelineRowSummary> summarize_timeline(const ReportInput& input) {
  const RunResult& result = input.result;
  const Timeline& timeline = result.timeline;
  std::vector<TimelineRowSummary> rows;
  if (timeline.empty()) return rows;
  const int64_t warmup_ran_ns = result.warmup ? result.warmup->elapsed_ns : 0;
  const int64_t ramp_ran_ns = result.ramp ? result.ramp->elapsed_ns : 0;
  const int64_t span_ns = ramp_ran_ns + warmup_ran_ns + result.elapsed_ns;
  const int64_t threshold_ns = report_slow_threshold_ns(input);
  for (size_t i = 0; i < timeline.rows().size(); ++i) {
    const Timeline::Row& row = timeline.rows()[i];
    if (i > 0 && row.start_ns >= span_ns) break;
    const int32_t index = static_cast<int32_t>(i);
    TimelineRowSummary summary;
    summary.figures.second = index + 1;
    summary.figures.start_ns = row.start_ns;
    // A run cut short (Ctrl-C, SIGTERM) ends inside its row: the row is as long as the run
    // went, and its rate is over that.
    summary.figures.length_ns =
        span_ns > row.start_ns ? std::min(row.length_ns, span_ns - row.start_ns) : row.length_ns;
    summary.figures.warmup = row.warmup;
    summary.ramp = row.ramp;
    summary.figures.completed = row.completed;
    summary.figures.slow = threshold_ns > 0 ? timeline.count_above(index, threshold_ns) : 0;
    summary.errors = row.errors;
    summary.host_stall_max_ns =
        longest_stall_in(result.host, row.start_ns, summary.figures.length_ns);
    summary.per_second = per_second(row.completed, summary.figures.length_ns);
    if (row.completed > 0) {
      const Histogram histogram = timeline.row_histogram(index);
      // The row's histogram reports a bucket's highest value; its max is exact. A percentile
      // above the largest latency recorded would be a figure no request had.
      // The row's timeouts (requests sent in it) lie above every answer: as for the run.
      const CensoredTail tail = tail_of(input.config, row.timed_out, histogram);
      const TailFigure p50 = tail.at(histogram, 50);
      const TailFigure p99 = tail.at(histogram, 99);
      summary.timed_out = row.timed_out;
      summary.max_ns = tail.any() ? tail.timeout_ns : row.max_ns;
      summary.max_censored = tail.any();
      summary.p50_ns = p50.censored ? p50.value_ns : std::min(p50.value_ns, row.max_ns);
      summary.p99_ns = p99.censored ? p99.value_ns : std::min(p99.value_ns, row.max_ns);
      summary.p50_censored = p50.censored;
      summary.p99_censored = p99.censored;
    }
    rows.push_back(summary);
  }
  return rows;
}

std::vector<std::string> timeline_notes(const ReportInput& input) {
  std::vector<std::string> notes;
  const std::vector<TimelineRowSummary> rows = summarize_timeline(input);
  if (rows.empty()) return notes;
  std::vector<SecondFigures> figures;
  for (const TimelineRowSummary& row : rows) figures.push_back(row.figures);
  if (auto note = regime_note(figures, input.result.timeline.interval_ns(),
                              requests_per_second(input.result))) {
    notes.push_back(*note);
  }
  const Histogram& lead = lead_histogram(input);
  SlowRequestFigures slow;
  slow.threshold_ns = report_slow_threshold_ns(input);
  slow.threshold_given = input.config.slow_ns > 0;
  slow.max_ns = lead.max();
  slow.p999_ns = lead.value_at_percentile(99.9);
  if (auto note = slow_request_note(figures, slow)) notes.push_back(*note);
  return notes;
}

namespace {

// The ramp's and the warm-up's sections: what ran before the measured part, left out of it.
void append_phase_text(const ReportInput& input, const RunResult& phase, std::string_view title,
                       std::string& out) {
  const Histogram& lead = lead_of(input.config, phase);
  out += "  " + std::string(title) + " " + seconds_text(phase.elapsed_ns) +
         ", not in the figures below\n";
  out += "    " + std::to_string(phase.completed) + " requests, " +
         format_rate(per_second(phase.completed, phase.elapsed_ns)) + " req/s";
  if (lead.total_count() > 0) {
    const CensoredTail tail = tail_of(input.config, phase, lead);
    out += ", p50 " + tail_figure_text(tail.at(lead, 50)) + ", p99 " +
           tail_figure_text(tail.at(lead, 99)) + ", max " + tail_figure_text(tail.max(lead));
    if (tail.any()) out += " (" + std::to_string(tail.timed_out) + " timed out)";
  }
  out += ", " + std::to_string(phase.failed_requests()) + " failed requests";
  if (const int64_t non_2xx_3xx = phase.non_2xx_3xx(); non_2xx_3xx > 0) {
    out += ", " + std::to_string(non_2xx_3xx) + " non-2xx or 3xx responses";
  }
  out += "\n";
}

}  // namespace

void append_ramp_text(const ReportInput& input, std::string& out) {
  if (input.result.ramp) append_phase_text(input, *input.result.ramp, "Ramp", out);
}

void append_warmup_text(const ReportInput& input, std::string& out) {
  if (input.result.warmup) append_phase_text(input, *input.result.warmup, "Warm-up", out);
}

void append_connect_text(const ReportInput& input, std::string& out) {
  const RunResult& result = input.result;
  const Histogram& connect = result.connect_time;
  if (connect.total_count() == 0) return;
  out += "Connect        p50 " + format_duration_ns(connect.value_at_percentile(50)) + ", p99 " +
         format_duration_ns(connect.value_at_percentile(99)) + ", max " +
         format_duration_ns(connect.max()) + " (" + std::to_string(connect.total_count()) +
         (connect.total_count() == 1 ? " connect" : " connects") + ")\n";
  const Histogram& first = result.first_requests;
  if (first.total_count() == 0) return;
  // Not "one per connection": a connection whose first request is one sent again (after a
  // polite close left it unanswered) adds none, so with -p and a closing server the count is
  // far below the connects.
  out += "First requests p50 " + format_duration_ns(first.value_at_percentile(50)) + ", max " +
         format_duration_ns(first.max()) + " (" + std::to_string(first.total_count()) +
         ", a new connection's first new request, uncorrected)\n";
}

namespace {

// A latency column: a censored figure ("> 150.00ms") and a space before it; "-" for a row
// with no answer.
constexpr size_t kLatencyColumn = 11;
std::string latency_cell(bool any, const TailFigure& figure) {
  return right_cell(any ? tail_figure_text(figure) : "-", kLatencyColumn);
}

}  // namespace

void append_timeline_text(const ReportInput& input, std::string& out) {
  if (!input.config.print_timeline) return;
  const std::vector<TimelineRowSummary> rows = summarize_timeline(input);
  if (rows.empty()) return;
  const int64_t interval_ns = input.result.timeline.interval_ns();
  out += "Timeline (per " + seconds_text(interval_ns) + ", requests by send time)\n";
  out += pad_left("second", 8) + "  phase   " + pad_left("requests", 10) + pad_left("req/s", 12) +
         pad_left("p50", kLatencyColumn) + pad_left("p99", kLatencyColumn) +
         pad_left("max", kLatencyColumn) + pad_left("errors", 8) + "\n";
  for (const TimelineRowSummary& row : rows) {
    const bool any = row.figures.completed > 0;
    out += pad_left(std::to_string(row.figures.second), 8) + "  " +
           (row.ramp ? "ramp    " : row.figures.warmup ? "warmup  " : "measured") +
           pad_left(std::to_string(row.figures.completed), 10) +
           pad_left(format_rate(row.per_second), 12) +
           latency_cell(any, {row.p50_ns, row.p50_censored}) +
           latency_cell(any, {row.p99_ns, row.p99_censored}) +
           latency_cell(any, {row.max_ns, row.max_censored}) +
           pad_left(std::to_string(row.errors), 8) + "\n";
  }
}

namespace {

// The ramp's or the warm-up's object (docs/json.md: `warmup`, `ramp`); null without the phase.
void write_phase_json(const ReportInput& input, std::string_view name,
                      const std::shared_ptr<RunResult>& phase, int64_t duration_ns,
                      JsonWriter& json) {
  json.key(name);
  if (!phase) {
    json.null();
    return;
  }
  const Histogram& lead = lead_of(input.config, *phase);
  json.begin_object();
  json.member("duration_s", static_cast<double>(duration_ns) / 1e9);
  json.member("elapsed_ns", phase->elapsed_ns);
  // Only the ramp has its own share of the schedule; the warm-up's is the rate times its length.
  if (name == "ramp") json.member_or_null("scheduled", input.config.open_loop(), phase->scheduled);
  json.member("sent", phase->sent);
  json.member("completed", phase->completed);
  json.member("per_second", per_second(phase->completed, phase->elapsed_ns));
  // A censored figure is the timeout, a bound; `censored` names those keys (docs/json.md).
  json.key("latency");
  write_short_latency(tail_of(input.config, *phase, lead), lead, json);
  write_named_counts("errors", kErrorKindNames, phase->errors, json);
  write_status_json(*phase, json);
  json.end_object();
}

}  // namespace

void write_ramp_json(const ReportInput& input, JsonWriter& json) {
  write_phase_json(input, "ramp", input.result.ramp, input.config.ramp_ns, json);
}

void write_warmup_json(const ReportInput& input, JsonWriter& json) {
  write_phase_json(input, "warmup", input.result.warmup, input.config.warmup_ns, json);
}

void write_timeline_json(const ReportInput& input, JsonWriter& json) {
  const std::vector<TimelineRowSummary> rows = summarize_timeline(input);
  json.key("timeline").begin_object();
  json.member("interval_s", static_cast<double>(input.result.timeline.interval_ns()) / 1e9);
  json.member("slow_threshold_ns", report_slow_threshold_ns(input));
  json.key("rows").begin_array();
  for (const TimelineRowSummary& row : rows) {
    json.begin_object();
    json.member("second", static_cast<int64_t>(row.figures.second));
    json.member("start_s", static_cast<double>(row.figures.start_ns) / 1e9);
    json.member("length_s", static_cast<double>(row.figures.length_ns) / 1e9);
    json.member("phase", timeline_phase_name(row));
    json.member("requests", row.figures.completed);
    json.member("per_second", row.per_second);
    const bool any = row.figures.completed > 0;
    for (auto [name, value] : {std::pair<std::string_view, int64_t>{"p50_ns", row.p50_ns},
                               {"p99_ns", row.p99_ns},
                               {"max_ns", row.max_ns}}) {
      json.member_or_null(name, any, value);
    }
    json.member("errors", row.errors);
    json.member("timed_out", row.timed_out);
    write_censored_names(json, any,
                         {{"50", {row.p50_ns, row.p50_censored}},
                          {"99", {row.p99_ns, row.p99_censored}},
                          {"max", {row.max_ns, row.max_censored}}});
    json.member("slow", row.figures.slow);
    json.member_or_null("host_stall_max_ns", input.result.host.measured(), row.host_stall_max_ns);
    // The row's histogram itself, so that `hammer merge` can add rows of several shards.
    const Timeline& timeline = input.result.timeline;
    const int32_t index = static_cast<int32_t>(row.figures.second - 1);
    json.member("hdr", encode_v2_base64(timeline.row_histogram(index)));
    // Open loop: the other stopwatch's row too (uncorrected, or corrected with --closed-loop),
    // so interval logs of both can be made from the document.
    if (timeline.has_other()) json.member("other_hdr", encode_v2_base64(timeline.other_row_histogram(index)));
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

}  // namespace hammer
