// SPDX-License-Identifier: MIT
//
// The end of the run (end_run): what is still in flight is timed out or, after Ctrl-C, cut
// off, in its own phase; then, open loop, the phase accounting: how many of this worker's slots each phase
// (Phases: ramp, warm-up, measured) scheduled, how many it left unsent, and why (no
// connection to leave on, hammer absent, or the server's backlog). Per request the worker
// keeps no record of this: the schedule is a formula (Phases::slots_before), first in, first
// out, so the unsent slots are the last ones and each phase's share follows from counts.
// And what the end waits for: the absences the dispatch lag reads (note_absence), and the
// resends that no connection can take any more (resends_stranded).
#include <algorithm>
#include <climits>

#include "run/worker.h"

namespace hammer {

void Worker::end_run() {
  // Whatever is still in flight after the drain window never answered within --timeout of the
  // deadline; their own timers would have fired already, so this only catches stragglers armed
  // late. Each is one timeout, counted once. After Ctrl-C the window was cut short: those
  // requests did not time out, they were cut off, and are counted as in flight at the stop.
  for (int64_t i = 0; i < connection_count_; ++i) {
    Connection& connection = connections_[i];
    if (connection.busy()) {
      if (result_.interrupted && connection.session != nullptr) {
        h2_cut_streams(connection);
        timers_.disarm(&connection.timer);
      } else if (result_.interrupted) {
        connection.ring.drain([&](const Outstanding& cut) {
          ++phase_for(cut.intended_ns).in_flight_at_stop;
          --in_flight_;
        });
        timers_.disarm(&connection.timer);
      } else {
        fail_request(connection, ErrorKind::timeout);
      }
    }
    close_socket(connection);
  }
  // Resends that found no connection before the end: unanswered as the close left them, so
  // failed as without a resend, or cut off by a signal.
  while (!resend_queue_.empty()) {
    const Outstanding cut = resend_queue_.pop();
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
  if (open_loop_) account_unsent();
  h2_collect_counts();
  result_.lag = lag_.lag();
  finished_ns_ = std::max(stop_ns_, last_response_ns_);
}

void Worker::account_unsent() {
  const int64_t scheduled = schedule_.scheduled_count();
  const int64_t taken = schedule_.taken_count();
  // The schedule is first in, first out: the ramp's slots are the first ones taken, then the
  // warm-up's.
  auto slots_before = [&](int64_t end_ns) {
    return std::min(scheduled, phases_.slots_before(slots_, end_ns));
  };
  const int64_t ramp_scheduled = ramp_ == nullptr ? 0 : slots_before(phases_.warmup_start_ns());
  const int64_t before_measured =
      (ramp_ == nullptr && warmup_ == nullptr) ? 0 : slots_before(phases_.measured_start_ns());
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
  // absence window: hammer was not running when they came due. A stall's only (as the dispatch
  // lag's rule, DispatchLagRecorder::absence_delayed): slots still unsent at the end waited on
  // busy connections, which a busy host's late wake-up of a millisecond did not make busy.
  const int64_t backlog_from = std::max(taken, before_measured);
  const int64_t backlog_to = std::min(scheduled, std::max(lost_from, backlog_from));
  lag_.absences().visit([&](int64_t begin_ns, int64_t end_ns) {
    if (end_ns - begin_ns < DispatchLagRecorder::kLongAbsenceNs) return;
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

// An absence counts as a stall from the length the hiccup meter calls one.
static_assert(DispatchLagRecorder::kLongAbsenceNs == HostReading::kLongStallNs);

bool Worker::resends_stranded() const {
  if (resend_queue_.empty()) return false;
  for (int64_t i = 0; i < connection_count_; ++i) {
    if (connections_[i].state != ConnectionState::disconnected) return false;
  }
  return true;
}

void Worker::note_absence(int64_t begin_ns, int64_t end_ns) {
  if (!open_loop_ || end_ns - begin_ns <= lag_.lag().threshold_ns) return;
  // Only the measured part's time counts as absent, and only a stall, as the hiccup meter
  // and the dispatch lag's blame count one (10 ms and more, DispatchLagRecorder::
  // kLongAbsenceNs): on a busy host a worker woken 1.1 ms late at every slot was
  // "not running" for a quarter of the run, its slots all sent, and over_capacity's rate over
  // the time hammer was running read a third too high. The windows themselves are kept
  // whole: a slot due in any of them still left late by hammer's fault.
  const int64_t measured =
      end_ns - begin_ns < DispatchLagRecorder::kLongAbsenceNs
          ? 0
          : std::max<int64_t>(0, std::min(end_ns, deadline_ns_) -
                                     std::max(begin_ns, phases_.measured_start_ns()));
  lag_.note_absence(begin_ns, end_ns, measured);
}

}  // namespace hammer
