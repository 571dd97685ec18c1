// SPDX-License-Identifier: MIT
#pragma once
// --start-at's wall-clock instants: RFC 3339 ("2026-12-01T10:00:00Z",
// "2026-12-01T11:00:00.250+01:00") or Unix seconds ("1764583200", "1764583200.25").
#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace hammer {

/// Nanoseconds since the Unix epoch, or why the text is not an instant. RFC 3339 needs the
/// date, 'T' (or 't' or a space), the time with seconds, optional fraction (up to 9 digits) and
/// a zone ('Z' or +hh:mm / -hh:mm); Unix seconds are digits with an optional fraction.
Expected<int64_t, std::string> parse_wall_time_ns(std::string_view text);

}  // namespace hammer
