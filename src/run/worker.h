// SPDX-License-Identifier: MIT
#pragma once
// Worker: one thread's share of the run. It owns its connections, poller, timer wheel,
// histograms and counters outright; nothing is shared with other workers while the run lasts.
// The loop and the schedule are worker.cc; the rest, by concern, in worker_*.cc (see
// docs/architecture.md for the seams).
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <span>
#include <string_view>

#include "core/config.h"
#include "http/request.h"
#include "http/request_template.h"
#include "net/io_engine.h"
#include "net/socket.h"
#include "net/wakeup.h"
#include "run/connection.h"
#include "run/host_samples.h"
#include "run/idle_list.h"
#include "run/live_metrics.h"
#include "run/phases.h"
#include "run/result.h"
#include "schedule/schedule.h"
#include "time/clock.h"
#include "time/receive_clock.h"
#include "time/timer_wheel.h"
#include "time/wake_tuner.h"

namespace hammer {

/// One request as it goes on the wire, serialized once before the run (run/run.cc).
struct WireRequest {
  RequestBytes bytes{std::string_view()};  // head and body, apart
  Method method = Method::get;  // HEAD: its response has no body whatever its headers say;
                                // idempotent ones may be resent (--no-retry)
  std::span<const uint8_t> h2_block;  // --http2: the request's HPACK header block
  const RequestTemplate* request_template = nullptr;  // null: `bytes` as they are
};

class Worker {
 public:
  /// One receive buffer per worker, not per connection: the parser keeps only integers between
  /// reads, so each read's bytes are parsed before the next read reuses the buffer. A
  /// connection's state is then its Connection (a couple of hundred bytes) plus the socket.
  static constexpr int64_t kRecvBufferBytes = 64 * 1024;

  /// Open loop: the precision budget (--dispatch-precision T, Config::dispatch_budget_ns()).
  /// Where another slot falls due less than T after the next one, the wake-up waits out the
  /// next one's budget (its time + T) and sends every request due by then, so a slot may leave
  /// up to T late by design: at 2k req/s and T = 1 ms three slots a wake-up; a slot with none
  /// due within T of it wakes on time. Wake-ups are timed from the slots' times, never from
  /// the last pass (that carried each oversleep forward). The default, this: at 50k req/s
  /// on one worker the slots are 20 us apart, less than a wake-up costs on a VM (15-25 us of
  /// CPU measured, docs/performance.md): waking (or spinning) for each saturated the core, and
  /// a saturated SCHED_FIFO generator is paused by RT throttling for tens of ms. It caps slot
  /// wake-ups at 20,000 a second per worker, for at most 50 us of dispatch lag; rates up to
  /// ~12k req/s per worker (slots further apart than this plus the spin lead) never meet it.
  /// With T = 1 ms (wrk2's timers) a worker wakes for slots at most 1,000 times a second.
  static constexpr int64_t kMinSlotWakeGapNs = kDefaultDispatchPrecisionNs;

  /// `request` must outlive the worker: every connection sends these same bytes. `clock` is
  /// where every time reading comes from (tests pass a ManualClock); it must outlive the
  /// worker.
  Worker(const Config& config, RequestBytes request, const SocketAddress& target,
         int64_t worker_index, int64_t worker_count, int64_t connection_count,
         const Clock& clock = monotonic_clock());
  /// --requests: request i of the schedule (open loop) or the i-th send (closed loop) is
  /// requests[i mod n]. `requests` and the bytes it points at must outlive the worker.
  Worker(const Config& config, std::span<const WireRequest> requests,
         const SocketAddress& target, int64_t worker_index, int64_t worker_count,
         int64_t connection_count, const Clock& clock = monotonic_clock());
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  ~Worker();

  /// https: every connection speaks through a transport made from `context` (TLS), which must
  /// outlive the worker. Call before setup(); without it connections are plain.
  void use_transport(const TransportContext* context) { transport_context_ = context; }
  /// Templated requests: where their {{csv}}, {{random}} and {{uuid}} values come from, which
  /// must outlive the worker. Call before setup() when any WireRequest has a template.
  void use_template_data(const TemplateData* data) { template_data_ = data; }
  /// --metrics-listen: the worker publishes its figures into `board` (its slot, worker_index)
  /// with the progress counters, and once more when the run ends. Set before run().
  void use_live_metrics(LiveMetricsBoard* board) { live_board_ = board; }

