// SPDX-License-Identifier: MIT
// Sweeps, the capacity search and the --slo gate against tools/test_server --mode capacity: a
// single-threaded server with a fixed service time per request, paced by the clock (see
// tools/test_server.cc): its capacity is 1 / service time whatever CPU share it gets, so on a
// busy machine (scripts/test-under-load.sh) only the latencies grow. Bounds are relative to
// what the runs themselves measured, never absolute speeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// One request at a time, `service_us` each, finished at clock-set times: a late wake-up on a
// contended CPU delays answers but does not lower the capacity (a sleeping server's capacity
// fell from 1,000 to 200-690 req/s under four busy loops on two cores, within one sweep).
std::vector<std::string> capacity_server(int service_us = 1000) {
  return {test_server_binary(), "--port", "0", "--mode", "capacity", "--service-us",
          std::to_string(service_us), "--service-kind", "paced"};
}

const std::vector<JsonValue>& steps_of(const JsonValue& report) {
  static const std::vector<JsonValue> none;
  const JsonValue* steps = report.find("sweep.steps");
  EXPECT_NE(steps, nullptr);
  if (steps == nullptr) return none;
  EXPECT_EQ(steps->kind, JsonValue::Kind::array);
  return steps->items;
}

TEST(SweepTest, AConnectionSweepOfASingleThreadedServerIsFlatAndObeysLittlesLaw) {
  // 5 ms per request: 200 req/s, and every level saturates it. The server stays busy while a
  // response waits for hammer to send that connection's next request, as long as the others'
  // requests queued behind it last longer: 10 connections give it 45 ms of them, more than a
  // busy machine's wake-up delays (8 to 30 ms per request seen under four busy loops on two
  // cores and other builds). Lower levels show those delays, not the server: 1 and 2
  // connections gave 190 then 110 req/s there, a "collapse" that only the machine made. Steps
  // are 2 s: latency at 40 connections is 200 ms, and the edges of a 1 s step bent Little's
  // law by 12% there (by 14% at 80 connections).
  constexpr double kCapacity = 200;
  constexpr double kServiceMs = 5;
  ServerProcess server(capacity_server(5000));
  ASSERT_TRUE(server.ready()) << server.startup_output();
  for (int attempt = 1;; ++attempt) {
    const Finished run = run_hammer({"-c", "10,20,40", "-d", "2", "--json", server.url()}, 30);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const JsonValue report = parse_report(run);
    EXPECT_EQ(report.find("sweep.kind")->text, "connections");
    const std::vector<JsonValue>& steps = steps_of(report);
    ASSERT_EQ(steps.size(), 3u);
    std::vector<double> rates;
    std::string stall;  // a step whose slowest request waited longer than the queue explains
    for (const JsonValue& step : steps) {
      const double level = number_at(step, "level");
      const double per_second = number_at(step, "requests.per_second");
      // The noise, measured in the same run: a saturated server answers every request within
      // level x 5 ms; past twice that, hammer (or the server) stalled for longer than the
      // queue could cover, and a dent in that step's throughput is the machine's.
      const double max_ms = number_at(step, "latency_ns.max") / 1e6;
      if (max_ms > 2 * level * kServiceMs) {
        stall += " at " + std::to_string(static_cast<int>(level)) + " connections the slowest "
                 "request took " + std::to_string(max_ms) + " ms;";
      }
      EXPECT_EQ(number_at(step, "connections"), level);
      EXPECT_EQ(number_at(step, "errors"), 0);
      // hammer never counts more answers than the server's clock lets it give (2% of slack
      // for the step's edges).
      EXPECT_LE(per_second, kCapacity * 1.02) << "at " << level << "\n" << run.out;
      rates.push_back(per_second);
      // Little's law in a closed loop: req/s x mean latency gives back the connection count
      // (a little less: the share of time a response waits for hammer to turn it into the
      // next request; never more).
      EXPECT_LT(std::abs(number_at(step, "littles_law.deviation_pct")), 10) << "at " << level;
    }
    EXPECT_GE(number_at(report, "sweep.generator.max_cpu_cores"), 0);
    ASSERT_NE(report.find("sweep.knee"), nullptr);
    ASSERT_NE(report.find("sweep.collapse"), nullptr);

    // The shape: flat, the knee at the start, no collapse. A stall longer than the queue
    // (over 45 ms) still dents a level; then the sweep is repeated once, and says so, and a
    // second dent that comes with a stall is inconclusive, not a failure.
    const double low = *std::min_element(rates.begin(), rates.end());
    const double high = *std::max_element(rates.begin(), rates.end());
    const bool flat = low > 0 && high <= low * 1.2;
    const JsonValue* knee = report.find("sweep.knee");
    const bool knee_early = !knee->is_null() && number_at(report, "sweep.knee.level") <= 20;
    const bool no_collapse = report.find("sweep.collapse")->is_null();
    if (attempt == 1 && !(flat && knee_early && no_collapse)) {
      std::cout << "retrying once: the curve was not flat (" << low << " to " << high
                << " req/s), or its knee or a collapse said so:\n" << run.out << "\n";
      continue;
    }
    if (!(flat && knee_early && no_collapse) && !stall.empty()) {
      GTEST_SKIP() << "inconclusive: the curve was not flat (" << low << " to " << high
                   << " req/s) on both attempts, and the machine stalled:" << stall << "\n"
                   << run.out;
    }
    EXPECT_TRUE(flat) << "throughput should be flat: " << low << " to " << high << " req/s\n"
                      << run.out;
    EXPECT_TRUE(knee_early) << run.out;
    EXPECT_TRUE(no_collapse) << run.out;
    break;
  }
}

