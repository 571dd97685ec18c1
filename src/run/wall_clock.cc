// SPDX-License-Identifier: MIT
#include "run/wall_clock.h"

#include <cerrno>
#include <ctime>

#include "time/clock.h"

namespace hammer {

int64_t wall_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<int64_t>(now.tv_sec) * kNanosPerSecond + now.tv_nsec;
}

bool sleep_until_wall_ns(int64_t unix_ns) {
  timespec until{};
  until.tv_sec = static_cast<time_t>(unix_ns / kNanosPerSecond);
  until.tv_nsec = static_cast<long>(unix_ns % kNanosPerSecond);
  for (;;) {
    const int error = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until, nullptr);
    if (error == 0) return true;
    if (error == EINTR) return false;  // Ctrl-C: the caller stops
    if (wall_now_ns() >= unix_ns) return true;
  }
}

int64_t monotonic_at_wall_ns(int64_t unix_ns) {
  // Bracket the wall reading between two monotonic ones and take their middle, so the pair is
  // as close to simultaneous as two clock reads allow (a few tens of ns).
  const int64_t before = monotonic_now_ns();
  const int64_t wall = wall_now_ns();
  const int64_t after = monotonic_now_ns();
  return before + (after - before) / 2 + (unix_ns - wall);
}

}  // namespace hammer
