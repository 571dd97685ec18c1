// SPDX-License-Identifier: MIT
// Orchestration: setup that may fail with a clear message happens here, before any thread
// starts; then workers connect, meet at a latch, and share one start time t0 so that their
// shares of the schedule line up into the global one.
#include "run/run.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <chrono>
#include <thread>
#include <vector>

#include "core/countdown_latch.h"
#include "core/shard_share.h"
#include "http/request.h"
#include "http/request_template.h"
#include "http2/request_block.h"
#include "net/io_engine.h"
#include "net/socket.h"
#include "platform/system.h"
#include "run/connection_transport.h"
#include "run/interrupt.h"
#include "run/progress_rate.h"
#include "run/phases.h"
#include "run/host_meter.h"
#include "run/host_samples.h"
#include "run/wall_clock.h"
#include "run/worker.h"
#include "time/clock.h"

namespace hammer {
namespace {

std::string target_text(const Target& target) {
  if (target.host.find(':') != std::string::npos) {
    return "[" + target.host + "]:" + std::to_string(target.port);
  }
  return target.host + ":" + std::to_string(target.port);
}

// The calling thread's share while workers run: once a second (every 100 ms for
// --progress-fd, whose reader draws a live view), sum what each worker published (relaxed
// atomics, at most ~100 ms old) and hand it to the caller. Ends when every worker did.
void report_progress(const Config& config, const std::vector<std::unique_ptr<Worker>>& workers,
                     int64_t start_ns, CountdownLatch& done, const ProgressFn& on_progress) {
  const int64_t kReportIntervalNs = config.progress_fd >= 0 ? 100'000'000 : 1'000'000'000;
  constexpr auto kPollInterval = std::chrono::milliseconds(20);
  int64_t next_report_ns = start_ns + kReportIntervalNs;
  ProgressRate rate(start_ns);
  while (!done.try_wait()) {
    std::this_thread::sleep_for(kPollInterval);
    const int64_t now = monotonic_now_ns();
    if (now < next_report_ns) continue;
    next_report_ns += kReportIntervalNs;
    Progress progress;
    progress.elapsed_ns = now - start_ns;
    const Phases phases(config);
    progress.total_ns = phases.total_ns();
    if (config.counted_closed_loop()) progress.requests_count = config.requests_count;
    progress.warmup_ns = phases.measured_offset_ns();  // the ramp is not measured either
    progress.ramp_ns = phases.ramp_ns();
    for (const auto& worker : workers) {
      progress.completed += worker->published_completed();
      progress.errors += worker->published_errors();
    }
    progress.per_second = rate.add(now, progress.completed);
    on_progress(progress);
  }
}

// --start-at's refusal: the instant passed by more than --start-tolerance allows.
RunError start_passed(const Config& config, int64_t passed_ns, const char* when) {
  char text[160];
  std::snprintf(text, sizeof text, "%.3fs %s (--start-tolerance %.3fs)",
                static_cast<double>(passed_ns) / 1e9, when,
                static_cast<double>(config.start_at.tolerance_ns) / 1e9);
  return RunError{ExitCode::bad_input,
                  std::string("--start-at: the start time passed ") + text +
                      "; give a later time, or allow a late start with --start-tolerance"};
}

}  // namespace

std::optional<RunError> check_start_at(const Config& config, int64_t now_unix_ns) {
  if (!config.start_at.given()) return std::nullopt;
  const int64_t passed_ns = now_unix_ns - config.start_at.unix_ns;
  if (passed_ns > config.start_at.tolerance_ns) return start_passed(config, passed_ns, "ago");
  if (-passed_ns > kMaxStartAheadNs) {
    char ahead[64];
    std::snprintf(ahead, sizeof ahead, "%.1f hours", static_cast<double>(-passed_ns) / 3.6e12);
    return RunError{ExitCode::bad_input,
                    std::string("--start-at: the start time is ") + ahead +
                        " ahead, more than 24 hours; give a time within a day (RFC 3339, "
                        "or Unix seconds, not milliseconds)"};
  }
  return std::nullopt;
}

int64_t connections_for_worker(int64_t total, int64_t index, int64_t count) {
  return total / count + (index < total % count ? 1 : 0);
}

Expected<SocketAddress, RunError> reachable_address(const Target& target, int64_t timeout_ns) {
  const std::string where = target_text(target);
  auto addresses = resolve_target_all(target);
  if (!addresses) {
    // The error names the host, the port and the reason.
    return unexpected(RunError{ExitCode::run_failed, addresses.error()});
  }
  // One connect per resolved address, in order: the first that connects is the one every
  // connection uses for the whole run ("localhost" may give ::1 first while the server listens
  // on 127.0.0.1 only). When none does, fail fast with the system's reasons: better than a run
  // of connect errors.
  auto address = first_connecting_address(*addresses, timeout_ns);
  if (!address) {
    return unexpected(
        RunError{ExitCode::run_failed, "cannot connect to " + where + ": " + address.error()});
  }
  return *address;
}

namespace {

// When the last answer came (from the measured start), and, open loop, how many of this
// process's slots (its shard's, every thread's) came due after it and before the stop: none of
// them was answered (verdicts: server_stopped_answering). The slots are the schedule's
// formula, so this needs no record per request.
void note_last_answer(const Config& config, const Phases& phases, int64_t last_response_ns,
                      int64_t stopped_ns, int64_t finished_ns, RunResult& total) {
  const int64_t measured_start_ns = phases.measured_start_ns();
  const int64_t from_ns = std::max(last_response_ns, measured_start_ns);
  total.last_answer_ns = from_ns - measured_start_ns;
  total.unanswered_tail_ns = std::max<int64_t>(finished_ns - from_ns, 0);
  if (!config.open_loop() || from_ns >= stopped_ns) return;
  const SlotPartition shard = slots_for(config.shard.index - 1, config.shard.count, 0, 1);
  const auto due_before = [&](int64_t t_ns) { return phases.slots_before(shard, t_ns); };
  // Slots due after the last answer: from_ns itself had no answer after it yet either.
  total.due_after_last_answer =
      std::min(total.scheduled, due_before(stopped_ns) - due_before(from_ns + 1));
}

// The pre-flight verdict of an https:// run: no connection finished its handshake and at
// least one failed (each connection tried once before the start: Worker::connect_all).
std::optional<RunError> every_handshake_failed(const Config& config,
                                               const std::vector<std::unique_ptr<Worker>>& workers) {
  const Target& target = config.target;
  int64_t established = 0;
  int64_t failed = 0;
  std::string reason;
  TransportRefusal refusal = TransportRefusal::none;
  for (const auto& worker : workers) {
    const RunResult& result = worker->result();
    established += result.tls.full_handshakes + result.tls.resumed_handshakes;
    failed += result.error_count(ErrorKind::tls);
    if (reason.empty()) {
      reason = result.tls.first_error;
      refusal = result.tls.first_error_refusal;
    }
  }
  if (established > 0 || failed == 0) return std::nullopt;
  // What the alert says, where it says something the user can act on: --http2 offers h2
  // alone (a server without it may answer no_application_protocol); a TLS 1.2 server that
  // wants a client certificate answers a handshake without one with handshake_failure. Said
  // only then, not beside a certificate that failed to verify.
  std::string offered;
  if (refusal == TransportRefusal::application_protocol) {
    offered = " (--http2 offers only h2 by ALPN: the server does not speak HTTP/2)";
  } else if (refusal == TransportRefusal::security_parameters && config.tls.cert_file.empty()) {
    offered = " (a TLS 1.2 server that requires a client certificate ends a handshake without "
              "one so: if it does, give --cert FILE --key FILE)";
  }
  return RunError{ExitCode::run_failed, "cannot connect to " + target_text(target) +
                                            ": TLS handshake failed: " + reason + offered};
}

// The pre-flight verdict of an --http2 run: no connection got the server's SETTINGS and at
// least one found the server speaking something else.
std::optional<RunError> every_session_setup_failed(
    const Target& target, const std::vector<std::unique_ptr<Worker>>& workers) {
  int64_t sessions = 0;
  int64_t failed = 0;
  std::string reason;
  for (const auto& worker : workers) {
    const Http2Summary& http2 = worker->result().http2;
    sessions += http2.sessions;
    failed += http2.setup_failures;
    if (reason.empty()) reason = http2.first_setup_error;
  }
  if (sessions > 0 || failed == 0) return std::nullopt;
  return RunError{ExitCode::run_failed,
                  "cannot speak HTTP/2 to " + target_text(target) + ": " + reason};
}

// Request `line` of the run (0 when no --requests file gave several) as the command line
// describes it: what its HTTP/1.1 head, its template and its HTTP/2 header block are made of.
RequestSpec request_spec(const Config& config, size_t line) {
  RequestSpec spec;
  if (config.requests.empty()) {
    spec.method = config.method;
    spec.path = config.target.path;
    spec.headers = config.headers;
    spec.body = config.body;
  } else {
    const RequestLine& request = config.requests[line];
    spec.method = request.method;
    spec.path = request.path;
    spec.headers = request.headers;
    spec.body = request.body;
  }
  spec.host_header = config.target.host_header;
  spec.keep_alive = config.keep_alive;
  return spec;
}

// One request's HTTP/2 header block: the same fields its HTTP/1.1 head carries.
std::string http2_block(const Config& config, size_t line, bool https) {
  const RequestSpec spec = request_spec(config, line);
  return http2::encode_request_block(spec, https);
}

}  // namespace

Expected<RunResult, RunError> run_load(const Config& asked, const ProgressFn& on_progress,
                                       LiveMetricsBoard* live_metrics) {
  // main() resolves the engine once; a caller that did not (tests, the library) gets the same
  // choice here. Workers keep a reference to this copy, which outlives them.
  Config config = asked;
  if (config.engine == EngineKind::automatic) {
    config.engine = resolve_engine(config.engine, &config.engine_fallback);
  }

  // A start time that has already passed, or lies days ahead, fails before anything connects.
  if (auto refused = check_start_at(config, wall_now_ns())) return unexpected(std::move(*refused));

  // Ctrl-C from here on ends in a result, never in the default kill: during the connect probe
  // and the set-up it is caught and counted, and the workers, once registered, see it.
  const InterruptScope interrupt_scope;

  // Each connection is one fd; keep a margin for the pollers, wake-ups and stdio.
  const int64_t connections = shard_connections(config);
  auto limit = raise_fd_limit(connections + 64);
  if (!limit) {
    return unexpected(RunError{ExitCode::bad_input,
                               "--connections: " + std::to_string(connections) +
                                   " connections need more file descriptors than allowed: " +
                                   limit.error()});
  }

  auto address = reachable_address(config.target, config.timeout_ns);
  if (!address) return unexpected(address.error());

  // https: one TLS context for the run, its files read now (a bad --cacert is an error here,
  // not a run of failed handshakes); workers share it read-only.
  std::shared_ptr<const TransportContext> transport;
  if (config.target.scheme == Scheme::https) {
    auto context = make_tls_transport_context(config);
    // A --cacert, --cert or --key whose contents do not serve: the flag is named.
    if (!context) return unexpected(RunError{ExitCode::bad_input, context.error()});
    transport = std::move(*context);
  }

  // Every request is serialized once, here (heads; bodies stay where Config holds them); the
  // workers only point at these bytes.
  std::vector<std::string> heads;
  std::vector<WireRequest> requests;
  const size_t request_count = std::max<size_t>(config.requests.size(), 1);
  heads.reserve(request_count);
  for (size_t i = 0; i < request_count; ++i) {
    heads.push_back(serialize_request_head(request_spec(config, i)));
  }
  if (config.requests.empty()) {
    requests.push_back(WireRequest{RequestBytes(heads[0], config.body), method_of(config.method), {}});
  } else {
    for (size_t i = 0; i < heads.size(); ++i) {
      const RequestLine& line = config.requests[i];
      requests.push_back(WireRequest{RequestBytes(heads[i], line.body), method_of(line.method), {}});
    }
  }
  // Templated requests (http/request_template.h): compiled once here, filled per request by
  // the workers into buffers they size at setup. The command line checked every template.
  std::unique_ptr<CsvData> csv;
  if (!config.data_path.empty()) {
    auto loaded = load_csv(config.data_path);
    if (!loaded) return unexpected(RunError{ExitCode::bad_input, "--data: " + loaded.error()});
    csv = std::make_unique<CsvData>(std::move(*loaded));
  }
  TemplateData template_data;
  template_data.csv = csv.get();
  template_data.order = config.data_order;
  template_data.seed = config.arrival.seed;
  std::vector<std::unique_ptr<RequestTemplate>> templates;
  for (size_t i = 0; i < requests.size(); ++i) {
    const RequestSpec spec = request_spec(config, i);
    bool templated = is_template(spec.path) || is_body_template(spec.body);
    for (const std::string& header : spec.headers) templated = templated || is_template(header);
    if (!templated) continue;
    auto compiled = RequestTemplate::compile(spec, template_data);
    if (!compiled) return unexpected(RunError{ExitCode::bad_input, compiled.error()});
    templates.push_back(std::make_unique<RequestTemplate>(std::move(*compiled)));
    requests[i].request_template = templates.back().get();
  }

  // --http2: each request's HPACK header block, encoded once like the heads above.
  std::vector<std::string> h2_blocks;
  if (config.http2) {
    const bool https = config.target.scheme == Scheme::https;
    h2_blocks.reserve(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) h2_blocks.push_back(http2_block(config, i, https));
    for (size_t i = 0; i < requests.size(); ++i) {
      requests[i].h2_block = std::span<const uint8_t>(
          reinterpret_cast<const uint8_t*>(h2_blocks[i].data()), h2_blocks[i].size());
    }
  }

  const int64_t thread_count = config.threads;
  std::vector<std::unique_ptr<Worker>> workers;
  if (live_metrics != nullptr) live_metrics->prepare(thread_count);
  for (int64_t i = 0; i < thread_count; ++i) {
    workers.push_back(std::make_unique<Worker>(
        config, std::span<const WireRequest>(requests), *address, i, thread_count,
        connections_for_worker(connections, i, thread_count)));
    workers.back()->use_transport(transport.get());
    workers.back()->use_template_data(&template_data);
    workers.back()->use_live_metrics(live_metrics);
    std::string error;
    if (!workers.back()->setup(*limit, &error)) {
      return unexpected(RunError{ExitCode::run_failed,
                                 "cannot set up worker " + std::to_string(i) + ": " + error});
    }
  }

  // Each signal from here pokes every worker: the first stops the run after a short grace for
  // responses on their way, a second ends the grace at once (worker.cc); both still end in the
  // report. One caught before the workers were registered (during the probe or the set-up) is
  // passed on now: they stop before they measure anything.
  std::vector<const Wakeup*> wakeups;
  for (const auto& worker : workers) wakeups.push_back(&worker->wakeup());
  const InterruptTargets interrupt_targets(wakeups);
  const bool interrupted_during_setup = interrupts_caught() > 0;
  if (interrupted_during_setup) {
    for (const auto& worker : workers) worker->interrupt();
  }
  const FineTimerScope fine_timers;  // Windows: 1 ms timers instead of 15.6 ms for the run

  // --start-at far ahead: sleep first and connect shortly before it, so that idle connections
  // are not held open (and perhaps closed by the server) for minutes. Ctrl-C cuts the sleep
  // short and the workers, woken too, stop at once.
  bool interrupted_before_start = false;
  if (config.start_at.given()) {
    const int64_t connect_ahead_ns = config.timeout_ns + kNanosPerSecond;
    if (config.start_at.unix_ns - wall_now_ns() > connect_ahead_ns && !interrupted_during_setup) {
      interrupted_before_start = !sleep_until_wall_ns(config.start_at.unix_ns - connect_ahead_ns);
    }
  }

  // Not std::latch: it loses wake-ups where libstdc++ has no futex (core/countdown_latch.h).
  CountdownLatch connected(thread_count);
  CountdownLatch go(1);
  CountdownLatch done(thread_count);
  int64_t start_ns = 0;
  int64_t deadline_ns = 0;
  // Each step is bounded by --timeout: the TCP connect, and with https the handshake after it.
  const int64_t connects_began_ns = monotonic_now_ns();
  const int64_t give_up_connecting_ns =
      connects_began_ns + config.timeout_ns * (transport != nullptr ? 2 : 1);
  std::vector<std::thread> threads;
  // Each worker's CPU time (its thread's clock) and wall time over its run, written by its
  // thread before `done` counts down, read after the join.
  std::vector<int64_t> worker_cpu_ns(workers.size(), -1);
  std::vector<int64_t> worker_wall_ns(workers.size(), 0);
  for (size_t i = 0; i < workers.size(); ++i) {
    threads.emplace_back([&, i, raw = workers[i].get()] {
      raw->connect_all(give_up_connecting_ns);
      connected.count_down();
      go.wait();  // start_ns and deadline_ns are written before go opens
      const int64_t cpu_before_ns = thread_cpu_ns();
      const int64_t wall_before_ns = monotonic_now_ns();
      raw->run(start_ns, deadline_ns);
      const int64_t cpu_after_ns = thread_cpu_ns();
      if (cpu_before_ns >= 0 && cpu_after_ns >= 0) worker_cpu_ns[i] = cpu_after_ns - cpu_before_ns;
      worker_wall_ns[i] = monotonic_now_ns() - wall_before_ns;
      done.count_down();
    });
  }
  // Where the workers' sleeps sample the host often enough, the meter wakes less.
  HostMeter meter(monotonic_clock(), nullptr,
                  workers_sample_host(config) ? HostMeter::kSampledIntervalNs
                                              : HostMeter::kIntervalNs);
  connected.wait();
  // A signal during the sleep or the connects: no waiting for the instant, nothing to run.
  interrupted_before_start = interrupted_before_start || interrupts_caught() > 0;
  // A worker whose connects were done waited at `go` and never read the signal's wake-up: it
  // would have sent its first requests before it saw it (one request in 911 us, read as a
  // run of 1,097 req/s that exited 0, when Ctrl-C came while a handshake waited).
  if (interrupted_before_start) {
    for (const auto& worker : workers) worker->stop_before_start();
  }
  WallClockStart wall_start;
  wall_start.connecting_ns = monotonic_now_ns() - connects_began_ns;
  std::optional<RunError> start_refused;
  if (config.start_at.given()) {
    // Connected: sleep until the instant, then map it onto the monotonic clock; t0 is the
    // instant itself, not the wake-up, so every shard's slots stay on the one global grid. A
    // shard that is late (within --start-tolerance) finds its first slots already due: they
    // leave at once and their lateness is dispatch lag, as the fleet's users would feel it.
    const int64_t passed_ns = wall_now_ns() - config.start_at.unix_ns;
    if (passed_ns > config.start_at.tolerance_ns && !interrupted_before_start) {
      start_refused = start_passed(config, passed_ns, "while this shard connected");
    } else if (passed_ns < 0 && !interrupted_before_start) {
      sleep_until_wall_ns(config.start_at.unix_ns);
    }
    start_ns = monotonic_at_wall_ns(config.start_at.unix_ns);
    wall_start.origin_unix_ns = config.start_at.unix_ns;
    wall_start.started_unix_ns = wall_now_ns();
    wall_start.late_ns = std::max<int64_t>(wall_start.started_unix_ns - wall_start.origin_unix_ns, 0);
  } else {
    start_ns = monotonic_now_ns();
    wall_start.origin_unix_ns = wall_now_ns();
    wall_start.started_unix_ns = wall_start.origin_unix_ns;
  }
  // https: when no handshake succeeded and some failed, the run would be one of failed
  // handshakes; it ends here in one line, as a refused connect does (the workers wait at `go`,
  // so their results are read safely).
  if (!start_refused && transport != nullptr && !interrupted_before_start) {
    start_refused = every_handshake_failed(config, workers);
  }
  // --http2 alike: no server spoke HTTP/2 (ALPN chose another protocol, an HTTP/1 answer to
  // the preface, no SETTINGS): one line saying what it did, never a run of failed connects.
  if (!start_refused && config.http2 && !interrupted_before_start) {
    start_refused = every_session_setup_failed(config.target, workers);
  }
  // The warm-up is the same load, earlier: the schedule runs for warm-up + duration and each
  // request is assigned to a phase by its send time (worker.cc).
  // The ramp comes first, then the warm-up, then the measured part (one schedule throughout).
  deadline_ns = start_ns + Phases(config).total_ns();
  if (start_refused) deadline_ns = start_ns = monotonic_now_ns();  // nothing to run
  // The host is watched from t0 to the end of the drain: ramp, warm-up and measured part.
  if (!start_refused) meter.start(start_ns);
  go.count_down();
  if (on_progress) report_progress(config, workers, start_ns, done, on_progress);
  for (auto& thread : threads) thread.join();
  meter.stop();

  if (start_refused) return unexpected(std::move(*start_refused));

  RunResult total;
  int64_t finished_ns = start_ns;
  int64_t last_response_ns = 0;
  int64_t stopped_ns = start_ns;
  for (auto& worker : workers) {
    total.add(worker->result());
    finished_ns = std::max(finished_ns, worker->finished_ns());
    last_response_ns = std::max(last_response_ns, worker->last_response_ns());
    stopped_ns = std::max(stopped_ns, worker->stopped_ns());
  }
  total.wall_start = wall_start;
  if (meter.reading().measured()) {
    total.host = meter.reading();
    std::vector<const HostSamples*> samples;
    for (const auto& worker : workers) samples.push_back(&worker->host_samples());
    absorb_samples(total.host, samples);
  }
  for (size_t i = 0; i < workers.size(); ++i) {
    total.generator_cpu.add_worker(worker_cpu_ns[i], worker_wall_ns[i]);
  }
  Phases phases(config);
  phases.start_at(start_ns);
  const int64_t warmup_start_ns = phases.warmup_start_ns();
  const int64_t measured_start_ns = phases.measured_start_ns();
  total.elapsed_ns = std::max<int64_t>(finished_ns - measured_start_ns, 0);
  note_last_answer(config, phases, last_response_ns, stopped_ns, finished_ns, total);
  if (total.warmup) {
    // Its length as run: shorter only when Ctrl-C ended the run during the warm-up.
    total.warmup->elapsed_ns =
        std::max<int64_t>(std::min(finished_ns, measured_start_ns) - warmup_start_ns, 0);
    total.warmup->interrupted = total.interrupted;
  }
  if (total.ramp) {
    total.ramp->elapsed_ns = std::min(finished_ns, warmup_start_ns) - start_ns;
    total.ramp->interrupted = total.interrupted;
  }
  return total;
}

int64_t online_cpus() {
  const int64_t count = online_cpu_count();
  return count > 0 ? count : 1;
}

}  // namespace hammer