TEST(SweepTest, TheTextReportHasOneRowPerStepAndNamesTheKnee) {
  ServerProcess server(capacity_server(5000));  // saturated from 4 connections on, if not 1
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer({"-c", "1,4,16", "-d", "0.5", server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Sweep @ " + server.url() + ": connections 1,4,16, closed loop"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("rps*mean"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Knee: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Generator CPU: ") == std::string::npos
                ? run.out.find("warning: hammer used")
                : run.out.find("Generator CPU: "),
            std::string::npos)
      << run.out;
}

// A step in which hammer says it was itself the bottleneck (the generator_saturated verdict:
// requests sent late although a connection was idle) measured the machine, not the server.
bool generator_saturated_in_a_step(const JsonValue& report) {
  for (const JsonValue& step : steps_of(report)) {
    const JsonValue* verdicts = step.find("verdicts");
    if (verdicts == nullptr) continue;
    for (const JsonValue& code : verdicts->items) {
      if (code.text == "generator_saturated") return true;
    }
  }
  return false;
}

TEST(SweepTest, TheCapacitySearchFindsTheClosedLoopCapacityWithinAQuarter) {
  ServerProcess server(capacity_server());
  ASSERT_TRUE(server.ready()) << server.startup_output();
  // What the server sustains on this machine: a closed loop keeps it always busy. Measured
  // before and after the search, since a shared machine's load drifts during it.
  auto closed_loop_capacity = [&] {
    const Finished closed = run_hammer({"-c", "10", "-d", "1", "--json", server.url()}, 20);
    EXPECT_EQ(closed.exit_code, 0) << closed.err;
    return number_at(parse_report(closed), "requests.per_second");
  };
  // A loose p99 limit over 2 s steps: a scheduling stall on a busy machine (140 ms seen under
  // four busy loops) must not fail a rate below capacity, which takes a stall of over 300 ms
  // that delays 1% of a step's requests. Above capacity the backlog fails it anyway: at rate r
  // the wait grows to (r / capacity - 1) x 2 s by a step's end, past 300 ms from 1.15 x on.
  // hammer's own lateness on a busy machine (a few ms, seen in every CI pass while the next
  // build compiles beside the tests) cannot move a 300 ms limit, so the capacity is judged
  // even then. Only a capacity outside the band, from a search in which hammer reports that it
  // was itself the bottleneck, may have measured the machine rather than the server: that
  // search is repeated once, and a second such result is inconclusive, not a failure.
  for (int attempt = 1;; ++attempt) {
    const double before = closed_loop_capacity();
    ASSERT_GT(before, 50);
    const Finished run = run_hammer({"-c", "20", "-d", "2", "--rate", "100:3000", "--slo",
                                     "p99=300ms", "--json", server.url()},
                                    60);
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const JsonValue report = parse_report(run);
    EXPECT_TRUE(report.find("sweep.search")->boolean);
    const std::vector<JsonValue>& steps = steps_of(report);
    EXPECT_LE(steps.size(), 8u);
    EXPECT_EQ(number_at(report, "sweep.capacity.steps"), static_cast<double>(steps.size()));
    for (const JsonValue& step : steps) {
      ASSERT_NE(step.find("slo"), nullptr);
      EXPECT_EQ(step.find("latency_ns.stopwatch")->text, "corrected");
    }
    const double after = closed_loop_capacity();
    const bool found = report.find("sweep.capacity.found")->boolean;
    const double level = found ? number_at(report, "sweep.capacity.level") : 0;
    const bool in_band =
        found && level > std::min(before, after) * 0.75 && level < std::max(before, after) * 1.25;
    if (!in_band && generator_saturated_in_a_step(report)) {
      if (attempt == 1) {
        std::cout << "retrying once: capacity " << level << " out of band while hammer was "
                  << "itself the bottleneck in a step\n";
        continue;
      }
      GTEST_SKIP() << "inconclusive: hammer was itself the bottleneck in a step of both "
                      "searches (the machine is too busy to drive this server)\n" << run.out;
    }
    EXPECT_TRUE(found) << run.out;
    EXPECT_TRUE(report.find("slo_passed")->boolean);
    const std::string capacity = "closed loop " + std::to_string(before) + " then " +
                                 std::to_string(after) + " req/s\n";
    EXPECT_GT(level, std::min(before, after) * 0.75) << capacity << run.out;
    EXPECT_LT(level, std::max(before, after) * 1.25) << capacity << run.out;
    break;
  }
}

