// SPDX-License-Identifier: MIT
#pragma once
// The one URL shape hammer takes: http[s]://host[:port][/path][?query]. Parsed strictly and once,
// before the run, so a typo is a one-line error instead of a run full of connect failures.
#include <string>
#include <string_view>

#include "core/config.h"
#include "core/expected.h"

namespace hammer {

/// Parses `url` into a Target. The scheme is "http" or "https" (any case: Target::scheme). The
/// host is a name, an IPv4 address, or an IPv6 address in brackets (Target::host holds it
/// without them). The port is 1..65535, the scheme's (80, 443) when absent. An empty path
/// becomes "/"; the query is kept in Target::path; a fragment ('#...') is dropped, as browsers
/// and curl do, since it is never sent. Host header: host, bracketed if IPv6, with ":port"
/// unless the port is the scheme's. Whether https can be run is the caller's to say.
/// Errors name the problem in words ("unsupported scheme 'ftp' ..."); the caller adds the URL.
/// Rejected: other schemes, a missing scheme, userinfo ("user@"), an empty host, a bad port,
/// spaces, control characters and non-ASCII bytes anywhere.
Expected<Target, std::string> parse_url(std::string_view url);

}  // namespace hammer
