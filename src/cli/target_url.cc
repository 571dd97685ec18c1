// SPDX-License-Identifier: MIT
// Only what a load generator needs from a URL: where to connect and what to put in the request
// line and Host header. No userinfo, no percent-decoding (the path is sent as typed), no TLS.
#include "cli/target_url.h"

#include <cctype>
#include <charconv>

namespace hammer {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool is_host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

bool is_v6_char(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
}

// Printable ASCII other than space: what may go on the request line unescaped.
bool is_path_char(char c) { return c > ' ' && c < 0x7f; }

}  // namespace

Expected<Target, std::string> parse_target_url(std::string_view url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return unexpected(std::string("expected http://host[:port][/path]"));
  }
  const std::string_view scheme = url.substr(0, scheme_end);
  if (iequals(scheme, "https")) {
    return unexpected(std::string("https is not supported (hammer speaks plain HTTP/1.1); "
                                  "use an http:// URL"));
  }
  if (!iequals(scheme, "http")) {
    return unexpected("unsupported scheme '" + std::string(scheme) + "'; expected http://");
  }

  std::string_view rest = url.substr(scheme_end + 3);
  if (size_t hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  const size_t authority_end = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, authority_end);
  std::string_view path =
      authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);

  if (authority.find('@') != std::string_view::npos) {
    return unexpected(std::string("user info (user@host) is not supported"));
  }

  Target target;
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return unexpected(std::string("unclosed '[' in host"));
    const std::string_view v6 = authority.substr(1, close - 1);
    if (v6.empty() || v6.find(':') == std::string_view::npos) {
      return unexpected(std::string("bad IPv6 address in brackets"));
    }
    for (char c : v6) {
      if (!is_v6_char(c)) return unexpected(std::string("bad IPv6 address in brackets"));
    }
    target.host = std::string(v6);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return unexpected(std::string("unexpected text after ']'"));
      port_text = after.substr(1);
      if (port_text.empty()) return unexpected(std::string("empty port after ':'"));
    }
  } else {
    const size_t colon = authority.find(':');
    const std::string_view host = authority.substr(0, colon);
    if (host.empty()) return unexpected(std::string("missing host"));
    for (char c : host) {
      if (!is_host_char(c)) {
        return unexpected("bad character in host '" + std::string(host) + "'");
      }
    }
    target.host = std::string(host);
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return unexpected(std::string("empty port after ':'"));
    }
  }

  target.port = 80;
  if (!port_text.empty()) {
    int port = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port < 1 ||
        port > 65535) {
      return unexpected("port must be a number from 1 to 65535, got '" + std::string(port_text) +
                        "'");
    }
    target.port = port;
  }
  target.port_text = std::to_string(target.port);

  for (char c : path) {
    if (!is_path_char(c)) {
      return unexpected(std::string("path contains a space or control character"));
    }
  }
  if (path.empty()) {
    target.path = "/";
  } else if (path.front() == '?') {
    target.path = "/" + std::string(path);
  } else {
    target.path = std::string(path);
  }

  const bool v6 = target.host.find(':') != std::string::npos;
  target.host_header = v6 ? "[" + target.host + "]" : target.host;
  if (target.port != 80) target.host_header += ":" + target.port_text;
  return target;
}

}  // namespace hammer
