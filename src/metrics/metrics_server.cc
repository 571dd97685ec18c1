// SPDX-License-Identifier: MIT
// See metrics_server.h. Blocking in spirit, non-blocking in fact: every wait is a poll with a
// bound, so a scraper that stalls holds this thread for at most kClientTimeoutMs, and the
// destructor wakes the accept loop by connecting to it (no timer ticks while nothing scrapes).
#include "metrics/metrics_server.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "platform/native_socket.h"
#include "time/clock.h"

namespace hammer {
namespace {

constexpr int kListenBacklog = 16;

/// Milliseconds left until `deadline_ns`, at least 0.
int remaining_ms(int64_t deadline_ns) {
  const int64_t left = deadline_ns - monotonic_now_ns();
  return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left / 1'000'000 + 1, 60'000));
}

bool wait_for(int fd, short events, int64_t deadline_ns) {
  for (;;) {
    pollfd entry{};
    entry.fd = fd;
    entry.events = events;
    const int ready = poll_sockets(&entry, 1, remaining_ms(deadline_ns));
    if (ready > 0) return true;
    if (ready == 0 || last_socket_error() != EINTR) return false;
  }
}

bool send_all(int fd, std::string_view bytes, int64_t deadline_ns) {
  while (!bytes.empty()) {
    const long wrote = send_bytes(fd, bytes.data(), bytes.size());
    if (wrote > 0) {
      bytes.remove_prefix(static_cast<size_t>(wrote));
      continue;
    }
    const int error = last_socket_error();
    if (wrote < 0 && (error == EWOULDBLOCK || error == EAGAIN || error == EINTR)) {
      if (!wait_for(fd, POLLOUT, deadline_ns)) return false;
      continue;
    }
    return false;
  }
  return true;
}

std::string response(std::string_view status, std::string_view content_type,
                     std::string_view body, bool with_body) {
  std::string out = "HTTP/1.1 ";
  out += status;
  out += "\r\nContent-Type: ";
  out += content_type;
  out += "\r\nContent-Length: " + std::to_string(body.size());
  out += "\r\nConnection: close\r\n\r\n";
  if (with_body) out += body;
  return out;
}

}  // namespace

Expected<std::unique_ptr<MetricsServer>, std::string> MetricsServer::start(
    const SocketAddress& address, std::string content_type, RenderFn render) {
  if (std::string error = start_sockets(); !error.empty()) return unexpected(error);
  const int fd = listen_stream_socket(address.get(), address.length, kListenBacklog);
  if (fd < 0) return unexpected(format_address(address) + ": " + error_text(-fd));
  SocketAddress bound;
  if (!socket_local_address(fd, &bound.storage, &bound.length)) bound = address;
  return std::unique_ptr<MetricsServer>(
      new MetricsServer(fd, bound, std::move(content_type), std::move(render)));
}

MetricsServer::MetricsServer(int listen_fd, const SocketAddress& address,
                             std::string content_type, RenderFn render)
    : listen_fd_(listen_fd),
      address_(address),
      content_type_(std::move(content_type)),
      render_(std::move(render)),
      thread_([this] { serve(); }) {}

MetricsServer::~MetricsServer() {
  stopping_.store(true, std::memory_order_relaxed);
  // Wake the accept loop: a connect to itself (to loopback when it listens on every address).
  SocketAddress wake = address_;
  if (wake.family() == AF_INET) {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&wake.storage);
    if (v4->sin_addr.s_addr == htonl(INADDR_ANY)) v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  } else if (wake.family() == AF_INET6) {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&wake.storage);
    if (std::memcmp(&v6->sin6_addr, &in6addr_any, sizeof in6addr_any) == 0) {
      v6->sin6_addr = in6addr_loopback;
    }
  }
  const int fd = open_stream_socket(wake.family());
  if (fd >= 0) start_connect(fd, wake);
  thread_.join();
  close_native_socket(fd);
  close_native_socket(listen_fd_);
}

std::string MetricsServer::url() const { return "http://" + format_address(address_) + "/metrics"; }

void MetricsServer::serve() {
  while (!stopping_.load(std::memory_order_relaxed)) {
    pollfd entry{};
    entry.fd = listen_fd_;
    entry.events = POLLIN;
    // A second at most between looks at stopping_, should the wake-up connect ever be lost.
    if (poll_sockets(&entry, 1, 1'000) <= 0) continue;
    const int client = accept_stream_socket(listen_fd_);
    if (client < 0) continue;
    if (!stopping_.load(std::memory_order_relaxed)) answer(client);
    close_native_socket(client);
  }
}

void MetricsServer::answer(int fd) {
  const int64_t deadline_ns = monotonic_now_ns() + int64_t{kClientTimeoutMs} * 1'000'000;
  std::string request;
  char chunk[2048];
  size_t head_end = std::string::npos;
  while (head_end == std::string::npos) {
    const long got = receive_bytes(fd, chunk, sizeof chunk);
    if (got > 0) {
      request.append(chunk, static_cast<size_t>(got));
      head_end = request.find("\r\n\r\n");
      if (head_end == std::string::npos && request.size() > kMaxRequestBytes) {
        send_all(fd, response("431 Request Header Fields Too Large", "text/plain", "", false),
                 deadline_ns);
        return;
      }
      continue;
    }
    const int error = last_socket_error();
    if (got < 0 && (error == EWOULDBLOCK || error == EAGAIN || error == EINTR) &&
        wait_for(fd, POLLIN, deadline_ns)) {
      continue;
    }
    return;  // closed, failed or silent: nothing to answer
  }
  // "GET /metrics HTTP/1.1": the method, the target up to '?', the version.
  const std::string_view head(request.data(), head_end);
  const std::string_view line = head.substr(0, head.find("\r\n"));
  const size_t method_end = line.find(' ');
  const size_t target_end = method_end == std::string_view::npos ? method_end : line.find(' ', method_end + 1);
  if (target_end == std::string_view::npos || line.substr(target_end + 1).substr(0, 5) != "HTTP/") {
    send_all(fd, response("400 Bad Request", "text/plain", "not an HTTP request\n", true),
             deadline_ns);
    return;
  }
  const std::string_view method = line.substr(0, method_end);
  std::string_view target = line.substr(method_end + 1, target_end - method_end - 1);
  target = target.substr(0, target.find('?'));
  const bool head_only = method == "HEAD";
  if (method != "GET" && !head_only) {
    send_all(fd, response("405 Method Not Allowed", "text/plain", "GET /metrics\n", true),
             deadline_ns);
    return;
  }
  if (target != "/metrics") {
    send_all(fd, response("404 Not Found", "text/plain", "hammer serves GET /metrics\n", !head_only),
             deadline_ns);
    return;
  }
  const std::string page = render_();
  if (send_all(fd, response("200 OK", content_type_, page, !head_only), deadline_ns)) {
    scrapes_.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace hammer
