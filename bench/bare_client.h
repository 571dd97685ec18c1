// SPDX-License-Identifier: MIT
#pragma once
// What the bare clients (bench/closed_floor.cc, bench/open_floor.cc) share: a loopback
// connection with TCP_NODELAY, the one request they send, the length of its response (learned
// once, before the clock starts, so the timed loops only count bytes), and the process's CPU.
// Setup only; Linux only; header-only so that engine.sh can compile each client on the spot.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace bare_client {

inline constexpr char kRequest[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
inline constexpr size_t kRequestBytes = sizeof kRequest - 1;

/// The process's user + system time, in seconds (getrusage).
inline double cpu_s() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// A blocking connection to 127.0.0.1:port; exits 2 naming `program` if it fails.
inline int connect_to(const char* program, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::fprintf(stderr, "%s: cannot connect to 127.0.0.1:%d\n", program, port);
    std::exit(2);
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

/// Sends kRequest on `fd` (blocking) and reads until its Content-Length is in: the bytes one
/// response takes. Exits 2 naming `program` if no complete response comes.
inline size_t response_length(const char* program, int fd) {
  if (write(fd, kRequest, kRequestBytes) != static_cast<ssize_t>(kRequestBytes)) {
    std::fprintf(stderr, "%s: cannot send the first request\n", program);
    std::exit(2);
  }
  std::string bytes;
  char chunk[4096];
  for (;;) {
    const ssize_t got = read(fd, chunk, sizeof chunk);
    if (got <= 0) break;
    bytes.append(chunk, static_cast<size_t>(got));
    const size_t head_end = bytes.find("\r\n\r\n");
    if (head_end == std::string::npos) continue;
    const size_t field = bytes.find("Content-Length:");
    const size_t body =
        field < head_end ? std::strtoul(bytes.c_str() + field + 15, nullptr, 10) : 0;
    if (bytes.size() >= head_end + 4 + body) return head_end + 4 + body;
  }
  std::fprintf(stderr, "%s: no complete response with a Content-Length\n", program);
  std::exit(2);
}

}  // namespace bare_client
