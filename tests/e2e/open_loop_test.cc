// SPDX-License-Identifier: MIT
// Open loop: the schedule is kept, coordinated omission is corrected, and the verdicts name
// what went wrong when the server or the connection count could not carry the rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// The codes of a run document's verdicts.
std::vector<std::string> verdict_codes(const JsonValue& report) {
  std::vector<std::string> codes;
  if (const JsonValue* verdicts = report.find("verdicts")) {
    for (const JsonValue& verdict : verdicts->items) {
      if (const JsonValue* code = verdict.find("code")) codes.push_back(code->text);
    }
  }
  return codes;
}

bool has_code(const std::vector<std::string>& codes, const std::string& code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

// design.md §1: a fraction f = pause / period of the intended departures fall inside a pause
// and wait uniformly between 0 and the pause, so corrected percentile q is about
// pause * (q - (1 - f)) / f for q above 1 - f.
double expected_corrected_ms(double q, double pause_ms, double every, double rate) {
  const double period_ms = every / rate * 1000.0;
  const double f = pause_ms / period_ms;
  return pause_ms * (q - (1.0 - f)) / f;
}

TEST(OpenLoopTest, PausingServerCorrectedPercentilesFollowTheFormula) {
  // 1,000 req/s with a 200 ms pause every 1,500 responses: one pause per 1.5 s, f = 0.133, and
  // 10 connections, so the requests caught in flight by a pause (10 per 1,500) stay under 1%
  // and out of the uncorrected p99 (at half the rate the server spends half the CPU). The
  // formula assumes the backlog after a pause drains at once; a busy machine drains it slower
  // and adds its own wake-up delays to every request. Both show in the run's own uncorrected
  // latency, which therefore widens the margin: the noise is measured in the same run. When
  // the figure still falls outside, the run is repeated (and says so), up to three attempts.
  const double expected_p99 = expected_corrected_ms(0.99, 200, 1500, 1000);  // ~185 ms
  for (int attempt = 1;; ++attempt) {
    ServerProcess server({python_binary(), pausing_server_script(), "--port", "0",
                          "--pause-ms", "200", "--every", "1500"});
    ASSERT_TRUE(server.ready()) << server.startup_output();
    const Finished run =
        run_hammer({"-r", "1000", "-c", "10", "-t", "2", "-d", "6", "--json", server.url()}, 60);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const JsonValue report = parse_report(run);

    const PausingRunLatency latency = pausing_run_latency(report, 6000);
    const auto& [corrected_p90, corrected_p99, uncorrected_p90, uncorrected_p99] = latency;
    // The uncorrected p99 is the machine's noise (1 ms quiet, 39 ms seen beside a sanitizer
    // build on a loaded machine), so latency.omission_shown() is part of the reading that is
    // retried.
    const double margin = 0.25 * expected_p99 + uncorrected_p99;
    const std::string reading =
        "corrected p90 " + std::to_string(corrected_p90) + " ms (uncorrected " +
        std::to_string(uncorrected_p90) + "), corrected p99 " + std::to_string(corrected_p99) +
        " ms, expected " + std::to_string(expected_p99) + " +- " + std::to_string(margin) +
        " ms (25% + uncorrected p99 " + std::to_string(uncorrected_p99) + " ms)";
    // hammer's warning about its own lateness, where it gives one, is judged by the run's
    // own figures (generator_warning_problem says why it may stand on a busy machine); a
    // warning whose figures do not hold is a failure at once, not a reading to retry.
    EXPECT_EQ(generator_warning_problem(report), "") << run.out;
    if (has_code(verdict_codes(report), "generator_saturated")) {
      std::cout << "hammer's own lateness moved a percentile (a busy machine): its "
                   "generator_saturated warning stands, its figures checked\n";
    }
    if (latency.omission_shown() && std::abs(corrected_p99 - expected_p99) <= margin) break;
    if (attempt == 3) {
      ADD_FAILURE() << reading << ", on three attempts";
      break;
    }
    std::cout << "retrying: " << reading << "\n";
  }
}

// hammer stopped (SIGSTOP) for 0.4 s mid-run against a server that answers in microseconds:
// the slots due while it was stopped are its own lateness, although the catch-up burst finds
// every connection busy. Once that burst was charged to the server: {server: 77, generator:
// 4} and server_behind, or over_capacity (issue 23).
TEST(OpenLoopTest, AStoppedGeneratorBlamesItselfNotTheServer) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  // Timed from hammer's SIGINT handler, installed just before it connects and starts: the stop
  // falls 0.6 s to 1.0 s into the 2 s run even when the start comes a few hundred ms late.
  const Finished run = run_process(
      {hammer_binary(), "-r", "200", "-c", "4", "-d", "2", "--json", server.url()}, 60,
      {{SIGSTOP, 0.6}, {SIGCONT, 1.0}}, SIGINT);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const std::vector<std::string> codes = verdict_codes(report);
  EXPECT_FALSE(has_code(codes, "over_capacity")) << run.out;
  EXPECT_FALSE(has_code(codes, "server_behind")) << run.out;
  EXPECT_FALSE(has_code(codes, "too_few_connections")) << run.out;
  // 80 slots came due during the stop; a busy machine adds lateness of its own, which is
  // hammer's too. The server, answering in microseconds, held few of them.
  const double generator = number_at(report, "dispatch_lag.cause.generator");
  const double server_late = number_at(report, "dispatch_lag.cause.server");
  EXPECT_GE(generator, 40) << run.out;
  EXPECT_GE(generator, 2 * server_late) << run.out;
  EXPECT_GE(number_at(report, "dispatch_lag.generator_absent"), 40) << run.out;
  EXPECT_GE(number_at(report, "dispatch_lag.absent_ns"), 300e6) << run.out;
  // Lags of 400 ms move the tail of a microsecond server: hammer says they are its own.
  EXPECT_TRUE(has_code(codes, "generator_saturated")) << run.out;
  // And that it was held off the CPU, not busy: no --threads or --rate advice for a stop.
  for (const JsonValue& verdict : report.find("verdicts")->items) {
    if (verdict.find("code")->text != "generator_saturated") continue;
    const JsonValue* held_off = verdict.find("figures")->find("held_off");
    ASSERT_NE(held_off, nullptr);
    EXPECT_TRUE(held_off->boolean) << run.out;
    EXPECT_GE(verdict.find("figures")->find("host_stall_ns")->number, 300e6) << run.out;
    EXPECT_NE(verdict.find("text")->text.find("would not help: free the machine"), std::string::npos)
        << run.out;
  }
}

