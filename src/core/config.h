// SPDX-License-Identifier: MIT
#pragma once
// Config: everything a run needs, as plain data. cli/options builds it from argv (and checks
// every value); run/ and report/ only read it. Times are int64_t nanoseconds throughout.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/arrival.h"
#include "core/data_order.h"
#include "core/shared_text.h"

namespace hammer {

/// Inclusive bounds of Config's connections and threads: parse_options checks them, usage_text()
/// quotes them, and the verdicts never suggest a figure beyond them.
inline constexpr int64_t kMaxConnections = 1'000'000;
inline constexpr int64_t kMaxThreads = 1'024;

/// --dispatch-precision's default and bound. The default, 50 us: at 50k req/s on one worker the
/// slots are 20 us apart, less than a wake-up costs on a VM (15-25 us of CPU,
/// docs/performance.md), and waking for each saturated the core; slower schedules (slots
/// further apart than this plus the spin lead, up to ~12k req/s per worker) never meet it. The
/// bound: beyond 100 ms a budget no longer describes a schedule.
inline constexpr int64_t kDefaultDispatchPrecisionNs = 50'000;
inline constexpr int64_t kMaxDispatchPrecisionNs = 100'000'000;

/// The URL's scheme: https:// runs HTTP/1.1 over TLS (src/tls/), on port 443 by default.
enum class Scheme : uint8_t { http, https };

struct Target {
  Scheme scheme = Scheme::http;
  std::string host;         // as written in the URL: "127.0.0.1", "localhost", "::1"
  std::string port_text;    // "8080"
  int port = 80;            // the scheme's default (80, 443) when the URL names none
  std::string path = "/";   // path and query, always starts with '/'
  std::string host_header;  // value for the Host header: host[:port], [v6] bracketed
};

/// --shard I/N: this process runs shard `index` (1-based) of a fleet of `count` processes that
/// share one global schedule (schedule/slot_partition.h). --rate and -c stay the fleet's.
struct ShardSpec {
  int64_t index = 1;
  int64_t count = 1;
  bool given = false;  // --shard was on the command line (even 1/1)
};

/// --start-at TIME: the wall-clock instant at which the schedule starts (every shard of a
/// fleet is given the same one), and how late a shard may still start.
struct StartAt {
  int64_t unix_ns = 0;       // nanoseconds since the Unix epoch (the epoch itself included)
  int64_t tolerance_ns = 0;  // --start-tolerance: how far past unix_ns a start is still allowed
  bool set = false;          // --start-at was given; without it: start when connected
  bool given() const { return set; }
};

/// What an --slo limit judges: a latency figure (pNN, max) or the error rate.
enum class SloKind : uint8_t { latency, error_rate };

/// The key that names the error rate ("errors=1%"); every other key is a latency figure.
inline constexpr std::string_view kErrorRateSloKey = "errors";

/// The kind a key names: the one place the key's text is read (the parser, saved documents
/// and every decision ask this, or SloLimit::kind()).
constexpr SloKind slo_kind_of(std::string_view key) {
  return key == kErrorRateSloKey ? SloKind::error_rate : SloKind::latency;
}

/// One --slo limit, e.g. "p99=50ms" or "errors=1%" (parsed in cli/slo_flag, evaluated in
/// sweep/slo against a run).
struct SloLimit {
  std::string key;         // "p50", "p95", "p99.99" (any pNN[.N]), "max" or "errors", as typed
  double percentile = 0;   // 50, 95, 99.99...; 100 for max; 0 for errors
  int64_t limit_ns = 0;    // latency keys: the run meets it when the figure is <= this
  double error_rate = 0;   // errors: a fraction (0.01 for "1%"); met when the rate is <= this
  std::string limit_text;  // the limit as typed: "50ms", "1%"
  SloKind kind() const { return slo_kind_of(key); }
  bool is_error_rate() const { return kind() == SloKind::error_rate; }
};

/// A sweep: one full run per level (src/sweep/). Set by a list for -c or --rate, or by a rate
/// range without a step, which searches for the capacity under the --slo limits.
struct SweepPlan {
  std::vector<int64_t> connections;  // -c 1,2,5: one step per count, rising
  std::vector<double> rates;         // --rate 1k,2k or 1k:20k:1k: one step per rate, rising
  double search_low = 0;             // --rate LO:HI (with --slo): capacity search in [LO, HI]
  double search_high = 0;
  std::string control_url;           // --control URL: the same levels against a no-work route
  Target control_target;
  bool search() const { return search_high > 0; }
  bool active() const { return !connections.empty() || !rates.empty() || search(); }
};

/// One request of a --requests file (http/request_file), as checked at start-up: -m, -H and
/// --body already applied as defaults. run/ serializes each once, before the run.
struct RequestLine {
  int64_t line_number = 0;  // 1-based line of the file, for messages
  std::string name;         // the line's "name", else its path: the report's label
  std::string method;
  std::string path;                  // starts with '/'
  std::vector<std::string> headers;  // "Name: value": the -H defaults the line does not
                                     // replace, then the line's own
  std::string body;
};

/// The I/O engine (--engine, HAMMER_ENGINE): automatic picks io_uring where it works, else
/// epoll; net/io_engine.h resolves it once per process.
enum class EngineKind : uint8_t { automatic, io_uring, epoll, poll };

/// The engine's name as --engine spells it: "io_uring", "epoll", "poll" ("automatic" only for
/// a config nobody resolved, or a merge of shards that ran different engines).
constexpr std::string_view engine_name(EngineKind kind) {
  switch (kind) {
    case EngineKind::io_uring:
      return "io_uring";
    case EngineKind::epoll:
      return "epoll";
    case EngineKind::poll:
      return "poll";
    case EngineKind::automatic:
      break;
  }
  return "automatic";
}

/// Why the engine asked for (or io_uring, the automatic choice on Linux) was not used: the run
/// used `used` instead, and the report says so in one note.
struct EngineFallback {
  bool happened = false;
  int error_number = 0;    // from io_uring_setup or the probe (EPERM: disabled or filtered)
  bool not_built = false;  // this hammer was built without liburing
  // io_uring and epoll exist only in Linux builds; macOS, Windows and HAMMER_PORTABLE builds
  // have poll alone (src/platform/platform.h, HAMMER_LINUX_APIS).
  bool linux_only = false;
  EngineKind wanted = EngineKind::io_uring;
  EngineKind used = EngineKind::epoll;
};

/// A file format of -o/--output, chosen by the file's extension (report/output_formats.h holds
/// the table of extensions; report/output_files.h the writers).
enum class OutputFormat { json, html, hgrm, csv, hlog };

/// One -o FILE: where, and in which format.
struct OutputFile {
  std::string path;  // as typed
  OutputFormat format = OutputFormat::json;
};

/// A TLS protocol version, as --tls-min and --tls-max name it.
enum class TlsVersion : uint8_t { tls1_2, tls1_3 };

/// The version as --tls-min and --tls-max spell it: "1.2", "1.3".
constexpr std::string_view tls_version_text(TlsVersion version) {
  return version == TlsVersion::tls1_3 ? "1.3" : "1.2";
}

/// How https:// connections are made (src/tls/tls_context.h builds one SSL_CTX from it).
struct TlsConfig {
  bool insecure = false;    // -k: no certificate or host-name check (the report says so)
  std::string ca_file;      // --cacert: trust this PEM bundle instead of the system's store
  std::string cert_file;    // --cert, --key: a client certificate and its key (mTLS); both or
  std::string key_file;     // neither
  TlsVersion min_version = TlsVersion::tls1_2;  // --tls-min; min_version <= max_version
  TlsVersion max_version = TlsVersion::tls1_3;  // --tls-max
  bool resume = true;       // --tls-resume off: every connection makes a full handshake
};

struct Config {
  std::string url;  // as the user typed it
  Target target;

