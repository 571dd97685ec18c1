// SPDX-License-Identifier: MIT
#pragma once
// RunResult: what a run measured, as plain data. Each worker fills its own while running
// (no sharing); run/ merges them once at the end by adding counts and histograms — never by
// averaging per-worker figures. report/ renders it.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/host_reading.h"
#include "run/http2_summary.h"
#include "run/timeline.h"
#include "schedule/dispatch_lag.h"
#include "stats/histogram.h"

namespace hammer {

/// tls: a failed TLS handshake (https://), a connection event as a failed connect is: the
/// requests it would have carried wait for the next connection.
enum class ErrorKind : int { connect = 0, read, write, timeout, parse, tls };
inline constexpr int kErrorKindCount = 6;
inline constexpr std::array<std::string_view, kErrorKindCount> kErrorKindNames = {
    "connect", "read", "write", "timeout", "parse", "tls"};

/// How often a stream the server refused unprocessed (REFUSED_STREAM, or above a GOAWAY's
/// last stream id: RFC 9113 8.7) may go again, whatever its method: it was never acted on.
/// Bounded all the same: a server that refuses every stream fails it after 9 tries.
inline constexpr int kMaxUnprocessedResends = 8;

/// What a failed handshake's alert (decided on its number) says the server would not take:
/// the client's certificate or its lack; every protocol ALPN offered (no_application_protocol);
/// any security parameters offered (handshake_failure: what a TLS 1.2 server that requires a
/// client certificate sends when none came, and one with no cipher in common).
enum class TransportRefusal : uint8_t {
  none,
  client_certificate,
  application_protocol,
  security_parameters,
};

/// https:// runs: what the handshakes settled and how they went (report: the `tls` section).
struct TlsSummary {
  bool used = false;       // the run was https://
  bool verified = true;    // certificates were checked (false with -k)
  std::string version;     // of the first handshake that succeeded: "1.3", "1.2"; empty: none
  std::string cipher;      // OpenSSL's name, e.g. "TLS_AES_256_GCM_SHA384"
  std::string alpn;        // the protocol the server chose ("http/1.1"), empty when none
  int64_t full_handshakes = 0;
  int64_t resumed_handshakes = 0;  // abbreviated, on a session of an earlier connection
  std::string first_error;  // the first failed handshake's reason, e.g. "certificate verify
                            // failed: self-signed certificate"
  /// What that failure's alert says the server refused (--http2 offers h2 alone: an
  /// application_protocol refusal is a server without it). Not kept in the document.
  TransportRefusal first_error_refusal = TransportRefusal::none;
  /// Connections the server ended for the client's certificate, or its lack of one (an alert
  /// in the handshake, or under TLS 1.3 with the first read): a server that wants --cert.
  int64_t client_certificate_refused = 0;
};

/// Status classes 1xx..5xx; anything outside 100..599 is a parse error, not a class.
inline constexpr int kStatusClassCount = 5;
inline constexpr std::array<std::string_view, kStatusClassCount> kStatusClassNames = {
    "1xx", "2xx", "3xx", "4xx", "5xx"};
/// The classes by name, in kStatusClassNames' order (status / 100 - 1).
enum class StatusClass : int { informational = 0, success, redirection, client_error, server_error };
/// 2xx and 3xx: what the server meant as an answer; the other classes are reported apart.
constexpr bool is_ok_status_class(StatusClass status_class) {
  return status_class == StatusClass::success || status_class == StatusClass::redirection;
}
/// The class a document names ("2xx"), or nullopt for a name that is none of them.
constexpr std::optional<StatusClass> status_class_named(std::string_view name) {
  for (int index = 0; index < kStatusClassCount; ++index) {
    if (kStatusClassNames[index] == name) return static_cast<StatusClass>(index);
  }
  return std::nullopt;
}
/// status_codes is indexed by the code: 0..599, of which 100..599 are used.
inline constexpr int kStatusCodeLimit = 600;

/// Where the run sits on the wall clock (CLOCK_REALTIME, read only at the start: every interval
/// is still measured on the monotonic clock). What --shard's merge aligns shards by.
struct WallClockStart {
  int64_t origin_unix_ns = 0;   // the schedule's t0 (slot 0's instant): --start-at when given
  int64_t started_unix_ns = 0;  // when this process began its schedule; >= origin
  int64_t late_ns = 0;          // --start-at: how far past it this process started (0 if on time)
  /// How long the connects (TCP, and TLS handshakes) held the start: each may take --timeout,
  /// and a server slow to accept or to handshake delays the whole run by as much.
  int64_t connecting_ns = 0;
};

/// --requests: one line's figures (measured part only). Histograms at 2 significant figures
/// from 1 us (~1% precision; 2,560 slots, 20 KB each, so 40 KB per line per worker).
struct LineStats {
  static constexpr int64_t kLowestDiscernibleNs = 1'000;
  static constexpr int kSignificantFigures = 2;
  LineStats()
      : corrected(kLowestDiscernibleNs, Histogram::kDefaultHighestTrackableValue,
                  kSignificantFigures),
        uncorrected(kLowestDiscernibleNs, Histogram::kDefaultHighestTrackableValue,
                    kSignificantFigures) {}
  int64_t sent = 0;
  int64_t completed = 0;
  std::array<int64_t, kErrorKindCount> errors{};
  std::array<int64_t, kStatusClassCount> status_classes{};
  Histogram corrected;    // open loop only
  Histogram uncorrected;
  /// Adds another worker's (or shard's) figures for the same line.
  void add(const LineStats& other) {
    sent += other.sent;
    completed += other.completed;
    for (int k = 0; k < kErrorKindCount; ++k) errors[k] += other.errors[k];
    for (int k = 0; k < kStatusClassCount; ++k) status_classes[k] += other.status_classes[k];
    corrected.add(other.corrected);
    uncorrected.add(other.uncorrected);
  }
  /// Answers of this line outside 2xx and 3xx (a 404, a 503): answered, so not errors, but
  /// not what a clean line reads as either.
  int64_t non_2xx_3xx() const {
    int64_t count = 0;
    for (int index = 0; index < kStatusClassCount; ++index) {
      if (!is_ok_status_class(static_cast<StatusClass>(index))) count += status_classes[index];
    }
    return count;
  }
  /// Requests of this line that got no valid answer (errors[] never holds connects here).
  int64_t failed_requests() const {
    int64_t total = 0;
    for (int64_t count : errors) total += count;
    return total;
  }
};

/// Lines with figures of their own; the lines after them share one more, aggregated entry
/// (memory: 40 KB per entry per worker, so at most 65 x 40 KB = 2.6 MB per worker).
inline constexpr int64_t kMaxLinesWithOwnStats = 64;
/// The LineStats entry of line `line` (0-based) of a file of `line_count` lines.
inline int64_t line_stats_slot(int64_t line) {
  return line < kMaxLinesWithOwnStats ? line : kMaxLinesWithOwnStats;
}
inline int64_t line_stats_entries(int64_t line_count) {
  return line_count <= kMaxLinesWithOwnStats ? line_count : kMaxLinesWithOwnStats + 1;
}

/// A response this large may not fit the socket's buffer while the worker sleeps: the
/// server would stall on the full window until the next slot, and the response's arrival
/// (its uncorrected latency) with it. A new Linux connection's window starts near 64 KiB
/// (tcp_rmem's 128 KiB, about half of it advertised); this is half that.
inline constexpr int64_t kSleepThroughMaxResponseBytes = 32 * 1024;

/// How the workers slept and timed what they read (issue 27): in open loop they sleep to the
/// next slot through responses, timing each by the kernel's receive stamp.
struct WakeSummary {
  int64_t sleeps = 0;            // waits that could block (a timeout > 0): one wake-up each
  int64_t through_traffic = 0;   // of them, slept through the sockets' traffic (wait_for_time)
  int64_t stamped_reads = 0;     // reads timed by the kernel's receive stamp
  int64_t unstamped_reads = 0;   // reads timed at the wake-up (no stamp, or one not trusted)
  int64_t clock_steps = 0;       // steps of the wall clock seen (ReceiveClock)
  int64_t largest_step_ns = 0;
  bool stamps_refused = false;   // stamps were wanted and the kernel gave none: woke per read
  bool large_responses = false;  // a response of kSleepThroughMaxResponseBytes: woke per read

