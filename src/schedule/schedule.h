// SPDX-License-Identifier: MIT
#pragma once
// The open-loop schedule and the dispatch lag it makes visible. See schedule.cc.
#include <cstdint>

#include "run/result.h"

namespace hammer {

/// One worker's share of the global schedule intended[k] = start + k * 1e9 / rate. Worker w of
/// W takes every k with k % W == w, so the workers' shares together are exactly the global
/// schedule: no slot is lost or duplicated by the split, and the offered rate is `rate` in
/// total whatever W is.
class OpenLoopSchedule {
 public:
  OpenLoopSchedule(int64_t start_ns, double rate, int64_t worker_index, int64_t worker_count,
                   int64_t deadline_ns);

  /// Intended send time of this worker's next unsent request.
  int64_t next_intended_ns() const { return intended_ns(next_k_); }
  /// True while the next request's intended time is before the deadline.
  bool has_next() const { return next_intended_ns() < deadline_ns_; }
  /// The next request is being sent: move to the one after it.
  void take() { next_k_ += worker_count_; }

  /// Requests whose intended time is <= now_ns and before the deadline, not yet sent.
  int64_t due_count(int64_t now_ns) const;
  /// How many of this worker's intended times fall before the deadline.
  int64_t scheduled_count() const;
  /// How many this worker has taken so far.
  int64_t taken_count() const { return (next_k_ - worker_index_) / worker_count_; }

  /// Cut the schedule short (Ctrl-C): nothing at or after `deadline_ns` will be due.
  void stop_at(int64_t deadline_ns) {
    if (deadline_ns < deadline_ns_) deadline_ns_ = deadline_ns;
  }

 private:
  int64_t intended_ns(int64_t k) const;
  int64_t slots_before(int64_t t_ns) const;  // global k with intended_ns(k) < t_ns

  int64_t start_ns_;
  double interval_ns_;
  int64_t worker_index_;
  int64_t worker_count_;
  int64_t deadline_ns_;
  int64_t next_k_;
};

/// Records dispatch lag (actual_send - intended) for each open-loop request and says whose
/// fault a late one was: if the connection it left on had been idle since before the request
/// was due (plus the threshold), hammer was late; if it freed up only after that, every
/// connection was busy waiting on the server.
class DispatchLagRecorder {
 public:
  /// Lag above this is "behind schedule": well above dispatch jitter on a loaded machine
  /// (tens of microseconds) and well below any latency a user would act on.
  static constexpr int64_t kBehindScheduleThresholdNs = 1'000'000;

  DispatchLagRecorder() { lag_.threshold_ns = kBehindScheduleThresholdNs; }

  /// `connection_idle_since_ns`: when the connection used became free to send.
  void record(int64_t intended_ns, int64_t actual_send_ns, int64_t connection_idle_since_ns) {
    const int64_t lag_ns = actual_send_ns > intended_ns ? actual_send_ns - intended_ns : 0;
    ++lag_.dispatched;
    lag_.sum_ns += lag_ns;
    if (lag_ns > lag_.max_ns) lag_.max_ns = lag_ns;
    if (lag_ns <= lag_.threshold_ns) return;
    ++lag_.behind_schedule;
    if (connection_idle_since_ns <= intended_ns + lag_.threshold_ns) {
      ++lag_.behind_generator;
    } else {
      ++lag_.behind_server;
    }
  }

  void note_backlog(int64_t backlog) {
    if (backlog > lag_.peak_backlog) lag_.peak_backlog = backlog;
  }

  const DispatchLag& lag() const { return lag_; }

 private:
  DispatchLag lag_;
};

}  // namespace hammer
