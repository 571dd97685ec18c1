// SPDX-License-Identifier: MIT
#include "run/connection_transport.h"

namespace hammer {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool names_host(std::string_view name) {
  if (name.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    if ((name[i] | 0x20) != "host"[i]) return false;
  }
  return true;
}

// "example.com:8443" -> "example.com", "[::1]:8443" -> "::1".
std::string_view host_of(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    return close == std::string_view::npos ? authority.substr(1) : authority.substr(1, close - 1);
  }
  const size_t colon = authority.find(':');
  return colon == std::string_view::npos ? authority : authority.substr(0, colon);
}

}  // namespace

std::string tls_server_name(const Config& config) {
  // A Host header given with -H names the virtual host the requests are for: the certificate
  // must be that host's, as curl --resolve or a browser would see it.
  for (const std::string& line : config.headers) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos || !names_host(std::string_view(line).substr(0, colon))) {
      continue;
    }
    std::string_view value = std::string_view(line).substr(colon + 1);
    while (!value.empty() && is_space(value.front())) value.remove_prefix(1);
    while (!value.empty() && is_space(value.back())) value.remove_suffix(1);
    const std::string_view host = host_of(value);
    if (!host.empty()) return std::string(host);
  }
  std::string_view host = config.target.host;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return std::string(host);
}

}  // namespace hammer
