// SPDX-License-Identifier: MIT
#pragma once
// The request hammer sends: built once per run into one string that every connection of every
// worker points at (a load generator's requests are all alike, so the hot path only writes
// bytes that already exist). Header lines the user passes with -H are checked here too, with
// the same character classes the response parser uses.
#include <cstdint>
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
  std::string_view body = {};      // a view: the body (up to 64 MB) is held once, by Config
  bool keep_alive = true;          // false: send "Connection: close"
};

/// The bytes of one request as sent: the head (request line, header fields, blank line) and a
/// body that stays where it already is, so a 64 MB body is never copied into the request.
/// Implicit from one string: a whole request with no separate body.
struct RequestBytes {
  std::string_view head;
  std::string_view body;
  RequestBytes(std::string_view whole) : head(whole) {}  // NOLINT(google-explicit-constructor)
  RequestBytes(const std::string& whole) : head(whole) {}  // NOLINT(google-explicit-constructor)
  RequestBytes(std::string_view request_head, std::string_view request_body)
      : head(request_head), body(request_body) {}
  size_t size() const { return head.size() + body.size(); }
};

/// A request's method, as far as hammer's decisions go: which methods announce an empty body
/// and which may be resent after a connection ended before their answer. Decided once per
/// request line at setup (method_of), never by comparing strings on the hot path.
enum class Method : uint8_t { get, head, post, put, delete_, options, trace, patch, connect, other };

/// The method named exactly `name` (methods are case-sensitive, RFC 9110 §9.1); `other` for
/// an extension method (PURGE, PROPFIND ...).
Method method_of(std::string_view name);

/// RFC 9110 §9.2.2: GET, HEAD, PUT, DELETE, OPTIONS and TRACE mean the same done twice as
/// once, so a request of theirs left unanswered by a closed connection may be sent again. An
/// extension method is not known to be.
bool is_idempotent(Method method);

/// Request line, then Host (unless `headers` has one), the user's headers in order,
/// Content-Length when the body is not empty or the method defines a meaning for a body
/// (POST, PUT, PATCH: "Content-Length: 0", RFC 9110 §8.6), unless the user gave
/// Content-Length or Transfer-Encoding; "Connection: close" when !keep_alive (unless the user
/// gave Connection), and the blank line. Names are matched case-insensitively.
std::string serialize_request_head(const RequestSpec& spec);

/// serialize_request_head() followed by the body: the whole request in one string.
std::string serialize_request(const RequestSpec& spec);

/// What is wrong with the request framing -H and --body give together, or empty: two Host
/// fields, Content-Length or Transfer-Encoding that contradict the body (framing_problem() of
/// http/request_file.h). The caller names the flags.
std::string request_header_problem(const std::vector<std::string>& headers,
                                   std::string_view body);

/// What the request's own Connection fields say about the connection (RFC 9112 §9.3): `close`
/// when any of their comma-separated options is "close" (it wins: the sender closes after this
/// exchange), else `keep_alive` when one is "keep-alive", else `none`. Case-insensitive.
enum class ConnectionOption : uint8_t { none, close, keep_alive };
ConnectionOption connection_option(const std::vector<std::string>& headers);

/// A header line split at its colon; views into the string given to validate_header().
struct HeaderField {
  std::string_view name;
  std::string_view value;  // without surrounding spaces and tabs
};

/// Checks one "Name: value" line as given to -H: a non-empty token name, a colon right after
/// it, and a value without CR, LF or other control characters (HTAB allowed). The error says
/// what is wrong in words, without the flag or the line, which the caller adds.
Expected<HeaderField, std::string> validate_header(std::string_view line);

/// The field as a request carries it: "Name: value", one space after the colon ("Name:" when
/// the value is empty).
std::string normalised_header(const HeaderField& field);

/// Checks an HTTP method: a non-empty token ("GET", "PURGE", ...).
Expected<std::string_view, std::string> validate_method(std::string_view method);

}  // namespace hammer