  /// Allocates everything the run needs (the only allocations a worker makes) and opens the
  /// poller; `fd_limit` is the process's open-file limit (poll(2) indexes by fd). Call before
  /// the thread starts; the error names what failed.
  bool setup(int64_t fd_limit, std::string* error);

  /// Starts connecting every connection and waits until each is connected or has failed,
  /// at most until `give_up_ns`. Runs on the worker's thread before the shared start.
  void connect_all(int64_t give_up_ns);

  /// A stop asked for before the start (Ctrl-C while the connects went on, this worker's done
  /// and another's not): run() then measures nothing. Called between connect_all and run(),
  /// while the worker waits at the start (the run's latch orders the two threads).
  void stop_before_start() { stopping_ = true; }

  /// The measured run: from `start_ns` (shared by all workers, the schedule's t0) until
  /// `deadline_ns`, then waits for requests in flight up to --timeout. Runs on its thread.
  /// Equivalent to begin_run(), run_pass() until it returns false, end_run().
  void run(int64_t start_ns, int64_t deadline_ns);

  /// run() in steps, for tests that move a ManualClock between passes. One pass: stop at the
  /// deadline, send every request due, wait for events (at most until the next thing due),
  /// handle them, expire timers. False once the run is over (deadline passed and nothing in
  /// flight, or the drain window over); then call end_run() once.
  void begin_run(int64_t start_ns, int64_t deadline_ns);
  bool run_pass();
  void end_run();
  /// Caps every poller wait (tests with a ManualClock, whose time does not pass while the
  /// poller sleeps); negative: no cap.
  void set_wait_cap_for_testing(int64_t cap_ns) { wait_cap_ns_ = cap_ns; }
  /// When the next pass would end its sleep, if nothing happened before.
  int64_t next_wake_for_testing(int64_t now_ns) const { return next_wake_ns(now_ns); }
  const WakeTuner& wake_tuner() const { return tuner_; }
  int64_t in_flight() const { return in_flight_; }
  /// The long stalls this worker's own sleeps saw (run/host_samples.h): read after run().
  const HostSamples& host_samples() const { return host_samples_; }

  /// How often one request may be sent again after a polite close left it unanswered (a
  /// `Connection: close` answer ahead of it in the pipeline, or the server's clean close at a
  /// response boundary). Once: a server that closes every connection before answering fails
  /// each request after two tries instead of looping.
  static constexpr uint8_t kMaxResends = 1;

  /// Async-signal-safe: asks the worker to stop issuing now (Ctrl-C).
  void interrupt() { wakeup_->notify(); }
  const Wakeup& wakeup() const { return *wakeup_; }

  RunResult& result() { return result_; }
  /// When the last response arrived (or the run stopped), for the run's elapsed time.
  int64_t finished_ns() const { return finished_ns_; }
  int64_t stopped_ns() const { return stop_ns_; }
  /// When the last response arrived (warm-up included); 0 when none did.
  int64_t last_response_ns() const { return last_response_ns_; }

  /// Progress, for a live display on another thread: the worker stores its running totals
  /// (completed responses, errors; warm-up included) here from its loop at most every
  /// kPublishIntervalNs — a clock comparison per loop pass, not per request, so the hot path
  /// still touches no atomic. Relaxed: each figure is a counter read on its own.
  static constexpr int64_t kPublishIntervalNs = 100'000'000;
  int64_t published_completed() const { return published_completed_.load(std::memory_order_relaxed); }
  int64_t published_errors() const { return published_errors_.load(std::memory_order_relaxed); }

 private:
  int64_t next_wake_ns(int64_t now_ns) const;
  void begin_stop(int64_t now_ns);
  void handle_event(const IoEvent& event);
  /// Handles a batch the engine returned, then flushes the HTTP/2 output it deferred.
  void handle_events(int count);
  void on_timer(TimerNode* node);

  void start_connect(Connection& connection);
  void on_connect_ready(Connection& connection);
  void on_connected(Connection& connection, int64_t now_ns);
  /// Connected (and, https, the handshake done): the connection may carry requests.
  void on_ready_to_send(Connection& connection, int64_t now_ns);
  void retry_later(Connection& connection);
  void note_connect_error(const char* what, int error_number);

