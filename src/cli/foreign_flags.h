// SPDX-License-Identifier: MIT
#pragma once
// Flags that users of other load generators (wrk, wrk2, oha, hey, k6, autocannon) type by
// habit and that hammer does not have under that name: each gets the hammer way to do the
// same, or a plain "not supported", instead of "see hammer --help" or a suggestion chosen by
// spelling alone (-T is a content type in hey and oha, not -t's threads).
#include <optional>
#include <string_view>

namespace hammer {

/// The hint for an unknown option `name` ("-s", "--rps"; without any "=value" or glued value),
/// or nullopt when no other tool's habit is known for it.
std::optional<std::string_view> foreign_flag_hint(std::string_view name);

}  // namespace hammer