  void add(const WakeSummary& other);
};

struct RunResult {
  Histogram corrected;    // from intended send time; recorded only in open loop
  Histogram uncorrected;  // from actual send time; recorded in every mode

  int64_t elapsed_ns = 0;  // measured wall time: start to last response or deadline
  int64_t scheduled = 0;   // open loop: intended departures before the deadline
  int64_t sent = 0;        // requests written (fully or partly) to a socket
  int64_t completed = 0;   // responses parsed to the end (any status)
  int64_t unsent = 0;      // open loop: due before the deadline but never sent
  /// Open loop: of the unsent, those due while their worker had no connection up (from the
  /// loss of its last connection, never regained, or from the start if none ever connected,
  /// to the stop). Nothing could carry them: they are failed requests. The rest of the unsent
  /// waited behind busy connections: the backlog a slow server leaves.
  int64_t unsent_no_connection = 0;
  /// Open loop: of the rest of the unsent, those that came due while their worker was absent
  /// (stopped, a frozen host, a pass that ran long: DispatchLag::behind_absent): hammer never
  /// got to them, so they are no backlog of the server's either.
  int64_t unsent_absent = 0;
  /// When the last answer came, from the start of the measured part (0 when none came), how
  /// long the run went on after it (to the stop, or the end of the wait for requests in
  /// flight; 0 when an answer came at the end), and, open loop, how many of the requests due
  /// came due after it: none of those was answered. run/ sets them on a run's merged result;
  /// a server that stopped answering leaves a long tail (run/verdicts.h:
  /// server_stopped_answering).
  int64_t last_answer_ns = 0;
  int64_t unanswered_tail_ns = 0;
  int64_t due_after_last_answer = 0;
  int64_t bytes_read = 0;
  int64_t connects = 0;    // successful TCP connects, reconnects included
  int64_t connects_out_of_ports = 0;  // connect errors that were EADDRNOTAVAIL (no local port
                                      // left); a subset of errors[connect], see connect_errors.h

