// SPDX-License-Identifier: MIT
// Runs that outlive trouble (issue 6): a server killed mid-run and restarted on the same port,
// and ten thousand connections at once.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// Runs hammer (`args`, then the server's URL) against a test_server on a fixed port that is
// stopped `up_ms` after hammer's first connection and listens again `down_ms` later: the
// restarted server must be where the first one was. The port comes from unused_port(), so it
// is free when the test starts. A fatal failure when either server could not listen.
void run_across_a_restart(std::vector<std::string> args, int up_ms, int down_ms, Finished* run) {
  const int port = unused_port();
  const std::vector<std::string> server_argv = {test_server_binary(), "--port",
                                                std::to_string(port), "--mode", "fast"};
  std::optional<ServerProcess> server(std::in_place, server_argv);
  ASSERT_TRUE(server->ready()) << server->startup_output();
  args.push_back(server->url());
  // The servers die with the thread that started them (PR_SET_PDEATHSIG follows the thread), so
  // the thread that restarts the server stays alive until hammer is done.
  bool restarted = false;
  std::atomic<bool> run_over{false};
  std::thread saboteur([&] {
    // Counted from hammer's first connection, not from its exec (slow on a busy machine).
    wait_for_established_connection(port);
    std::this_thread::sleep_for(std::chrono::milliseconds(up_ms));
    server.reset();  // SIGTERM: the server closes every connection and exits
    std::this_thread::sleep_for(std::chrono::milliseconds(down_ms));
    server.emplace(server_argv);
    restarted = server->ready();
    while (!run_over) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  *run = run_hammer(args, 30);
  run_over = true;
  saboteur.join();
  ASSERT_TRUE(restarted) << "the server could not listen on port " << port << " again";
}

TEST(ResilienceTest, ServerKilledAndRestartedMidRunReconnectsAndShowsTheGap) {
  // Closed loop, 5 s: the server is stopped about 1 s in and back about 3.5 s in, so the
  // timeline's third second ([2 s, 3 s)) lies wholly inside the gap.
  Finished run;
  ASSERT_NO_FATAL_FAILURE(run_across_a_restart(
      {"-c", "2", "-t", "1", "-d", "5", "--timeout", "500", "--json"}, 1000, 2500, &run));

  EXPECT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(run.wall_s, 5.0 + 0.5 + 1.0);
  const JsonValue report = parse_report(run);
  // Refused reconnects during the gap are connect errors (one per 10 ms backoff per connection);
  // otherwise only the requests in flight while the server shut down fail (a reconnect can
  // still land in the closing listener's queue, so a few per connection).
  EXPECT_GT(number_at(report, "errors.connect"), 10);
  EXPECT_LE(number_at(report, "errors.read") + number_at(report, "errors.write"), 10);
  EXPECT_EQ(number_at(report, "errors.parse"), 0);
  EXPECT_EQ(number_at(report, "errors.timeout"), 0);
  // Two connections at the start, two again to the restarted server (at least).
  EXPECT_GE(number_at(report, "connections.opened"), 4);
  EXPECT_GT(number_at(report, "requests.completed"), 0);

  // The per-second timeline shows the gap: no response from requests sent in the third second,
  // connect errors instead; responses before it and after it.
  const JsonValue* rows = report.find("timeline.rows");
  if (rows == nullptr) GTEST_SKIP() << "no timeline in this build's JSON; counts checked above";
  ASSERT_GE(rows->items.size(), 5u);
  EXPECT_GT(number_at(rows->items[0], "requests"), 0);
  EXPECT_EQ(number_at(rows->items[2], "requests"), 0);
  EXPECT_GT(number_at(rows->items[2], "errors"), 0);
  EXPECT_GT(number_at(rows->items[4], "requests"), 0);
}

// Issue 10 item 3: a server away for most of the run. Each refused reconnect (one per 10 ms per
// connection) is a connection event, not a failed request: the requests due meanwhile wait and
// leave when the server is back (their wait in the corrected latency), every one answered. The
// run worked, though failed connects outnumber responses many times over.
TEST(ResilienceTest, FailedConnectsDuringARestartAreConnectionEventsNotFailedRequests) {
  // Down 0.3 s into the run, back 1.7 s later.
  Finished run;
  ASSERT_NO_FATAL_FAILURE(run_across_a_restart(
      {"-r", "20", "-c", "2", "-t", "1", "-d", "3", "--timeout", "2s", "--json"}, 300, 1700,
      &run));

  EXPECT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const double completed = number_at(report, "requests.completed");
  const double connect_failures = number_at(report, "connection_events.connect_failures");
  EXPECT_GT(connect_failures, completed) << "the gap should hold more failed connects than answers";
  EXPECT_EQ(number_at(report, "errors.connect"), connect_failures);
  EXPECT_GE(number_at(report, "connection_events.reconnects"), 2);
  // Only requests in flight as the server went down can fail.
  EXPECT_LE(number_at(report, "requests.failed"), 4);
  EXPECT_GT(completed, 40);
  const JsonValue* verdicts = report.find("verdicts");
  ASSERT_NE(verdicts, nullptr);
  for (const JsonValue& verdict : verdicts->items) {
    EXPECT_NE(verdict.find("code")->text, "run_failed");
  }
}

// Issue 10 (QA): a server killed for good mid-run (open loop). The requests due after that
// could not be sent, for no connection was up: they are failed requests (sent or due, no valid
// answer), counted apart from the backlog behind busy connections, and the report shows due,
// sent and unsent.
TEST(ResilienceTest, RequestsDueWithNoConnectionUpAreFailedRequests) {
  for (const bool json : {true, false}) {
    // The server dies, for good, once it has answered 100 of the 300 requests due (about 0.5 s
    // into the 1.5 s run): placed by the run's progress, not by a clock, so a busy machine
    // moves it nowhere.
    ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast", "--stop-after",
                          "100"});
    ASSERT_TRUE(server.ready()) << server.startup_output();
    const std::string here = server.url();
    std::vector<std::string> args = {"-r", "200", "-c", "2", "-t", "1", "-d", "1.5"};
    if (json) args.push_back("--json");
    args.push_back(here);
    const Finished run = run_hammer(args, 30);
    if (!json) {
      EXPECT_NE(run.out.find("Schedule       300 due, "), std::string::npos) << run.out;
      EXPECT_NE(run.out.find(" unsent with no connection up)"), std::string::npos) << run.out;
      continue;
    }
    const JsonValue report = parse_report(run);
    const double scheduled = number_at(report, "requests.scheduled");
    const double unsent = number_at(report, "requests.unsent");
    const double no_connection = number_at(report, "requests.unsent_no_connection");
    EXPECT_EQ(scheduled, 300);
    EXPECT_EQ(number_at(report, "requests.sent") + unsent, scheduled);
    // 200 of the 300 were due after the server's end; a few may still have waited behind a
    // busy connection as it went (unsent, not for want of a connection), so at least half.
    EXPECT_GE(no_connection, 100);
    EXPECT_LE(no_connection, unsent);
    const double failed_sent = number_at(report, "errors.read") + number_at(report, "errors.write") +
                               number_at(report, "errors.timeout") + number_at(report, "errors.parse");
    EXPECT_EQ(number_at(report, "requests.failed"), failed_sent + no_connection);
    EXPECT_GT(number_at(report, "connection_events.connect_failures"), 0);
  }
}

