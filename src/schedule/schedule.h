// SPDX-License-Identifier: MIT
#pragma once
// The open-loop schedule and the dispatch lag it makes visible. See schedule.cc.
#include <algorithm>
#include <cstdint>

#include "schedule/absence_windows.h"
#include "schedule/arrivals.h"
#include "schedule/dispatch_lag.h"
#include "schedule/slot_partition.h"

namespace hammer {

/// The global schedule as a formula of the slot number k, offsets from the run's start (t0):
///   without a ramp:  t(k) = k / R
///   with a ramp T:   t(k) = sqrt(2 k T / R)   while t < T (k < R T / 2): the rate rises
///                                             linearly from 0 to R, r(t) = R t / T
///                    t(k) = k / R + T / 2     after it: the steady rate, continuing exactly
///                                             where the ramp ends (t(R T / 2) = T both ways)
/// So the ramp holds R T / 2 slots (the area under the rising rate), and everything after it is
/// the unramped schedule shifted by T / 2. Pure arithmetic on k, so any partition of the slots
/// (workers, shards) takes its slots from the same global times.
class SlotTimes {
 public:
  SlotTimes(double rate, int64_t ramp_ns);
  /// Offset of slot k from t0, in ns (rounded to the nearest ns; never drifts: computed from k).
  int64_t offset_ns(int64_t k) const { return offset_at(static_cast<double>(k)); }
  /// The same formula at a real slot position: a Poisson schedule's S(k) (arrivals.h), the
  /// inverse of the cumulative rate at s expected slots.
  int64_t offset_at(double slot) const;
  /// How many slots have offset_ns(k) < offset (0 for offset <= 0).
  int64_t slots_before(int64_t offset) const;

 private:
  double interval_ns_;  // 1e9 / R
  double ramp_ns_;      // T, 0 for none
  double ramp_slots_;   // R T / 2 (real: the ramp ends between two slots)
};

/// One worker's share of the global schedule intended[k] = start + SlotTimes(k) (constant
/// arrivals) or start + SlotTimes(S(k)) (Poisson: S(k) the k-th arrival of a unit-rate Poisson
/// process drawn from the seed, arrivals.h): the slots of its SlotPartition (slot_partition.h). Worker w of W of an unsharded run takes every k with
/// k % W == w, so the workers' shares together are exactly the global schedule: no slot is
/// lost or duplicated by the split, and the offered rate is `rate` in total whatever W is (and
/// rises over a --ramp the same way for every worker); --shard deals the slots over machines
/// first, the same way.
class OpenLoopSchedule {
 public:
  OpenLoopSchedule(int64_t start_ns, double rate, SlotPartition slots, int64_t deadline_ns,
                   int64_t ramp_ns = 0, ArrivalProcess arrival = {});
  /// Worker `worker_index` of `worker_count` in an unsharded run.
  OpenLoopSchedule(int64_t start_ns, double rate, int64_t worker_index, int64_t worker_count,
                   int64_t deadline_ns, int64_t ramp_ns = 0)
      : OpenLoopSchedule(start_ns, rate, SlotPartition{worker_index, worker_count}, deadline_ns,
                         ramp_ns) {}

  /// Intended send time of this worker's next unsent request.
  int64_t next_intended_ns() const { return next_intended_ns_; }
  /// True while the next request's intended time is before the deadline.
  bool has_next() const { return next_intended_ns() < deadline_ns_; }
  /// Global slot number of the next request (k in the formula).
  int64_t next_slot() const { return next_k_; }
  /// The next request is being sent: move to the one after it.
  void take();

  /// Requests whose intended time is <= now_ns and before the deadline, not yet sent.
  int64_t due_count(int64_t now_ns) const;
  /// How many of this worker's intended times fall before the deadline.
  int64_t scheduled_count() const;
  /// How many this worker has taken so far.
  int64_t taken_count() const { return (next_k_ - slots_.first) / slots_.stride; }

  /// Cut the schedule short (Ctrl-C): nothing at or after `deadline_ns` will be due.
  void stop_at(int64_t deadline_ns) {
    if (deadline_ns < deadline_ns_) deadline_ns_ = deadline_ns;
  }

 private:
  int64_t slots_before(int64_t t_ns) const;  // global k with intended_ns(k) < t_ns
  // Poisson: the first slot at or after `cursor`'s whose offset is >= offset.
  int64_t poisson_slots_before(PoissonCursor& cursor, int64_t offset) const;

  int64_t start_ns_;
  SlotTimes times_;
  SlotPartition slots_;
  int64_t deadline_ns_;
  int64_t next_k_;
  bool poisson_;
  uint64_t seed_;
  PoissonCursor next_;               // Poisson: at next_k_
  mutable PoissonCursor frontier_;   // Poisson: where the last due count stopped
  mutable int64_t frontier_offset_ = INT64_MIN;  // the offset it stopped at
  int64_t next_intended_ns_;
};

/// Closed loop with --ramp T: when connection `global_index` of `total` may first send, as an
/// offset from t0. Connections open evenly over the ramp (index i at i T / total), so the load
/// rises in steps of one connection; without a ramp every connection starts at t0.
int64_t ramp_connection_offset_ns(int64_t ramp_ns, int64_t global_index, int64_t total);

/// Records dispatch lag (actual_send - intended) for each open-loop request and says whose
/// fault a late one was: if it came due while the worker was absent (AbsenceWindows: it
/// overslept its wait or a pass ran long), or the connection it left on had been idle since
/// before the request was due (plus the threshold), hammer was late; otherwise every
/// connection was busy waiting on the server. Due-time first: after a stall every connection
/// is busy with the catch-up burst by the time its slots leave, which says nothing of the
/// server.
class DispatchLagRecorder {
 public:
  /// Lag above this is "behind schedule": well above dispatch jitter on a loaded machine
  /// (tens of microseconds) and well below any latency a user would act on.
  static constexpr int64_t kBehindScheduleThresholdNs = 1'000'000;

