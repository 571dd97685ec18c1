// SPDX-License-Identifier: MIT
//
// The worker loop. Each pass: dispatch what is due, sleep in the poller until the next thing
// that can happen (a socket event, a request slot, a deadline), handle events, expire timers.
//
// Timing. A request's latency is defined by two clock readings: when its first byte was handed
// to the socket (actual send) and when the read that completed its response returned. Corrected
// latency starts instead at the request's slot in the schedule (intended), so time spent waiting
// for a free connection is charged to the server that held them all. The poller sleeps with
// nanosecond timeouts (epoll_pwait2) and the thread's timer slack is set to 1 ns, but the kernel
// still wakes some microseconds late. The worker measures that oversleep as it runs (WakeTuner,
// time/wake_tuner.h) and stops sleeping only that much before a slot, polling without blocking
// for the rest: by default the median oversleep (little CPU, median lag near zero), with
// --precise-dispatch its p99 (sub-10 us, for the CPU of the spin), and never when another
// worker shares the core. Every request already due goes out in the same pass, and slot
// wake-ups come at least the precision budget apart (--dispatch-precision T, 50 us by
// default, 0 with --precise-dispatch): above ~12k req/s per worker by default, above 1k req/s
// at T = 1 ms, several slots leave in one wake-up, up to T late by design. What lateness
// remains is measured as dispatch lag rather than hidden (design.md §8), and judged against
// the budget (DispatchLagRecorder::use_budget).
//
// Time is read only through clock_ (a Clock&), so unit tests drive the worker with a
// ManualClock, one pass at a time (begin_run / run_pass / end_run).
//
// Interest. Sockets are registered level-triggered for reading for their whole life (a reply
// may come early, an idle keep-alive socket may be closed by the server); EPOLLOUT is armed only
// while a connect or a partial write is pending, so the common request costs no epoll_ctl.
//
// Allocation. Everything is sized at setup(): connections, the receive buffer, the event array,
// the timer wheel, the timeline's slab. The hot path allocates nothing, locks nothing and touches
// no atomic; the only strings written during a run are the first error of each kind, once.
//
// Warm-up. With --warmup the schedule simply runs for warm-up + duration; every count, the
// histograms and the errors go to the warm-up's RunResult or the measured one by the request's
// send time (intended, in open loop), so the cut is a timestamp comparison, never a reset of
// state that other requests are still using. Connect time and first-request latency span the
// whole run: cold start is what they are there to show.
//
// Progress. The loop copies its totals into two relaxed atomics at most every 100 ms (see
// publish_progress), for run/'s live progress line; per request it touches none.
//
// Files. This one is the loop and the schedule; the rest of the worker, by concern
// (docs/architecture.md): worker_connect.cc (a connection's life below HTTP), worker_io.cc
// (the engine families: readiness vs completion), worker_transport.cc (the byte-transform
// seam, TLS), worker_http1.cc (the HTTP/1.1 protocol: requests out, responses matched),
// worker_record.cc (what an answer records), worker_phases.cc (each phase's unsent slots),
// worker_sleep_through.cc (one wake-up per request: when the worker may sleep through its
// sockets' traffic, and how an answer is then timed);
// idle_list.h, pipeline_ring.h and phases.h hold the data structures.
#include "run/worker.h"

#include <sched.h>
#include "platform/platform.h"
#if HAMMER_LINUX_APIS
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "net/receive_stamps.h"
#include "platform/system.h"
#include "run/wall_clock.h"
#include "time/clock.h"

