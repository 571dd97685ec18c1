// SPDX-License-Identifier: MIT
// The JSON report, written top to bottom with JsonWriter in the order docs/json.md lists the
// members. Every latency is integer nanoseconds; each histogram also travels whole as
// HdrHistogram's compressed V2 base64 ("HISTF..."), so HdrHistogram tools in any language can
// read it and merge runs without hammer. A figure that does not exist is null, never 0: a
// closed-loop run has no corrected latency, and an empty histogram has no percentiles.
#include "report/json_report.h"

#include <cmath>

#include "core/shard_share.h"
#include "report/fleet_report.h"
#include "report/format.h"
#include "report/host_report.h"
#include "report/http2_report.h"
#include "report/json_writer.h"
#include "report/lines_report.h"
#include "report/slo_report.h"
#include "report/timeline_report.h"
#include "report/tls_report.h"
#include "report/verdict_text.h"
#include "stats/histogram_v2.h"

#ifndef HAMMER_VERSION
#define HAMMER_VERSION "unknown"
#endif

namespace hammer {
namespace {

void write_requests(const ReportInput& input, JsonWriter& json) {
  const RunResult& result = input.result;
  json.key("requests").begin_object();
  json.member_or_null("scheduled", input.config.open_loop(), result.scheduled);
  json.member("sent", result.sent);
  json.member("completed", result.completed);
  json.member("unsent", result.unsent);
  json.member("unsent_no_connection", result.unsent_no_connection);
  json.member("unsent_absent", result.unsent_absent);
  json.member("last_answer_ns", result.last_answer_ns);
  json.member("unanswered_tail_ns", result.unanswered_tail_ns);
  json.member_or_null("due_after_last_answer", input.config.open_loop(),
                      result.due_after_last_answer);
  json.member("failed", result.failed_requests());
  json.member("in_flight_at_stop", result.in_flight_at_stop);
  json.member("retried", result.retried);
  json.member("not_retried", result.not_retried);
  json.member("bytes_read", result.bytes_read);
  json.member("per_second", requests_per_second(result));
  json.end_object();
}

/// A figure of a histogram, or null when it holds no values (its min, mean... do not exist).
template <class Figure>
void histogram_figure(JsonWriter& json, std::string_view name, const Histogram& histogram,
                      Figure figure) {
  json.key(name);
  if (histogram.total_count() == 0) {
    json.null();
  } else {
    json.value(static_cast<int64_t>(figure()));
  }
}


void write_latency(const ReportInput& input, JsonWriter& json) {
  json.key("latency").begin_object();
  json.key("corrected");
  if (input.config.open_loop()) {
    write_histogram(input.config, input.result.error_count(ErrorKind::timeout),
                    input.result.corrected, json);
  } else {
    json.null();
  }
  json.key("uncorrected");
  write_histogram(input.config, input.result.error_count(ErrorKind::timeout),
                  input.result.uncorrected, json);
  json.end_object();
}

}  // namespace

void write_histogram(const Config& config, int64_t timed_out, const Histogram& histogram,
                     JsonWriter& json) {
  const CensoredTail tail = tail_of(config, timed_out, histogram);
  const bool any = histogram.total_count() > 0;
  json.begin_object();
  json.member("count", histogram.total_count());
  histogram_figure(json, "min_ns", histogram, [&] { return histogram.min(); });
  // Percentiles and max of every request that ended, the timed out counted as slowest; a
  // censored one is the timeout, named in "censored" (stats/censored_tail.h).
  const TailFigure max = tail.max(histogram);
  histogram_figure(json, "max_ns", histogram, [&] { return max.value_ns; });
  // With timeouts the mean is a bound (stats/censored_tail.h) and the stdev unknown (null).
  const TailFigure mean = tail.mean(histogram);
  histogram_figure(json, "mean_ns", histogram, [&] { return mean.value_ns; });
  if (mean.censored) {
    json.null_member("stdev_ns");
  } else {
    histogram_figure(json, "stdev_ns", histogram, [&] { return std::llround(histogram.stdev()); });
  }
  // Kept whole while `figures` names its labels (string_views into these points).
  const std::vector<PercentilePoint> points = json_percentiles(config);
  std::vector<NamedTailFigure> figures;
  json.key("percentiles_ns").begin_object();
  for (const PercentilePoint& point : points) {
    const TailFigure figure = tail.at(histogram, point.q);
    figures.push_back({point.label, figure});
    histogram_figure(json, point.label, histogram, [&] { return figure.value_ns; });
  }
  json.end_object();
  figures.push_back({"max", max});
  figures.push_back({"mean", mean});
  figures.push_back({"stdev", mean});  // unknown exactly when the mean is a bound
  json.member("timed_out", tail.timed_out);
  write_censored_names(json, any, figures);
  json.member("out_of_range", histogram.out_of_range_count());
  json.member("hdr", encode_v2_base64(histogram));
  json.end_object();
}

void write_censored_names(JsonWriter& json, bool any, const std::vector<NamedTailFigure>& figures) {
  json.key("censored").begin_array();
  for (const NamedTailFigure& named : figures) {
    if (any && named.figure.censored) json.value(named.name);
  }
  json.end_array();
}

void write_short_latency(const CensoredTail& tail, const Histogram& histogram, JsonWriter& json) {
  json.begin_object();
  json.member("count", histogram.total_count());
  const bool any = histogram.total_count() > 0;
  const TailFigure p50 = tail.at(histogram, 50);
  const TailFigure p99 = tail.at(histogram, 99);
  const TailFigure max = tail.max(histogram);
  json.member_or_null("p50_ns", any, p50.value_ns);
  json.member_or_null("p99_ns", any, p99.value_ns);
  json.member_or_null("max_ns", any, max.value_ns);
  write_censored_names(json, any, {{"50", p50}, {"99", p99}, {"max", max}});
  json.member("hdr", encode_v2_base64(histogram));
  json.end_object();
}

void write_status_json(const RunResult& result, JsonWriter& json) {
  write_named_counts("status", kStatusClassNames, result.status_classes, json);
  // Every code seen, ascending, as {"200": 19800, "404": 200}; codes never seen are absent.
  json.key("status_codes").begin_object();
  for (int code = 0; code < kStatusCodeLimit; ++code) {
    if (result.status_codes[code] > 0) json.member(std::to_string(code), result.status_codes[code]);
  }
  json.end_object();
}

namespace {

void write_errors_and_status(const RunResult& result, JsonWriter& json) {
  write_named_counts("errors", kErrorKindNames, result.errors, json);
  write_status_json(result, json);
  json.key("connection_events").begin_object();
  json.member("connect_failures", result.error_count(ErrorKind::connect));
  json.member("reconnects", result.reconnects);
  json.member("unsolicited_responses", result.unsolicited);
  json.member("early_responses", result.early_responses);
  json.end_object();
}

void write_dispatch_lag(const ReportInput& input, JsonWriter& json) {
  json.key("dispatch_lag");
  if (!input.config.open_loop()) {
    json.null();
    return;
  }
  const DispatchLag& lag = input.result.lag;
  json.begin_object();
  json.member("dispatched", lag.dispatched);
  json.member("mean_ns", mean_dispatch_lag_ns(lag));
  json.member("sum_ns", lag.sum_ns);
  const bool sampled = lag.histogram.total_count() > 0;
  json.member_or_null("p50_ns", sampled, lag.histogram.value_at_percentile(50));
  json.member_or_null("p99_ns", sampled, lag.histogram.value_at_percentile(99));
  json.member("max_ns", lag.max_ns);
  json.member("behind_schedule", lag.behind_schedule);
  json.member("threshold_ns", lag.threshold_ns);
  json.member_or_null("budget_ns", lag.budget_ns >= 0, lag.budget_ns);
  json.member("peak_backlog", lag.peak_backlog);
  json.key("cause").begin_object();
  json.member("server", lag.behind_server);
  json.member("generator", lag.behind_generator);
  json.end_object();
  json.member("generator_max_ns", lag.generator_max_ns);
  json.member("generator_absent", lag.behind_absent);
  json.member("absent_ns", lag.absent_ns);
  // What `hammer merge` needs to judge the merged run as it judges one run: the lags of
  // requests that found a connection idle (the timer-floor reading) and every lag sample, so
  // the fleet's p50/p99 come from the samples, not from averaging the shards' percentiles.
  json.member("idle_dispatched", lag.idle_dispatched);
  json.member("idle_sum_ns", lag.idle_sum_ns);
  json.member("timer_granularity_ns", lag.timer_granularity_ns);
  json.member("hdr", encode_v2_base64(lag.histogram));
  json.member("generator_late_hdr", encode_v2_base64(lag.generator_late_latency));
  json.member("generator_late_unlagged_hdr", encode_v2_base64(lag.generator_late_unlagged));
  json.end_object();
}

void write_verdicts(const std::vector<Verdict>& verdicts, JsonWriter& json) {
  json.key("verdicts").begin_array();
  for (const Verdict& verdict : verdicts) write_verdict_json(verdict, json);
  json.end_array();
}

// --shard's share and where the run sits on the wall clock; a merged document (input.fleet)
// has no shard of its own and lists its shards in "fleet" instead.
void write_shard_and_start(const ReportInput& input, JsonWriter& json) {
  const Config& config = input.config;
  json.object_or_null("shard", config.shard.given && input.fleet == nullptr, [&] {
    json.member("index", config.shard.index);
    json.member("count", config.shard.count);
    json.member("connections", shard_connections(config));
    json.member_or_null("rate", config.open_loop(), shard_rate(config));
  });
  const WallClockStart& wall = input.result.wall_start;
  json.key("start").begin_object();
  json.member("origin_unix_ns", wall.origin_unix_ns);
  json.member("origin", format_wall_time(wall.origin_unix_ns));
  json.member("started_unix_ns", wall.started_unix_ns);
  json.member("late_ns", wall.late_ns);
  json.member("connecting_ns", wall.connecting_ns);
  json.member("start_at", config.start_at.given());
  json.member("tolerance_ns", config.start_at.tolerance_ns);
  json.end_object();
}

}  // namespace

void write_document_header(const Config& config, JsonWriter& json) {
  json.key("hammer").begin_object();
  json.member("version", HAMMER_VERSION);
  json.member("schema", kJsonSchemaVersion);
  json.end_object();
  json.key("config").begin_object();
  json.member("url", config.url);
  json.member("connections", config.connections);
  json.member("threads", config.threads);
  // Why that many: -t, or the default min(4, connections, CPUs available) and which bound held.
  json.member("threads_from", config.threads_given            ? "flag"
                              : config.threads_held_to_cpus() ? "cpus"
                                                              : "default");
  if (config.cpus_available > 0) json.member("cpus_available", config.cpus_available);
  json.member("duration_s", static_cast<double>(config.duration_ns) / 1e9);
  // -n: the measured requests asked for (duration_s is then their span at --rate, or in
  // closed loop the 24h bound); null when the run was for -d.
  json.member_or_null("requests_count", config.requests_count > 0, config.requests_count);
  json.member("warmup_s", static_cast<double>(config.warmup_ns) / 1e9);
  json.member("ramp_s", static_cast<double>(config.ramp_ns) / 1e9);
  json.member("pipeline", config.pipeline);
  json.member("retry", config.retry);
  json.member_or_null("requests", !config.requests_path.empty(), config.requests_path);
  // --data FILE.csv and the order its rows are taken in; both null without --data.
  const bool has_data = !config.data_path.empty();
  json.member_or_null("data", has_data, config.data_path);
  json.member_or_null("data_order", has_data,
                      config.data_order == DataOrder::random ? "random" : "sequential");
  // The TLS flags of an https:// run (the `tls` object at the top says what the handshakes
  // settled); null for http://.
  json.object_or_null("tls", config.target.scheme == Scheme::https, [&] {
    const TlsConfig& tls = config.tls;
    json.member("insecure", tls.insecure);
    json.member_or_null("cacert", !tls.ca_file.empty(), tls.ca_file);
    json.member_or_null("cert", !tls.cert_file.empty(), tls.cert_file);
    json.member_or_null("key", !tls.key_file.empty(), tls.key_file);
    json.member("min", tls_version_text(tls.min_version));
    json.member("max", tls_version_text(tls.max_version));
    json.member("resume", tls.resume);
  });
  json.member_or_null("rate", config.open_loop(), config.rate);
  json.member("mode", config.open_loop() ? "open" : "closed");
  json.member("arrival", arrival_name(config.arrival.kind));
  json.member("seed", config.arrival.seed);
  json.member("stopwatch", config.corrected_stopwatch_leads() ? "corrected" : "uncorrected");
  json.member("timeout_ms", static_cast<double>(config.timeout_ns) / 1e6);
  json.member("method", config.method);
  json.member("engine", std::string(engine_name(config.engine)));
  json.member("precise_dispatch", config.precise_dispatch);
  json.member_or_null("dispatch_precision_ns", config.open_loop(), config.dispatch_budget_ns());
  // What the text report printed (--latency, --timeline), so `hammer report` prints it again.
  json.member("print_latency", config.print_latency);
  json.member("print_timeline", config.print_timeline);
  json.key("percentiles").begin_array();
  for (double q : config.percentiles) json.value(q);
  json.end_array();
  json.end_object();
}

std::string render_json_report(const ReportInput& input) {
  JsonWriter json(2);
  json.begin_object();
  write_document_header(input.config, json);
  write_shard_and_start(input, json);
  if (input.fleet != nullptr) write_fleet_json(*input.fleet, json);
  json.member("elapsed_ns", input.result.elapsed_ns);
  write_requests(input, json);
  json.key("connections").begin_object();
  json.member("opened", input.result.connects);
  json.end_object();
  write_latency(input, json);
  write_errors_and_status(input.result, json);
  write_dispatch_lag(input, json);
  write_host_json(input, json);  // "host", "generator_cpu"
  write_wakes_json(input, json);
  write_ramp_json(input, json);
  write_warmup_json(input, json);
  write_timeline_json(input, json);
  json.key("connect");
  write_histogram(input.config, 0, input.result.connect_time, json);
  json.key("first_requests");
  write_histogram(input.config, 0, input.result.first_requests, json);
  write_tls_json(input, json);
  write_http2_json(input, json);
  write_lines_json(input, json);
  write_verdicts(input.verdicts, json);
  if (input.slo) write_slo_json(*input.slo, json);  // "slo" and "slo_passed", with --slo only
  json.key("notes").begin_array();
  for (const std::string& note : report_notes(input)) json.value(note);
  json.end_array();
  json.member("interrupted", input.result.interrupted);
  json.end_object();
  return json.str() + "\n";
}

}  // namespace hammer