// Runs hammer with `args` (the URL appended) against a fresh test_server that stops for good
// (as on `kill PID`) once it has answered `answers` requests: the server's death placed by the
// run's progress, not by a clock that a busy machine would stretch.
Finished run_with_server_killed(std::vector<std::string> args, int answers) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast", "--stop-after",
                        std::to_string(answers)});
  EXPECT_TRUE(server.ready()) << server.startup_output();
  args.push_back(server.url());
  return run_hammer(args, 30);
}

// Issue 10 (QA): `hammer -r 2000 -c 4 -d 2 URL` with the server killed at ~0.7 s exited 0 with
// "over capacity: the server sustained 689 req/s". A server that stops answering is not over
// capacity: the verdict says it stopped, first, and with most of the due requests never
// answered the run did not work (exit 2). Closed loop too (the time without an answer).
TEST(ResilienceTest, AServerKilledMidRunStoppedAnsweringItWasNotOverCapacity) {
  for (const bool open_loop : {true, false}) {
    SCOPED_TRACE(open_loop ? "open loop" : "closed loop");
    std::vector<std::string> args = {"-c", "4", "-t", "2", "-d", "2"};
    if (open_loop) args.insert(args.end(), {"-r", "1000"});
    std::vector<std::string> json_args = args;
    json_args.push_back("--json");

    const Finished run = run_with_server_killed(json_args, 700);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    const JsonValue report = parse_report(run);
    ASSERT_NO_FATAL_FAILURE(expect_first_verdict(report, "server_stopped_answering"));
    const JsonValue& verdicts = *report.find("verdicts");
    for (const JsonValue& verdict : verdicts.items) {
      EXPECT_NE(verdict.find("code")->text, "over_capacity");
      EXPECT_NE(verdict.find("code")->text, "too_few_connections");
    }
    const JsonValue& stopped = verdicts.items[0];
    EXPECT_TRUE(stopped.find("figures.run_failed")->boolean);
    // Killed 0.7 s into 2 s: about 65% of the run had no answer. How much exactly is the
    // machine's (a server slow to die, a run slow to start); what the program controls is what
    // the share is made of (the requests due after the last answer in open loop, the time
    // after it in closed loop), and that at 10% or more it fails the run (exit 2, above).
    const double share = number_at(stopped, "figures.share");
    EXPECT_GE(share, 0.10);
    EXPECT_LT(number_at(report, "requests.last_answer_ns"), number_at(report, "elapsed_ns"));
    EXPECT_GT(number_at(report, "requests.completed"), 0);
    if (!open_loop) {
      EXPECT_NEAR(share, number_at(report, "requests.unanswered_tail_ns") /
                             number_at(report, "elapsed_ns"), 0.001);
    }
    if (open_loop) {
      const double due_after = number_at(report, "requests.due_after_last_answer");
      EXPECT_NEAR(share, due_after / number_at(report, "requests.scheduled"), 0.001);
      EXPECT_EQ(number_at(stopped, "figures.due_after_last_answer"), due_after);
    }

    const Finished text = run_with_server_killed(args, 700);
    EXPECT_EQ(text.exit_code, 2) << text.err;
    const size_t said = text.out.find("the run did not work: the server stopped answering ");
    ASSERT_NE(said, std::string::npos) << text.out;
    EXPECT_LT(said, text.out.find("Latency")) << "said first\n" << text.out;
    EXPECT_EQ(text.out.find("over capacity: "), std::string::npos) << text.out;
  }
}

