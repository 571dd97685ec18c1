// SPDX-License-Identifier: MIT
#pragma once
// --data and --data-order, and the start-up check of every templated text (the URL's path, -H,
// --body, a --requests line's path, headers and body): a bad placeholder, a missing --data, an
// unknown column or a bad CSV is refused before anything connects (docs/templates.md).
#include <optional>
#include <string>
#include <string_view>

#include "cli/usage_error.h"
#include "core/config.h"

namespace hammer {

/// --data-order sequential|random.
std::optional<UsageError> parse_data_order(std::string_view flag, std::string_view value,
                                           DataOrder& order);

/// Everything templated in `config` checked, as one line naming where (the file, its line and
/// the column); nullopt when all is well.
std::optional<std::string> check_templates(const Config& config);

}  // namespace hammer