namespace hammer {

Worker::Worker(const Config& config, RequestBytes request, const SocketAddress& target,
               int64_t worker_index, int64_t worker_count, int64_t connection_count,
               const Clock& clock)
    : Worker(config, std::span<const WireRequest>(), target, worker_index, worker_count,
             connection_count, clock) {
  single_request_ = WireRequest{request, method_of(config.method), {}};
  requests_ = std::span<const WireRequest>(&single_request_, 1);
}

Worker::Worker(const Config& config, std::span<const WireRequest> requests,
               const SocketAddress& target, int64_t worker_index, int64_t worker_count,
               int64_t connection_count, const Clock& clock)
    : config_(config),
      clock_(clock),
      requests_(requests),
      depth_(static_cast<int32_t>(std::max<int64_t>(config.pipeline, 1))),
      target_(target),
      worker_index_(worker_index),
      worker_count_(worker_count),
      connection_count_(connection_count),
      open_loop_(config.open_loop()),
      // One timer per connection: a wheel sized to them keeps a one-connection worker's slot
      // heads at 8 KB instead of 512 KB (-t 1024 -c 1024; timer_wheel.h).
      timers_(clock_.now_ns(), 1000, TimerWheel::slot_count_for(connection_count)),
      slots_(slots_for(config.shard.index - 1, config.shard.count, worker_index, worker_count)),
      schedule_(0, config.open_loop() ? config.rate : 1.0, slots_, 0) {
  phases_ = Phases(config);
  if (config.counted_closed_loop()) count_share_ = requests_share(slots_, config.requests_count);
  corrected_stopwatch_ = config.corrected_stopwatch_leads();
  // Spinning on a core that another worker needs steals its time to send on schedule.
  const int64_t cpus = usable_cpu_count();
  const bool shares_core = cpus > 0 && cpus < worker_count;
  tuner_ = WakeTuner(shares_core               ? SpinPolicy::none
                     : config.precise_dispatch ? SpinPolicy::precise
                                               : SpinPolicy::balanced);
  min_slot_wake_gap_ns_ = config.dispatch_budget_ns();
  // Lateness within the budget is by design, not hammer being late.
  lag_.use_budget(min_slot_wake_gap_ns_);
}

Worker::~Worker() {
  for (int64_t i = 0; connections_ && i < connection_count_; ++i) close_socket(connections_[i]);
}
bool Worker::setup(int64_t fd_limit, std::string* error) {
  // poll(2) indexes its table by fd, so it must cover every fd the process may open (the
  // default fs.nr_open is 1Mi); epoll only uses the figure to size its event batch.
  auto wakeup = Wakeup::create();
  if (!wakeup) {
    *error = wakeup.error();
    return false;
  }
  wakeup_.emplace(std::move(*wakeup));
  // run_load resolves `automatic` once per process; a worker built directly (tests) gets the
  // platform's readiness engine (epoll on Linux, poll elsewhere).
  const EngineKind kind = config_.engine != EngineKind::automatic ? config_.engine
                          : HAMMER_LINUX_APIS                      ? EngineKind::epoll
                                                                   : EngineKind::poll;
  engine_ = create_io_engine(kind, connection_count_, fd_limit, wakeup_->fd(), error);
  if (!engine_) return false;
  completes_io_ = engine_->completes_io();
  // Stamps are on the system's clocks, which a ManualClock is not. Held on before the
  // first connect, so no response arrives unstamped (net/receive_stamps.h). A read's stamp
  // is its last segment's: with -p above 1 (or HTTP/2's streams) one read may hold several
  // responses that came apart, so those wake for their traffic (HTTP/2's window updates
  // and PINGs must not wait for the next slot either).
  sleeps_through_traffic_ = open_loop_ && depth_ == 1 && !config_.http2 &&
                            engine_->sleeps_through_traffic() &&
                            &clock_ == &monotonic_clock() && hold_receive_stamps_on();
  lag_.use_timer_granularity(engine_->timeout_granularity_ns());
  host_samples_.reserve();
  connections_ = std::make_unique<Connection[]>(connection_count_);
  rings_ = std::make_unique<Outstanding[]>(static_cast<size_t>(connection_count_ * depth_));
  // Room to send again every request a connection can have in flight: -p's depth, or with
  // --http2 its streams (a GOAWAY refuses up to all of them at once; sized by -p alone, one
  // room per connection failed the rest: 7 of 3,000 against nginx's keepalive_requests).
  const int64_t resend_room =
      connection_count_ * (config_.http2 ? std::max<int64_t>(config_.streams, depth_) : depth_);
  resends_ = std::make_unique<Outstanding[]>(static_cast<size_t>(resend_room));
  resend_queue_.bind(resends_.get(), resend_room);
  recv_buffer_ = ZeroedArray<char>(kRecvBufferBytes);
  event_batch_ = io_event_batch_for(connection_count_);
  events_ = std::make_unique<IoEvent[]>(static_cast<size_t>(event_batch_));
  for (int64_t i = 0; i < connection_count_; ++i) {
    Connection& connection = connections_[i];
    connection.index = static_cast<int32_t>(i);
    connection.timer.id = static_cast<uint32_t>(i);
    connection.ring.bind(rings_.get() + i * depth_, depth_);
  }
  idle_.bind(connections_.get());
  size_t render_bytes = 0;
  for (const WireRequest& wire : requests_) {
    if (wire.request_template != nullptr) {
      render_bytes = std::max(render_bytes, wire.request_template->max_bytes());
    }
  }
  if (render_bytes > 0) {
    // Sized now for the largest request any line can render: the hot path only fills it.
    render_slab_ = std::make_unique<char[]>(render_bytes * static_cast<size_t>(connection_count_));
    for (int64_t i = 0; i < connection_count_; ++i) {
      connections_[i].render_buffer = render_slab_.get() + static_cast<size_t>(i) * render_bytes;
    }
  }
  if (transport_context_ != nullptr) setup_transports();
  if (config_.http2) setup_sessions();
  if (config_.warmup_ns > 0) {
    result_.warmup = std::make_shared<RunResult>();
    warmup_ = result_.warmup.get();
  }
  if (config_.ramp_ns > 0) {
    result_.ramp = std::make_shared<RunResult>();
    ramp_ = result_.ramp.get();
  }
  phase_results_[static_cast<int>(Phase::ramp)] = ramp_ != nullptr ? ramp_ : &result_;
  phase_results_[static_cast<int>(Phase::warmup)] = warmup_ != nullptr ? warmup_ : &result_;
  if (!config_.requests.empty()) {
    result_.lines.resize(
        static_cast<size_t>(line_stats_entries(static_cast<int64_t>(config_.requests.size()))));
  }
  // Open loop keeps both stopwatches per row, for interval logs (.hlog) of both.
  result_.timeline.plan(config_.warmup_ns, config_.duration_ns, open_loop_, config_.ramp_ns, 0,
                        config_.counted_closed_loop());
  return true;
}

void Worker::connect_all(int64_t give_up_ns) {
  // Worker threads sleep with nanosecond precision: the default 50 us slack would be added to
  // every wake-up, and with it to every dispatch.
#if HAMMER_LINUX_APIS
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
#endif
  for (int64_t i = 0; i < connection_count_; ++i) start_connect(connections_[i]);
  // Until every connection has connected or failed once (then it retries during the run).
  auto still_connecting = [this] {
    for (int64_t i = 0; i < connection_count_; ++i) {
      const ConnectionState state = connections_[i].state;
      if (state == ConnectionState::connecting || state == ConnectionState::handshaking ||
          state == ConnectionState::settling) {
        return true;
      }
    }
    return false;
  };
  while (!stopping_ && still_connecting()) {
    const int64_t now = clock_.now_ns();
    if (now >= give_up_ns) break;
    int64_t timeout_ns = give_up_ns - now;
    // https: a handshake's deadline (--timeout after its connect) may come first; a plain
    // connect's is the give-up time itself.
    if (transports_ || sessions_) {
      timeout_ns = std::max<int64_t>(std::min(timeout_ns, timers_.next_deadline_ns() - now), 0);
    }
    if (wait_cap_ns_ >= 0) timeout_ns = std::min(timeout_ns, wait_cap_ns_);
    const int count = engine_->wait(events_.get(), event_batch_, timeout_ns);
    handle_events(count);
    if ((transports_ || sessions_) && timers_.armed_count() > 0) {
      timers_.advance(clock_.now_ns(), [this](TimerNode* node) { on_timer(node); });
    }
  }
}

void Worker::run(int64_t start_ns, int64_t deadline_ns) {
  begin_run(start_ns, deadline_ns);
  while (run_pass()) {
  }
  end_run();
  // The last scrape reads the run's final counts, not those of its last pass.
  if (live_board_ != nullptr) publish_live(clock_.now_ns());
}

void Worker::begin_run(int64_t start_ns, int64_t deadline_ns) {
  started_ = true;
  if (render_slab_) wall_offset_ns_ = wall_now_ns() - clock_.now_ns();
  start_ns_ = start_ns;
  if (stopping_) {  // interrupted while connecting: nothing to measure
    deadline_ns = start_ns;
    stop_ns_ = start_ns;
  }
  deadline_ns_ = deadline_ns;
  drain_until_ns_ = deadline_ns + config_.timeout_ns;
  phases_.start_at(start_ns);
  result_.timeline.set_start(start_ns);
  // A first pass well after the start (a thread woken late) left the first slots unnoticed.
  wait_began_ns_ = start_ns;
  wait_asked_ns_ = 0;
  schedule_ = OpenLoopSchedule(start_ns, open_loop_ ? config_.rate : 1.0, slots_, deadline_ns,
                               config_.ramp_ns, config_.arrival);
  // Connections that connected before the start have been idle only since the start.
  for (int64_t i = 0; i < connection_count_; ++i) {
    if (connections_[i].state == ConnectionState::idle) connections_[i].idle_since_ns = start_ns;
  }
  if (!open_loop_) {
    // --ramp: connection i of the run (interleaved over the workers) joins at i T / C.
    for (int64_t i = 0; i < connection_count_; ++i) {
      Connection& connection = connections_[i];
      connection.not_before_ns =
          start_ns + ramp_connection_offset_ns(config_.ramp_ns, i * worker_count_ + worker_index_,
                                               config_.connections);
      if (connection.state == ConnectionState::idle) fill_closed_loop(connection, start_ns);
    }
  }
}

bool Worker::run_pass() {
  int64_t now = clock_.now_ns();
  // Absent since the last wait should have ended: it overslept (stopped, a frozen host), or
  // handling its events ran long. Either way the slots due meanwhile went unnoticed.
  note_absence(wait_began_ns_ + wait_asked_ns_, now);
  if (!h2_measured_started_ && now >= phases_.measured_start_ns()) h2_note_measured_start();
  const int64_t pass_began = now;
  if (!stopping_ && now >= deadline_ns_) {
    // Woken past the deadline (a late wake-up, a descheduled thread, a batched slot wake-up):
    // the slots due before it still leave on the connections that are idle, late, and their
    // lag is charged to hammer. Dropped, they would read as unsent behind busy connections,
    // the server's backlog, while every connection sat idle.
    if (open_loop_) dispatch_due(now);
    begin_stop(deadline_ns_);
  }
  // -n in closed loop: this worker's share is sent and every one answered or failed.
  if (!stopping_ && count_share_ >= 0 && counted_sends_ == count_share_ && in_flight_ == 0 &&
      phases_.phase_of(now) == Phase::measured) {
    begin_stop(now);
  }
  // Resends no connection can take end the drain too: a server that died mid-run left them
  // waiting out the whole --timeout (a new user's -d 3 run lasted 13 s), to fail at the end
  // as read errors all the same (end_run).
  if (stopping_ && (in_flight_ == 0 || now >= drain_until_ns_ || resends_stranded())) {
    return false;
  }
  if (open_loop_ && !stopping_) dispatch_due(now);
  if (now >= next_publish_ns_) publish_progress(now);

  const int64_t wake_ns = next_wake_ns(now);
  int64_t timeout_ns = 0;
  if (wake_ns > now) {
    // Sending took time since `now` was read: sleep to the absolute wake time.
    now = clock_.now_ns();
    timeout_ns = wake_ns > now ? wake_ns - now : 0;
  }
  // The pass itself ran long before its wait (sending a large backlog, say).
  note_absence(pass_began, now);
  // The wait asked for, before a test's cap: a ManualClock moved past it is an oversleep.
  wait_began_ns_ = now;
  wait_asked_ns_ = timeout_ns;
  if (wait_cap_ns_ >= 0) timeout_ns = std::min(timeout_ns, wait_cap_ns_);
  const bool through_traffic = timeout_ns > 0 && may_sleep_through_traffic();
  const int count = through_traffic
                        ? engine_->wait_for_time(events_.get(), event_batch_, timeout_ns)
                        : engine_->wait(events_.get(), event_batch_, timeout_ns);
  if (timeout_ns > 0) {
    ++result_.wakes.sleeps;
    result_.wakes.through_traffic += through_traffic;
  }
  if (sleeps_through_traffic_) {
    // The wall clock's offset for this batch's stamps, re-read at every wake-up.
    const int64_t before = clock_.now_ns();
    const int64_t wall = wall_now_ns();
    receive_clock_.note_offset(before, wall, clock_.now_ns());
  }
  const int64_t woke = clock_.now_ns();
  // Woken well past the wait's end, for whatever reason it ended: the host (or the process)
  // stalled, as the hiccup meter would have seen it (run/host_samples.h).
  if (timeout_ns > 0) {
    host_samples_.record(now - start_ns_, now + timeout_ns - start_ns_, woke - now - timeout_ns);
  }
  if (open_loop_) {
    // Slept through traffic, the events say nothing of how the sleep ended: its length does.
    if ((count == 0 || through_traffic) && timeout_ns > 0 && woke - now >= timeout_ns) {
      // Slept its whole timeout: how late the kernel woke it is the host's oversleep.
      tuner_.record(now + timeout_ns, woke);
    }
    // A slot that comes due from here on and leaves late in this pass (handling its events)
    // is late because the pass ran long, not for want of a connection.
    lag_.note_running_since(woke);
  }
  handle_events(count);
  if (timers_.armed_count() > 0) {
    timers_.advance(clock_.now_ns(), [this](TimerNode* node) { on_timer(node); });
  }
  return true;
}

int64_t Worker::next_wake_ns(int64_t now_ns) const {
  int64_t wake = stopping_ ? drain_until_ns_ : deadline_ns_;
  if (open_loop_ && !stopping_ && !idle_.empty() && schedule_.has_next()) {
    // Only a slot gets the lead: deadlines and timeouts need no microsecond precision.
    // Batched within the precision budget: see kMinSlotWakeGapNs.
    // Timed from the slots' own times, never from when the last pass ran: a wake-up "T after
    // the last send" carried each oversleep into the next slot, and slots just over T apart
    // drifted up to a slot late (lag p50 0.5 ms at 975 req/s and T = 1 ms). "Within T" is
    // strict: slots exactly T apart each leave on time.
    const int64_t next = schedule_.next_intended_ns();
    const bool batches = min_slot_wake_gap_ns_ > 0 &&
                         schedule_.due_count(next + min_slot_wake_gap_ns_ - 1) >= 2;
    wake = std::min(wake, (batches ? next + min_slot_wake_gap_ns_ : next) - tuner_.lead_ns());
  }
  wake = std::min(wake, timers_.next_deadline_ns());
  return std::max(wake, now_ns);
}

void Worker::begin_stop(int64_t stop_ns) {
  stopping_ = true;
  stop_ns_ = stop_ns;
  schedule_.stop_at(stop_ns);
  if (deadline_ns_ > stop_ns) {
    deadline_ns_ = stop_ns;
    drain_until_ns_ = stop_ns + config_.timeout_ns;
  }
  // Connections that are not carrying a request have nothing left to do, unless one is
  // coming up (connecting, or waiting to try again) to carry what a polite close left to
  // send again. The others are down for good: disconnected, which resends_stranded() reads.
  for (int64_t i = 0; i < connection_count_; ++i) {
    Connection& connection = connections_[i];
    if (!resend_queue_.empty() && (connection.state == ConnectionState::backoff ||
                                   connection.state == ConnectionState::connecting ||
                                   connection.state == ConnectionState::handshaking ||
                                   connection.state == ConnectionState::settling)) {
      continue;
    }
    if (!connection.busy()) {
      timers_.disarm(&connection.timer);
      idle_.remove(connection);
      close_socket(connection);
      set_state(connection, ConnectionState::disconnected);
    }
  }
}

void Worker::on_timer(TimerNode* node) {
  Connection& connection = connections_[node->id];
  switch (connection.state) {
    case ConnectionState::backoff:
      start_connect(connection);
      break;
    case ConnectionState::connecting:
      // A connect that outlives --timeout is a failed connect.
      note_connect_error("connect", ETIMEDOUT);
      close_socket(connection);
      retry_later(connection);
      break;
    case ConnectionState::handshaking:
      // A handshake that outlives --timeout is a failed handshake.
      connection.transport->fail_handshake_timeout(config_.timeout_ns);
      fail_handshake(connection, connection.transport->failure_reason());
      break;
    case ConnectionState::settling:
      fail_session_setup(connection, "no SETTINGS from the server within --timeout");
      break;
    case ConnectionState::writing:
    case ConnectionState::reading:
      if (connection.session != nullptr) {
        h2_expire(connection);  // only the streams past their deadline
        break;
      }
      fail_request(connection, ErrorKind::timeout);
      break;
    case ConnectionState::idle:
      // Closed loop with --ramp: this connection's turn to join the load.
      if (started_ && !stopping_ && !open_loop_) fill_closed_loop(connection, clock_.now_ns());
      break;
    case ConnectionState::disconnected:
      break;
  }
}

// The connection can take another request: it connected, or a response freed a place in its
// pipeline.
void Worker::become_idle(Connection& connection, int64_t now_ns) {
  if (!connection.busy()) {
    // Still writing while an early-answered request is finished: what is sent now queues.
    if (!connection.finishing) set_state(connection, ConnectionState::idle);
    connection.ring.reset();
  }
  // Requests a polite close left unanswered go before anything new (they are older), and only
  // on a new connection: one already carrying requests may be the next to close, with them
  // behind its last answer again (a server's per-connection request limit).
  // HTTP/2: a refused stream may go again on any connection (RFC 9113 §8.7).
  if (!resend_queue_.empty() && started_ && (connection.fresh || connection.session != nullptr)) {
    send_resends(connection);
  }
  if (stopping_) {
    if (!connection.busy()) close_socket(connection);
    return;
  }
  if (!open_loop_) {
    fill_closed_loop(connection, now_ns);
    return;
  }
  if (!connection.in_idle_list && connection.fd >= 0 && connection.can_take()) {
    connection.idle_since_ns = now_ns;
    idle_.push(connection);
  }
  dispatch_due(now_ns);
}

void Worker::fill_closed_loop(Connection& connection, int64_t now_ns) {
  if (now_ns < connection.not_before_ns) {
    // --ramp: not this connection's turn yet; its timer brings it in (on_timer, idle).
    if (!connection.busy()) timers_.arm(&connection.timer, connection.not_before_ns);
    return;
  }
  const uint32_t socket = connection.generation;
  while (connection.generation == socket && connection.fd >= 0 && connection.can_take() &&
         !stopping_) {
    // The clock reading that puts the request in its phase is its send time: -n counts the
    // measured ones, so a share is never passed by a send that crossed into the measured part.
    const int64_t now = clock_.now_ns();
    if (count_share_ >= 0 && phases_.phase_of(now) == Phase::measured) {
      if (counted_sends_ == count_share_) break;
      ++counted_sends_;
    }
    const int32_t line = next_closed_loop_line();
    send_request(connection, 0, line, next_closed_loop_seq(), now);
  }
}

// Sending a request: one per slot or per refill. Here, beside the dispatch that calls it, so
// the compiler can inline the path every request takes.
int64_t Worker::send_request(Connection& connection, int64_t intended_ns, int32_t line,
                             int64_t seq, int64_t now) {
  Outstanding request;
  request.seq = seq;
  request.intended_ns = open_loop_ ? intended_ns : now;
  request.actual_send_ns = now;
  request.line = line;
  request.first_on_socket = connection.fresh;
  request.generator_late = false;
  RunResult& phase = phase_for(request.intended_ns);
  ++phase.sent;
  if (LineStats* stats = line_stats(phase, line)) ++stats->sent;
  ++in_flight_;
  enqueue(connection, request, now);
  return now;
}

void Worker::enqueue(Connection& connection, const Outstanding& request, int64_t now) {
  if (connection.session != nullptr) {
    h2_enqueue(connection, request, now);
    return;
  }
  const bool was_empty = connection.ring.empty();
  connection.ring.push(request);
  connection.fresh = false;
  if (was_empty) {
    // The oldest request's response is the next one to parse; its timeout is the timer's.
    connection.parser.start(requests_[static_cast<size_t>(request.line)].method == Method::head);
    connection.response_bytes_seen = false;
    timers_.arm(&connection.timer, now + config_.timeout_ns);
  }
  // Requests queued behind a partial write go out when the socket takes more (continue_write).
  if (connection.state != ConnectionState::writing) {
    set_state(connection, ConnectionState::writing);
    continue_write(connection);
  } else if (completes_io_) {
    engine_->hurry();  // this one goes when the send in flight completes: hear of it at once
  }
}

void Worker::render_request(Connection& connection, const WireRequest& wire,
                            const Outstanding& next) {
  TemplateValues values;
  values.seq = next.seq;
  // Closed loop: intended_ns is the actual send time (send_request).
  values.intended_ms = (next.intended_ns + wall_offset_ns_) / 1'000'000;
  connection.rendered =
      wire.request_template->render(values, *template_data_, wire.bytes.body, connection.render_buffer);
  connection.rendered_seq = next.seq;
}

void Worker::dispatch_due(int64_t now_ns) {
  // Over HTTP/2 the streams this opens leave once per connection, after the loop (with -c 1
  // --streams 8, a budget batch of 3 slots was 3 writes); inside a batch of events, after it.
  const bool defers_here = sessions_ != nullptr && !deferring_h2_flushes_;
  if (defers_here) deferring_h2_flushes_ = true;
  dispatch_due_slots(now_ns);
  if (defers_here) {
    deferring_h2_flushes_ = false;
    if (h2_deferred_count_ > 0) flush_deferred_h2();
  }
}

void Worker::dispatch_due_slots(int64_t now_ns) {
  const int64_t line_count = static_cast<int64_t>(requests_.size());
  while (!idle_.empty() && schedule_.has_next() && schedule_.next_intended_ns() <= now_ns) {
    Connection* connection = idle_.pop();
    const int64_t intended = schedule_.next_intended_ns();
    // Without --requests every request is line 0: no division on the plain path.
    const int64_t slot = schedule_.next_slot();
    const auto line = line_count == 1 ? 0 : static_cast<int32_t>(slot % line_count);
    const int64_t idle_since = connection->idle_since_ns;
    const uint32_t socket = connection->generation;
    schedule_.take();
    const int64_t sent_ns = send_request(*connection, intended, line, slot, clock_.now_ns());
    // Dispatch lag describes the measured part, like every headline figure.
    if (intended >= phases_.measured_start_ns() && lag_.record(intended, sent_ns, idle_since) &&
        connection->generation == socket && connection->busy()) {
      // Its answer's corrected latency shows where hammer's lateness sits (verdicts).
      Outstanding& sent = connection->session != nullptr
                              ? connection->streams[connection->newest_stream]
                              : connection->ring.at(connection->ring.count() - 1);
      sent.generator_late = true;
    }
    // With -p or --streams, a connection with room for more waits its turn again at the back.
    if (connection->generation == socket && connection->fd >= 0 && connection->busy() &&
        connection->can_take()) {
      connection->idle_since_ns = clock_.now_ns();
      idle_.push(*connection);
    }
  }
  if (idle_.empty() && schedule_.has_next() && schedule_.next_intended_ns() <= now_ns) {
    lag_.note_backlog(schedule_.due_count(now_ns));
  }
}

}  // namespace hammer
