// SPDX-License-Identifier: MIT
// Thin wrappers: each turns one system call's errno conventions into the Io / ConnectStatus
// enums, so connection code branches on four outcomes instead of a dozen errno values.
#include "net/socket.h"

#include "platform/platform.h"

#if HAMMER_POSIX
#include <sys/resource.h>
#endif

#include <cerrno>
#include <cstring>

namespace hammer {

std::string format_address(const SocketAddress& address) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  std::string text;
  if (address.family() == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address.storage);
    inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
    port = ntohs(v4->sin_port);
    text.append(host);
  } else {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address.storage);
    if (address.family() == AF_INET6) inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
    port = ntohs(v6->sin6_port);
    // Appended piecewise: g++ 12 raises a false -Wrestrict on "[" + std::string(...).
    text.append("[").append(host).append("]");
  }
  text.append(":").append(std::to_string(port));
  return text;
}

Expected<SocketAddress, std::string> resolve_target(const Target& target) {
  auto all = resolve_target_all(target);
  if (!all) return unexpected(all.error());
  return all->front();
}

Expected<std::vector<SocketAddress>, std::string> resolve_target_all(const Target& target) {
  std::string host = target.host;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (const std::string failed = start_sockets(); !failed.empty()) {
    return unexpected("cannot resolve '" + target.host + "': " + failed);
  }
  const std::string port = target.port_text.empty() ? std::to_string(target.port)
                                                    : target.port_text;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_protocol = IPPROTO_TCP;
  // No AI_ADDRCONFIG: it would refuse "::1" on a host whose only IPv6 address is loopback.
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* results = nullptr;
  const int status = getaddrinfo(host.c_str(), port.c_str(), &hints, &results);
  if (status != 0) {
#if HAMMER_WINDOWS
    const char* reason = error_text(status);  // a WSA error code
#else
    const char* reason = status == EAI_SYSTEM ? std::strerror(errno) : gai_strerror(status);
#endif
    return unexpected("cannot resolve '" + target.host + "' port '" + port + "': " + reason);
  }
  std::vector<SocketAddress> found;
  for (const addrinfo* result = results; result != nullptr; result = result->ai_next) {
    if (result->ai_family != AF_INET && result->ai_family != AF_INET6) continue;
    SocketAddress address;
    if (result->ai_addrlen > sizeof address.storage) continue;
    // Usable means this host can open a socket of that family (IPv6 may be disabled).
    const int probe = open_nonblocking_socket(result->ai_family);
    if (probe < 0) continue;
    close_socket(probe);
    std::memcpy(&address.storage, result->ai_addr, result->ai_addrlen);
    address.length = static_cast<socklen_t>(result->ai_addrlen);
    bool duplicate = false;  // /etc/hosts may list one address twice
    for (const SocketAddress& earlier : found) {
      duplicate = duplicate || (earlier.length == address.length &&
                                std::memcmp(&earlier.storage, &address.storage, address.length) == 0);
    }
    if (!duplicate) found.push_back(address);
  }
  freeaddrinfo(results);
  if (found.empty()) {
    return unexpected("cannot resolve '" + target.host + "': no usable IPv4 or IPv6 address");
  }
  return found;
}

namespace {

// One connect to `address`, waiting at most `timeout_ns`: 0 when it connected, else the errno.
int try_connect(const SocketAddress& address, int64_t timeout_ns) {
  const int fd = open_nonblocking_socket(address.family());
  if (fd < 0) return -fd;
  ConnectResult started = start_connect(fd, address);
  if (started.status == ConnectStatus::in_progress) {
    pollfd watch{};
    watch.fd = fd;  // widened to SOCKET on Windows
    watch.events = POLLOUT;
    int ready = -1;
    do {
      ready = poll_sockets(&watch, 1, static_cast<int>(timeout_ns / 1'000'000));
    } while (ready < 0 && last_socket_error() == EINTR);
    started.error = ready == 0 ? ETIMEDOUT : take_socket_error(fd);
    started.status = started.error == 0 ? ConnectStatus::connected : ConnectStatus::error;
  }
  close_socket(fd);
  return started.status == ConnectStatus::connected ? 0 : started.error;
}

}  // namespace

Expected<SocketAddress, std::string> first_connecting_address(
    const std::vector<SocketAddress>& addresses, int64_t timeout_ns) {
  std::string reasons;
  for (const SocketAddress& address : addresses) {
    const int error_number = try_connect(address, timeout_ns);
    if (error_number == 0) return address;
    if (addresses.size() == 1) return unexpected(std::string(error_text(error_number)));
    if (!reasons.empty()) reasons += "; ";
    reasons += format_address(address) + ": " + error_text(error_number);
  }
  if (reasons.empty()) return unexpected(std::string("no address to connect to"));
  return unexpected(reasons);
}

