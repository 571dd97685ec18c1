// SPDX-License-Identifier: MIT
// Open loop: the schedule is kept, coordinated omission is corrected, and the verdicts name
// what went wrong when the server or the connection count could not carry the rate.
#include <gtest/gtest.h>

#include <algorithm>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// design.md §1: a fraction f = pause / period of the intended departures fall inside a pause
// and wait uniformly between 0 and the pause, so corrected percentile q is about
// pause * (q - (1 - f)) / f for q above 1 - f.
double expected_corrected_ms(double q, double pause_ms, double every, double rate) {
  const double period_ms = every / rate * 1000.0;
  const double f = pause_ms / period_ms;
  return pause_ms * (q - (1.0 - f)) / f;
}

TEST(OpenLoopTest, PausingServerCorrectedPercentilesFollowTheFormula) {
  ServerProcess server({python_binary(), pausing_server_script(), "--port", "0", "--pause-ms",
                        "200", "--every", "3000"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run =
      run_hammer({"-r", "2000", "-c", "20", "-t", "2", "-d", "6", "--json", server.url()}, 60);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);

  // Rate x duration requests, all of them sent (the backlog after each pause drains).
  EXPECT_EQ(number_at(report, "requests.scheduled"), 12000);
  EXPECT_NEAR(number_at(report, "requests.sent"), 12000, 120);
  EXPECT_NEAR(number_at(report, "requests.completed"), 12000, 120);

  const double corrected_p90 = number_at(report, "latency.corrected.percentiles_ns.90") / 1e6;
  const double corrected_p99 = number_at(report, "latency.corrected.percentiles_ns.99") / 1e6;
  const double uncorrected_p90 = number_at(report, "latency.uncorrected.percentiles_ns.90") / 1e6;
  const double uncorrected_p99 = number_at(report, "latency.uncorrected.percentiles_ns.99") / 1e6;
  // Coordinated omission, made visible: the closed-loop stopwatch misses the stalls.
  EXPECT_GT(corrected_p90, 5 * uncorrected_p90);
  EXPECT_GT(corrected_p99, 5 * uncorrected_p99);
  const double expected_p99 = expected_corrected_ms(0.99, 200, 3000, 2000);  // ~185 ms
  EXPECT_NEAR(corrected_p99, expected_p99, 0.25 * expected_p99)
      << "corrected p90 " << corrected_p90 << " ms, uncorrected p99 " << uncorrected_p99 << " ms";
  // The server held every connection: late requests are its fault, not hammer's.
  EXPECT_GT(number_at(report, "dispatch_lag.cause.server"), 0);
  EXPECT_EQ(report.find("config.mode")->text, "open");
  EXPECT_EQ(report.find("config.stopwatch")->text, "corrected");
}

TEST(OpenLoopTest, RateIsSplitExactlyOverThreads) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run =
      run_hammer({"-r", "1000", "-t", "3", "-c", "6", "-d", "2", "--json", server.url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 2000);
  EXPECT_NEAR(number_at(report, "requests.sent"), 2000, 20);
  EXPECT_NEAR(number_at(report, "requests.per_second"), 1000, 50);
  EXPECT_EQ(number_at(report, "latency.corrected.count"), number_at(report, "requests.completed"));
}

TEST(OpenLoopTest, ClosedLoopFlagKeepsTheScheduleButLeadsWithUncorrected) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run =
      run_hammer({"-r", "500", "--closed-loop", "-c", "4", "-d", "1", server.url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("open loop @ 500 req/s"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Latency (uncorrected"), std::string::npos) << run.out;
}

TEST(OpenLoopTest, OverCapacityServerGetsItsVerdict) {
  // One thread spending 1 ms per request: about 1,000 req/s, offered 2,000.
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "capacity",
                        "--service-us", "1000"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer({"-r", "2000", "-c", "20", "-d", "2", server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("over capacity: the server sustained"), std::string::npos) << run.out;
}

TEST(OpenLoopTest, TooFewConnectionsGetsItsVerdictWithTheFigure) {
  // 0.5 ms per request: one connection carries about 2,000 req/s, offered 4,000.
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "capacity",
                        "--service-us", "500"});
  ASSERT_TRUE(server.ready());
  const Finished run =
      run_hammer({"-r", "4000", "-c", "1", "-d", "2", "--json", server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const JsonValue* verdicts = report.find("verdicts");
  ASSERT_NE(verdicts, nullptr);
  const auto it = std::find_if(verdicts->items.begin(), verdicts->items.end(),
                               [](const JsonValue& v) {
                                 return v.find("code")->text == "too_few_connections";
                               });
  ASSERT_NE(it, verdicts->items.end()) << run.out;
  EXPECT_NE(it->find("text")->text.find("-c 1 cannot carry 4000 req/s"), std::string::npos);
  EXPECT_GE(number_at(*it, "figures.connections_needed"), 1.5);
}

}  // namespace
}  // namespace hammer::test
