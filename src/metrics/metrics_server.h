// SPDX-License-Identifier: MIT
#pragma once
// --metrics-listen: a small HTTP/1.1 server on a thread of its own that answers
// `GET /metrics` with a page its owner renders at each scrape (report/prometheus_text.h), for
// Prometheus to scrape while the run lasts. One connection at a time, each answered and closed
// (Prometheus opens one per scrape at most); a client that sends nothing, or too much, is
// dropped after kClientTimeoutMs or kMaxRequestBytes. The workers never see it: they publish
// into a LiveMetricsBoard and the page is made here, on this thread, at scrape time.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/expected.h"
#include "net/socket.h"

namespace hammer {

class MetricsServer {
 public:
  /// The page a scrape gets, and its Content-Type. Called on the server's thread.
  using RenderFn = std::function<std::string()>;

  static constexpr int kClientTimeoutMs = 2'000;
  static constexpr size_t kMaxRequestBytes = 8 * 1024;

  /// Listens on `address` and serves from a new thread until destroyed. The error in words
  /// ("127.0.0.1:9464: Address already in use") when it cannot listen.
  static Expected<std::unique_ptr<MetricsServer>, std::string> start(
      const SocketAddress& address, std::string content_type, RenderFn render);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  /// The address it listens on: a request for port 0 has the port the kernel chose.
  const SocketAddress& address() const { return address_; }
  /// "http://127.0.0.1:9464/metrics"
  std::string url() const;
  /// Scrapes answered with the page so far.
  int64_t scrapes() const { return scrapes_.load(std::memory_order_relaxed); }

 private:
  MetricsServer(int listen_fd, const SocketAddress& address, std::string content_type,
                RenderFn render);
  void serve();
  void answer(int fd);

  int listen_fd_;
  SocketAddress address_;
  std::string content_type_;
  RenderFn render_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> scrapes_{0};
  std::thread thread_;
};

}  // namespace hammer
