// SPDX-License-Identifier: MIT
#pragma once
// Nanoseconds per unit: every time inside hammer is int64_t nanoseconds, and these are the one
// set of constants that converts to and from the units people write (flags, reports).
#include <cstdint>

namespace hammer {

constexpr int64_t kNanosPerMicro = 1'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;

/// Events per second over a span of nanoseconds: the one way every report computes req/s
/// (completed over measured wall time, never an average of per-second figures); 0 for a span
/// that is not positive.
inline double per_second(int64_t count, int64_t span_ns) {
  return span_ns <= 0 ? 0.0
                      : static_cast<double>(count) * static_cast<double>(kNanosPerSecond) /
                            static_cast<double>(span_ns);
}

}  // namespace hammer