int open_nonblocking_socket(int family) { return open_stream_socket(family); }

void close_socket(int fd) { close_native_socket(fd); }

bool set_no_delay(int fd) {
  const int on = 1;
  // char*: Winsock's setsockopt takes the option as bytes; POSIX takes void*.
  return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&on),
                    sizeof on) == 0;
}

ConnectResult start_connect(int fd, const SocketAddress& address) {
  if (connect(fd, address.get(), address.length) == 0) {
    set_no_delay(fd);
    return {ConnectStatus::connected, 0};
  }
  const int error = last_socket_error();
  // EINTR: the connect goes on asynchronously, exactly like EINPROGRESS. Winsock says
  // WSAEWOULDBLOCK for the same thing.
  if (error == EINPROGRESS || error == EINTR || (HAMMER_WINDOWS && error == EWOULDBLOCK)) {
    return {ConnectStatus::in_progress, 0};
  }
  return {ConnectStatus::error, error};
}

int take_socket_error(int fd) {
  int error = 0;
  socklen_t length = sizeof error;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&error), &length) != 0) {
    return last_socket_error();
  }
#if HAMMER_WINDOWS
  if (error != 0) {
    WSASetLastError(error);  // SO_ERROR holds a WSA code: translate it like any other
    return last_socket_error();
  }
#endif
  return error;
}

Io read_some(int fd, char* buffer, size_t capacity, size_t* got, int* err) {
  *got = 0;
  *err = 0;
  for (;;) {
    const long count = receive_bytes(fd, buffer, capacity);
    if (count > 0) {
      *got = static_cast<size_t>(count);
      return Io::done;
    }
    if (count == 0) return Io::closed;
    const int error = last_socket_error();
    if (error == EINTR) continue;
    if (error == EAGAIN || error == EWOULDBLOCK) return Io::would_block;
    *err = error;
    return Io::error;
  }
}

namespace {

// One non-blocking send (`send() >= 0` is the bytes taken, else -1 with the socket error
// set), retried on EINTR: how much it took, or why it took nothing.
template <class Send>
Io send_retrying(Send send, size_t* wrote, int* err) {
  *wrote = 0;
  *err = 0;
  for (;;) {
    const long count = send();
    if (count >= 0) {
      *wrote = static_cast<size_t>(count);
      return Io::done;
    }
    const int error = last_socket_error();
    if (error == EINTR) continue;
    if (error == EAGAIN || error == EWOULDBLOCK) return Io::would_block;
    *err = error;
    return error == EPIPE ? Io::closed : Io::error;
  }
}

}  // namespace

Io write_some(int fd, const char* buffer, size_t length, size_t* wrote, int* err) {
  return send_retrying([&] { return send_bytes(fd, buffer, length); }, wrote, err);
}

Io write_some_two(int fd, const char* first, size_t first_length, const char* second,
                  size_t second_length, size_t* wrote, int* err) {
  return send_retrying(
      [&] { return send_two_buffers(fd, first, first_length, second, second_length); }, wrote,
      err);
}

Expected<int64_t, std::string> raise_fd_limit(int64_t needed) {
#if HAMMER_WINDOWS
  // Sockets are handles, limited by memory and the ephemeral port range, not by a count.
  return needed;
#else
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return unexpected(std::string("getrlimit(RLIMIT_NOFILE): ") + std::strerror(errno));
  }
  if (limit.rlim_cur == RLIM_INFINITY) return int64_t{INT64_MAX};
  if (static_cast<int64_t>(limit.rlim_cur) >= needed) return static_cast<int64_t>(limit.rlim_cur);
  const bool hard_too_low =
      limit.rlim_max != RLIM_INFINITY && static_cast<int64_t>(limit.rlim_max) < needed;
  // To the hard limit, as design.md §7 asks; an infinite hard limit is not a valid soft
  // value for NOFILE (it must stay under fs.nr_open), so then just what is needed.
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? static_cast<rlim_t>(needed) : limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return unexpected("cannot raise the open-file limit (ulimit -n) to " +
                      std::to_string(limit.rlim_cur) + ": " + std::strerror(errno));
  }
  if (hard_too_low) {
    return unexpected("needs " + std::to_string(needed) +
                      " file descriptors, but the hard limit (ulimit -Hn) is " +
                      std::to_string(limit.rlim_max) +
                      "; raise it (ulimit -Hn as root, limits.conf, or LimitNOFILE=)");
  }
  return static_cast<int64_t>(limit.rlim_cur);
#endif
}

}  // namespace hammer