  /// Queues one request on the connection and writes what the socket takes, sent at `now_ns`
  /// (a fresh clock reading: its latency starts from it); returns it.
  int64_t send_request(Connection& connection, int64_t intended_ns, int32_t line, int64_t seq,
                       int64_t now_ns);
  /// Puts `request` (new or resent) on the connection's pipeline and writes what it can.
  void enqueue(Connection& connection, const Outstanding& request, int64_t now_ns);
  /// The server closed politely (see kMaxResends) with the connection's requests unanswered:
  /// idempotent ones wait in the resend queue for the next new connection, the rest fail as
  /// read errors (`why` is the socket error's text). The connection is then replaced.
  void resend_unanswered(Connection& connection, const char* why);
  /// Sends queued resends on `connection` while its pipeline has room.
  void send_resends(Connection& connection);
  void continue_write(Connection& connection);
  /// Counts `wrote` bytes of the oldest unwritten request; true when it is finished and the
  /// next one may be written at once (readiness engines' write loop).
  bool on_written(Connection& connection, Io outcome, size_t wrote, int error_number);
  void on_readable(Connection& connection);
  void on_received(Connection& connection, Io outcome, const char* data, size_t got,
                   int error_number);

  // HTTP/2 (worker_http2.cc): a connection carries up to --streams requests as streams of its
  // session instead of a pipeline; everything above the connection is unchanged.
  class StreamEnds;
  friend class StreamEnds;
  void setup_sessions();
  /// The link is up (connected and, https, the handshake done): HTTP/1.1 may send now,
  /// HTTP/2 sends its preface and waits for the server's SETTINGS first.
  void start_protocol(Connection& connection, int64_t now_ns);
  /// The server did not speak HTTP/2 (ALPN, an HTTP/1 answer, no SETTINGS in time): a
  /// connect error, `reason` kept for the pre-flight verdict, and a reconnect after a delay.
  void fail_session_setup(Connection& connection, std::string reason);
  void h2_received(Connection& connection, Io outcome, const char* data, size_t got,
                   int error_number);
  void h2_enqueue(Connection& connection, const Outstanding& request, int64_t now_ns);
  /// Sends what the session queued: plain, straight to the socket; https, into the transport.
  void h2_flush(Connection& connection);
  void h2_on_sent(Connection& connection, const IoEvent& event);
  /// After output left: a session the full output held back may open streams again.
  void h2_output_drained(Connection& connection);
  /// A write of the session's output failed (`error_number`, or EPIPE for an end): the
  /// handshake-like setup fails, or the streams in flight, or an idle connection is replaced.
  void h2_write_failed(Connection& connection, int error_number);
  /// The connection's timer: streams past --timeout are reset (CANCEL) and counted, the
  /// timer set for the next deadline.
  void h2_expire(Connection& connection);
  /// Every stream in flight fails as `kind` (the socket or the session ended).
  void h2_fail_streams(Connection& connection, ErrorKind kind);
  /// After Ctrl-C: streams still in flight are counted as cut off.
  void h2_cut_streams(Connection& connection);
  /// After a receive or a send: close a drained session, send more, take more requests.
  void h2_settle(Connection& connection, int64_t now_ns);
  void flush_deferred_h2();
  /// h2_flush now, or once after the batch of events or the dispatch under way.
  void h2_flush_or_defer(Connection& connection);
  http2::SessionCounts h2_counts_now() const;  // summed over the sessions
  void h2_note_measured_start();
  void h2_collect_counts();

