// SPDX-License-Identifier: MIT
#pragma once
// One clock for the whole program: CLOCK_MONOTONIC in integer nanoseconds. Never the wall
// clock: NTP steps and slews would show up as latency (wrk's gettimeofday does exactly that).
//
// Clock is the seam through which a worker reads time, so that its unit tests can drive it
// with a ManualClock (time/manual_clock.h) and judge dispatch, lag attribution, timeouts and
// deadlines without waiting or racing a real clock. One virtual call per reading costs about
// a nanosecond next to the ~20 ns of clock_gettime.
//
// On Windows the source is QueryPerformanceCounter (platform/system.h).
#include <cstdint>
#include <ctime>

#include "time/time_units.h"
#include "platform/system.h"

namespace hammer {

inline int64_t monotonic_now_ns() {
#if HAMMER_WINDOWS
  return windows_monotonic_now_ns();
#else
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * kNanosPerSecond + now.tv_nsec;
#endif
}

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t now_ns() const = 0;
};

/// CLOCK_MONOTONIC, what every run uses.
class MonotonicClock final : public Clock {
 public:
  int64_t now_ns() const override { return monotonic_now_ns(); }
};

/// The process's one MonotonicClock (stateless, so one instance serves every thread).
inline const Clock& monotonic_clock() {
  static const MonotonicClock clock;
  return clock;
}

}  // namespace hammer
