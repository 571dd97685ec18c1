// SPDX-License-Identifier: MIT
#pragma once
// A test's own look at a server, over a socket of its own rather than through hammer: one
// plain GET, for what a server says it answered (test_server --count-paths 1, GET /__counts).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>

namespace hammer::test {

// The whole response (head and body) to GET `path` on 127.0.0.1:`port` with Connection: close,
// each read waiting up to `read_limit_s`; none, and a failure, when the connect is refused.
inline std::optional<std::string> plain_get(int port, const std::string& path, int read_limit_s) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval limit{read_limit_s, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    ADD_FAILURE() << "cannot connect for " << path;
    return std::nullopt;
  }
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  (void)!::write(fd, request.data(), request.size());
  std::string response;
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) response.append(buffer, got);
  ::close(fd);
  return response;
}

}  // namespace hammer::test