  // The transport seam (worker_transport.cc): https connections, both engine families.
  void setup_transports();  // one transport per connection, from transport_context_
  void start_handshake(Connection& connection, int64_t now_ns);
  void on_handshake_done(Connection& connection, int64_t now_ns);
  /// The handshake failed (`reason` in words): a `tls` error, then a reconnect after a delay.
  void fail_handshake(Connection& connection, std::string_view reason);
  void on_transport_ready(Connection& connection, const IoEvent& event);
  void on_transport_received(Connection& connection, const IoEvent& event);
  void on_transport_sent(Connection& connection, const IoEvent& event);
  /// Handshakes or decrypts what arrived (after peer_closed(): to the end) and hands the
  /// plaintext to on_received.
  void transport_process(Connection& connection);
  /// Sends what the transport holds: readiness engines write what the socket takes (arming
  /// EPOLLOUT for the rest), io_uring queues one send. False when the socket failed (the
  /// connection was then handled).
  bool transport_flush(Connection& connection);
  /// continue_write for a connection with a transport: requests in as plaintext, out as
  /// what the transport makes of them.
  void transport_write(Connection& connection);
  /// A socket or transport failure on an established connection: the outstanding requests
  /// fail as `kind` (read or write), with `reason` as the first socket error when none yet.
  void transport_failed(Connection& connection, ErrorKind kind, std::string reason);
  /// A socket error `error_number` (or an end, 0) while handshaking or after.
  void transport_socket_failed(Connection& connection, ErrorKind kind, const char* what,
                               int error_number);

  static uint64_t token_of(const Connection& connection) {
    return make_io_token(static_cast<uint32_t>(connection.index), connection.generation);
  }
  /// The oldest request's response is complete. With `refill`, the connection then takes new
  /// requests (become_idle); without, the caller does once the read's bytes are matched.
  /// `answered_ns`: when the response's last bytes arrived (answered_at), what it records.
  void on_response(Connection& connection, int64_t now_ns, int64_t answered_ns,
                   bool refill = true);
  /// When the bytes being handled reached the host: the read's kernel stamp on the monotonic
  /// clock, or `now_ns` (this wake-up) without one. Counts the read either way.
  int64_t answered_at(int64_t now_ns);
  /// Whether `connection` holds part of a response whose rest is still to come, keeping
  /// awaiting_socket_ in step.
  void note_mid_response(Connection& connection, bool mid);
  /// After a response (or its part read so far) of kSleepThroughMaxResponseBytes or more,
  /// the worker wakes for every response for the rest of the run.
  void note_response_size(const Connection& connection);
  /// Moves a connection to `state`, keeping awaiting_socket_ in step.
  void set_state(Connection& connection, ConnectionState state);
  /// Whether this pass may sleep through the sockets' traffic (see worker.cc's "Wake-ups").
  bool may_sleep_through_traffic() const;
  /// After the stop: requests wait to be sent again and every connection is down for good
  /// (after the stop a failed connect is not retried), so nothing can send them.
  bool resends_stranded() const;
  void fail_request(Connection& connection, ErrorKind kind);
  void close_socket(Connection& connection);
  void set_write_interest(Connection& connection, bool wants_write);
  void become_idle(Connection& connection, int64_t now_ns);
  void fill_closed_loop(Connection& connection, int64_t now_ns);
  void dispatch_due(int64_t now_ns);
  void dispatch_due_slots(int64_t now_ns);  // dispatch_due's loop, its HTTP/2 flushes deferred
  /// The worker was not running its loop over [begin_ns, end_ns) (when that is longer than the
  /// lag threshold): slots due in it are hammer's lateness (DispatchLagRecorder).
  void note_absence(int64_t begin_ns, int64_t end_ns);

  /// The bytes of the oldest request not yet fully written: an answered one being finished,
  /// else the ring's first unwritten one.
  /// A templated one is filled into the connection's render buffer the first time it is
  /// asked for, and stays there until it is all written (an answered one being finished
  /// included): no allocation, one render per request.
  const RequestBytes& unwritten_request(Connection& connection) {
    if (connection.finishing) {
      const WireRequest& wire = requests_[static_cast<size_t>(connection.finishing_line)];
      return wire.request_template != nullptr ? connection.rendered : wire.bytes;
    }
    const Outstanding& next = connection.ring.first_unwritten();
    const WireRequest& wire = requests_[static_cast<size_t>(next.line)];
    if (wire.request_template == nullptr) return wire.bytes;
    if (connection.rendered_seq != next.seq) render_request(connection, wire, next);
    return connection.rendered;
  }
  void render_request(Connection& connection, const WireRequest& wire, const Outstanding& next);
  /// Closed loop: the line of this worker's next send. Each worker goes through every line in
  /// turn, from its own offset, so the mix is the file's whatever the workers' pace. (Its sends
  /// numbered as the run's, i * workers + index, gave 2 workers of a 4-line file lines 1 and 3
  /// or 2 and 4 each: the faster worker's lines got more requests and read faster.)
  int32_t next_closed_loop_line() {
    if (requests_.size() == 1) return 0;  // without --requests: no division per request
    const int64_t i = closed_sends_ + worker_index_;
    return static_cast<int32_t>(i % static_cast<int64_t>(requests_.size()));
  }
  /// Closed loop: the global number of this worker's next send ({{seq}}): its partition's
  /// slots in turn, so the sends of every worker and shard number 0, 1, 2 ... without a gap
  /// while they keep pace (and -n N numbers exactly 0 .. N-1).
  int64_t next_closed_loop_seq() { return slots_.first + closed_sends_++ * slots_.stride; }

