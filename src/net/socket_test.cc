// SPDX-License-Identifier: MIT
// Socket helpers against real sockets on 127.0.0.1 (port 0: the kernel picks a free one).
// Names resolve from /etc/hosts only: no test sends a DNS query.
#include "net/socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace hammer {
namespace {

constexpr int kPollLimitMs = 5000;  // bounds a wait that should end at once

// A listening TCP socket on 127.0.0.1 with an ephemeral port; `listening = false` only
// binds, so connecting to it is refused.
struct Listener {
  int fd = -1;
  int port = 0;
  explicit Listener(bool listening = true) {
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    EXPECT_GE(fd, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    if (listening) {
      EXPECT_EQ(listen(fd, 16), 0);
    }
    socklen_t length = sizeof address;
    EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
    port = ntohs(address.sin_port);
  }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  ~Listener() { close(fd); }

  Target target() const {
    Target result;
    result.host = "127.0.0.1";
    result.port = port;
    result.port_text = std::to_string(port);
    return result;
  }
};

bool wait_for(int fd, short events) {
  pollfd entry{fd, events, 0};
  return poll(&entry, 1, kPollLimitMs) == 1;
}

// Resolves, opens and connects a client to `target`; returns the fd.
int connect_client(const Target& target) {
  auto address = resolve_target(target);
  EXPECT_TRUE(address.has_value()) << address.error();
  const int fd = open_nonblocking_socket(address->family());
  EXPECT_GE(fd, 0);
  const ConnectResult started = start_connect(fd, *address);
  EXPECT_NE(started.status, ConnectStatus::error) << std::strerror(started.error);
  if (started.status == ConnectStatus::in_progress) {
    EXPECT_TRUE(wait_for(fd, POLLOUT));
    EXPECT_EQ(take_socket_error(fd), 0);
    EXPECT_TRUE(set_no_delay(fd));
  }
  return fd;
}

TEST(ResolveTargetTest, NumericIpv4KeepsAddressAndPort) {
  Target target;
  target.host = "127.0.0.1";
  target.port_text = "8080";
  auto address = resolve_target(target);
  ASSERT_TRUE(address.has_value()) << address.error();
  EXPECT_EQ(address->family(), AF_INET);
  EXPECT_EQ(format_address(*address), "127.0.0.1:8080");
}

TEST(ResolveTargetTest, UsesTheNumericPortWhenThereIsNoPortText) {
  Target target;
  target.host = "127.0.0.1";
  target.port = 9;
  auto address = resolve_target(target);
  ASSERT_TRUE(address.has_value()) << address.error();
  EXPECT_EQ(format_address(*address), "127.0.0.1:9");
}

TEST(ResolveTargetTest, NumericIpv6WithOrWithoutBrackets) {
  const int probe = socket(AF_INET6, SOCK_STREAM, 0);
  if (probe < 0) GTEST_SKIP() << "no IPv6 on this host";
  close(probe);
  for (const char* host : {"::1", "[::1]"}) {
    Target target;
    target.host = host;
    target.port_text = "80";
    auto address = resolve_target(target);
    ASSERT_TRUE(address.has_value()) << address.error();
    EXPECT_EQ(address->family(), AF_INET6);
    EXPECT_EQ(format_address(*address), "[::1]:80");
  }
}

TEST(ResolveTargetTest, LocalhostResolvesToALoopbackAddress) {
  Target target;
  target.host = "localhost";
  target.port_text = "80";
  auto address = resolve_target(target);
  ASSERT_TRUE(address.has_value()) << address.error();
  const std::string text = format_address(*address);
  EXPECT_TRUE(text == "127.0.0.1:80" || text == "[::1]:80") << text;
}

TEST(ResolveTargetTest, NonNumericPortIsAnErrorNamingTheHost) {
  Target target;
  target.host = "127.0.0.1";
  target.port_text = "http";  // refused before any lookup: no network needed
  auto address = resolve_target(target);
  ASSERT_FALSE(address.has_value());
  EXPECT_NE(address.error().find("cannot resolve '127.0.0.1'"), std::string::npos)
      << address.error();
}

TEST(SocketTest, OpensNonBlockingCloseOnExecSockets) {
  const int fd = open_nonblocking_socket(AF_INET);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(fcntl(fd, F_GETFL) & O_NONBLOCK);
  EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
  EXPECT_EQ(take_socket_error(fd), 0);
  close(fd);
  EXPECT_EQ(open_nonblocking_socket(-5), -EAFNOSUPPORT);
}

TEST(SocketTest, ConnectsAndExchangesBytesWithNoDelaySet) {
  Listener listener;
  const int client = connect_client(listener.target());
  int no_delay = 0;
  socklen_t length = sizeof no_delay;
  ASSERT_EQ(getsockopt(client, IPPROTO_TCP, TCP_NODELAY, &no_delay, &length), 0);
  EXPECT_EQ(no_delay, 1);
  const int server = accept(listener.fd, nullptr, nullptr);
  ASSERT_GE(server, 0);

  char buffer[64];
  size_t moved = 0;
  int err = 0;
  EXPECT_EQ(read_some(client, buffer, sizeof buffer, &moved, &err), Io::would_block);
  EXPECT_EQ(moved, 0u);

  EXPECT_EQ(write_some(client, "ping", 4, &moved, &err), Io::done);
  EXPECT_EQ(moved, 4u);
  ASSERT_EQ(read(server, buffer, sizeof buffer), 4);  // blocking accept()ed socket
  EXPECT_EQ(std::string(buffer, 4), "ping");

  ASSERT_EQ(write(server, "pong!", 5), 5);
  ASSERT_TRUE(wait_for(client, POLLIN));
  EXPECT_EQ(read_some(client, buffer, sizeof buffer, &moved, &err), Io::done);
  EXPECT_EQ(std::string(buffer, moved), "pong!");

  close(server);  // orderly close: end of stream
  ASSERT_TRUE(wait_for(client, POLLIN));
  EXPECT_EQ(read_some(client, buffer, sizeof buffer, &moved, &err), Io::closed);
  EXPECT_EQ(err, 0);
  close(client);
}

TEST(SocketTest, WritingToAClosedPeerFailsWithoutSigpipe) {
  Listener listener;
  const int client = connect_client(listener.target());
  const int server = accept(listener.fd, nullptr, nullptr);
  ASSERT_GE(server, 0);
  close(server);
  // The first write may still be accepted; the peer answers it with a reset, after which
  // writes fail. Without MSG_NOSIGNAL the process would die of SIGPIPE here.
  Io outcome = Io::done;
  int err = 0;
  for (int attempt = 0; attempt < 20 && outcome == Io::done; ++attempt) {
    size_t wrote = 0;
    outcome = write_some(client, "data", 4, &wrote, &err);
    if (outcome == Io::done) wait_for(client, POLLIN);  // the reset arrives
  }
  EXPECT_TRUE(outcome == Io::closed || outcome == Io::error);
  EXPECT_TRUE(err == EPIPE || err == ECONNRESET) << std::strerror(err);
  close(client);
}

TEST(SocketTest, ConnectionRefusedIsReportedWithItsErrno) {
  Listener bound_only(/*listening=*/false);
  auto address = resolve_target(bound_only.target());
  ASSERT_TRUE(address.has_value()) << address.error();
  const int fd = open_nonblocking_socket(address->family());
  ASSERT_GE(fd, 0);
  const ConnectResult started = start_connect(fd, *address);
  int error = started.error;
  if (started.status == ConnectStatus::in_progress) {
    ASSERT_TRUE(wait_for(fd, POLLOUT));
    error = take_socket_error(fd);
  } else {
    EXPECT_EQ(started.status, ConnectStatus::error);
  }
  EXPECT_EQ(error, ECONNREFUSED) << std::strerror(error);
  close(fd);
}

SocketAddress loopback(int family, int port) {
  SocketAddress address;
  if (family == AF_INET6) {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&address.storage);
    v6->sin6_family = AF_INET6;
    v6->sin6_addr = in6addr_loopback;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    address.length = sizeof *v6;
  } else {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&address.storage);
    v4->sin_family = AF_INET;
    v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    v4->sin_port = htons(static_cast<uint16_t>(port));
    address.length = sizeof *v4;
  }
  return address;
}

