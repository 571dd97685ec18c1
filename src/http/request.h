// SPDX-License-Identifier: MIT
#pragma once
// The request hammer sends: built once per run into one string that every connection of every
// worker points at (a load generator's requests are all alike, so the hot path only writes
// bytes that already exist). Header lines the user passes with -H are checked here too, with
// the same character classes the response parser uses.
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace hammer {

struct RequestSpec {
  std::string method = "GET";
  std::string path = "/";          // request target: path and query, starts with '/'
  std::string host_header = {};    // value for Host, e.g. "127.0.0.1:8080" or "[::1]:8080"
  std::vector<std::string> headers = {};  // "Name: value", each already accepted by validate_header
  std::string body = {};
  bool keep_alive = true;          // false: send "Connection: close"
};

/// Request line, then Host (unless `headers` has one), the user's headers in order,
/// Content-Length when the body is not empty (unless the user gave Content-Length or
/// Transfer-Encoding), "Connection: close" when !keep_alive (unless the user gave Connection),
/// the blank line and the body. Names are matched case-insensitively.
std::string serialize_request(const RequestSpec& spec);

/// A header line split at its colon; views into the string given to validate_header().
struct HeaderField {
  std::string_view name;
  std::string_view value;  // without surrounding spaces and tabs
};

/// Checks one "Name: value" line as given to -H: a non-empty token name, a colon right after
/// it, and a value without CR, LF or other control characters (HTAB allowed). The error says
/// what is wrong in words, without the flag or the line, which the caller adds.
Expected<HeaderField, std::string> validate_header(std::string_view line);

/// Checks an HTTP method: a non-empty token ("GET", "PURGE", ...).
Expected<std::string_view, std::string> validate_method(std::string_view method);

}  // namespace hammer