  /// The result a request (or event) at `send_ns` counts in: the ramp's, then the warm-up's,
  /// then the measured one (cut by timestamp: intended send time in open loop, actual send in
  /// closed loop).
  RunResult& phase_for(int64_t send_ns) {
    return *phase_results_[static_cast<int>(phases_.phase_of(send_ns))];
  }
  /// The line's measured figures, or null (another phase, or no --requests).
  LineStats* line_stats(const RunResult& phase, int32_t line) {
    if (&phase != &result_ || result_.lines.empty()) return nullptr;
    return &result_.lines[static_cast<size_t>(line_stats_slot(line))];
  }
  void count_error(ErrorKind kind, int64_t when_ns);
  void publish_progress(int64_t now_ns);
  /// Fills live_ from the running results and copies it into live_board_'s slot.
  void publish_live(int64_t now_ns);

  /// Records an answered request in its phase, its line, the timeline and the lag figures
  /// (worker_record.cc). `written`: it was wholly sent before its answer came.
  void record_response(const Outstanding& done, bool written, const ResponseInfo& info,
                       int64_t now_ns);
  /// The connection's socket ended unplanned with nothing outstanding (an idle close, bytes
  /// nobody asked for, a lost framing): it leaves the idle list and connects again.
  void replace_connection(Connection& connection);
  /// Every request on the connection left it unanswered: what was half written dies with the
  /// socket, the request timer stops, and the connection is replaced.
  void abandon_pipeline(Connection& connection);
  /// end_run, open loop: the slots each phase scheduled and left unsent, and why
  /// (worker_phases.cc).
  void account_unsent();

  const Config& config_;
  const Clock& clock_;
  WireRequest single_request_;              // the one request, without --requests
  std::span<const WireRequest> requests_;   // what request i sends: requests_[i mod n]
  int32_t depth_ = 1;                       // -p: requests in flight per connection
  int64_t closed_sends_ = 0;
  // -n in closed loop: the measured requests this worker sends (requests_share), and how many
  // it has; -1 without -n (or in open loop, where the schedule holds the count).
  int64_t count_share_ = -1;
  int64_t counted_sends_ = 0;
  SocketAddress target_;
  int64_t worker_index_;
  int64_t worker_count_;
  int64_t connection_count_;
  bool open_loop_;