TEST(OpenLoopTest, RateIsSplitExactlyOverThreads) {
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(run_against_test_server(
      {"--mode", "fast"}, {"-r", "1000", "-t", "3", "-c", "6", "-d", "2"}, &report));
  // The schedule is exact whatever the machine: 1,000 req/s over 2 s, split over 3 threads
  // without losing or doubling a departure. Each one is either sent or, when a busy machine
  // kept hammer from sending it before the deadline, counted as unsent.
  const double scheduled = number_at(report, "requests.scheduled");
  EXPECT_EQ(scheduled, 2000);
  EXPECT_EQ(number_at(report, "requests.sent") + number_at(report, "requests.unsent"), scheduled);
  EXPECT_GT(number_at(report, "requests.sent"), scheduled / 2);
  EXPECT_EQ(number_at(report, "latency.corrected.count"), number_at(report, "requests.completed"));
}

TEST(OpenLoopTest, ARunShorterThanAWakeUpStillSendsTheSlotDueAtItsStart) {
  // -d 1ns: slot 0 is due at the start, and the worker can only wake after the deadline. It
  // used to stop without sending it, then call the idle connections busy and say "no request
  // could be sent (0 connects failed, none succeeded)", exit 2.
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(
      run_against_test_server({"--mode", "fast"}, {"-r", "10", "-c", "2", "-d", "1ns"}, &report));
  EXPECT_EQ(number_at(report, "requests.scheduled"), 1);
  EXPECT_EQ(number_at(report, "requests.sent"), 1);
  EXPECT_EQ(number_at(report, "requests.unsent"), 0);
  EXPECT_EQ(number_at(report, "requests.completed"), 1);
  EXPECT_EQ(number_at(report, "dispatch_lag.cause.server"), 0);
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

// A 2 s --json run at `rate` req/s over `connections` against a test_server whose one thread
// spends `service_us` on each request. A fatal failure when the run did not work or its report
// has no verdicts.
void run_against_capacity(const std::string& service_us, const std::string& rate,
                          const std::string& connections, Finished* run, JsonValue* report) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "capacity",
                        "--service-us", service_us});
  ASSERT_TRUE(server.ready());
  *run = run_hammer({"-r", rate, "-c", connections, "-d", "2", "--json", server.url()}, 30);
  ASSERT_EQ(run->exit_code, 0) << run->err;
  *report = parse_report(*run);
  ASSERT_NE(report->find("verdicts"), nullptr);
}