  // Cold start, over the whole run (warm-up included: that is where cold start happens).
  Histogram connect_time;    // each successful connect: from connect() to writable
  Histogram handshake_time;  // https: each successful TLS handshake, from the TCP connect's end
  TlsSummary tls;            // https only (tls.used)
  Http2Summary http2;        // --http2 only (http2.used)
  Histogram first_requests;  // uncorrected latency of the first request on each new connection

  /// Per-second rows of the whole run, warm-up rows first (run/timeline.h); set on the merged
  /// result of a run (and on each worker's), empty in a hand-built one.
  Timeline timeline;
  /// --warmup: the warm-up's own figures (requests whose send time — intended, in open loop —
  /// fell before the warm-up's end), kept out of every figure above; null without --warmup.
  /// Its elapsed_ns is the warm-up's length; its timeline, connect_time and first_requests are
  /// unused.
  std::shared_ptr<RunResult> warmup;
  /// --ramp: the ramp's own figures (requests sent before the ramp's end), kept out of the
  /// warm-up's and the measured figures as the warm-up is; null without --ramp.
  std::shared_ptr<RunResult> ramp;
  /// --requests: the measured part per line (line_stats_slot()); empty without --requests.
  std::vector<LineStats> lines;

  std::array<int64_t, kErrorKindCount> errors{};       // indexed by ErrorKind
  std::array<int64_t, kStatusClassCount> status_classes{};  // [0] = 1xx ... [4] = 5xx
  /// Every final status code, indexed by the code itself (100..599; the rest stay 0). A fixed
  /// array, so counting one is an increment on the hot path, never an allocation.
  std::array<int64_t, kStatusCodeLimit> status_codes{};
  std::string first_parse_error;  // the first parse error's reason, for a note
  std::string first_socket_error; // e.g. "connect: Connection refused"

