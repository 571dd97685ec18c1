// SPDX-License-Identifier: MIT
#pragma once
// --requests FILE: several requests in one run. The file is JSON Lines, one request per line:
//   {"path": "/search?category=alpha"}
//   {"path": "/items", "method": "POST", "headers": {"Content-Type": "application/json"},
//    "body": "{\"id\": 1}", "name": "create item"}
// Members: path (required, starts with '/'), method, headers (an object of strings), body (a
// string) or body_file (a file read whole; a relative path is taken from the requests file's
// folder), name (the report's label; default the path). Empty lines are skipped. -m, -H and
// --body are the defaults for every line: the line's method and body replace them, and a line's
// header replaces a -H header of the same name.
//
// Every line is checked at start-up and the first bad one is refused as "FILE:LINE: reason":
// bad JSON, an unknown or repeated member, a member of the wrong kind, a bad method, path or
// header, or framing headers that contradict the body (Content-Length other than the body's
// size, Transfer-Encoding with Content-Length, a Transfer-Encoding other than chunked, or a
// chunked body that is not well-formed chunks). Nothing is sent if any line is bad.
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/expected.h"

namespace hammer {

/// Most requests a file may hold (each line's counters live in every worker).
inline constexpr size_t kMaxRequestLines = 10'000;
/// Largest requests file, and largest sum of its bodies: everything is serialized once and kept
/// in memory for the whole run.
inline constexpr int64_t kMaxRequestFileBytes = 64 * 1024 * 1024;

/// What -m, -H and --body give every line.
struct RequestDefaults {
  std::string method = "GET";
  std::vector<std::string> headers;  // normalised "Name: value" lines, already validated
  std::string body;
};

/// Checks the body against the framing headers among `headers` ("Name: value" lines); an
/// empty string when they agree, else the reason.
std::string framing_problem(const std::vector<std::string>& headers, std::string_view body);

/// Parses a whole file's text. `label` names the file in messages; `base_dir` is where a
/// relative body_file is read from ("" = the current directory). The error is one line,
/// "LABEL:LINE: reason" (or "LABEL: reason" for the file as a whole).
Expected<std::vector<RequestLine>, std::string> parse_request_file(
    std::string_view text, std::string_view label, std::string_view base_dir,
    const RequestDefaults& defaults);

/// Reads `path` and parses it as above (relative body_file paths from the file's folder).
Expected<std::vector<RequestLine>, std::string> load_request_file(
    const std::string& path, const RequestDefaults& defaults);

}  // namespace hammer
