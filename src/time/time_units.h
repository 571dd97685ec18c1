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

}  // namespace hammer
