// SPDX-License-Identifier: MIT
#pragma once
// The wall clock, for the one thing it is needed for: starting a fleet of shards at the same
// instant (--start-at) and saying when a run began. Intervals are never measured on it (NTP
// steps and slews would show up as latency): see time/clock.h.
#include <cstdint>

namespace hammer {

/// CLOCK_REALTIME in nanoseconds since the Unix epoch.
int64_t wall_now_ns();

/// Sleeps until the wall clock reads `unix_ns` (absolute, so an NTP slew during the wait is
/// followed). False when a signal cut the sleep short (Ctrl-C).
bool sleep_until_wall_ns(int64_t unix_ns);

/// The monotonic instant that corresponds to wall-clock `unix_ns`, read as one pair of clock
/// readings now: how a wall-clock start becomes the schedule's t0.
int64_t monotonic_at_wall_ns(int64_t unix_ns);

}  // namespace hammer
