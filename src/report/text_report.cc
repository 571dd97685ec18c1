// SPDX-License-Identifier: MIT
// Text report. Line by line (design.md §3):
//   Running 10s test @ URL
//     4 threads, 20 connections, open loop @ 2000 req/s
//     Latency (corrected)        <- the lead histogram, named; "(uncorrected, closed loop)"
//        50%  255.62us              when the stopwatch starts at the actual send
//     20000 requests in 10.00s, 1.49MB read
//   Requests/sec, Transfer/sec, Socket errors, Non-2xx (if any), Dispatch lag (open loop),
//   one line per verdict, then notes.
// Labels are padded to one width so the figures start in one column, as in wrk.
#include "report/text_report.h"

#include <cmath>
#include <cstdio>
#include <string_view>

#include "report/fleet_report.h"
#include "report/format.h"
#include "report/host_report.h"
#include "report/http2_report.h"
#include "report/lines_report.h"
#include "report/timeline_report.h"
#include "report/tls_report.h"
#include "report/verdict_text.h"
#include "run/verdicts.h"

namespace hammer {
namespace {

constexpr size_t kLabelWidth = 15;       // "Requests/sec   "
constexpr size_t kPercentileWidth = 8;   // "  99.99%" ("99.9999%" still fits)
constexpr size_t kValueWidth = 8;        // "255.62us"
constexpr size_t kColumnWidth = 13;      // side-by-side columns

std::string plural(int64_t count, std::string_view noun) {
  std::string text = std::to_string(count) + " " + std::string(noun);
  if (count != 1) text += "s";
  return text;
}

std::string ratio(int64_t numerator, int64_t denominator) {
  if (denominator <= 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1fx",
                static_cast<double>(numerator) / static_cast<double>(denominator));
  return buffer;
}

/// "mean 1.20ms, stdev 300.00us, min 1.00ms"; with timeouts the mean is a bound (each timed-out
/// request counted at the timeout) and the stdev unknown: "mean > 10.53ms, stdev -, min ...
/// (timed out)", as the censored percentiles read.
std::string summary(const Histogram& histogram, const CensoredTail& tail) {
  const TailFigure mean = tail.mean(histogram);
  const std::string stdev =
      mean.censored ? std::string("-") : format_duration_ns(std::llround(histogram.stdev()));
  return "mean " + tail_figure_text(mean) + ", stdev " + stdev + ", min " +
         format_duration_ns(histogram.min()) + (mean.censored ? " (timed out)" : "");
}

void append_header(const ReportInput& input, std::string& out) {
  const Config& config = input.config;
  if (config.requests_count > 0) {
    // -n: the count is the run's length; open loop, its schedule spans N / rate.
    out += "Running " + plural(config.requests_count, "request") +
           (config.open_loop() ? " in " + planned_duration(config.duration_ns) : "") + " @ " +
           config.url + "\n";
  } else {
    out += "Running " + planned_duration(config.duration_ns) + " test @ " + config.url + "\n";
  }
  out += "  " + plural(config.threads, "thread") +
         (config.threads_held_to_cpus() ? " (the CPUs available)" : "") + ", " +
         plural(config.connections, "connection") + ", ";
  if (config.open_loop()) {
    out += "open loop @ " + format_number(config.rate) + " req/s";
    if (config.arrival.kind == Arrival::poisson) {
      out += ", Poisson arrivals (seed " + std::to_string(config.arrival.seed) + ")";
    }
    if (config.closed_loop_stopwatch) out += ", stopwatch from actual send (--closed-loop)";
  } else {
    out += "closed loop";
  }
  if (config.engine != EngineKind::automatic) {  // resolved by main before every real run
    out += ", " + std::string(engine_name(config.engine)) + " engine";
  }
  if (config.pipeline > 1) out += ", pipeline " + std::to_string(config.pipeline);
  if (config.ramp_ns > 0) out += ", ramp " + planned_duration(config.ramp_ns);
  out += "\n";
  out += render_shard_line(input);
}

/// One column of percentiles: the short list (50..99, max) or with print_latency the full one.
/// A figure that timeouts censor reads "> 2.00s (timed out)": only its bound is known.
void append_single_column(const ReportInput& input, const Histogram& histogram,
                          std::string& out) {
  const bool full = input.config.print_latency;
  const CensoredTail tail = tail_of(input.config, input.result, histogram);
  const auto row = [&](std::string_view label, const TailFigure& figure) {
    out += pad_left(label, kPercentileWidth) + "  " +
           pad_left(tail_figure_text(figure), kValueWidth) +
           (figure.censored ? " (timed out)" : "") + "\n";
  };
  for (const PercentilePoint& point : text_percentiles(input.config, full)) {
    row(point.label + "%", tail.at(histogram, point.q));
  }
  row("max", tail.max(histogram));
  if (full) out += "    " + summary(histogram, tail) + "\n";
}

/// Open loop: corrected beside uncorrected, and how many times larger the corrected figure
/// is — the size of the coordinated-omission error at each percentile, the comparison hammer
/// exists for. The default rows without --latency; its full spectrum and summaries with it.
void append_side_by_side(const ReportInput& input, std::string& out) {
  const bool full = input.config.print_latency;
  const RunResult& result = input.result;
  const Histogram& corrected = result.corrected;
  const Histogram& uncorrected = result.uncorrected;
  const CensoredTail corrected_tail = tail_of(input.config, result, corrected);
  const CensoredTail uncorrected_tail = tail_of(input.config, result, uncorrected);
  out += pad_left("", kPercentileWidth) + pad_left("corrected", kColumnWidth) +
         pad_left("uncorrected", kColumnWidth) + pad_left("ratio", 9) + "\n";
  // A censored figure is a bound: no ratio can be read from it.
  const auto row = [&](std::string_view label, const TailFigure& left, const TailFigure& right) {
    const bool bounded = left.censored || right.censored;
    out += pad_left(label, kPercentileWidth) +
           right_cell(tail_figure_text(left), kColumnWidth) +
           right_cell(tail_figure_text(right), kColumnWidth) +
           pad_left(bounded ? "-" : ratio(left.value_ns, right.value_ns), 9) +
           (bounded ? " (timed out)" : "") + "\n";
  };
  for (const PercentilePoint& point : text_percentiles(input.config, full)) {
    row(point.label + "%", corrected_tail.at(corrected, point.q),
        uncorrected_tail.at(uncorrected, point.q));
  }
  row("max", corrected_tail.max(corrected), uncorrected_tail.max(uncorrected));
  if (!full) return;
  out += "    " + pad_right("corrected", 13) + summary(corrected, corrected_tail) + "\n";
  out += "    " + pad_right("uncorrected", 13) + summary(uncorrected, uncorrected_tail) + "\n";
}

void append_latency(const ReportInput& input, std::string& out) {
  const Histogram& lead = lead_histogram(input);
  if (lead.total_count() == 0) {
    // Interrupted before the measured part, "no successful responses" read as the server's
    // fault under a warm-up section with thousands answered (a new user's trial).
    out += interrupted_before_measuring(input.result) ? "  Latency: nothing measured\n"
                                                      : "  Latency: no successful responses\n";
    return;
  }
  out += input.config.corrected_stopwatch_leads() ? "  Latency (corrected)\n"
                                              : "  Latency (uncorrected, closed loop)\n";
  if (input.config.open_loop()) {
    append_side_by_side(input, out);
  } else {
    append_single_column(input, lead, out);
  }
}

void append_totals(const ReportInput& input, std::string& out) {
  const RunResult& result = input.result;
  out += "  " + plural(result.completed, "request") + " in " +
         format_duration_ns(result.elapsed_ns) + ", " +
         format_bytes(static_cast<double>(result.bytes_read)) + " read\n";
  out += pad_right("Requests/sec", kLabelWidth) + format_rate(requests_per_second(result)) + "\n";
  out += pad_right("Transfer/sec", kLabelWidth) + format_bytes(bytes_per_second(result)) + "\n";

  if (result.completed > 0) {
    // Every code, ascending: "Status         200 ×19,800, 404 ×200".
    out += pad_right("Status", kLabelWidth);
    bool first = true;
    for (int code = 0; code < kStatusCodeLimit; ++code) {
      if (result.status_codes[code] == 0) continue;
      if (!first) out += ", ";
      out += std::to_string(code) + " \u00d7" + format_count(result.status_codes[code]);
      first = false;
    }
    out += "\n";
  }

  if (input.config.open_loop()) {
    // Open loop: what was due, what left, and why the rest did not (README: failed requests).
    out += pad_right("Schedule", kLabelWidth) + format_count(result.scheduled) + " due, " +
           format_count(result.sent) + " sent, " + format_count(result.unsent) + " unsent";
    if (result.unsent > 0) {
      out += " (" + format_count(result.unsent_no_connection) + " with no connection up, " +
             format_count(result.unsent - result.unsent_no_connection) +
             " behind busy connections)";
    }
    out += "\n";
  }

  out += pad_right("Socket errors", kLabelWidth);
  for (int kind = 0; kind < kErrorKindCount; ++kind) {
    // Failed handshakes only where there are handshakes (https://): wrk's line otherwise.
    if (kind == static_cast<int>(ErrorKind::tls) && !result.tls.used) continue;
    if (kind > 0) out += ", ";
    out += std::string(kErrorKindNames[kind]) + " " + std::to_string(result.errors[kind]);
  }
  out += "\n";
  // Failed requests (no valid answer) apart from connection events (a failed connect, a
  // reconnect, bytes on an idle connection), which cost no request its answer.
  if (const int64_t failed = result.failed_requests(); failed > 0) {
    // The label is wider than kLabelWidth: pad_right would run it into the figure.
    if (result.unsent_no_connection == 0) {
      out += "Failed requests  " + format_count(failed) + " of " + format_count(result.sent) +
             " sent got no valid answer\n";
    } else {
      // Requests due that no connection could carry failed too: counted against what was due.
      out += "Failed requests  " + format_count(failed) + " of " +
             format_count(result.scheduled) + " due got no valid answer (" +
             format_count(result.failed_sent()) + " of " + format_count(result.sent) +
             " sent, " + format_count(result.unsent_no_connection) +
             " unsent with no connection up)\n";
    }
  }
  if (result.retried > 0 && input.config.http2) {
    out += "Retried          " + format_count(result.retried) +
           " sends again of streams the server refused unprocessed (each request counted "
           "once, by its last try)\n";
  } else if (result.retried > 0) {
    out += "Retried          " + format_count(result.retried) +
           " requests sent again after a polite close (each counted once, by its last "
           "try)\n";
  }
  if (result.connection_events() > 0) {
    out += "Connection events  " +
           format_count(result.error_count(ErrorKind::connect)) + " failed connects, " +
           (result.tls.used ? format_count(result.error_count(ErrorKind::tls)) +
                                  " failed TLS handshakes, "
                            : std::string()) +
           format_count(result.reconnects) + " reconnects, " + format_count(result.unsolicited) +
           " unsolicited responses (not failed requests)\n";
  }

  if (const int64_t non_2xx_3xx = result.non_2xx_3xx(); non_2xx_3xx > 0) {
    out += "Non-2xx or 3xx responses: " + std::to_string(non_2xx_3xx) + "\n";
  }
}

/// Open loop only: how late requests left, and whose fault that was — the server (every
/// connection busy) or hammer itself (a connection idle, or it was not running when they came
/// due: then how long it was not).
void append_dispatch_lag(const ReportInput& input, std::string& out) {
  if (!input.config.open_loop()) return;
  const DispatchLag& lag = input.result.lag;
  // The total is of stalls of 10 ms and more (DispatchLag::absent_ns); a busy host's shorter
  // late wake-ups make slots late too, and have no total of their own here.
  std::string absent;
  if (lag.behind_absent > 0) {
    absent = ", " + std::to_string(lag.behind_absent) + " of them due while it was not running";
    if (lag.absent_ns > 0) {
      absent += " (stalls of 10ms and more: " + format_duration_ns(lag.absent_ns) + " in all)";
    }
  }
  // The precision budget: lateness within it is by design (--dispatch-precision).
  const std::string budget =
      lag.budget_ns >= 0 ? ", budget " + format_duration_ns(lag.budget_ns) : std::string();
  out += pad_right("Dispatch lag", kLabelWidth) + "mean " +
         format_duration_ns(mean_dispatch_lag_ns(lag)) + ", max " +
         format_duration_ns(lag.max_ns) + ", " + plural(lag.behind_schedule, "request") +
         " behind schedule (server " + std::to_string(lag.behind_server) + ", hammer " +
         std::to_string(lag.behind_generator) + absent + ")" + budget + "\n";
}

}  // namespace

std::string render_text_report(const ReportInput& input) {
  std::string out;
  append_header(input, out);
  // Read errors first: a run that did not work, or whose answers are errors, says so before any
  // latency figure (a fast 404 is not a fast server).
  for (const Verdict& verdict : input.verdicts) {
    if (verdict_comes_first(verdict_code(verdict))) out += verdict_sentence(verdict) + "\n";
  }
  append_ramp_text(input, out);
  append_warmup_text(input, out);
  append_latency(input, out);
  append_totals(input, out);
  append_connect_text(input, out);
  append_tls_text(input, out);
  append_http2_text(input, out);
  append_dispatch_lag(input, out);
  append_host_text(input, out);
  append_lines_text(input, out);
  append_timeline_text(input, out);
  for (const Verdict& verdict : input.verdicts) {
    if (!verdict_comes_first(verdict_code(verdict))) out += verdict_sentence(verdict) + "\n";
  }
  for (const std::string& note : report_notes(input)) out += "note: " + note + "\n";
  return out;
}

}  // namespace hammer
