// SPDX-License-Identifier: MIT
#pragma once
// A minimal http:// URL check for the command line, standing in until src/http/url.h's
// parse_url exists; the name differs so both can link while the switch is made.
#include <string>
#include <string_view>

#include "core/config.h"
#include "core/expected.h"

namespace hammer {

/// Parses "http://host[:port][/path][?query]" (scheme case-insensitive, IPv6 in brackets,
/// port 1..65535, default 80; a fragment is dropped, since it is never sent). The error is a
/// reason without the URL, e.g. "https is not supported ...".
Expected<Target, std::string> parse_target_url(std::string_view url);

}  // namespace hammer