  DispatchLagRecorder() { lag_.threshold_ns = kBehindScheduleThresholdNs; }

  /// The unit the worker's sleeps are rounded up to (its poller's timeout unit). Where that is
  /// coarse (1 ms with poll and WSAPoll), being up to two ticks late is the timers' doing, which
  /// the timer_floor verdict reports, not a saturated generator: "behind schedule" starts
  /// above it.
  void use_timer_granularity(int64_t granularity_ns) {
    lag_.timer_granularity_ns = granularity_ns;
    update_threshold();
  }
  /// The precision budget (--dispatch-precision T): slot wake-ups come at least T apart, so a
  /// slot may leave up to T late by design, and the kernel's oversleep comes on top, as a
  /// coarse timer's tick does: like the tick, "behind schedule" starts above two budgets.
  /// Budgets up to 500 us (the default's 50 us) leave the threshold where it was.
  void use_budget(int64_t budget_ns) {
    lag_.budget_ns = budget_ns;
    update_threshold();
  }

  /// The worker was not running its loop over [begin_ns, end_ns); `measured_ns` of it fell in
  /// the measured part. Windows come in time order.
  void note_absence(int64_t begin_ns, int64_t end_ns, int64_t measured_ns) {
    absences_.add(begin_ns, end_ns);
    lag_.absent_ns += measured_ns;
  }
  /// The worker's current pass began (its wait returned) at `ns`: a slot that came due after
  /// that and leaves late in the same pass is late because the pass ran long.
  void note_running_since(int64_t ns) { running_since_ns_ = ns; }

  /// `connection_idle_since_ns`: when the connection used became free to send. Calls come in
  /// intended order. True when the request was late by hammer's own fault (behind_generator).
  bool record(int64_t intended_ns, int64_t actual_send_ns, int64_t connection_idle_since_ns) {
    const int64_t lag_ns = actual_send_ns > intended_ns ? actual_send_ns - intended_ns : 0;
    ++lag_.dispatched;
    lag_.sum_ns += lag_ns;
    lag_.histogram.record(lag_ns);
    if (lag_ns > lag_.max_ns) lag_.max_ns = lag_ns;
    // Branch-free (a compare and a conditional move): this runs once per request.
    const bool was_idle = connection_idle_since_ns <= intended_ns;
    lag_.idle_dispatched += was_idle;
    lag_.idle_sum_ns += was_idle ? lag_ns : 0;
    if (lag_ns <= lag_.threshold_ns) return false;
    // Only late requests get here: the absence check costs the common path nothing.
    ++lag_.behind_schedule;
    const bool absent = intended_ns >= running_since_ns_ ||
                        absence_delayed(absences_.covering(intended_ns), connection_idle_since_ns);
    if (absent || connection_idle_since_ns <= intended_ns + lag_.threshold_ns) {
      ++lag_.behind_generator;
      lag_.behind_absent += absent;
      if (lag_ns > lag_.generator_max_ns) lag_.generator_max_ns = lag_ns;
      return true;
    }
    ++lag_.behind_server;
    return false;
  }

  /// A short absence (a busy host's late wake-up) makes late only what it held up itself:
  /// a slot whose connection was free by the time the worker came back. One that then waited
  /// for a connection busy well past the absence waited on the server (a backlog's 1.3 s lag
  /// was blamed on hammer for a 1 ms late wake-up, a new user's trial). A stall of
  /// kLongAbsenceNs and more is hammer's whatever the connections did: the catch-up burst after
  /// it keeps them busy with slots the server never failed to take (issue 23).
  static constexpr int64_t kLongAbsenceNs = 10'000'000;  // HostReading::kLongStallNs's 10 ms
  bool absence_delayed(const AbsenceWindows::Window* window,
                       int64_t connection_idle_since_ns) const {
    if (window == nullptr) return false;
    return window->end_ns - window->begin_ns >= kLongAbsenceNs ||
           connection_idle_since_ns <= window->end_ns + lag_.threshold_ns;
  }

  /// A behind_generator request was answered `corrected_ns` after its slot and
  /// `uncorrected_ns` after it left.
  void note_generator_late_latency(int64_t corrected_ns, int64_t uncorrected_ns) {
    lag_.generator_late_latency.record(corrected_ns);
    lag_.generator_late_unlagged.record(uncorrected_ns);
  }

  void note_backlog(int64_t backlog) {
    if (backlog > lag_.peak_backlog) lag_.peak_backlog = backlog;
  }

  const DispatchLag& lag() const { return lag_; }
  /// The absence windows not yet passed by the slots recorded (end_run counts the unsent
  /// slots that came due in them).
  const AbsenceWindows& absences() const { return absences_; }

 private:
  void update_threshold() {
    lag_.threshold_ns = std::max({kBehindScheduleThresholdNs, 2 * lag_.timer_granularity_ns,
                                  2 * lag_.budget_ns});
  }

  DispatchLag lag_;
  AbsenceWindows absences_;
  int64_t running_since_ns_ = INT64_MAX;
};

}  // namespace hammer
