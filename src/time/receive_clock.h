// SPDX-License-Identifier: MIT
#pragma once
// ReceiveClock: puts the kernel's receive timestamps on the monotonic clock.
//
// In open loop a worker wakes for its schedule's slots and no more (issue 27): a response
// that arrives between two slots waits in the socket until the next one. Timed at that
// wake-up, its uncorrected latency would include the wait; timed by the kernel's software
// receive timestamp (SO_TIMESTAMPNS: when its last packet reached this host), it is exact,
// and closer to the truth than any wake-up: it no longer includes hammer's own scheduling
// delay either. The kernel stamps packets with CLOCK_REALTIME, so each wake-up re-reads the
// offset between the wall clock and the monotonic one. NTP slews both alike, so the offset
// only moves when the wall clock is stepped (settimeofday, a leap second, a VM restored):
// such a jump is counted, and the stamps read across it are not trusted (the caller times
// those reads at its wake-up, as without timestamps), never folded into a latency.
#include <cstdint>

namespace hammer {

class ReceiveClock {
 public:
  /// An offset that moves by more than this between two wake-ups is a step of the wall clock,
  /// not the two readings' jitter (tens of nanoseconds; a reading interrupted between the two
  /// clocks is discarded instead, see note_offset).
  static constexpr int64_t kStepNs = 100'000;

  /// The wall clock's reading at the monotonic time bracketed by `monotonic_before_ns` and
  /// `monotonic_after_ns` (three readings: monotonic, wall, monotonic). Returns false when
  /// the offset stepped since the last reading: stamps taken before now are not trusted.
  bool note_offset(int64_t monotonic_before_ns, int64_t wall_ns, int64_t monotonic_after_ns) {
    // Preempted between the readings: the pair says little; keep the last offset.
    if (monotonic_after_ns - monotonic_before_ns > kStepNs / 10 && known_) return trusted_;
    const int64_t offset = wall_ns - (monotonic_before_ns + (monotonic_after_ns - monotonic_before_ns) / 2);
    trusted_ = true;
    if (known_) {
      const int64_t moved = offset > offset_ns_ ? offset - offset_ns_ : offset_ns_ - offset;
      if (moved > kStepNs) {
        ++steps_;
        if (moved > largest_step_ns_) largest_step_ns_ = moved;
        trusted_ = false;
      }
    }
    offset_ns_ = offset;
    known_ = true;
    return trusted_;
  }

  /// The monotonic time of a receive stamped `wall_ns` (nanoseconds since the epoch), or 0
  /// when it cannot be trusted: no stamp (0), no offset yet, a step since the last reading,
  /// or a stamp after `now_ns` (the harvest's own clock reading).
  int64_t to_monotonic(int64_t wall_ns, int64_t now_ns) const {
    if (wall_ns <= 0 || !known_ || !trusted_) return 0;
    const int64_t monotonic = wall_ns - offset_ns_;
    return monotonic <= now_ns && monotonic > 0 ? monotonic : 0;
  }

  int64_t steps() const { return steps_; }
  int64_t largest_step_ns() const { return largest_step_ns_; }

 private:
  int64_t offset_ns_ = 0;
  bool known_ = false;
  bool trusted_ = false;
  int64_t steps_ = 0;
  int64_t largest_step_ns_ = 0;
};

}  // namespace hammer