TEST(SweepTest, AnSloOnASingleRunExitsThreeWhenMissedAndZeroWhenMet) {
  ServerProcess server(capacity_server());
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished missed =
      run_hammer({"-c", "2", "-d", "0.5", "--slo", "p99=1us", "--slo", "errors=1%", server.url()});
  EXPECT_EQ(missed.exit_code, 3) << missed.err;
  EXPECT_NE(missed.out.find("SLO p99 <= 1.00us: "), std::string::npos) << missed.out;
  EXPECT_NE(missed.out.find(", MISSED"), std::string::npos) << missed.out;
  EXPECT_NE(missed.out.find("SLO errors <= 1.00%: 0.00%, met"), std::string::npos) << missed.out;

  const Finished met =
      run_hammer({"-c", "2", "-d", "0.5", "--slo", "p99=10s", "--json", server.url()});
  EXPECT_EQ(met.exit_code, 0) << met.err;
  const JsonValue report = parse_report(met);
  EXPECT_TRUE(report.find("slo_passed")->boolean);
  const JsonValue* slo = report.find("slo");
  ASSERT_NE(slo, nullptr);
  ASSERT_EQ(slo->items.size(), 1u);
  EXPECT_EQ(slo->items[0].find("key")->text, "p99");
  EXPECT_EQ(number_at(slo->items[0], "limit"), 10e9);
  EXPECT_GT(number_at(slo->items[0], "measured"), 0);
  EXPECT_TRUE(slo->items[0].find("pass")->boolean);
}

