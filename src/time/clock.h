// SPDX-License-Identifier: MIT
#pragma once
// One clock for the whole program: CLOCK_MONOTONIC in integer nanoseconds. Never the wall
// clock: NTP steps and slews would show up as latency (wrk's gettimeofday does exactly that).
#include <cstdint>
#include <ctime>

namespace hammer {

inline int64_t monotonic_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

constexpr int64_t kNanosPerMicro = 1'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;

}  // namespace hammer
