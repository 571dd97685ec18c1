// SPDX-License-Identifier: MIT
#pragma once
// UTC calendar conversions under one name: gmtime_r/timegm on POSIX, gmtime_s/_mkgmtime on
// Windows (same meaning, other names and argument order). Header-only, so any module may use it.
#include <ctime>

namespace hammer {

/// Seconds since the epoch to a UTC calendar time; false when out of range.
inline bool utc_calendar(std::time_t seconds, std::tm* out) {
#if defined(_WIN32)
  return gmtime_s(out, &seconds) == 0;
#else
  return gmtime_r(&seconds, out) != nullptr;
#endif
}

/// A UTC calendar time back to seconds since the epoch (normalising as timegm does).
inline std::time_t utc_seconds(std::tm* calendar) {
#if defined(_WIN32)
  return _mkgmtime(calendar);
#else
  return timegm(calendar);
#endif
}

}  // namespace hammer
