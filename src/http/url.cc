// SPDX-License-Identifier: MIT
// URL parsing for the command line. Only what RFC 3986 allows for http(s) URLs with a host, minus
// what hammer cannot use (userinfo, percent-encoded or non-ASCII host names, IPv6 zone IDs);
// every rejection says which part is wrong, because the user typed it a second ago.
#include "http/url.h"

#include "http/request_template.h"

#include <charconv>

#include "platform/native_socket.h"  // inet_pton

namespace hammer {
namespace {

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k) {
    char c = text[k];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[k]) return false;
  }
  return true;
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '.' || c == '_' || c == '~';
}

Expected<Target, std::string> fail(std::string message) { return unexpected(std::move(message)); }

constexpr int kHttpPort = 80;
constexpr int kHttpsPort = 443;

}  // namespace

Expected<Target, std::string> parse_url(std::string_view url) {
  for (size_t k = 0; k < url.size(); ++k) {
    k = placeholder_end(url, k);  // {{random 1 6}}: its spaces are not the URL's
    if (k >= url.size()) break;
    const auto c = static_cast<unsigned char>(url[k]);
    if (c <= 0x20 || c >= 0x7f) {
      if (c == ' ') return fail("contains a space; percent-encode it as %20");
      if (c >= 0x80) return fail("contains a non-ASCII byte; percent-encode it");
      return fail("contains a control character");
    }
  }
  if (url.empty()) return fail("empty URL; expected http://host[:port][/path]");

  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    // "localhost:8080": what curl and autocannon take. Say the URL it would be, if it is one.
    const bool could_be_host =
        (is_name_char(url.front()) && url.front() != '-') || url.front() == '[';
    if (could_be_host && parse_url("http://" + std::string(url))) {
      return fail("missing scheme; did you mean 'http://" + std::string(url) + "'?");
    }
    return fail("missing scheme; expected http://host[:port][/path]");
  }
  const std::string_view scheme = url.substr(0, scheme_end);
  Target target;
  if (starts_with_ignoring_case(scheme, "https") && scheme.size() == 5) {
    target.scheme = Scheme::https;
    target.port = kHttpsPort;
  } else if (!(starts_with_ignoring_case(scheme, "http") && scheme.size() == 4)) {
    if (scheme.empty()) return fail("missing scheme; expected http://host[:port][/path]");
    return fail("unsupported scheme '" + std::string(scheme) +
                "'; only http:// and https:// are supported");
  }

  std::string_view rest = url.substr(scheme_end + 3);
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos) {
    rest = rest.substr(0, hash);  // a fragment is never sent
  }
  const size_t authority_end = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, authority_end);
  std::string_view path =
      authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos) {
    return fail("userinfo ('user@') in URLs is not supported; send credentials with -H");
  }

  std::string_view port_text;
  bool has_port = false;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return fail("IPv6 address without closing ']'");
    target.host = std::string(authority.substr(1, close - 1));
    if (target.host.empty()) return fail("empty host");
    in6_addr address{};
    if (inet_pton(AF_INET6, target.host.c_str(), &address) != 1) {
      return fail("'" + target.host + "' is not an IPv6 address");
    }
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return fail("unexpected characters after ']'");
      port_text = after.substr(1);
      has_port = true;
    }
  } else {
    const size_t colon = authority.find(':');
    target.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      has_port = true;
    }
    if (target.host.empty()) return fail("empty host");
    for (char c : target.host) {
      if (!is_name_char(c)) {
        return fail("host '" + target.host + "' contains '" + std::string(1, c) +
                    "', which is not allowed in a host name");
      }
    }
  }

  if (has_port) {
    if (port_text.empty()) return fail("empty port after ':'");
    int port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port < 1 ||
        port > 65535) {
      return fail("bad port '" + std::string(port_text) + "'; expected a number from 1 to 65535");
    }
    target.port = port;
  }
  target.port_text = std::to_string(target.port);

  if (path.empty()) {
    target.path = "/";
  } else if (path.front() == '?') {
    target.path = "/" + std::string(path);
  } else {
    target.path = std::string(path);
  }

  const bool v6 = target.host.find(':') != std::string::npos;
  target.host_header = v6 ? "[" + target.host + "]" : target.host;
  const int default_port = target.scheme == Scheme::https ? kHttpsPort : kHttpPort;
  if (target.port != default_port) target.host_header += ":" + target.port_text;
  return target;
}

}  // namespace hammer
