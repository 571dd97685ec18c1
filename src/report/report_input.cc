// SPDX-License-Identifier: MIT
// The readings text_report.cc and json_report.cc share. Throughput divides totals by the
// measured wall time: a mean of per-second samples would weight a slow second the same as a
// fast one and hide stalls (design.md §8, "averages of averages").
#include "report/report_input.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/percentiles.h"
#include "http2/request_block.h"

#include "report/fleet_report.h"
#include "report/format.h"
#include "report/resend_notes.h"
#include "report/timeline_report.h"
#include "run/connect_errors.h"
#include "time/time_units.h"

namespace hammer {
namespace {

std::string clamp_note(const Histogram& histogram, std::string_view which) {
  const int64_t count = histogram.out_of_range_count();
  return std::to_string(count) + " " + std::string(which) + " latenc" +
         (count == 1 ? "y" : "ies") + " exceeded " +
         format_duration_ns(histogram.highest_trackable_value()) +
         " (the histogram's limit) and " + (count == 1 ? "was" : "were") + " clamped to it";
}

}  // namespace

std::vector<PercentilePoint> text_percentiles(const Config& config, bool full) {
  std::vector<PercentilePoint> points;
  if (!config.percentiles.empty()) {
    for (double q : config.percentiles) points.push_back({q, percentile_label(q)});
    return points;
  }
  for (double q : default_percentiles()) {
    if (full || q <= 99.0) points.push_back({q, percentile_label(q)});
  }
  return points;
}

std::vector<PercentilePoint> json_percentiles(const Config& config) {
  std::vector<PercentilePoint> points;
  for (double q : default_percentiles()) points.push_back({q, percentile_label(q)});
  for (double q : config.percentiles) {
    const std::string label = percentile_label(q);
    const bool known = std::any_of(points.begin(), points.end(),
                                   [&](const PercentilePoint& point) { return point.label == label; });
    if (!known) points.push_back({q, label});
  }
  std::sort(points.begin(), points.end(),
            [](const PercentilePoint& a, const PercentilePoint& b) { return a.q < b.q; });
  return points;
}

const Histogram& lead_histogram(const ReportInput& input) {
  return input.config.corrected_stopwatch_leads() ? input.result.corrected
                                                  : input.result.uncorrected;
}

CensoredTail tail_of(const Config& config, const RunResult& result, const Histogram& histogram) {
  return tail_of(config, result.error_count(ErrorKind::timeout), histogram);
}

CensoredTail tail_of(const Config& config, int64_t timed_out, const Histogram& histogram) {
  return censored_tail(histogram, timed_out, config.timeout_ns);
}

std::string tail_figure_text(const TailFigure& figure) {
  return (figure.censored ? "> " : "") + format_duration_ns(figure.value_ns);
}

double requests_per_second(const RunResult& result) {
  return per_second(result.completed, result.elapsed_ns);
}

double bytes_per_second(const RunResult& result) {
  return per_second(result.bytes_read, result.elapsed_ns);
}

int64_t mean_dispatch_lag_ns(const DispatchLag& lag) {
  if (lag.dispatched <= 0) return 0;
  return std::llround(static_cast<double>(lag.sum_ns) / static_cast<double>(lag.dispatched));
}

std::string engine_fallback_note(const EngineFallback& fallback) {
  if (!fallback.happened) return "";
  if (fallback.linux_only) {
    return std::string(engine_name(fallback.wanted)) +
           " exists only in Linux builds of hammer; the run used " +
           std::string(engine_name(fallback.used));
  }
  const std::string reason = fallback.not_built ? std::string("this hammer was built without liburing")
                                                : std::string(std::strerror(fallback.error_number));
  return "io_uring is unavailable here (" + reason + "); the run used " +
         std::string(engine_name(fallback.used));
}

std::string threads_above_cpus_note(const Config& config) {
  const int64_t cpus = config.cpus_available;
  // Closed loop has no schedule to be late for: a held-up thread is time the requests wait
  // for, in their latency and the rate.
  const std::string cost = config.open_loop()
                               ? "a send held up by that counts as hammer's own dispatch lag"
                               : "a thread held up by that slows the request rate as much as "
                                 "the server does";
  return "-t " + std::to_string(config.threads) + " runs more threads than the " +
         std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs") +
         " available to hammer: they take turns, and " + cost;
}

namespace {

// --http2 leaves the connection-specific -H fields out of every header block (RFC 9113
// §8.2.2 makes a request carrying them malformed): said, so that "-H 'Connection: close'"
// is not believed to have closed anything. Empty when none was given.
std::string http2_unsent_fields_note(const Config& config) {
  std::vector<std::string> headers = config.headers;
  for (const RequestLine& line : config.requests) {
    headers.insert(headers.end(), line.headers.begin(), line.headers.end());
  }
  const std::vector<std::string> names = http2::connection_specific_names(headers);
  if (names.empty()) return "";
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return "not sent over HTTP/2: " + list + (names.size() == 1 ? " is" : " are") +
         " connection-specific, which HTTP/2 forbids in a request (RFC 9113 8.2.2); a stream "
         "ends on its own and the connection stays open";
}

// Where an http:// run that got no byte back, or only 400s, should look: the same host, port
// and path over TLS. The port stays as given: a TLS port reached by mistake is that port.
// `what`: what the run saw, e.g. "every answer was 400 Bad Request".
std::string tls_port_note(const Config& config, const std::string& what) {
  const Target& target = config.target;
  const bool v6 = target.host.find(':') != std::string::npos;
  const std::string host = v6 ? "[" + target.host + "]" : target.host;
  const std::string authority = host + ":" + std::to_string(target.port);
  return what + ": if " + authority + " serves TLS, the URL is https://" + authority +
         target.path;
}

// What a server that refused the client's certificate (or its lack of one) wants.
std::string client_certificate_note(const ReportInput& input) {
  const int64_t count = input.result.tls.client_certificate_refused;
  const std::string connections =
      format_count(count) + (count == 1 ? " connection" : " connections");
  const std::string& cert = input.config.tls.cert_file;
  if (cert.empty()) {
    return "the server ended " + connections +
           " for want of a client certificate: it asks for one (mTLS); give --cert FILE --key "
           "FILE";
  }
  return "the server refused the client certificate on " + connections + ": is " + cert +
         " one that its CA signed, valid now?";
}

// Where the stop came. Before the measured part began (the ramp, the warm-up, the connects)
// its elapsed time is 0, which says nothing: the phase the stop fell in is said instead.
std::string interrupted_note(const Config& config, const RunResult& result) {
  const bool measured_nothing = result.sent == 0 && result.completed == 0;
  if (!measured_nothing) {
    return "interrupted after " + format_duration_ns(result.elapsed_ns) +
           "; figures cover the measured part";
  }
  const auto during = [](std::string_view phase, int64_t ran_ns, std::string_view flag,
                         int64_t planned_ns) {
    return "interrupted during the " + std::string(phase) + ", " + format_duration_ns(ran_ns) +
           " into " + std::string(flag) + " " + format_duration_ns(planned_ns) +
           ": the measured part never began";
  };
  if (result.ramp && result.ramp->elapsed_ns < config.ramp_ns) {
    return during("ramp", result.ramp->elapsed_ns, "--ramp", config.ramp_ns);
  }
  if (result.warmup) {
    return during("warm-up", result.warmup->elapsed_ns, "--warmup", config.warmup_ns);
  }
  return "interrupted before the first request: the measured part never began";
}

}  // namespace

std::vector<std::string> report_notes(const ReportInput& input) {
  if (input.saved_notes != nullptr) return *input.saved_notes;
  const RunResult& result = input.result;
  std::vector<std::string> notes;
  if (input.config.engine_fallback.happened) {
    notes.push_back(engine_fallback_note(input.config.engine_fallback));
  }
  if (input.config.threads_above_cpus()) notes.push_back(threads_above_cpus_note(input.config));
  if (input.config.open_loop() && result.wakes.stamps_refused) {
    notes.push_back(
        "the kernel gave no receive timestamps: every response woke hammer, and its uncorrected "
        "latency ends at that wake-up (as before), not at its arrival");
  }
  if (input.config.open_loop() && result.wakes.large_responses) {
    notes.push_back(
        "responses of " + std::to_string(kSleepThroughMaxResponseBytes / 1024) +
        " KiB or more: hammer woke for each response from the first of them on, rather than "
        "let the server wait on a full socket buffer until its next slot");
  }
  if (result.wakes.clock_steps > 0) {
    notes.push_back("the wall clock stepped " + std::to_string(result.wakes.clock_steps) +
                    (result.wakes.clock_steps == 1 ? " time" : " times") + " (by up to " +
                    format_duration_ns(result.wakes.largest_step_ns) +
                    "): responses read across a step were timed at hammer's wake-up, none by "
                    "the stepped clock");
  }
  if (input.config.http2) {
    if (std::string note = http2_unsent_fields_note(input.config); !note.empty()) {
      notes.push_back(std::move(note));
    }
  }
  if (connects_held_the_start(result.wall_start)) {
    notes.push_back("the connects held the start for " +
                    format_duration_ns(result.wall_start.connecting_ns) +
                    " (each connect, and each TLS handshake, may take --timeout " +
                    format_duration_ns(input.config.timeout_ns) +
                    "): the figures begin after them");
  }
  if (result.interrupted && input.fleet != nullptr) {
    // A merged run was not interrupted as a whole: some of its shards were, each at its own
    // time, and the fleet's figures add what each measured before it stopped.
    std::string which;
    for (const ShardSummary& shard : input.fleet->shards) {
      if (!shard.interrupted) continue;
      which += (which.empty() ? "" : ", ") + std::string("shard ") + std::to_string(shard.index) +
               "/" + std::to_string(shard.count) + " (" + shard.source + ") after " +
               format_duration_ns(shard.elapsed_ns);
    }
    std::string note = "interrupted: " + which +
                       "; the fleet's figures add what each shard measured before it stopped";
    if (result.in_flight_at_stop > 0) {
      note += "; " + format_count(result.in_flight_at_stop) +
              " requests still in flight were cut off (neither answered nor timed out)";
    }
    notes.push_back(std::move(note));
  } else if (result.interrupted) {
    std::string note = interrupted_note(input.config, result);
    if (result.in_flight_at_stop > 0) {
      note += "; " + format_count(result.in_flight_at_stop) +
              " requests still in flight were cut off (neither answered nor timed out)";
    }
    notes.push_back(std::move(note));
  }
  if (timeout_may_mean_seconds(input.config, result)) {
    // wrk reads `--timeout 2` as 2 s; hammer, as 2 ms (design.md: --timeout MS).
    const std::string count = std::to_string(input.config.timeout_ns / 1'000'000);
    notes.push_back("--timeout " + count + " was read as " + count +
                    " ms (a bare number is milliseconds; wrk reads seconds): for " + count +
                    " seconds write --timeout " + count + "s");
  }
  if (closed_without_a_byte(input.config, result)) {
    notes.push_back(
        tls_port_note(input.config, "no connection got a byte back before the server closed it"));
  } else if (answered_only_400(input.config, result)) {
    notes.push_back(tls_port_note(input.config, "every answer was 400 Bad Request"));
  }
  if (client_certificate_refused(result)) notes.push_back(client_certificate_note(input));
  // HTTP/1.1 over TLS to a server that took no protocol ALPN offered (http/1.1) and answered
  // nothing: nghttpd and other h2-only servers close on an HTTP/1.1 request.
  if (!input.config.http2 && result.tls.used && result.tls.alpn.empty() &&
      result.tls.full_handshakes + result.tls.resumed_handshakes > 0 && result.completed == 0 &&
      result.failed_requests() > 0) {
    notes.push_back("the server chose no protocol by ALPN (hammer offered http/1.1) and "
                    "answered no request: if it speaks only HTTP/2, give --http2");
  }
  if (input.config.open_loop() && result.corrected.out_of_range_count() > 0) {
    notes.push_back(clamp_note(result.corrected, "corrected"));
  }
  if (result.uncorrected.out_of_range_count() > 0) {
    notes.push_back(clamp_note(result.uncorrected, "uncorrected"));
  }
  if (result.connects_out_of_ports > 0) {
    notes.push_back(ports_ran_out_note(result.connects_out_of_ports));
  }
  if (!result.first_socket_error.empty()) {
    notes.push_back("first socket error: " + result.first_socket_error);
  }
  if (!result.first_parse_error.empty()) {
    notes.push_back("first parse error: " + result.first_parse_error);
  }
  for (std::string& note : resend_notes(input.config, result)) notes.push_back(std::move(note));
  for (std::string& note : timeline_notes(input)) notes.push_back(std::move(note));
  for (std::string& note : start_notes(input)) notes.push_back(std::move(note));
  notes.insert(notes.end(), input.notes.begin(), input.notes.end());
  return notes;
}

}  // namespace hammer