  // Connection events: what happened to connections, apart from any request. A failed connect
  // is counted in errors[connect] (wrk's "Socket errors: connect"); these are the others.
  int64_t reconnects = 0;   // connects that replaced a connection lost to a failure, a server's
                            // close of an idle connection or a failed connect (not the
                            // planned reconnect after "Connection: close" or --no-keepalive)
  int64_t unsolicited = 0;  // bytes that arrived on an idle connection (no request outstanding):
                            // the connection is closed and reopened, no request failed
  int64_t early_responses = 0;  // answers that came before their request was fully written (a
                                // server answering on the head); each is a completed request
  // A polite close (a `Connection: close` answer with requests pipelined behind it, or a clean
  // close at a response boundary) left requests unanswered: idempotent ones are sent again on a
  // new connection (retried: the sends again, never failed requests; each request at most
  // Worker::kMaxResends times), the others fail as read errors (not_retried: of those, the
  // ones whose method is not idempotent, which a server may have acted on). --no-retry: none.
  // Over HTTP/2, retried counts the streams the server refused unprocessed (REFUSED_STREAM, or
  // above a GOAWAY's last stream id) sent again: any method, kMaxUnprocessedResends times.
  int64_t retried = 0;
  int64_t not_retried = 0;

  DispatchLag lag;
  /// The hiccup meter's reading of the host over the whole run (run/host_meter.h); set by
  /// run_load on the merged result, not measured (meters 0) in a worker's or a hand-built one.
  HostReading host;
  /// The workers' own CPU over the run; set by run_load on the merged result.
  GeneratorCpu generator_cpu;
  WakeSummary wakes;          // the workers' own, added up
  WallClockStart wall_start;  // set by run_load on the merged result
  bool interrupted = false;     // ended early by SIGINT or SIGTERM
  int64_t in_flight_at_stop = 0;  // requests still unanswered when a signal ended the run:
                                  // neither answered nor timed out, so not failed requests

  int64_t error_count(ErrorKind kind) const { return errors[static_cast<int>(kind)]; }
  /// Failed requests: requests sent or due that got no valid answer. Sent: read, write,
  /// timeout, parse errors. Due (open loop): unsent_no_connection. A failed connect is a
  /// connection event, not a failed request: the request it would have carried waits for the
  /// next connection (it leaves late, its wait in the corrected latency); only when no
  /// connection came back before the stop is it a failed request, unsent with no connection.
  int64_t failed_sent() const {
    return error_count(ErrorKind::read) + error_count(ErrorKind::write) +
           error_count(ErrorKind::timeout) + error_count(ErrorKind::parse);
  }
  int64_t failed_requests() const { return failed_sent() + unsent_no_connection; }
  /// Connection events: failed connects and handshakes, reconnects and unsolicited responses.
  int64_t connection_events() const {
    return error_count(ErrorKind::connect) + error_count(ErrorKind::tls) + reconnects +
           unsolicited;
  }
  /// Responses whose status was not 2xx or 3xx (wrk's "Non-2xx or 3xx responses").
  int64_t non_2xx_3xx() const {
    int64_t count = 0;
    for (int index = 0; index < kStatusClassCount; ++index) {
      if (!is_ok_status_class(static_cast<StatusClass>(index))) count += status_classes[index];
    }
    return count;
  }

  /// Adds another part of the same run (a worker's, a shard's): counts and histograms are
  /// summed, never averaged; maxima and "first" reasons are kept. Every field is handled in
  /// this one place (run/result.cc), so a new field is added there too.
  void add(const RunResult& part);
};

}  // namespace hammer
