// SPDX-License-Identifier: MIT
#include "metrics/metrics_server.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>

namespace hammer {
namespace {

SocketAddress loopback_any_port() {
  Target target;
  target.host = "127.0.0.1";
  target.port_text.assign(1, '0');  // ("0": GCC 12 sees a false -Wrestrict)
  auto address = resolve_target(target);
  EXPECT_TRUE(address) << address.error();
  return *address;
}

int connect_to(const MetricsServer& server) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_EQ(::connect(fd, server.address().get(), server.address().length), 0);
  return fd;
}

/// Sends `request` on a new connection and reads the answer until the server closes.
std::string ask(const MetricsServer& server, const std::string& request) {
  const int fd = connect_to(server);
  EXPECT_EQ(::send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  std::string answer;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) break;
    answer.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return answer;
}

std::unique_ptr<MetricsServer> start_server(std::atomic<int>* renders) {
  auto server = MetricsServer::start(loopback_any_port(), "text/plain; version=0.0.4", [renders] {
    std::string page = "hammer_requests_total ";
    page += std::to_string(++*renders);
    page += '\n';
    return page;
  });
  EXPECT_TRUE(server) << server.error();
  return server ? std::move(*server) : nullptr;
}

TEST(MetricsServerTest, GetMetricsIsTheFreshlyRenderedPageThenTheConnectionCloses) {
  std::atomic<int> renders{0};
  const auto server = start_server(&renders);
  ASSERT_NE(server, nullptr);
  EXPECT_NE(ntohs(reinterpret_cast<const sockaddr_in*>(server->address().get())->sin_port), 0);
  EXPECT_EQ(server->url().rfind("http://127.0.0.1:", 0), 0u);
  const std::string first = ask(*server, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(first.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << first;
  EXPECT_NE(first.find("Content-Type: text/plain; version=0.0.4\r\n"), std::string::npos);
  EXPECT_NE(first.find("Content-Length: 24\r\n"), std::string::npos) << first;
  EXPECT_NE(first.find("Connection: close\r\n"), std::string::npos);
  EXPECT_TRUE(first.ends_with("\r\n\r\nhammer_requests_total 1\n")) << first;
  // A query string (Prometheus's params) is the same page; each scrape renders anew.
  const std::string second = ask(*server, "GET /metrics?x=1 HTTP/1.0\r\n\r\n");
  EXPECT_TRUE(second.ends_with("hammer_requests_total 2\n")) << second;
  EXPECT_EQ(server->scrapes(), 2);
}

TEST(MetricsServerTest, OtherPathsMethodsAndNonHttpAreAnsweredAndNotCountedAsScrapes) {
  std::atomic<int> renders{0};
  const auto server = start_server(&renders);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(ask(*server, "GET / HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404 Not Found", 0), 0u);
  EXPECT_EQ(ask(*server, "POST /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(ask(*server, "hello\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(ask(*server, std::string(MetricsServer::kMaxRequestBytes + 10, 'a'))
                .rfind("HTTP/1.1 431", 0),
            0u);
  const std::string head = ask(*server, "HEAD /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK", 0), 0u);
  EXPECT_TRUE(head.ends_with("\r\n\r\n")) << head;  // the head alone
  EXPECT_EQ(renders.load(), 1);
  EXPECT_EQ(server->scrapes(), 1);
}

TEST(MetricsServerTest, AClientThatSendsNothingIsDroppedAndTheNextScrapeIsAnswered) {
  std::atomic<int> renders{0};
  const auto server = start_server(&renders);
  ASSERT_NE(server, nullptr);
  const int silent = connect_to(*server);
  const auto began = std::chrono::steady_clock::now();
  const std::string answer = ask(*server, "GET /metrics HTTP/1.1\r\n\r\n");
  const double waited_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  EXPECT_TRUE(answer.ends_with("hammer_requests_total 1\n")) << answer;
  // Held up by the silent one for at most its bound (plus a busy machine's slack).
  EXPECT_LT(waited_s, MetricsServer::kClientTimeoutMs / 1000.0 + 5);
  ::close(silent);
}

TEST(MetricsServerTest, APortInUseIsTheAddressAndTheReason) {
  std::atomic<int> renders{0};
  const auto server = start_server(&renders);
  ASSERT_NE(server, nullptr);
  auto second = MetricsServer::start(server->address(), "text/plain", [] { return std::string(); });
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error(), format_address(server->address()) + ": Address already in use");
}

TEST(MetricsServerTest, DestroyingTheServerStopsItPromptly) {
  std::atomic<int> renders{0};
  auto server = start_server(&renders);
  ASSERT_NE(server, nullptr);
  const auto began = std::chrono::steady_clock::now();
  server.reset();
  const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  EXPECT_LT(took_s, 0.9);  // woken by its own connect, not by the 1 s poll
}

}  // namespace
}  // namespace hammer