// Issue 10 item 4: "localhost" resolving to ::1 then 127.0.0.1, with the server on 127.0.0.1
// only. ::1 is refused (or cannot be opened where IPv6 is off): the next address is tried.
TEST(SocketTest, FirstConnectingAddressSkipsARefusedOneAndKeepsTheOneThatConnects) {
  Listener listener;  // 127.0.0.1 only
  const std::vector<SocketAddress> addresses = {loopback(AF_INET6, listener.port),
                                                loopback(AF_INET, listener.port)};
  auto chosen = first_connecting_address(addresses, 2'000'000'000);
  ASSERT_TRUE(chosen.has_value()) << chosen.error();
  EXPECT_EQ(chosen->family(), AF_INET);
  EXPECT_EQ(format_address(*chosen), "127.0.0.1:" + std::to_string(listener.port));
}

TEST(SocketTest, FirstConnectingAddressTakesTheFirstInOrderWhenSeveralConnect) {
  Listener first;
  Listener second;
  const std::vector<SocketAddress> addresses = {loopback(AF_INET, first.port),
                                                loopback(AF_INET, second.port)};
  auto chosen = first_connecting_address(addresses, 2'000'000'000);
  ASSERT_TRUE(chosen.has_value()) << chosen.error();
  EXPECT_EQ(format_address(*chosen), "127.0.0.1:" + std::to_string(first.port));
}

TEST(SocketTest, FirstConnectingAddressNamesEachAddressWhenNoneConnects) {
  Listener refused_a(/*listening=*/false);
  Listener refused_b(/*listening=*/false);
  auto none = first_connecting_address(
      {loopback(AF_INET, refused_a.port), loopback(AF_INET, refused_b.port)}, 2'000'000'000);
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error(), "127.0.0.1:" + std::to_string(refused_a.port) +
                              ": Connection refused; 127.0.0.1:" +
                              std::to_string(refused_b.port) + ": Connection refused");
  // One address: the reason alone, as "cannot connect to HOST:PORT: REASON" reads best.
  auto one = first_connecting_address({loopback(AF_INET, refused_a.port)}, 2'000'000'000);
  ASSERT_FALSE(one.has_value());
  EXPECT_EQ(one.error(), "Connection refused");
}

TEST(SocketTest, ResolveAllKeepsEveryAddressOnceInOrder) {
  Target target;
  target.host = "127.0.0.1";
  target.port = 80;
  auto all = resolve_target_all(target);
  ASSERT_TRUE(all.has_value()) << all.error();
  ASSERT_EQ(all->size(), 1u);  // getaddrinfo gives one per socket type; TCP only, once
  EXPECT_EQ(format_address(all->front()), "127.0.0.1:80");
}

TEST(SocketTest, ReadAndWriteReportErrorsOnABadDescriptor) {
  char buffer[4];
  size_t moved = 0;
  int err = 0;
  EXPECT_EQ(read_some(-1, buffer, sizeof buffer, &moved, &err), Io::error);
  EXPECT_EQ(err, EBADF);
  EXPECT_EQ(write_some(-1, buffer, sizeof buffer, &moved, &err), Io::error);
  EXPECT_EQ(err, EBADF);
}

// Restores RLIMIT_NOFILE after a test lowers it.
struct FdLimitGuard {
  rlimit saved{};
  FdLimitGuard() { getrlimit(RLIMIT_NOFILE, &saved); }
  ~FdLimitGuard() { setrlimit(RLIMIT_NOFILE, &saved); }
};

TEST(RaiseFdLimitTest, LeavesASufficientLimitAlone) {
  FdLimitGuard guard;
  auto limit = raise_fd_limit(16);
  ASSERT_TRUE(limit.has_value()) << limit.error();
  if (guard.saved.rlim_cur != RLIM_INFINITY) {
    EXPECT_EQ(*limit, static_cast<int64_t>(guard.saved.rlim_cur));
  }
}

TEST(RaiseFdLimitTest, RaisesTheSoftLimitToTheHardLimit) {
  FdLimitGuard guard;
  if (guard.saved.rlim_max == RLIM_INFINITY || guard.saved.rlim_max < 512) {
    GTEST_SKIP() << "needs a finite hard limit of at least 512";
  }
  rlimit lowered = guard.saved;
  lowered.rlim_cur = 256;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &lowered), 0);
  auto limit = raise_fd_limit(300);
  ASSERT_TRUE(limit.has_value()) << limit.error();
  EXPECT_EQ(*limit, static_cast<int64_t>(guard.saved.rlim_max));
  rlimit now{};
  getrlimit(RLIMIT_NOFILE, &now);
  EXPECT_EQ(now.rlim_cur, guard.saved.rlim_max);
}

TEST(RaiseFdLimitTest, NamesBothNumbersWhenTheHardLimitIsTooLow) {
  FdLimitGuard guard;
  if (guard.saved.rlim_max == RLIM_INFINITY) GTEST_SKIP() << "hard limit is unlimited";
  const auto hard = static_cast<int64_t>(guard.saved.rlim_max);
  auto limit = raise_fd_limit(hard + 1);
  ASSERT_FALSE(limit.has_value());
  EXPECT_NE(limit.error().find(std::to_string(hard + 1)), std::string::npos) << limit.error();
  EXPECT_NE(limit.error().find("hard limit (ulimit -Hn) is " + std::to_string(hard)),
            std::string::npos)
      << limit.error();
}

}  // namespace
}  // namespace hammer
