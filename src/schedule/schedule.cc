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
// takes every W-th slot (with --shard, every machine takes every N-th first: slot_partition.cc);
// inside a worker a due request leaves on whichever connection is free.
// The backlog of due-but-unsent requests is implicit: it is every slot between the worker's
// next slot and now, so it costs no memory however far behind a run falls.
//
// --ramp T raises the rate linearly from 0 to R over T before anything else (schedule.h,
// SlotTimes): one formula of k still, so the split over workers stays exact during the ramp.
//
// --arrival poisson replaces k by S(k), the k-th arrival of a unit-rate Poisson process drawn
// from --seed (arrivals.cc): exponential gaps, the same function of (seed, k) for every worker
// and shard, so the split stays exact; the ramp's rising rate maps S(k) through the same
// inverse cumulative rate (a time change, which keeps it a Poisson process of that rate).
//
// Dispatch lag (actual_send - intended) is the tool's honesty check: see DispatchLagRecorder.
#include "schedule/schedule.h"

#include <cmath>

namespace hammer {

SlotTimes::SlotTimes(double rate, int64_t ramp_ns)
    : interval_ns_(1e9 / rate),
      ramp_ns_(static_cast<double>(ramp_ns > 0 ? ramp_ns : 0)),
      ramp_slots_(ramp_ns_ / interval_ns_ / 2) {}

int64_t SlotTimes::offset_at(double slot) const {
  if (slot < ramp_slots_) {
    // sqrt(2 k T / R) with R in slots per ns: 2 k T * interval.
    return static_cast<int64_t>(std::llround(std::sqrt(2.0 * slot * ramp_ns_ * interval_ns_)));
  }
  return static_cast<int64_t>(std::llround(slot * interval_ns_ + ramp_ns_ / 2));
}

int64_t SlotTimes::slots_before(int64_t offset) const {
  if (offset <= 0) return 0;
  const double t = static_cast<double>(offset);
  int64_t k = t < ramp_ns_ ? static_cast<int64_t>(t * t / (2.0 * ramp_ns_ * interval_ns_))
                           : static_cast<int64_t>((t - ramp_ns_ / 2) / interval_ns_);
  // Floating point can be one off either way; settle on the exact boundary.
  while (k > 0 && offset_ns(k - 1) >= offset) --k;
  while (offset_ns(k) < offset) ++k;
  return k;
}

int64_t ramp_connection_offset_ns(int64_t ramp_ns, int64_t global_index, int64_t total) {
  if (ramp_ns <= 0 || total <= 0) return 0;
  return static_cast<int64_t>(std::llround(static_cast<double>(ramp_ns) *
                                           static_cast<double>(global_index) /
                                           static_cast<double>(total)));
}

OpenLoopSchedule::OpenLoopSchedule(int64_t start_ns, double rate, SlotPartition slots,
                                   int64_t deadline_ns, int64_t ramp_ns, ArrivalProcess arrival)
    : start_ns_(start_ns),
      times_(rate, ramp_ns),
      slots_(slots),
      deadline_ns_(deadline_ns),
      next_k_(slots.first),
      poisson_(arrival.kind == Arrival::poisson),
      seed_(arrival.seed),
      next_(arrival.seed),
      frontier_(arrival.seed) {
  if (poisson_) next_.advance_to(next_k_);
  next_intended_ns_ =
      start_ns_ + (poisson_ ? times_.offset_at(next_.arrival()) : times_.offset_ns(next_k_));
}

void OpenLoopSchedule::take() {
  next_k_ += slots_.stride;
  // Computed from k (or S(k)) each time rather than accumulated, so rounding never drifts.
  if (poisson_) {
    next_.advance_to(next_k_);
    next_intended_ns_ = start_ns_ + times_.offset_at(next_.arrival());
  } else {
    next_intended_ns_ = start_ns_ + times_.offset_ns(next_k_);
  }
}

int64_t OpenLoopSchedule::poisson_slots_before(PoissonCursor& cursor, int64_t offset) const {
  cursor.advance_while([&](double s) { return times_.offset_at(s) < offset; });
  return cursor.slot();
}

int64_t OpenLoopSchedule::slots_before(int64_t t_ns) const {
  const int64_t offset = t_ns - start_ns_;
  if (!poisson_) return times_.slots_before(offset);
  // The frontier only moves forward: every slot before it is due before frontier_offset_, so
  // it serves any later time. An earlier one starts again from this worker's next slot where
  // that is due before it, else from slot 0.
  if (offset < frontier_offset_) {
    const bool from_next = times_.offset_at(next_.arrival()) < offset;
    frontier_ = from_next ? next_ : PoissonCursor(seed_);
  }
  frontier_offset_ = offset;
  return poisson_slots_before(frontier_, offset);
}

int64_t OpenLoopSchedule::due_count(int64_t now_ns) const {
  const int64_t limit = now_ns < deadline_ns_ ? now_ns + 1 : deadline_ns_;
  const int64_t due = slots_.count_below(slots_before(limit)) - taken_count();
  return due > 0 ? due : 0;
}

int64_t OpenLoopSchedule::scheduled_count() const {
  if (!poisson_) return slots_.count_below(slots_before(deadline_ns_));
  // From a copy: the deadline is far ahead of the due counts the frontier serves.
  const int64_t offset = deadline_ns_ - start_ns_;
  PoissonCursor cursor = offset >= frontier_offset_ ? frontier_ : PoissonCursor(seed_);
  return slots_.count_below(poisson_slots_before(cursor, offset));
}

}  // namespace hammer
