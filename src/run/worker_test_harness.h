// SPDX-License-Identifier: MIT
#pragma once
// What the worker's tests share (worker_test.cc, worker_pipeline_test.cc): a loopback HTTP
// stub the test pumps between passes, and a worker on a ManualClock, so every time reading is
// the test's and dispatch, lag, timeouts, the deadline and Ctrl-C are judged by exact counts.
#include "run/worker.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "run/verdicts.h"
#include "time/manual_clock.h"

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kUs = 1'000;
const std::string kRequest = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";
const std::string kResponse = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

// A single-threaded HTTP stub on 127.0.0.1 that the test pumps between worker passes: it
// accepts, counts complete requests per client, and answers them only when told to.
class StubServer {
 public:
  StubServer() {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(listen_fd_, 128);
    socklen_t length = sizeof address_.storage;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address_.storage), &length);
    address_.length = length;
  }
  ~StubServer() {
    for (Client& client : clients_) {
      if (client.fd >= 0) ::close(client.fd);
    }
    if (listen_fd_ >= 0) ::close(listen_fd_);
  }

  const SocketAddress& address() const { return address_; }

  // Accepts what is pending and reads what arrived; returns requests received so far.
  int64_t pump() {
    for (;;) {
      if (listen_fd_ < 0) break;
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) break;
      clients_.push_back(Client{fd, {}, 0});
    }
    for (Client& client : clients_) {
      if (client.fd < 0) continue;
      char buffer[4096];
      for (;;) {
        const ssize_t got = ::read(client.fd, buffer, sizeof buffer);
        if (got <= 0) break;
        client.pending.append(buffer, static_cast<size_t>(got));
      }
      for (size_t end; (end = client.pending.find("\r\n\r\n")) != std::string::npos;) {
        client.pending.erase(0, end + 4);
        ++client.unanswered;
        ++received_;
      }
    }
    return received_;
  }

  // Answers every request received and not yet answered.
  void answer_all() {
    pump();
    for (Client& client : clients_) {
      if (client.fd < 0) continue;
      for (; client.unanswered > 0; --client.unanswered) {
        ASSERT_EQ(::write(client.fd, kResponse.data(), kResponse.size()),
                  static_cast<ssize_t>(kResponse.size()));
      }
    }
  }

  // Answers the oldest request of every client with "Connection: close" and closes: the
  // requests pipelined behind it stay unanswered (a server's keep-alive request limit).
  void answer_one_and_close() {
    pump();
    const std::string closing =
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
    for (Client& client : clients_) {
      if (client.fd < 0 || client.unanswered == 0) continue;
      ASSERT_EQ(::write(client.fd, closing.data(), closing.size()),
                static_cast<ssize_t>(closing.size()));
      close_client(client);
    }
  }

  // Closes every client without a word: a clean close at a response boundary (everything
  // the client sent was read, so the close is a FIN, not a reset).
  void close_all() {
    pump();
    for (Client& client : clients_) {
      if (client.fd >= 0) close_client(client);
    }
  }

  // Stops listening: connects from here on are refused (a server that died).
  void stop_listening() {
    if (listen_fd_ >= 0) ::close(listen_fd_);
    listen_fd_ = -1;
  }

  int64_t received() const { return received_; }

 private:
  struct Client {
    int fd;
    std::string pending;
    int64_t unanswered;
  };
  static void close_client(Client& client) {
    ::close(client.fd);
    client.fd = -1;
    client.unanswered = 0;
  }
  int listen_fd_ = -1;
  SocketAddress address_;
  std::vector<Client> clients_;
  int64_t received_ = 0;
};

inline Config open_loop_config(double rate, int64_t connections) {
  Config config;
  config.rate = rate;
  config.connections = connections;
  config.threads = 1;
  config.duration_ns = 1'000 * kMs;
  config.timeout_ns = 100 * kMs;
  return config;
}

// The engine the current test runs on (every test runs once per engine).
EngineKind g_engine = EngineKind::epoll;

class WorkerTest : public ::testing::TestWithParam<EngineKind> {
 protected:
  void SetUp() override {
    g_engine = GetParam();
    EngineFallback fallback;
    if (resolve_engine(g_engine, &fallback) != g_engine) {
      GTEST_SKIP() << "this engine is unavailable in this build or on this kernel";
    }
  }
};

// Every engine, for INSTANTIATE_TEST_SUITE_P, each instance named after its engine ("epoll").
inline const auto kEveryEngine =
    ::testing::Values(EngineKind::epoll, EngineKind::poll, EngineKind::io_uring);
inline std::string engine_test_name(const ::testing::TestParamInfo<EngineKind>& test) {
  return std::string(engine_name(test.param));
}

inline Config with_engine(Config config) {
  config.engine = g_engine;
  return config;
}

// A worker on a ManualClock, connected, its run begun at t0 = the clock's reading.
struct Harness {
  Harness(const Config& config_in, const StubServer& server)
      : config(with_engine(config_in)),
        worker(config, kRequest, server.address(), 0, 1, config.connections, clock) {
    worker.set_wait_cap_for_testing(1 * kMs);  // real time, while the manual clock stands
    std::string error;
    EXPECT_TRUE(worker.setup(1024, &error)) << error;
    worker.connect_all(clock.now_ns() + kMs);  // loopback connects at once; the clock stands
    t0 = clock.now_ns();
  }
  void begin(int64_t duration_ns) { worker.begin_run(t0, t0 + duration_ns); }
  // Passes until `done` or a bound on passes (each waits at most 1 ms of real time).
  template <class Done>
  bool pass_until(Done done) {
    for (int i = 0; i < 2000; ++i) {
      if (done()) return true;
      if (!worker.run_pass()) return done();
    }
    return done();
  }

  ManualClock clock;
  Config config;
  Worker worker;
  int64_t t0 = 0;
};

}  // namespace
}  // namespace hammer