  int64_t connections = 50;
  int64_t threads = 0;  // 0 until options resolve the default min(4, connections, CPUs)
  bool threads_given = false;  // -t was given; else threads is that default
  int64_t cpus_available = 0;  // CPUs this process may run on, when options ran; 0 unknown
  int64_t duration_ns = 10'000'000'000;
  // -n, --requests-count: the measured part is this many requests instead of -d (0: none).
  // Open loop, options set duration_ns to the N slots' span at --rate; closed loop, each
  // worker stops issuing at its share (schedule/slot_partition.h, requests_share) and
  // duration_ns is only the bound (24h). The fleet's total with --shard; warm-up and ramp
  // requests are not counted.
  int64_t requests_count = 0;
  double rate = 0;            // requests/s over all connections; 0 = closed loop
  bool closed_loop_stopwatch = false;  // --closed-loop: lead with latency from actual send
  std::string method = "GET";
  std::vector<std::string> headers;  // "Name: value", in the order given
  SharedText body;                   // contents of --body FILE: one copy, shared by copies
  std::string body_path;             // FILE as given, for the report
  int64_t timeout_ns = 10'000'000'000;  // README: why 10 s (censored tails)
  /// --timeout was given as a bare number ("2": milliseconds, where wrk reads seconds), not
  /// with a unit ("2ms", "2s"): only then may the report ask whether seconds were meant.
  bool timeout_without_unit = false;
  bool print_latency = false;  // --latency
  bool json = false;           // --json
  ShardSpec shard;             // --shard I/N; 1/1 (not given) for a lone run
  StartAt start_at;            // --start-at, --start-tolerance
  int64_t warmup_ns = 0;       // --warmup: load before the measured part; 0 = none
  bool print_timeline = false; // --timeline: the per-second table in the text report
  int64_t slow_ns = 0;         // --slow: threshold of the slow-request note; 0 = 10x p50
  bool keep_alive = true;      // --no-keepalive: false, a new connection for every request
  bool retry = true;           // --no-retry: false, a polite close's unanswered requests fail
  TlsConfig tls;               // https:// only: -k, --cacert, --cert/--key, --tls-*
  EngineKind engine = EngineKind::automatic;  // --engine / HAMMER_ENGINE; main resolves it
  EngineFallback engine_fallback;             // set when resolving fell back to epoll
  bool precise_dispatch = false;  // --precise-dispatch: spin to each slot (sub-10 us, CPU)
  // --dispatch-precision: open loop, slot wake-ups come at least this far apart and each sends
  // every slot due by then, so a slot may leave up to this late by design (the precision
  // budget). --precise-dispatch is a budget of 0 (dispatch_budget_ns()).
  int64_t dispatch_precision_ns = kDefaultDispatchPrecisionNs;
  bool dispatch_precision_given = false;  // --dispatch-precision was on the command line
  /// The budget the worker keeps to: 0 with --precise-dispatch, else --dispatch-precision.
  int64_t dispatch_budget_ns() const { return precise_dispatch ? 0 : dispatch_precision_ns; }
  int64_t pipeline = 1;        // -p: requests in flight per connection (HTTP/1.1 pipelining)
  bool http2 = false;          // --http2: h2 by ALPN (https), h2c with prior knowledge (http)
  int64_t streams = 1;         // --streams: HTTP/2 streams in flight per connection
  int64_t ramp_ns = 0;         // --ramp: load rising before the warm-up; 0 = none
  ArrivalProcess arrival;      // --arrival, --seed: constant gaps or Poisson from the seed
  std::string requests_path;           // --requests FILE as given; empty = one request (URL)
  std::vector<RequestLine> requests;   // its lines, in order; request i uses line i mod n
  std::string data_path;               // --data FILE.csv: {{csv NAME}} values; empty = none
  DataOrder data_order = DataOrder::sequential;  // --data-order
  std::vector<double> percentiles;  // --percentiles: the rows of the report, rising; empty =
                                    // the default spectrum (core/percentiles.h)
  std::vector<SloLimit> slos;  // --slo, repeatable: pass/fail gate (exit 3), or search target
  SweepPlan sweep;             // -c/--rate lists and ranges; inactive for a single run
  int progress_fd = -1;        // --progress-fd: JSON lines of progress go there; -1 = none
  // --metrics-listen HOST:PORT: live Prometheus metrics served there while the run lasts
  // (metrics/); host empty (":9464") means every address. Not given: port_text empty.
  Target metrics_listen;
  std::vector<OutputFile> outputs;  // -o, repeatable: files written after the run

  bool open_loop() const { return rate > 0; }
  /// -n in closed loop: the run ends when every worker's share is answered or failed.
  bool counted_closed_loop() const { return requests_count > 0 && !open_loop(); }
  /// Which stopwatch the figures lead with (the report's headline, --slo, the timeline, a
  /// sweep's rows): the corrected one, from each request's intended send time, in open loop
  /// unless --closed-loop asks for the actual send time; the uncorrected one otherwise.
  bool corrected_stopwatch_leads() const { return open_loop() && !closed_loop_stopwatch; }
  /// The default thread count was held to the CPUs available, below min(4, connections): the
  /// report says so ("2 threads (the CPUs available)").
  bool threads_held_to_cpus() const {
    return !threads_given && cpus_available > 0 && threads == cpus_available &&
           threads < std::min<int64_t>(4, connections);
  }
  /// -t asked for more threads than the CPUs available: allowed, and noted.
  bool threads_above_cpus() const {
    return threads_given && cpus_available > 0 && threads > cpus_available;
  }
};

}  // namespace hammer