  std::unique_ptr<Connection[]> connections_;
  const TransportContext* transport_context_ = nullptr;  // https: the run's TLS context
  const TemplateData* template_data_ = nullptr;  // templated requests: their values' sources
  std::unique_ptr<char[]> render_slab_;  // one render buffer per connection (templates only)
  int64_t wall_offset_ns_ = 0;  // wall clock minus clock_, read at begin_run: {{intended_ms}}
  std::unique_ptr<std::unique_ptr<ConnectionTransport>[]> transports_;  // one per connection
  std::unique_ptr<Outstanding[]> rings_;  // depth_ per connection
  // --http2: one session per connection, and their streams' requests (slot_count each).
  std::unique_ptr<std::unique_ptr<http2::ClientSession>[]> sessions_;
  std::unique_ptr<Outstanding[]> stream_requests_;
  std::string h2_preface_;  // every connection's first bytes (client_preface)
  // h2_settle: the connection whose streams opened now are flushed once, after; null: none.
  const Connection* h2_batching_ = nullptr;
  // While a batch of events is handled, or due slots dispatched, h2_settle and h2_enqueue
  // leave their flush here (indices, each connection once), done after the batch: several
  // completions for one connection in a batch (io_uring's multishot receive gives one per
  // segment, and nginx writes a segment per response), or several due slots opening streams
  // on one connection, then leave in one write, not one each. connection_count_ long.
  std::unique_ptr<int32_t[]> h2_deferred_;
  int32_t h2_deferred_count_ = 0;
  bool deferring_h2_flushes_ = false;
  // The sessions' frame counts as the measured part began (h2_note_measured_start), taken
  // off at the end so the report's counts describe the measured part, as every other figure.
  http2::SessionCounts h2_counts_before_measured_{};
  bool h2_measured_started_ = false;
  // Requests waiting to be sent again (resend_unanswered). Counted in in_flight_.
  std::unique_ptr<Outstanding[]> resends_;
  ResendQueue resend_queue_;
  ZeroedArray<char> recv_buffer_;  // kRecvBufferBytes; pages become resident as used
  std::unique_ptr<IoEvent[]> events_;
  int event_batch_ = kMaxIoEventBatch;  // events_'s length: io_event_batch_for(connections)
  std::unique_ptr<IoEngine> engine_;
  bool completes_io_ = false;  // io_uring: sends and receives are completions
  // Open loop sleeps to its next slot through responses, timing each read by the kernel's
  // receive stamp (issue 27; worker.cc's "Wake-ups"). Off when stamps are unavailable.
  bool sleeps_through_traffic_ = false;
  ReceiveClock receive_clock_;
  int64_t read_stamp_wall_ns_ = 0;  // the stamp of the read being handled; 0: none
  bool read_stamp_expected_ = false;  // that read asked the kernel for one (a socket read)
  // Connections whose socket news something waits on (a connect, a handshake, a write the
  // socket could not take whole, the rest of a response): while any, the worker wakes for it.
  int64_t awaiting_socket_ = 0;
  std::optional<Wakeup> wakeup_;
  TimerWheel timers_;
  SlotPartition slots_;  // this worker's slots of the global schedule (shard, then thread)
  OpenLoopSchedule schedule_;
  DispatchLagRecorder lag_;
  WakeTuner tuner_;
  HostSamples host_samples_;  // reserved by setup(): recording allocates nothing
  // The pass timing that finds absences (note_absence): when the last wait began and the
  // timeout it asked for (begin_run: the start, none).
  int64_t wait_began_ns_ = 0;
  int64_t wait_asked_ns_ = 0;
  int64_t min_slot_wake_gap_ns_ = 0;  // the precision budget: Config::dispatch_budget_ns()
  int64_t wait_cap_ns_ = -1;
  RunResult result_;
  RunResult* warmup_ = nullptr;        // result_.warmup, when --warmup was given
  RunResult* ramp_ = nullptr;           // result_.ramp, when --ramp was given
  Phases phases_;                       // started by begin_run; before it, the first phase
  RunResult* phase_results_[kPhaseCount] = {&result_, &result_, &result_};  // by Phase
  bool corrected_stopwatch_ = false;    // the timeline records the lead latency
  int64_t next_publish_ns_ = 0;
  std::atomic<int64_t> published_completed_{0};
  std::atomic<int64_t> published_errors_{0};
  LiveMetricsBoard* live_board_ = nullptr;  // --metrics-listen, else null
  LiveFigures live_;                        // filled in place: publishing allocates nothing

  IdleList idle_;  // open loop: connections free to send, longest idle first
  int64_t in_flight_ = 0;
  // Connections up (idle or busy), and since when none has been: the unsent requests due from
  // then on had no connection to leave on (end_run). INT64_MIN: none ever connected;
  // INT64_MAX: one is up.
  int64_t live_connections_ = 0;
  int64_t no_connection_since_ns_ = INT64_MIN;
  bool started_ = false;  // run() began: a new connection may carry requests
  bool stopping_ = false;
  int64_t start_ns_ = 0;
  int64_t deadline_ns_ = 0;
  int64_t stop_ns_ = 0;
  int64_t drain_until_ns_ = 0;
  int64_t finished_ns_ = 0;
  int64_t last_response_ns_ = 0;
};

}  // namespace hammer