TEST(OpenLoopTest, OverCapacityServerGetsItsVerdict) {
  // One thread spending 1 ms per request: about 1,000 req/s, offered 2,000.
  Finished run;
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(run_against_capacity("1000", "2000", "20", &run, &report));
  const JsonValue& verdicts = *report.find("verdicts");
  auto has = [&](const std::string& code) {
    return std::any_of(verdicts.items.begin(), verdicts.items.end(),
                       [&](const JsonValue& v) { return v.find("code")->text == code; });
  };
  // The verdict tells a queueing server from one that is merely slow by its own latencies: a
  // median over kQueueingRatio (4) times the fastest answer is requests waiting in line. On a
  // busy machine (ASan, builds) the server can start so late that even its fastest answer
  // waited behind the others; then nothing in the run tells the two apart, and "too few
  // connections" is as fair a reading. Judge the verdict by what this run measured.
  const double median = number_at(report, "latency.uncorrected.percentiles_ns.50");
  const double fastest = number_at(report, "latency.uncorrected.min_ns");
  if (median > 4 * fastest) {
    EXPECT_TRUE(has("over_capacity")) << run.out;
  } else {
    std::cout << "the fastest answer (" << fastest / 1e6 << " ms) already waited in line "
              << "(median " << median / 1e6 << " ms): either reading is fair\n";
    EXPECT_TRUE(has("over_capacity") || has("too_few_connections")) << run.out;
  }
}

TEST(OpenLoopTest, TooFewConnectionsGetsItsVerdictWithTheFigure) {
  // 0.5 ms per request: one connection carries about 2,000 req/s, offered 4,000.
  Finished run;
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(run_against_capacity("500", "4000", "1", &run, &report));
  const JsonValue& verdicts = *report.find("verdicts");
  const auto it = std::find_if(verdicts.items.begin(), verdicts.items.end(),
                               [](const JsonValue& v) {
                                 return v.find("code")->text == "too_few_connections";
                               });
  ASSERT_NE(it, verdicts.items.end()) << run.out;
  EXPECT_NE(it->find("text")->text.find("-c 1 cannot carry 4000 req/s"), std::string::npos);
  EXPECT_GE(number_at(*it, "figures.connections_needed"), 1.5);
  // A figure -c accepts, and more than the one connection that fell short.
  EXPECT_GE(number_at(*it, "figures.connections_suggested"), 2);
  EXPECT_LE(number_at(*it, "figures.connections_suggested"), 1'000'000);
  // One connection cannot queue at the server: never "over capacity", however a busy machine
  // spreads the latencies (issue 10 item 11).
  for (const JsonValue& verdict : verdicts.items) {
    EXPECT_NE(verdict.find("code")->text, "over_capacity") << run.out;
  }
}

}  // namespace
}  // namespace hammer::test