TEST(SweepTest, ControlRunsTheSameLevelsAgainstANoWorkRouteAndGivesTheRatio) {
  ServerProcess server(capacity_server());
  ServerProcess fast({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  ASSERT_TRUE(fast.ready()) << fast.startup_output();
  const Finished run = run_hammer(
      {"-c", "2,8", "-d", "0.5", "--control", fast.url(), "--json", server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const JsonValue* control = report.find("sweep.control.steps");
  ASSERT_NE(control, nullptr);
  EXPECT_EQ(control->items.size(), 2u);
  // The no-work route answers far faster than a 1 ms busy handler.
  EXPECT_GT(number_at(report, "sweep.control.ratio"), 1.5) << run.out;
  for (const JsonValue& step : steps_of(report)) {
    EXPECT_GT(number_at(step, "control_per_second"), 0);
  }
}

// Issue 10 item 10: the server dies mid-sweep. What the earlier steps measured is still
// printed (text and JSON), the step that could not start is marked, and the exit is 2.
TEST(SweepTest, AServerThatDiesMidSweepKeepsTheStepsBeforeAndMarksTheFailedOne) {
  for (const bool json : {true, false}) {
    SCOPED_TRACE(json ? "json" : "text");
    std::optional<ServerProcess> server(std::in_place, std::vector<std::string>{
                                            test_server_binary(), "--port", "0", "--mode", "fast"});
    ASSERT_TRUE(server->ready());
    const std::string url = server->url();
    std::thread killer([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1200));
      server.reset();  // during step 3 of 6, each 0.5 s
    });
    std::vector<std::string> args = {"-c", "1,2,3,4,5,6", "-t", "1", "-d", "0.5",
                                     "--timeout", "300"};
    if (json) args.push_back("--json");
    args.push_back(url);
    const Finished run = run_hammer(args, 30);
    killer.join();
    EXPECT_EQ(run.exit_code, 2) << run.err;
    if (json) {
      const JsonValue report = parse_report(run);
      const std::vector<JsonValue>& steps = steps_of(report);
      ASSERT_GE(steps.size(), 2u) << run.out;
      EXPECT_GT(number_at(steps.front(), "requests.completed"), 0);
      EXPECT_TRUE(steps.front().find("error")->is_null());
      const JsonValue* error = steps.back().find("error");
      ASSERT_NE(error, nullptr);
      EXPECT_NE(error->text.find("cannot connect to"), std::string::npos) << run.out;
      EXPECT_NE(report.find("sweep.stopped")->text.find("cannot connect to"), std::string::npos);
      EXPECT_LT(steps.size(), 6u) << "later steps were not run";
    } else {
      EXPECT_NE(run.out.find("failed: cannot connect to"), std::string::npos) << run.out;
      EXPECT_NE(run.out.find("note: the sweep stopped"), std::string::npos) << run.out;
      // The first step's row: its level, then its req/s.
      EXPECT_NE(run.out.find("\n       1 "), std::string::npos) << run.out;
    }
  }
}

// Issue 10 item 10: an unreachable --control URL is found before the first step runs.
TEST(SweepTest, AnUnreachableControlUrlIsFoundBeforeTheSweepStarts) {
  ServerProcess server(capacity_server());
  ASSERT_TRUE(server.ready());
  const int port = unused_port();
  const Finished run = run_hammer({"-c", "1,2,3", "-d", "5", "--control",
                                   "http://127.0.0.1:" + std::to_string(port) + "/",
                                   server.url()},
                                  30);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_LT(run.wall_s, 2.0) << "the sweep ran before --control was checked";
  EXPECT_EQ(run.err, "hammer: --control: cannot connect to 127.0.0.1:" + std::to_string(port) +
                         ": Connection refused\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
}

// --start-at is when a sweep starts: the first step waits for the instant (and says so on
// stderr), the later ones follow. Held to the instant, the second step found it passed and the
// sweep stopped after one level.
TEST(SweepTest, ASweepWithAStartTimeWaitsOnceAndRunsEveryStep) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const int64_t start_s = std::chrono::duration_cast<std::chrono::seconds>(now).count() + 3;
  const Finished run =
      run_hammer({"-r", "50,100", "-c", "2", "-t", "1", "-d", "0.5", "--start-at",
                  std::to_string(start_s), "--json", server.url()},
                 60);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("hammer: waiting until "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(" for --start-at"), std::string::npos) << run.err;
  const JsonValue report = parse_report(run);
  const std::vector<JsonValue>& steps = steps_of(report);
  ASSERT_EQ(steps.size(), 2u) << run.out;
  for (const JsonValue& step : steps) {
    EXPECT_TRUE(step.find("error")->is_null()) << run.out;
    EXPECT_GT(number_at(step, "requests.completed"), 0) << run.out;
  }
  EXPECT_TRUE(report.find("sweep.stopped")->is_null()) << run.out;
}

}  // namespace
}  // namespace hammer::test
