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
// worker shares the core. Every request already due goes out in the same pass, and above
// ~12k req/s per worker slot wake-ups are batched, at least kMinSlotWakeGapNs apart (without
// --precise-dispatch). What lateness remains is measured as dispatch lag rather than hidden
// (design.md §8).
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

#include "net/socket.h"
#include "run/connect_errors.h"
#include "platform/system.h"
#include "time/clock.h"

namespace hammer {
namespace {

// After a failed connect, wait this long before trying again, so an unreachable server costs
// a few syscalls per connection per period rather than a hot loop.
constexpr int64_t kReconnectDelayNs = 10'000'000;
// After Ctrl-C (or SIGTERM), responses already on their way get this long to arrive; what is
// still unanswered then is counted as in flight at the stop. Short enough to feel immediate,
// never the whole --timeout (a stuck server would hold the user hostage for it).
constexpr int64_t kInterruptGraceNs = 100'000'000;

}  // namespace

Worker::Worker(const Config& config, RequestBytes request, const SocketAddress& target,
               int64_t worker_index, int64_t worker_count, int64_t connection_count,
               const Clock& clock)
    : Worker(config, std::span<const WireRequest>(), target, worker_index, worker_count,
             connection_count, clock) {
  single_request_ = WireRequest{request, method_of(config.method)};
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
  corrected_stopwatch_ = config.corrected_stopwatch_leads();
  // Spinning on a core that another worker needs steals its time to send on schedule.
  const int64_t cpus = usable_cpu_count();
  const bool shares_core = cpus > 0 && cpus < worker_count;
  tuner_ = WakeTuner(shares_core               ? SpinPolicy::none
                     : config.precise_dispatch ? SpinPolicy::precise
                                               : SpinPolicy::balanced);
  min_slot_wake_gap_ns_ = config.precise_dispatch ? 0 : kMinSlotWakeGapNs;
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
  lag_.use_timer_granularity(engine_->timeout_granularity_ns());
  connections_ = std::make_unique<Connection[]>(connection_count_);
  rings_ = std::make_unique<Outstanding[]>(static_cast<size_t>(connection_count_ * depth_));
  resend_capacity_ = connection_count_ * depth_;
  resends_ = std::make_unique<Outstanding[]>(static_cast<size_t>(resend_capacity_));
  recv_buffer_ = ZeroedArray<char>(kRecvBufferBytes);
  event_batch_ = io_event_batch_for(connection_count_);
  events_ = std::make_unique<IoEvent[]>(static_cast<size_t>(event_batch_));
  for (int64_t i = 0; i < connection_count_; ++i) {
    Connection& connection = connections_[i];
    connection.index = static_cast<int32_t>(i);
    connection.timer.id = static_cast<uint32_t>(i);
    connection.ring = rings_.get() + i * depth_;
  }
  if (transport_context_ != nullptr) setup_transports();
  if (config_.warmup_ns > 0) {
    result_.warmup = std::make_shared<RunResult>();
    warmup_ = result_.warmup.get();
  }
  if (config_.ramp_ns > 0) {
    result_.ramp = std::make_shared<RunResult>();
    ramp_ = result_.ramp.get();
  }
  if (!config_.requests.empty()) {
    result_.lines.resize(
        static_cast<size_t>(line_stats_entries(static_cast<int64_t>(config_.requests.size()))));
  }
  // Open loop keeps both stopwatches per row, for interval logs (.hlog) of both.
  result_.timeline.plan(config_.warmup_ns, config_.duration_ns, open_loop_, config_.ramp_ns);
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
      if (state == ConnectionState::connecting || state == ConnectionState::handshaking) {
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
    if (transports_) {
      timeout_ns = std::max<int64_t>(std::min(timeout_ns, timers_.next_deadline_ns() - now), 0);
    }
    if (wait_cap_ns_ >= 0) timeout_ns = std::min(timeout_ns, wait_cap_ns_);
    const int count = engine_->wait(events_.get(), event_batch_, timeout_ns);
    for (int i = 0; i < count; ++i) handle_event(events_[i]);
    if (transports_ && timers_.armed_count() > 0) {
      timers_.advance(clock_.now_ns(), [this](TimerNode* node) { on_timer(node); });
    }
  }
}

void Worker::run(int64_t start_ns, int64_t deadline_ns) {
  begin_run(start_ns, deadline_ns);
  while (run_pass()) {
  }
  end_run();
}

void Worker::begin_run(int64_t start_ns, int64_t deadline_ns) {
  started_ = true;
  start_ns_ = start_ns;
  if (stopping_) {  // interrupted while connecting: nothing to measure
    deadline_ns = start_ns;
    stop_ns_ = start_ns;
  }
  deadline_ns_ = deadline_ns;
  drain_until_ns_ = deadline_ns + config_.timeout_ns;
  ramp_end_ns_ = start_ns + config_.ramp_ns;
  warmup_end_ns_ = ramp_end_ns_ + config_.warmup_ns;
  result_.timeline.set_start(start_ns);
  // A first pass well after the start (a thread woken late) left the first slots unnoticed.
  wait_began_ns_ = start_ns;
  wait_asked_ns_ = 0;
  schedule_ = OpenLoopSchedule(start_ns, open_loop_ ? config_.rate : 1.0, slots_, deadline_ns,
                               config_.ramp_ns);
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
  const int64_t pass_began = now;
  if (!stopping_ && now >= deadline_ns_) {
    // Woken past the deadline (a late wake-up, a descheduled thread, a batched slot wake-up):
    // the slots due before it still leave on the connections that are idle, late, and their
    // lag is charged to hammer. Dropped, they would read as unsent behind busy connections,
    // the server's backlog, while every connection sat idle.
    if (open_loop_) dispatch_due(now);
    begin_stop(deadline_ns_);
  }
  if (stopping_ && (in_flight_ == 0 || now >= drain_until_ns_)) return false;
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
  const int count = engine_->wait(events_.get(), event_batch_, timeout_ns);
  if (open_loop_) {
    const int64_t woke = clock_.now_ns();
    if (count == 0 && timeout_ns > 0) {
      // Slept its whole timeout: how late the kernel woke it is the host's oversleep.
      tuner_.record(now + timeout_ns, woke);
    }
    // A slot that comes due from here on and leaves late in this pass (handling its events)
    // is late because the pass ran long, not for want of a connection.
    lag_.note_running_since(woke);
  }
  for (int i = 0; i < count; ++i) handle_event(events_[i]);
  if (timers_.armed_count() > 0) {
    timers_.advance(clock_.now_ns(), [this](TimerNode* node) { on_timer(node); });
  }
  return true;
}

void Worker::note_absence(int64_t begin_ns, int64_t end_ns) {
  if (!open_loop_ || end_ns - begin_ns <= lag_.lag().threshold_ns) return;
  // Only the measured part's time counts as absent; the windows themselves are kept whole.
  const int64_t measured =
      std::max<int64_t>(0, std::min(end_ns, deadline_ns_) - std::max(begin_ns, warmup_end_ns_));
  lag_.note_absence(begin_ns, end_ns, measured);
}

void Worker::end_run() {
  // Whatever is still in flight after the drain window never answered within --timeout of the
  // deadline; their own timers would have fired already, so this only catches stragglers armed
  // late. Each is one timeout, counted once. After Ctrl-C the window was cut short: those
  // requests did not time out, they were cut off, and are counted as in flight at the stop.
  for (int64_t i = 0; i < connection_count_; ++i) {
    Connection& connection = connections_[i];
    if (connection.busy()) {
      if (result_.interrupted) {
        for (int32_t k = 0; k < connection.ring_count; ++k) {
          const Outstanding& cut = connection.ring[ring_index(connection, k)];
          ++phase_for(cut.intended_ns).in_flight_at_stop;
          --in_flight_;
        }
        connection.ring_count = 0;
        timers_.disarm(&connection.timer);
      } else {
        fail_request(connection, ErrorKind::timeout);
      }
    }
    close_socket(connection);
  }
  // Resends that found no connection before the end: unanswered as the close left them, so
  // failed as without a resend, or cut off by a signal.
  for (; resend_count_ > 0; --resend_count_) {
    const Outstanding& cut = resends_[resend_head_];
    resend_head_ = resend_head_ + 1 == resend_capacity_ ? 0 : resend_head_ + 1;
    --in_flight_;
    RunResult& phase = phase_for(cut.intended_ns);
    if (result_.interrupted) {
      ++phase.in_flight_at_stop;
      continue;
    }
    count_error(ErrorKind::read, cut.intended_ns);
    if (LineStats* stats = line_stats(phase, cut.line)) {
      ++stats->errors[static_cast<int>(ErrorKind::read)];
    }
    if (result_.first_socket_error.empty()) {
      result_.first_socket_error =
          "read: no connection came back before the end to send again what a close left "
          "unanswered";
    }
  }
  if (open_loop_) {
    const int64_t scheduled = schedule_.scheduled_count();
    const int64_t taken = schedule_.taken_count();
    // The schedule is first in, first out: the ramp's slots are the first ones taken, then the
    // warm-up's.
    auto slots_before = [&](int64_t end_ns) {
      return std::min(scheduled, OpenLoopSchedule(start_ns_, config_.rate, slots_, end_ns,
                                                  config_.ramp_ns)
                                     .scheduled_count());
    };
    const int64_t ramp_scheduled = ramp_ == nullptr ? 0 : slots_before(ramp_end_ns_);
    const int64_t before_measured =
        (ramp_ == nullptr && warmup_ == nullptr) ? 0 : slots_before(warmup_end_ns_);
    result_.scheduled = scheduled - before_measured;
    result_.unsent = result_.scheduled - std::max<int64_t>(taken - before_measured, 0);
    // The unsent slots are the last ones, [taken, scheduled). Those due from the moment this
    // worker lost its last connection (for good) had nothing to carry them: failed requests.
    // The earlier ones waited behind busy connections: the backlog.
    const int64_t lost_from = no_connection_since_ns_ == INT64_MAX ? scheduled
                              : no_connection_since_ns_ <= start_ns_
                                  ? 0
                                  : slots_before(no_connection_since_ns_);
    const int64_t first_unsent = std::max(taken, lost_from);
    result_.unsent_no_connection = scheduled - std::max(first_unsent, before_measured);
    // Of the rest, [max(taken, before_measured), min(scheduled, lost_from)), those due in an
    // absence window: hammer was not running when they came due.
    const int64_t backlog_from = std::max(taken, before_measured);
    const int64_t backlog_to = std::min(scheduled, std::max(lost_from, backlog_from));
    lag_.absences().visit([&](int64_t begin_ns, int64_t end_ns) {
      const int64_t from = std::max(slots_before(begin_ns), backlog_from);
      const int64_t to = std::min(slots_before(end_ns), backlog_to);
      if (to > from) result_.unsent_absent += to - from;
    });
    if (warmup_ != nullptr) {
      warmup_->scheduled = before_measured - ramp_scheduled;
      warmup_->unsent = std::max<int64_t>(
          warmup_->scheduled - std::max<int64_t>(taken - ramp_scheduled, 0), 0);
      warmup_->unsent_no_connection =
          std::max<int64_t>(before_measured - std::max(first_unsent, ramp_scheduled), 0);
    }
    if (ramp_ != nullptr) {
      ramp_->scheduled = ramp_scheduled;
      ramp_->unsent = std::max<int64_t>(ramp_scheduled - taken, 0);
      ramp_->unsent_no_connection = std::max<int64_t>(ramp_scheduled - first_unsent, 0);
    }
  }
  result_.lag = lag_.lag();
  finished_ns_ = std::max(stop_ns_, last_response_ns_);
}

int64_t Worker::next_wake_ns(int64_t now_ns) const {
  int64_t wake = stopping_ ? drain_until_ns_ : deadline_ns_;
  if (open_loop_ && !stopping_ && idle_head_ >= 0 && schedule_.has_next()) {
    // Only a slot gets the lead: deadlines and timeouts need no microsecond precision.
    // Batched at high rates: see kMinSlotWakeGapNs.
    wake = std::min(wake, std::max(schedule_.next_intended_ns() - tuner_.lead_ns(),
                                   last_dispatch_ns_ + min_slot_wake_gap_ns_));
  }
  wake = std::min(wake, timers_.next_deadline_ns());
  return std::max(wake, now_ns);
}

void Worker::publish_progress(int64_t now_ns) {
  next_publish_ns_ = now_ns + kPublishIntervalNs;
  int64_t completed = result_.completed;
  int64_t errors = result_.failed_requests();
  if (warmup_ != nullptr) {
    completed += warmup_->completed;
    errors += warmup_->failed_requests();
  }
  if (ramp_ != nullptr) {
    completed += ramp_->completed;
    errors += ramp_->failed_requests();
  }
  published_completed_.store(completed, std::memory_order_relaxed);
  published_errors_.store(errors, std::memory_order_relaxed);
}

void Worker::count_error(ErrorKind kind, int64_t when_ns) {
  ++phase_for(when_ns).errors[static_cast<int>(kind)];
  if (started_) result_.timeline.record_error(when_ns, kind == ErrorKind::timeout);
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
  // connecting to carry what a polite close left to send again.
  for (int64_t i = 0; i < connection_count_; ++i) {
    Connection& connection = connections_[i];
    if (resend_count_ > 0 && (connection.state == ConnectionState::connecting ||
                              connection.state == ConnectionState::handshaking)) {
      continue;
    }
    if (!connection.busy()) {
      timers_.disarm(&connection.timer);
      idle_remove(connection);
      close_socket(connection);
    }
  }
}

void Worker::handle_event(const IoEvent& event) {
  if (event.token == kWakeupIoToken) {
    // Ctrl-C or SIGTERM. The first stops issuing and gives responses on their way a short
    // grace; a second (already stopping) ends the drain now. Either way the report follows.
    wakeup_->drain();
    const int64_t now = clock_.now_ns();
    const bool again = result_.interrupted;
    result_.interrupted = true;
    if (!stopping_) begin_stop(now);
    drain_until_ns_ = again ? now : std::min(drain_until_ns_, now + kInterruptGraceNs);
    return;
  }
  const uint32_t index = io_token_index(event.token);
  if (index >= static_cast<uint32_t>(connection_count_)) return;
  Connection& connection = connections_[index];
  // Closed earlier in this batch, or an event for a socket since replaced: not this one's.
  if (connection.fd < 0 ||
      io_token_generation(event.token) != io_token_generation(token_of(connection))) {
    return;
  }
  switch (event.kind) {
    case IoEventKind::ready:
      if (connection.state == ConnectionState::connecting) {
        if (event.writable || event.hangup_or_error) on_connect_ready(connection);
        return;
      }
      if (connection.transport != nullptr) {
        on_transport_ready(connection, event);
        return;
      }
      if (event.readable || event.hangup_or_error) on_readable(connection);
      if (connection.fd >= 0 && connection.state == ConnectionState::writing && event.writable) {
        continue_write(connection);
      }
      return;
    case IoEventKind::connected:
      if (connection.state == ConnectionState::connecting) on_connect_ready(connection);
      return;
    case IoEventKind::received:
      if (connection.transport != nullptr) {
        on_transport_received(connection, event);
        return;
      }
      if (event.result > 0) {
        on_received(connection, Io::done, event.data, static_cast<size_t>(event.result), 0);
      } else {
        on_received(connection, event.result == 0 ? Io::closed : Io::error, nullptr, 0,
                    -event.result);
      }
      return;
    case IoEventKind::sent:
      if (connection.transport != nullptr) {
        on_transport_sent(connection, event);
        return;
      }
      if (connection.state != ConnectionState::writing) return;
      if (event.result > 0) {
        on_written(connection, Io::done, static_cast<size_t>(event.result), 0);
      } else if (event.result == -EPIPE || event.result == 0) {
        on_written(connection, Io::closed, 0, EPIPE);
      } else if (event.result == -EAGAIN) {
        continue_write(connection);  // nothing went: send the same bytes again
      } else {
        on_written(connection, Io::error, 0, -event.result);
      }
      return;
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
      connection.transport->fail_handshake_timeout();
      fail_handshake(connection, connection.transport->failure_reason());
      break;
    case ConnectionState::writing:
    case ConnectionState::reading:
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

void Worker::start_connect(Connection& connection) {
  // After the stop only requests waiting to be sent again still need a connection.
  if (stopping_ && resend_count_ == 0) {
    connection.state = ConnectionState::disconnected;
    return;
  }
  const int fd = open_nonblocking_socket(target_.family());
  if (fd < 0) {
    note_connect_error("socket", -fd);
    retry_later(connection);
    return;
  }
  connection.fd = fd;
  connection.connect_start_ns = clock_.now_ns();
  const ConnectResult started = hammer::start_connect(fd, target_);
  if (started.status == ConnectStatus::error) {
    note_connect_error("connect", started.error);
    close_socket(connection);
    retry_later(connection);
    return;
  }
  const bool pending = started.status != ConnectStatus::connected;
  if (!engine_->add(fd, token_of(connection), pending)) {
    note_connect_error("watch", errno);
    close_socket(connection);
    retry_later(connection);
    return;
  }
  connection.wants_write = pending && !completes_io_;
  if (started.status == ConnectStatus::connected) {
    on_connected(connection, clock_.now_ns());
    return;
  }
  connection.state = ConnectionState::connecting;
  timers_.arm(&connection.timer, clock_.now_ns() + config_.timeout_ns);
}

void Worker::note_connect_error(const char* what, int error_number) {
  count_error(ErrorKind::connect, clock_.now_ns());
  note_connect_failure(result_, what, error_number);
}

void Worker::on_connect_ready(Connection& connection) {
  const int error_number = take_socket_error(connection.fd);
  timers_.disarm(&connection.timer);
  if (error_number != 0) {
    note_connect_error("connect", error_number);
    close_socket(connection);
    retry_later(connection);
    return;
  }
  on_connected(connection, clock_.now_ns());
}

void Worker::on_connected(Connection& connection, int64_t now_ns) {
  set_no_delay(connection.fd);
  engine_->start_receiving(connection.fd, token_of(connection));
  connection.wants_write = false;
  result_.connect_time.record(now_ns - connection.connect_start_ns);
  if (connection.transport != nullptr) {
    start_handshake(connection, now_ns);  // on_ready_to_send once it is done
    return;
  }
  on_ready_to_send(connection, now_ns);
}

void Worker::on_ready_to_send(Connection& connection, int64_t now_ns) {
  ++result_.connects;
  ++live_connections_;
  no_connection_since_ns_ = INT64_MAX;
  // A connection event belongs to the phase it happened in, as a failed connect does: the
  // warm-up's reconnects are not the measured part's.
  if (connection.lost) ++phase_for(now_ns).reconnects;
  connection.lost = false;
  connection.fresh = true;
  if (!started_) {
    connection.state = ConnectionState::idle;
    connection.idle_since_ns = now_ns;
    if (open_loop_) idle_push(connection);
    return;
  }
  become_idle(connection, now_ns);
}

void Worker::retry_later(Connection& connection) {
  connection.lost = true;
  connection.state = stopping_ ? ConnectionState::disconnected : ConnectionState::backoff;
  if (!stopping_) timers_.arm(&connection.timer, clock_.now_ns() + kReconnectDelayNs);
}

int64_t Worker::send_request(Connection& connection, int64_t intended_ns, int32_t line) {
  const int64_t now = clock_.now_ns();
  Outstanding request;
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

void Worker::send_resends(Connection& connection) {
  const uint32_t socket = connection.generation;
  while (resend_count_ > 0 && connection.generation == socket && connection.fd >= 0 &&
         connection.ring_count < depth_) {
    Outstanding request = resends_[resend_head_];
    resend_head_ = resend_head_ + 1 == resend_capacity_ ? 0 : resend_head_ + 1;
    --resend_count_;
    // Its intended time stays (the corrected latency includes the wait for this connection);
    // the uncorrected one times the exchange that answers it, from now. Not a first request's
    // latency: the connection's cold start is not what delayed it.
    const int64_t now = clock_.now_ns();
    request.actual_send_ns = now;
    request.first_on_socket = false;
    enqueue(connection, request, now);
  }
}

void Worker::enqueue(Connection& connection, const Outstanding& request, int64_t now) {
  const bool was_empty = connection.ring_count == 0;
  connection.ring[ring_index(connection, connection.ring_count)] = request;
  ++connection.ring_count;
  connection.fresh = false;
  if (was_empty) {
    // The oldest request's response is the next one to parse; its timeout is the timer's.
    connection.parser.start(requests_[static_cast<size_t>(request.line)].method == Method::head);
    connection.response_bytes_seen = false;
    timers_.arm(&connection.timer, now + config_.timeout_ns);
  }
  // Requests queued behind a partial write go out when the socket takes more (continue_write).
  if (connection.state != ConnectionState::writing) {
    connection.state = ConnectionState::writing;
    continue_write(connection);
  } else if (completes_io_) {
    engine_->hurry();  // this one goes when the send in flight completes: hear of it at once
  }
}

void Worker::continue_write(Connection& connection) {
  if (connection.transport != nullptr) {
    transport_write(connection);
    return;
  }
  // Requests go out oldest first; write_offset counts the bytes of the first unwritten one
  // (ring_written) already handed to the socket. The head and the body live apart (the body
  // is not copied into the request).
  if (completes_io_) {
    // Straight from the bytes serialized once, one send in flight per connection (sends on
    // one socket must not overtake each other): what is left of the head and the body in one
    // submission, as epoll's one sendmsg below; the next pipelined request when on_written
    // hears this one went.
    const RequestBytes& request = unwritten_request(connection);
    const auto offset = static_cast<size_t>(connection.write_offset);
    const bool in_head = offset < request.head.size();
    const std::string_view first = in_head ? request.head.substr(offset)
                                           : request.body.substr(offset - request.head.size());
    const std::string_view second = in_head ? request.body : std::string_view();
    // Prompt when a pipelined request waits behind this one.
    const bool prompt = connection.finishing ? connection.ring_written < connection.ring_count
                                             : connection.ring_written + 1 < connection.ring_count;
    engine_->send(connection.fd, token_of(connection), first, second, prompt);
    return;
  }
  while (connection.finishing || connection.ring_written < connection.ring_count) {
    const RequestBytes& request = unwritten_request(connection);
    size_t wrote = 0;
    int error_number = 0;
    // Both parts in one sendmsg while head bytes remain, then the rest of the body. Without a
    // body this is the one send() it always was.
    const auto offset = static_cast<size_t>(connection.write_offset);
    const std::string_view head = request.head;
    const std::string_view body = request.body;
    const Io outcome =
        offset < head.size()
            ? (body.empty() ? write_some(connection.fd, head.data() + offset,
                                         head.size() - offset, &wrote, &error_number)
                            : write_some_two(connection.fd, head.data() + offset,
                                             head.size() - offset, body.data(), body.size(),
                                             &wrote, &error_number))
            : write_some(connection.fd, body.data() + (offset - head.size()),
                         body.size() - (offset - head.size()), &wrote, &error_number);
    if (!on_written(connection, outcome, wrote, error_number)) return;
  }
}

bool Worker::on_written(Connection& connection, Io outcome, size_t wrote, int error_number) {
  connection.write_offset += static_cast<int64_t>(wrote);
  if ((outcome == Io::error || outcome == Io::closed) && connection.finishing &&
      !connection.busy()) {
    // The rest of a request already answered did not go: the server stopped reading after
    // all. No request failed; the connection, whose framing is lost, is replaced.
    connection.lost = true;
    idle_remove(connection);
    close_socket(connection);
    start_connect(connection);
    return false;
  }
  if (outcome == Io::error || outcome == Io::closed) {
    if (result_.first_socket_error.empty()) {
      result_.first_socket_error = std::string("write: ") + error_text(error_number);
    }
    fail_request(connection, ErrorKind::write);
    return false;
  }
  if (connection.write_offset < static_cast<int64_t>(unwritten_request(connection).size())) {
    // A partial write: the rest when the socket takes more.
    if (completes_io_) {
      continue_write(connection);
    } else {
      set_write_interest(connection, true);
    }
    return false;
  }
  connection.write_offset = 0;
  if (connection.finishing) {
    connection.finishing = false;  // the answered request is whole on the wire at last
  } else {
    ++connection.ring_written;
  }
  if (connection.ring_written < connection.ring_count) {
    // The next pipelined request, queued while this one was being written.
    if (completes_io_) continue_write(connection);
    return true;
  }
  if (connection.state == ConnectionState::writing) {
    connection.state = connection.busy() ? ConnectionState::reading : ConnectionState::idle;
  }
  if (!completes_io_) set_write_interest(connection, false);
  return false;
}

void Worker::on_readable(Connection& connection) {
  size_t got = 0;
  int error_number = 0;
  const Io outcome = read_some(connection.fd, recv_buffer_.data(), kRecvBufferBytes, &got,
                               &error_number);
  if (outcome == Io::would_block) return;
  on_received(connection, outcome, recv_buffer_.data(), got, error_number);
}

void Worker::on_received(Connection& connection, Io outcome, const char* data, size_t got,
                         int error_number) {
  const int64_t now = clock_.now_ns();
  if (outcome == Io::done) {
    if (!connection.busy()) {
      // Bytes with no request outstanding (a 408 before an idle close, say): the server
      // answered something nobody asked. No request failed; it is a connection event, and the
      // connection, whose framing is now unknown, is replaced.
      phase_for(now).bytes_read += static_cast<int64_t>(got);
      ++phase_for(now).unsolicited;
      connection.lost = true;
      idle_remove(connection);
      close_socket(connection);
      start_connect(connection);
      return;
    }
    phase_for(front(connection).intended_ns).bytes_read += static_cast<int64_t>(got);
    std::string_view bytes(data, got);
    // One read may end several pipelined responses: each is matched to the oldest request.
    for (;;) {
      connection.response_bytes_seen = true;
      size_t consumed = 0;
      const ParseStatus status = connection.parser.feed(bytes, &consumed);
      if (status == ParseStatus::need_more) return;
      if (status == ParseStatus::error) {
        if (result_.first_parse_error.empty()) {
          result_.first_parse_error = std::string(describe(connection.parser.error()));
        }
        fail_request(connection, ErrorKind::parse);
        return;
      }
      if (consumed != bytes.size() && connection.ring_count == 1) {
        // More bytes than the response's framing allows (a body longer than its
        // Content-Length, a 204 or 304 with a body, a second response) with no other request
        // outstanding: the response's end is unknown and the connection's framing is lost.
        // The request fails now, as a parse error, before anything else can be sent on it.
        if (result_.first_parse_error.empty()) {
          result_.first_parse_error = "bytes after the end of a response";
        }
        fail_request(connection, ErrorKind::parse);
        return;
      }
      bytes.remove_prefix(consumed);
      const uint32_t socket = connection.generation;
      // No new request until this read's bytes are all matched: bytes that arrived before a
      // request was sent cannot be its response.
      on_response(connection, now, /*refill=*/false);
      if (connection.generation != socket) return;  // the response ended the socket
      if (bytes.empty()) {
        become_idle(connection, now);
        return;
      }
      // More bytes with requests still outstanding: the next pipelined response.
    }
  }

  // End of stream or a socket error.
  if (connection.busy()) {
    if (outcome == Io::closed && connection.response_bytes_seen &&
        connection.parser.finish_on_eof() == ParseStatus::complete) {
      const uint32_t socket = connection.generation;
      on_response(connection, now);  // a body delimited by the close
      if (connection.generation != socket || !connection.busy()) return;
    }
    if (outcome == Io::closed && !connection.response_bytes_seen) {
      // A clean close at a response boundary (an idle timeout or a request limit meeting the
      // next request): no byte of an answer came, so the requests may go again elsewhere.
      resend_unanswered(connection, "read: server closed the connection before a full response");
      return;
    }
    if (outcome == Io::error && result_.first_socket_error.empty()) {
      result_.first_socket_error = std::string("read: ") + error_text(error_number);
    } else if (outcome == Io::closed && result_.first_socket_error.empty()) {
      result_.first_socket_error = "read: server closed the connection before a full response";
    }
    fail_request(connection, ErrorKind::read);
    return;
  }
  // The server closed an idle keep-alive connection: reconnect, no error.
  connection.lost = true;
  idle_remove(connection);
  close_socket(connection);
  start_connect(connection);
}

void Worker::on_response(Connection& connection, int64_t now_ns, bool refill) {
  timers_.disarm(&connection.timer);
  --in_flight_;
  const Outstanding done = front(connection);
  // Answered before it was all written (the oldest unwritten request is always the oldest
  // outstanding one, unless an earlier early answer is still being finished).
  const bool written = connection.ring_written > 0 || connection.finishing;
  connection.ring_head = ring_index(connection, 1);
  --connection.ring_count;
  if (connection.ring_written > 0) --connection.ring_written;
  RunResult& phase = phase_for(done.intended_ns);
  LineStats* stats = line_stats(phase, done.line);
  ++phase.completed;
  if (!written) ++phase.early_responses;
  last_response_ns_ = now_ns;
  const ResponseInfo& info = connection.parser.info();
  const int64_t uncorrected = now_ns - done.actual_send_ns;
  const int64_t corrected = now_ns - done.intended_ns;
  if (info.status >= 100 && info.status <= 599) {
    ++phase.status_classes[info.status / 100 - 1];
    ++phase.status_codes[info.status];
  }
  phase.uncorrected.record(uncorrected);
  if (open_loop_) phase.corrected.record(corrected);
  if (done.generator_late) lag_.note_generator_late_latency(corrected, uncorrected);
  if (stats != nullptr) {
    ++stats->completed;
    if (info.status >= 100 && info.status <= 599) ++stats->status_classes[info.status / 100 - 1];
    stats->uncorrected.record(uncorrected);
    if (open_loop_) stats->corrected.record(corrected);
  }
  result_.timeline.record(done.intended_ns, corrected_stopwatch_ ? corrected : uncorrected);
  if (open_loop_) {
    result_.timeline.record_other(done.intended_ns,
                                  corrected_stopwatch_ ? uncorrected : corrected);
  }
  if (done.first_on_socket) result_.first_requests.record(uncorrected);
  if (!info.keep_alive || !config_.keep_alive) {
    // The connection ends here, as the server (or --no-keepalive) asked: a planned reconnect.
    // An answer that came before its request was all written stops the rest of it (RFC 9112
    // §9.5: cease sending the body and close). Requests pipelined behind it get no answer on
    // this socket: sent again elsewhere, or failed (resend_unanswered).
    connection.finishing = false;
    if (connection.busy()) {
      resend_unanswered(connection,
                        "read: server ended the connection with pipelined requests unanswered");
      return;
    }
    close_socket(connection);
    start_connect(connection);
    return;
  }
  if (!written) {
    // Answered early and the connection kept (RFC 9112 §9.5): the server still reads the body
    // its head announced, so the rest of it goes out before anything else on this socket.
    connection.finishing = true;
    connection.finishing_line = done.line;
  }
  if (connection.busy()) {
    // The next pipelined response is the next request's; its timeout runs from its send.
    connection.parser.start(requests_[static_cast<size_t>(front(connection).line)].method ==
                            Method::head);
    connection.response_bytes_seen = false;
    timers_.arm(&connection.timer, front(connection).actual_send_ns + config_.timeout_ns);
  }
  if (refill) become_idle(connection, now_ns);
}

void Worker::resend_unanswered(Connection& connection, const char* why) {
  // RFC 9112 §9.3.2: a request whose connection closed before its answer may be sent again on
  // a new one when its method is idempotent; nothing else is known about the server's side.
  bool failed_any = false;
  while (connection.ring_count > 0) {
    Outstanding& cut = front(connection);
    RunResult& phase = phase_for(cut.intended_ns);
    const bool idempotent = is_idempotent(requests_[static_cast<size_t>(cut.line)].method);
    if (config_.retry && idempotent && cut.resends < kMaxResends &&
        resend_count_ < resend_capacity_) {
      ++cut.resends;
      ++phase.retried;
      int64_t tail = resend_head_ + resend_count_;
      if (tail >= resend_capacity_) tail -= resend_capacity_;
      resends_[tail] = cut;
      ++resend_count_;  // still in flight: answered, failed or cut off later
    } else {
      if (config_.retry && !idempotent) ++phase.not_retried;
      count_error(ErrorKind::read, cut.intended_ns);
      if (LineStats* stats = line_stats(phase, cut.line)) {
        ++stats->errors[static_cast<int>(ErrorKind::read)];
      }
      --in_flight_;
      failed_any = true;
    }
    connection.ring_head = ring_index(connection, 1);
    --connection.ring_count;
  }
  if (failed_any && result_.first_socket_error.empty()) result_.first_socket_error = why;
  connection.ring_head = 0;
  connection.ring_written = 0;
  connection.write_offset = 0;
  connection.finishing = false;
  connection.lost = true;  // requests were outstanding: an unplanned end, like a failure
  timers_.disarm(&connection.timer);
  idle_remove(connection);
  close_socket(connection);
  start_connect(connection);  // its replacement takes the resends (become_idle)
}

void Worker::fail_request(Connection& connection, ErrorKind kind) {
  // Every request outstanding on the connection fails, each once, in its own phase and line.
  if (connection.ring_count == 0) count_error(kind, clock_.now_ns());
  while (connection.ring_count > 0) {
    const Outstanding& failed = front(connection);
    RunResult& phase = phase_for(failed.intended_ns);
    count_error(kind, failed.intended_ns);
    if (LineStats* stats = line_stats(phase, failed.line)) {
      ++stats->errors[static_cast<int>(kind)];
    }
    --in_flight_;
    connection.ring_head = ring_index(connection, 1);
    --connection.ring_count;
  }
  connection.ring_head = 0;
  connection.ring_written = 0;
  connection.write_offset = 0;
  connection.finishing = false;
  connection.lost = true;
  timers_.disarm(&connection.timer);
  idle_remove(connection);
  close_socket(connection);
  start_connect(connection);
}

void Worker::close_socket(Connection& connection) {
  if (connection.fd < 0) return;
  // Up: idle, or carrying requests (fail_request empties the ring before it closes).
  const bool was_connected = connection.state == ConnectionState::idle ||
                             connection.state == ConnectionState::writing ||
                             connection.state == ConnectionState::reading;
  if (was_connected && --live_connections_ == 0 && !stopping_) {
    no_connection_since_ns_ = clock_.now_ns();
  }
  if (engine_) engine_->remove(connection.fd, token_of(connection));
  hammer::close_socket(connection.fd);
  connection.fd = -1;
  ++connection.generation;  // whatever the engine still reports for this socket is stale
  if (connection.ring_count == 0) {
    // A partial write (a response came before the request was written) dies with the socket.
    connection.write_offset = 0;
    connection.finishing = false;
    connection.ring_head = 0;
    connection.ring_written = 0;
  }
  connection.wants_write = false;
  connection.transport_sending = false;
  connection.state = ConnectionState::disconnected;
}

void Worker::set_write_interest(Connection& connection, bool wants_write) {
  if (connection.wants_write == wants_write || connection.fd < 0) return;
  connection.wants_write = wants_write;
  engine_->want_write(connection.fd, token_of(connection), wants_write);
}

// The connection can take another request: it connected, or a response freed a place in its
// pipeline.
void Worker::become_idle(Connection& connection, int64_t now_ns) {
  if (connection.ring_count == 0) {
    // Still writing while an early-answered request is finished: what is sent now queues.
    if (!connection.finishing) connection.state = ConnectionState::idle;
    connection.ring_head = 0;
    connection.ring_written = 0;
  }
  // Requests a polite close left unanswered go before anything new (they are older), and only
  // on a new connection: one already carrying requests may be the next to close, with them
  // behind its last answer again (a server's per-connection request limit).
  if (resend_count_ > 0 && started_ && connection.fresh) send_resends(connection);
  if (stopping_) {
    if (connection.ring_count == 0) close_socket(connection);
    return;
  }
  if (!open_loop_) {
    fill_closed_loop(connection, now_ns);
    return;
  }
  if (!connection.in_idle_list) {
    connection.idle_since_ns = now_ns;
    idle_push(connection);
  }
  dispatch_due(now_ns);
}

void Worker::fill_closed_loop(Connection& connection, int64_t now_ns) {
  if (now_ns < connection.not_before_ns) {
    // --ramp: not this connection's turn yet; its timer brings it in (on_timer, idle).
    if (connection.ring_count == 0) timers_.arm(&connection.timer, connection.not_before_ns);
    return;
  }
  const uint32_t socket = connection.generation;
  while (connection.generation == socket && connection.fd >= 0 &&
         connection.ring_count < depth_ && !stopping_) {
    send_request(connection, 0, next_closed_loop_line());
  }
}

void Worker::dispatch_due(int64_t now_ns) {
  const int64_t line_count = static_cast<int64_t>(requests_.size());
  while (idle_head_ >= 0 && schedule_.has_next() && schedule_.next_intended_ns() <= now_ns) {
    Connection* connection = idle_pop();
    const int64_t intended = schedule_.next_intended_ns();
    // Without --requests every request is line 0: no division on the plain path.
    const auto line =
        line_count == 1 ? 0 : static_cast<int32_t>(schedule_.next_slot() % line_count);
    const int64_t idle_since = connection->idle_since_ns;
    const uint32_t socket = connection->generation;
    schedule_.take();
    const int64_t sent_ns = send_request(*connection, intended, line);
    last_dispatch_ns_ = sent_ns;
    // Dispatch lag describes the measured part, like every headline figure.
    if (intended >= warmup_end_ns_ && lag_.record(intended, sent_ns, idle_since) &&
        connection->generation == socket && connection->ring_count > 0) {
      // Its answer's corrected latency shows where hammer's lateness sits (verdicts).
      connection->ring[ring_index(*connection, connection->ring_count - 1)].generator_late = true;
    }
    // With -p, a connection with room in its pipeline waits its turn again at the back.
    if (connection->generation == socket && connection->busy() &&
        connection->ring_count < depth_) {
      connection->idle_since_ns = clock_.now_ns();
      idle_push(*connection);
    }
  }
  if (idle_head_ < 0 && schedule_.has_next() && schedule_.next_intended_ns() <= now_ns) {
    lag_.note_backlog(schedule_.due_count(now_ns));
  }
}

void Worker::idle_push(Connection& connection) {
  if (connection.in_idle_list) return;
  connection.in_idle_list = true;
  connection.idle_prev = idle_tail_;
  connection.idle_next = -1;
  if (idle_tail_ >= 0) {
    connections_[idle_tail_].idle_next = connection.index;
  } else {
    idle_head_ = connection.index;
  }
  idle_tail_ = connection.index;
}

Connection* Worker::idle_pop() {
  if (idle_head_ < 0) return nullptr;
  Connection& connection = connections_[idle_head_];
  idle_remove(connection);
  return &connection;
}

void Worker::idle_remove(Connection& connection) {
  if (!connection.in_idle_list) return;
  if (connection.idle_prev >= 0) {
    connections_[connection.idle_prev].idle_next = connection.idle_next;
  } else {
    idle_head_ = connection.idle_next;
  }
  if (connection.idle_next >= 0) {
    connections_[connection.idle_next].idle_prev = connection.idle_prev;
  } else {
    idle_tail_ = connection.idle_prev;
  }
  connection.idle_prev = connection.idle_next = -1;
  connection.in_idle_list = false;
}

}  // namespace hammer
