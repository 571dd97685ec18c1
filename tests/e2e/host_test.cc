// SPDX-License-Identifier: MIT
// Issue 23: the host is measured beside the server. A hammer stopped by the test (SIGSTOP,
// then SIGCONT) is a host that froze: its hiccup meter sees the stall and the run says so; a
// closed loop reports its workers' CPU share, and calls itself generator-bound only when that
// share says so.
#include <gtest/gtest.h>

#include <string>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

const JsonValue* verdict_named(const JsonValue& report, const std::string& code) {
  const JsonValue* verdicts = report.find("verdicts");
  if (verdicts == nullptr) return nullptr;
  for (const JsonValue& verdict : verdicts->items) {
    if (const JsonValue* name = verdict.find("code"); name != nullptr && name->text == code) {
      return &verdict;
    }
  }
  return nullptr;
}

// A 3 s run of `hammer RATE_ARGS -d 3 --json` against a fast test server, stopped 1 s after
// its start for `seconds`. A shell does the stopping (kill -STOP / -CONT of hammer's PID):
// run_process() times its signals from a handler, and SIGSTOP has none.
Finished run_stopped_once(const std::string& rate_args, const std::string& seconds) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  if (!server.ready()) {
    Finished failed;
    failed.err = "test_server did not start: " + server.startup_output();
    return failed;
  }
  std::string script = "\"$0\" ";
  script += rate_args;
  script += " -d 3 --json \"$1\" & pid=$!; sleep 1; kill -STOP $pid; sleep ";
  script += seconds;
  script += "; kill -CONT $pid; wait $pid";
  return run_process({"/bin/sh", "-c", script, hammer_binary(), server.url()}, 30);
}

TEST(HostTest, AHammerStoppedForAThirdOfASecondRecordsTheStallAndSaysTheHostStalled) {
  // Stopped 1.0 s after the start for 0.3 s of a 3 s open-loop run: 30% of a second's slots
  // came due while nothing of hammer ran.
  const Finished run = run_stopped_once("-r 200 -c 4", "0.3");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_GE(number_at(report, "host.max_stall_ns"), 250e6) << run.out;
  EXPECT_GE(number_at(report, "host.long_stalls"), 1);
  EXPECT_GE(number_at(report, "host.lost_ns"), 250e6);
  // When it happened: the timeline row of the stall carries it.
  const JsonValue* rows = report.find("timeline.rows");
  ASSERT_NE(rows, nullptr);
  double timeline_max = 0;
  for (const JsonValue& row : rows->items) {
    timeline_max = std::max(timeline_max, number_at(row, "host_stall_max_ns"));
  }
  EXPECT_EQ(timeline_max, number_at(report, "host.max_stall_ns"));
  const JsonValue* stalled = verdict_named(report, "host_stalled");
  ASSERT_NE(stalled, nullptr) << run.out;
  // It names the percentiles a stall that long could have made: p99 among them.
  EXPECT_NE(stalled->find("figures.percentiles_ns.99"), nullptr) << run.out;
  EXPECT_NE(stalled->find("text")->text.find("repeat the run on a quieter machine"),
            std::string::npos);
}

// At 2,000 req/s on two workers each sleeps to its slots every millisecond: they sample the
// host for the meter, which then wakes every 25 ms instead of 5 (run/host_samples.h). A
// 0.6 s stop is seen by the meter and by both workers: one stall, counted once.
TEST(HostTest, WhereTheWorkersSampleTheHostAStallTheyAllSawIsOneStall) {
  const Finished run = run_stopped_once("-r 2000 -c 4 -t 2", "0.6");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "host.interval_ns"), 25e6);
  EXPECT_GE(number_at(report, "host.max_stall_ns"), 500e6) << run.out;
  const JsonValue* stalls = report.find("host.stalls");
  ASSERT_NE(stalls, nullptr);
  int long_ones = 0;
  for (const JsonValue& stall : stalls->items) long_ones += number_at(stall, "ns") >= 500e6;
  EXPECT_EQ(long_ones, 1) << run.out;  // three sightings (the meter, two workers): one stall
  EXPECT_NE(verdict_named(report, "host_stalled"), nullptr) << run.out;
}

TEST(HostTest, AClosedLoopOnOneThreadReportsItsCpuShareAndJudgesItByIt) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run =
      run_hammer({"-c", "16", "-t", "1", "-d", "1", "--json", server.url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "generator_cpu.threads"), 1);
  const double share = number_at(report, "generator_cpu.share");
  EXPECT_GT(share, 0);
  EXPECT_LE(share, 1.05);  // a thread's CPU over its wall time (clock reads a little apart)
  EXPECT_EQ(number_at(report, "generator_cpu.busiest_share"), share);
  // How busy one thread gets is the machine's; the verdict must agree with the share reported.
  const JsonValue* bound = verdict_named(report, "generator_bound");
  EXPECT_EQ(bound != nullptr, share > 0.9) << "share " << share << "\n" << run.out;
  if (bound != nullptr) {
    EXPECT_EQ(number_at(*bound, "figures.share"), share);
  }
  // The text report says it too, on its own line.
  const Finished text = run_hammer({"-c", "16", "-t", "1", "-d", "1", server.url()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Generator CPU  "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Host           max stall "), std::string::npos) << text.out;
}

}  // namespace
}  // namespace hammer::test
