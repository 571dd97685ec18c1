// SPDX-License-Identifier: MIT
//
// Why a schedule at all. A closed-loop generator sends the next request only when the last
// answer arrived, so while a server stalls it sends nothing, and the requests real users would
// have sent during the stall are never timed: the histogram describes a server that never
// existed (Gil Tene's "coordinated omission"; wrk2's README makes the case with numbers).
//
// hammer decides before the run when each request should leave: intended[k] = start + k/rate.
// Corrected latency is measured from intended[k], so a request that could not leave because
// every connection was stuck behind a stall is charged for the wait. Uncorrected latency is
// from the actual send, as closed-loop tools report it; both are recorded.
//
// The schedule is global, not per connection (wrk2 plans each connection alone, so a stuck
// connection's slots are never taken by idle ones and load drops during stalls). Each worker
// takes every W-th slot; inside a worker a due request leaves on whichever connection is free.
// The backlog of due-but-unsent requests is implicit: it is every slot between the worker's
// next slot and now, so it costs no memory however far behind a run falls.
//
// Dispatch lag (actual_send - intended) is the tool's honesty check: see DispatchLagRecorder.
#include "schedule/schedule.h"

#include <cmath>

namespace hammer {

OpenLoopSchedule::OpenLoopSchedule(int64_t start_ns, double rate, int64_t worker_index,
                                   int64_t worker_count, int64_t deadline_ns)
    : start_ns_(start_ns),
      interval_ns_(1e9 / rate),
      worker_index_(worker_index),
      worker_count_(worker_count),
      deadline_ns_(deadline_ns),
      next_k_(worker_index) {}

int64_t OpenLoopSchedule::intended_ns(int64_t k) const {
  // Computed from k each time rather than accumulated, so rounding never drifts.
  return start_ns_ + static_cast<int64_t>(std::llround(static_cast<double>(k) * interval_ns_));
}

int64_t OpenLoopSchedule::slots_before(int64_t t_ns) const {
  if (t_ns <= start_ns_) return 0;
  int64_t k = static_cast<int64_t>(static_cast<double>(t_ns - start_ns_) / interval_ns_);
  // Floating point can be one off either way; settle on the exact boundary.
  while (k > 0 && intended_ns(k - 1) >= t_ns) --k;
  while (intended_ns(k) < t_ns) ++k;
  return k;
}

int64_t OpenLoopSchedule::due_count(int64_t now_ns) const {
  const int64_t limit = now_ns < deadline_ns_ ? now_ns + 1 : deadline_ns_;
  const int64_t global = slots_before(limit);
  // This worker's slots below `global`: k = worker_index + j * worker_count < global.
  const int64_t mine = global > worker_index_
                           ? (global - worker_index_ + worker_count_ - 1) / worker_count_
                           : 0;
  const int64_t due = mine - taken_count();
  return due > 0 ? due : 0;
}

int64_t OpenLoopSchedule::scheduled_count() const {
  const int64_t global = slots_before(deadline_ns_);
  return global > worker_index_ ? (global - worker_index_ + worker_count_ - 1) / worker_count_
                                : 0;
}

}  // namespace hammer
