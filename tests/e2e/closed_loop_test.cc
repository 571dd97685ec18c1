// SPDX-License-Identifier: MIT
// Closed loop against a fast local server, the JSON document, and how work is split.
#include <gtest/gtest.h>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

TEST(ClosedLoopTest, FastServerGivesNoErrorsAndEveryDocumentedJsonField) {
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(
      run_against_test_server({"--mode", "fast"}, {"-c", "8", "-t", "2", "-d", "1"}, &report));

  EXPECT_GT(number_at(report, "requests.completed"), 100);
  expect_no_errors(report);
  EXPECT_EQ(number_at(report, "status.2xx"), number_at(report, "requests.completed"));
  EXPECT_EQ(number_at(report, "latency.uncorrected.count"),
            number_at(report, "requests.completed"));

  // Every field docs/json.md promises, with its type.
  for (const char* path : {"hammer.schema", "config.connections", "config.threads",
                           "config.duration_s", "config.timeout_ms", "elapsed_ns",
                           "requests.sent", "requests.bytes_read", "requests.per_second",
                           "connections.opened", "latency.uncorrected.min_ns",
                           "latency.uncorrected.max_ns", "latency.uncorrected.mean_ns",
                           "latency.uncorrected.stdev_ns", "latency.uncorrected.percentiles_ns.50",
                           "latency.uncorrected.percentiles_ns.99",
                           "latency.uncorrected.percentiles_ns.99.9",
                           "latency.uncorrected.percentiles_ns.99.99", "status.1xx", "status.3xx",
                           "status.4xx", "status.5xx"}) {
    number_at(report, path);
  }
  for (const char* path : {"hammer.version", "config.url", "config.mode", "config.stopwatch",
                           "latency.uncorrected.hdr"}) {
    const JsonValue* value = report.find(path);
    ASSERT_NE(value, nullptr) << path;
    EXPECT_EQ(value->kind, JsonValue::Kind::string) << path;
  }
  EXPECT_EQ(report.find("config.mode")->text, "closed");
  EXPECT_EQ(report.find("latency.uncorrected.hdr")->text.rfind("HISTF", 0), 0u);
  ASSERT_NE(report.find("latency.corrected"), nullptr);
  EXPECT_TRUE(report.find("latency.corrected")->is_null());
  ASSERT_NE(report.find("dispatch_lag"), nullptr);
  ASSERT_NE(report.find("verdicts"), nullptr);
  EXPECT_EQ(report.find("verdicts")->kind, JsonValue::Kind::array);
  ASSERT_NE(report.find("notes"), nullptr);
  EXPECT_EQ(report.find("notes")->kind, JsonValue::Kind::array);
}

TEST(ClosedLoopTest, TextReportHasTheWrkShape) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer({"-c", "2", "-d", "1", server.url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Running 1s test @ " + server.url()), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("2 threads, 2 connections, closed loop"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Latency (uncorrected, closed loop)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Requests/sec"), std::string::npos);
  EXPECT_NE(run.out.find("Socket errors  connect 0, read 0, write 0, timeout 0"),
            std::string::npos);
  EXPECT_EQ(run.out.find("Non-2xx"), std::string::npos);
}

TEST(ClosedLoopTest, TenConnectionsOverFourThreadsOpensExactlyTen) {
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(
      run_against_test_server({"--mode", "fast"}, {"-c", "10", "-t", "4", "-d", "0.5"}, &report));
  EXPECT_EQ(number_at(report, "connections.opened"), 10);
  EXPECT_EQ(number_at(report, "config.connections"), 10);
  EXPECT_EQ(number_at(report, "config.threads"), 4);
}

TEST(ClosedLoopTest, ErrorStatusesAreCountedAndReported) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "status", "--status", "503"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer({"-c", "2", "-d", "0.3", server.url()});
  // Every answer an error: the run did not measure the service (README: exit status).
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.out.find("Non-2xx or 3xx responses: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Status         503 \u00d7"), std::string::npos) << run.out;
}

TEST(ClosedLoopTest, ConnectionCloseResponsesReconnectAndCarryOn) {
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(
      run_against_test_server({"--mode", "close"}, {"-c", "2", "-t", "1", "-d", "0.5"}, &report));
  const double completed = number_at(report, "requests.completed");
  EXPECT_GT(completed, 20);
  // One connect per response, give or take the ones open at the end.
  EXPECT_GE(number_at(report, "connections.opened"), completed);
  EXPECT_EQ(number_at(report, "errors.read"), 0);
}

}  // namespace
}  // namespace hammer::test
