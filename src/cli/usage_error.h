// SPDX-License-Identifier: MIT
#pragma once
// The one shape of a command-line error, for the run and every subcommand alike: one line
// naming the flag and the value, without the "hammer: " prefix that only cli/main.cc adds.
#include <string>
#include <string_view>

#include "core/escaped.h"

namespace hammer {

/// What went wrong, as one line: "--connections: expected a whole number >= 1, got 'abc'".
struct UsageError {
  std::string message;
};

/// "FLAG: WHAT, got 'VALUE'". `what` may repeat part of the value (an SLO's key, a header's
/// name), so it is escaped like the value: a hostile value cannot split the line.
inline UsageError flag_error(std::string_view flag, std::string_view what,
                             std::string_view value) {
  return {std::string(flag) + ": " + escaped(what) + ", got " + quoted(value)};
}

}  // namespace hammer
