// SPDX-License-Identifier: MIT
// How requests meet the wire, on whichever engine HAMMER_ENGINE names (CI runs both): a POST's
// head and body leave together, an answer that comes while the body is still going out keeps
// or ends the connection as the answer says, and requests a polite close left unanswered are
// sent again (idempotent ones) or counted as errors (--no-retry, non-idempotent ones).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "e2e/e2e.h"
#include "e2e/plain_get.h"

namespace hammer::test {
namespace {

// test_server's keep-alive answer, byte for byte (tools/test_server.cc make_response).
const std::string kAnswer =
    "HTTP/1.1 200 OK\r\nServer: hammer-test-server\r\nContent-Length: 13\r\n"
    "Content-Type: text/plain\r\n\r\nHello, World!";

struct BodyFile {
  explicit BodyFile(size_t bytes) {
    char folder[] = "/tmp/hammer_e2e_wire_XXXXXX";
    dir = ::mkdtemp(folder) ? folder : "/tmp";
    path = dir + "/body.json";
    std::string body;
    if (bytes == 19) {
      body = "{\"hello\": \"world\"}\n";
    } else {
      body.assign(bytes, 'b');
    }
    std::ofstream(path, std::ios::binary) << body;
  }
  ~BodyFile() {
    std::remove(path.c_str());
    ::rmdir(dir.c_str());
  }
  std::string dir;
  std::string path;
};

// test_server --count-paths 1: the requests it answered, from GET /__counts.
int64_t answered_by(const ServerProcess& server) {
  const std::optional<std::string> got = plain_get(server.port(), "/__counts", 10);
  if (!got) return -1;
  const std::string& response = *got;
  const size_t body = response.find("\r\n\r\ntotal ");
  EXPECT_NE(body, std::string::npos) << response;
  if (body == std::string::npos) return -1;
  return std::stoll(response.substr(body + 10));
}

// POSTs a body of `bytes` to `server`'s /post for 1 s over 2 connections: some requests
// complete, none fails, every answer is a 200. A fatal failure when the run did not work.
void post_for_a_second(const ServerProcess& server, size_t bytes, JsonValue* report) {
  const BodyFile body(bytes);
  const Finished run = run_hammer({"-m", "POST", "--body", body.path, "-c", "2", "-t", "1", "-d",
                                   "1", "--json", server.url("/post")},
                                  30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  *report = parse_report(run);
  const double completed = number_at(*report, "requests.completed");
  EXPECT_GT(completed, 0);
  EXPECT_EQ(number_at(*report, "requests.failed"), 0);
  EXPECT_EQ(number_at(*report, "status.2xx"), completed);
}

// Every POST body size against a server that answers on the head and keeps the connection:
// the connections stay the ones opened first (the rest of each body goes out after the
// answer), every answer is a 200, and the bytes read are exactly the answers'.
TEST(WireTest, AnswersBeforeTheBodyKeepTheConnectionForEveryBodySize) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "early"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  for (const size_t bytes : {size_t{0}, size_t{19}, size_t{64 * 1024}, size_t{1024 * 1024}}) {
    SCOPED_TRACE("body of " + std::to_string(bytes) + " bytes");
    JsonValue report;
    ASSERT_NO_FATAL_FAILURE(post_for_a_second(server, bytes, &report));
    EXPECT_EQ(number_at(report, "connections.opened"), 2);
    EXPECT_EQ(number_at(report, "connection_events.reconnects"), 0);
    EXPECT_EQ(number_at(report, "requests.bytes_read"),
              number_at(report, "requests.completed") * static_cast<double>(kAnswer.size()));
    // A body in one send with its head: no answer can come before a small body is sent.
    if (bytes <= 19) {
      EXPECT_EQ(number_at(report, "connection_events.early_responses"), 0);
    }
  }
}

// The same server answering each request with Connection: close: the rest of the body is
// dropped, the connection replaced as asked (a planned reconnect), and no request failed.
TEST(WireTest, AnEarlyClosingAnswerDropsTheRestOfTheBody) {
  ServerProcess server(
      {test_server_binary(), "--port", "0", "--mode", "early", "--close-every", "1"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  for (const size_t bytes : {size_t{19}, size_t{1024 * 1024}}) {
    SCOPED_TRACE("body of " + std::to_string(bytes) + " bytes");
    JsonValue report;
    ASSERT_NO_FATAL_FAILURE(post_for_a_second(server, bytes, &report));
    EXPECT_GE(number_at(report, "connections.opened"), number_at(report, "requests.completed"));
    EXPECT_EQ(number_at(report, "connection_events.reconnects"), 0);
  }
}

// -p 8 behind a server that ends every connection with its 100th answer (Connection: close):
// the seven requests behind each such answer go again on a new connection, so nothing fails
// and the server answered exactly what hammer counted as completed.
TEST(WireTest, PipelinedRequestsBehindAPoliteCloseAreSentAgain) {
  ServerProcess server(
      {test_server_binary(), "--port", "0", "--close-every", "100", "--count-paths", "1"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"-p", "8", "-c", "4", "-t", "1", "-d", "1", "--json", server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "requests.failed"), 0);
  EXPECT_EQ(number_at(report, "errors.read"), 0);
  EXPECT_GT(number_at(report, "requests.retried"), 0);
  EXPECT_EQ(number_at(report, "requests.not_retried"), 0);
  EXPECT_EQ(number_at(report, "requests.completed"), static_cast<double>(answered_by(server)));
}

TEST(WireTest, NoRetryCountsThemAsReadErrorsAgain) {
  ServerProcess server({test_server_binary(), "--port", "0", "--close-every", "100"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"--no-retry", "-p", "8", "-c", "4", "-t", "1", "-d", "1", "--json", server.url()}, 30);
  const JsonValue report = parse_report(run);
  EXPECT_GT(number_at(report, "errors.read"), 0);
  EXPECT_EQ(number_at(report, "requests.retried"), 0);
}

// POST is not idempotent: cut by the same close it fails as before, and the note says why.
TEST(WireTest, NonIdempotentRequestsAreNotSentAgain) {
  ServerProcess server({test_server_binary(), "--port", "0", "--close-every", "100"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"-m", "POST", "-p", "8", "-c", "4", "-t", "1", "-d", "1", server.url()}, 30);
  EXPECT_NE(run.out.find("without a second try: their method is not idempotent"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("Retried "), std::string::npos) << run.out;
}

}  // namespace
}  // namespace hammer::test