// 10,000 connections to one local server: hammer raises its own fd limit (and test_server its
// own), opens every connection once, and each carries requests with no error.
TEST(ResilienceTest, TenThousandConnectionsAreAllOpenedAndUsed) {
  constexpr int kConnections = 10'000;
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < kConnections + 100) {
    GTEST_SKIP() << "the hard open-file limit (" << limit.rlim_max << ") is below "
                 << kConnections + 100;
  }
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast", "--threads", "2"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  // On a busy machine the server may accept too slowly: the listen queue overflows, dropped
  // SYNs are retried after 1 s, 3 s, 7 s, and some connects outlast the 5 s timeout. That is
  // the machine, and it is counted as connect errors (as it must be); a server starved of the
  // CPU likewise leaves requests to time out. Either way the run is repeated once, and says so.
  Finished run;
  JsonValue report;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    run = run_hammer({"-c", std::to_string(kConnections), "-t", "2", "-d", "2", "--timeout",
                      "5000", "--json", server.url()},
                     20);
    report = parse_report(run);
    const JsonValue* connect_errors = report.find("errors.connect");
    const JsonValue* timeouts = report.find("errors.timeout");
    const double late = (connect_errors ? connect_errors->number : 0) +
                        (timeouts ? timeouts->number : 0);
    if (attempt == 2 || late == 0) break;
    std::cout << "retrying once: " << (connect_errors ? connect_errors->number : 0)
              << " connects failed and " << (timeouts ? timeouts->number : 0)
              << " requests timed out (a server starved of CPU by other work)\n";
  }
  EXPECT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(number_at(report, "connections.opened"), kConnections);
  EXPECT_GE(number_at(report, "requests.completed"), kConnections);
  expect_no_errors(report);
}

}  // namespace
}  // namespace hammer::test
