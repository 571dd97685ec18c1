// SPDX-License-Identifier: MIT
#pragma once
// The run's phases on one clock: the ramp (--ramp, load rising), then the warm-up (--warmup,
// the same load, not measured), then the measured part (-d), then the deadline. One schedule
// runs throughout; a request belongs to the phase its send time falls in (intended, in open
// loop), so the cut is a timestamp comparison, never a reset of state. Built once from Config;
// the worker, run/ and the readers of a run ask it instead of adding the lengths up again.
#include <climits>
#include <cstdint>

#include "core/config.h"
#include "schedule/slot_partition.h"

namespace hammer {

enum class Phase : uint8_t { ramp, warmup, measured };
inline constexpr int kPhaseCount = 3;

class Phases {
 public:
  Phases() = default;
  explicit Phases(const Config& config)
      : ramp_ns_(config.ramp_ns),
        warmup_ns_(config.warmup_ns),
        duration_ns_(config.duration_ns),
        rate_(config.rate),
        arrival_(config.arrival),
        ramp_cut_(config.ramp_ns > 0 ? INT64_MAX : INT64_MIN),
        warmup_cut_(config.warmup_ns > 0 ? INT64_MAX : INT64_MIN) {}
  /// The same phases at another rate (a sweep's step).
  Phases(const Config& config, double rate) : Phases(config) { rate_ = rate; }

  /// The arrival process the slots follow (--arrival, --seed).
  const ArrivalProcess& arrival() const { return arrival_; }

  /// The phases' clock starts (the schedule's t0). Before it every time reads as the run's
  /// first phase, and the measured part has not begun.
  void start_at(int64_t start_ns) {
    start_ns_ = start_ns;
    measured_start_ns_ = start_ns + ramp_ns_ + warmup_ns_;
    ramp_cut_ = ramp_ns_ > 0 ? start_ns + ramp_ns_ : INT64_MIN;
    warmup_cut_ = warmup_ns_ > 0 ? measured_start_ns_ : INT64_MIN;
  }

  bool has_ramp() const { return ramp_ns_ > 0; }
  bool has_warmup() const { return warmup_ns_ > 0; }
  bool has(Phase phase) const {
    return phase == Phase::measured || (phase == Phase::ramp ? has_ramp() : has_warmup());
  }

  /// Lengths, from Config.
  int64_t ramp_ns() const { return ramp_ns_; }
  int64_t warmup_ns() const { return warmup_ns_; }
  int64_t duration_ns() const { return duration_ns_; }
  /// Offsets from the start: where the warm-up, the measured part and the run end.
  int64_t warmup_offset_ns() const { return ramp_ns_; }
  int64_t measured_offset_ns() const { return ramp_ns_ + warmup_ns_; }
  int64_t total_ns() const { return ramp_ns_ + warmup_ns_ + duration_ns_; }

  /// Absolute times, after start_at().
  int64_t start_ns() const { return start_ns_; }
  int64_t warmup_start_ns() const { return start_ns_ + ramp_ns_; }
  int64_t measured_start_ns() const { return measured_start_ns_; }
  int64_t deadline_ns() const { return start_ns_ + total_ns(); }

  /// Two compares, on the path every request takes.
  Phase phase_of(int64_t t_ns) const {
    return t_ns < ramp_cut_ ? Phase::ramp : t_ns < warmup_cut_ ? Phase::warmup : Phase::measured;
  }

  /// Open loop: how many of `partition`'s slots come due before `t_ns` (the schedule's
  /// formula, ramp and arrival process included), after start_at(). Exact for Poisson too:
  /// it draws the same S(k) the workers do (one Gamma draw per 128 slots from slot 0).
  int64_t slots_before(const SlotPartition& partition, int64_t t_ns) const;
  /// Open loop: how many of `partition`'s slots fall in `phase` of a run that ran its course
  /// (the measured part up to the planned deadline).
  int64_t slots_in(Phase phase, const SlotPartition& partition) const;

 private:
  int64_t ramp_ns_ = 0;
  int64_t warmup_ns_ = 0;
  int64_t duration_ns_ = 0;
  double rate_ = 0;
  ArrivalProcess arrival_;
  int64_t start_ns_ = 0;
  int64_t measured_start_ns_ = INT64_MAX;
  int64_t ramp_cut_ = INT64_MIN;    // phase_of: before it, the ramp (INT64_MIN: no ramp)
  int64_t warmup_cut_ = INT64_MIN;  // before it (and after the ramp), the warm-up
};

}  // namespace hammer
