// SPDX-License-Identifier: MIT
// Every answer counted right, every run ends well (issue 10): HEAD, framing leaks that must
// fail their request at once, failed requests kept apart from connection events, and signals
// that end the run promptly with its report.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <string_view>
#include <vector>

#include "e2e/e2e.h"

#ifndef HAMMER_HOSTILE_SERVER
#error "tests/e2e/tests.cmake defines HAMMER_HOSTILE_SERVER"
#endif

namespace hammer::test {
namespace {

std::string hostile_server_binary() { return HAMMER_HOSTILE_SERVER; }

std::string verdict_codes(const JsonValue& report) {
  std::string codes;
  if (const JsonValue* verdicts = report.find("verdicts")) {
    for (const JsonValue& verdict : verdicts->items) {
      if (const JsonValue* code = verdict.find("code")) codes += code->text + " ";
    }
  }
  return codes;
}

// Item 1. RFC 9112 §6.3: a response to HEAD has no body, whatever Content-Length says.
TEST(HeadTest, HeadRequestsCompleteWithoutWaitingForABody) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer(
      {"-m", "HEAD", "-r", "200", "-c", "2", "-d", "1", "--timeout", "5s", "--json", server.url()},
      30);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(run.wall_s, 1.0 + 2.0);
  const JsonValue report = parse_report(run);
  const double sent = number_at(report, "requests.sent");
  EXPECT_GE(sent, 100);
  EXPECT_EQ(number_at(report, "requests.completed"), sent);
  EXPECT_EQ(number_at(report, "requests.failed"), 0);
  EXPECT_EQ(number_at(report, "errors.timeout"), 0);
  EXPECT_EQ(number_at(report, "status.2xx"), sent);
}

// Item 2. More bytes than the response's framing allows, in the same read as the response:
// the request fails at once as a parse error, the connection is replaced, and nothing waits
// for --timeout (60 s here: a leak would hold the run for it).
TEST(FramingLeakTest, BytesAfterTheEndOfAResponseFailTheRequestAtOnce) {
  for (std::string_view mode : {"two-responses", "no-content-body", "not-modified-body",
                                "longer-than-length", "unrequested-upgrade"}) {
    SCOPED_TRACE(std::string(mode));
    ServerProcess server({hostile_server_binary(), "--port", "0"});
    ASSERT_TRUE(server.ready()) << server.startup_output();
    std::string path = "/";
    path += mode;
    const Finished run = run_hammer(
        {"-r", "100", "-c", "2", "-t", "1", "-d", "1", "--timeout", "60s", "--json",
         server.url(path)},
        90);
    EXPECT_FALSE(run.timed_out);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    // A leak waits out the 60 s --timeout; a busy machine adds seconds, never tens of them.
    EXPECT_LT(run.wall_s, 1.0 + 10.0) << "the run waited for --timeout";
    const JsonValue report = parse_report(run);
    const double sent = number_at(report, "requests.sent");
    // Every request went out on a fresh connection, none stuck (how many fresh connections a
    // second affords depends on the machine).
    EXPECT_GE(sent, 10);
    EXPECT_EQ(number_at(report, "errors.parse"), sent);
    // Every sent request failed; so did any that fell due at the very end while both
    // connections were being replaced (no connection up), which a busy machine makes likely.
    EXPECT_EQ(number_at(report, "requests.failed"),
              sent + number_at(report, "requests.unsent_no_connection"));
    EXPECT_EQ(number_at(report, "requests.completed"), 0);
    EXPECT_EQ(number_at(report, "errors.timeout"), 0);
    EXPECT_EQ(number_at(report, "requests.in_flight_at_stop"), 0);
  }
}

// Item 3. A 408 (or any bytes) on an idle connection is a connection event, not a failed
// request: every request is answered, the run worked.
TEST(ConnectionEventTest, UnsolicitedBytesOnAnIdleConnectionFailNoRequest) {
  ServerProcess server({hostile_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"-r", "8", "-c", "4", "-t", "1", "-d", "1", "--json", server.url("/idle-408")}, 30);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "requests.failed"), 0);
  EXPECT_EQ(number_at(report, "errors.parse"), 0);
  EXPECT_GE(number_at(report, "requests.completed"), 4);
  EXPECT_GE(number_at(report, "connection_events.unsolicited_responses"), 1);
  EXPECT_GE(number_at(report, "connection_events.reconnects"), 1);
  EXPECT_EQ(verdict_codes(report).find("run_failed"), std::string::npos);
}

// Item 3. Reconnects that a server asks for ("Connection: close" on every response) are the
// plan, not connection events.
TEST(ConnectionEventTest, PlannedReconnectsAreNotConnectionEvents) {
  // Every response closes its connection; the server stays up, so connects succeed and the
  // run's judgement rests on requests alone.
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(run_against_test_server(
      {"--mode", "close"}, {"-c", "2", "-t", "1", "-d", "0.5"}, &report, 30));
  EXPECT_EQ(number_at(report, "requests.failed"), 0);
  // Planned reconnects ("Connection: close") are not connection events.
  EXPECT_EQ(number_at(report, "connection_events.reconnects"), 0);
  EXPECT_EQ(number_at(report, "connection_events.connect_failures"), 0);
}

// Item 8. Ctrl-C with every request stuck ends the run within the grace, not after --timeout,
// and reports the stuck requests as in flight at the stop (not as timeouts, not dropped).
TEST(SignalTest, CtrlCEndsAStuckRunPromptlyAndCountsWhatWasInFlight) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "silent"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_process({hammer_binary(), "-c", "4", "-t", "1", "-d", "30",
                                    "--timeout", "20s", "--json", server.url()},
                                   30, SIGINT, 1.0);
  EXPECT_FALSE(run.timed_out);
  EXPECT_LT(run.wall_s - run.first_signal_s, 1.5) << "waited for --timeout";
  EXPECT_EQ(run.exit_code, 2) << run.err;  // nothing answered: the run did not work
  const JsonValue report = parse_report(run);
  ASSERT_NO_FATAL_FAILURE(expect_interrupted(report));
  EXPECT_EQ(number_at(report, "requests.in_flight_at_stop"), 4);
  EXPECT_EQ(number_at(report, "errors.timeout"), 0);
}

// Item 8. SIGTERM (timeout(1), a CI job cancelled) is Ctrl-C: the report still comes.
TEST(SignalTest, SigtermEndsTheRunWithTheReport) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_process(
      {hammer_binary(), "-r", "200", "-c", "2", "-d", "30", "--json", server.url()}, 30,
      SIGTERM, 1.0);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(run.wall_s - run.first_signal_s, 1.5);
  const JsonValue report = parse_report(run);
  ASSERT_NO_FATAL_FAILURE(expect_interrupted(report));
  EXPECT_GT(number_at(report, "requests.completed"), 50);
}

// Item 8. A second Ctrl-C close behind the first still ends in the report, never in a kill.
TEST(SignalTest, SecondCtrlCStopsAtOnceAndStillReports) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "silent"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_process({hammer_binary(), "-c", "2", "-t", "1", "-d", "30",
                                    "--timeout", "20s", "--json", server.url()},
                                   30, {{SIGINT, 1.0}, {SIGINT, 1.02}});
  EXPECT_FALSE(run.timed_out);
  EXPECT_LT(run.wall_s - run.first_signal_s, 1.5);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  const JsonValue report = parse_report(run);
  ASSERT_NO_FATAL_FAILURE(expect_interrupted(report));
  EXPECT_EQ(number_at(report, "requests.in_flight_at_stop"), 2);
}

// Item 8. Ctrl-C during the warm-up: nothing was measured, and the report says so instead of
// "the run did not work: 0 responses against 0 failed requests".
TEST(SignalTest, CtrlCDuringWarmupSaysTheRunWasInterruptedThere) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished text = run_process({hammer_binary(), "-r", "100", "-c", "2", "--warmup", "10",
                                     "-d", "10", server.url()},
                                    30, SIGINT, 1.0);
  EXPECT_EQ(text.exit_code, 2) << text.err;  // no measurement (README: exit status)
  EXPECT_LT(text.wall_s - text.first_signal_s, 1.5);
  EXPECT_EQ(text.out.find("did not work"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("interrupted during the warm-up"), std::string::npos) << text.out;

  const Finished json = run_process({hammer_binary(), "-r", "100", "-c", "2", "--warmup", "10",
                                     "-d", "10", "--json", server.url()},
                                    30, SIGINT, 1.0);
  const JsonValue report = parse_report(json);
  EXPECT_NE(verdict_codes(report).find("interrupted_before_measuring"), std::string::npos);
  EXPECT_EQ(verdict_codes(report).find("run_failed"), std::string::npos);
  EXPECT_GT(number_at(report, "warmup.completed"), 0);
}

// Issue 10 (QA): Ctrl-C against a server that accepts and never answers, every request sent
// still in flight: the report says exactly that, never "0 responses against 0 failed
// requests", in open and closed loop.
TEST(SignalTest, CtrlCWithEveryRequestInFlightSaysNoneWasAnswered) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "silent"});
  ASSERT_TRUE(server.ready());
  for (const bool open_loop : {true, false}) {
    SCOPED_TRACE(open_loop ? "open loop" : "closed loop");
    std::vector<std::string> args = {hammer_binary(), "-c", "4", "-t", "2", "-d", "30",
                                     "--timeout", "20s"};
    if (open_loop) args.insert(args.end(), {"-r", "10"});
    std::vector<std::string> json_args = args;
    args.push_back(server.url());
    json_args.insert(json_args.end(), {"--json", server.url()});

    const Finished text = run_process(args, 30, SIGINT, 1.0);
    EXPECT_EQ(text.exit_code, 2) << text.err;  // nothing measured (README: exit status)
    EXPECT_EQ(text.out.find("0 responses against 0 failed requests"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find(": 4 requests were in flight, none answered"), std::string::npos)
        << text.out;
    EXPECT_LT(text.out.find("none answered"), text.out.find("Latency")) << "said first";

    const Finished json = run_process(json_args, 30, SIGINT, 1.0);
    EXPECT_EQ(json.exit_code, 2) << json.err;
    const JsonValue report = parse_report(json);
    EXPECT_EQ(number_at(report, "requests.in_flight_at_stop"), 4);
    EXPECT_EQ(verdict_codes(report), "interrupted_unanswered ");
    const JsonValue* verdicts = report.find("verdicts");
    ASSERT_NE(verdicts, nullptr);
    ASSERT_EQ(verdicts->items.size(), 1u);
    EXPECT_EQ(number_at(verdicts->items[0], "figures.in_flight"), 4);
  }
}

// Item 5. Every status code counted; an all-error run says so above the latencies and exits 2.
TEST(StatusTest, AllErrorAnswersAreSaidFirstAndExitTwo) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "status", "--status", "404"});
  ASSERT_TRUE(server.ready());
  const Finished text = run_hammer({"-r", "100", "-c", "2", "-d", "0.5", server.url()}, 30);
  EXPECT_EQ(text.exit_code, 2) << text.err;
  const size_t verdict = text.out.find("with an error status (404 \u00d7");
  const size_t latency = text.out.find("Latency");
  ASSERT_NE(verdict, std::string::npos) << text.out;
  ASSERT_NE(latency, std::string::npos) << text.out;
  EXPECT_LT(verdict, latency) << "the error verdict comes before the latency figures\n" << text.out;
  EXPECT_NE(text.out.find("Status         404 \u00d7"), std::string::npos) << text.out;

  const Finished json =
      run_hammer({"-r", "100", "-c", "2", "-d", "0.5", "--json", server.url()}, 30);
  EXPECT_EQ(json.exit_code, 2);
  const JsonValue report = parse_report(json);
  const double completed = number_at(report, "requests.completed");
  EXPECT_GT(completed, 0);
  EXPECT_EQ(number_at(report, "status_codes.404"), completed);
  EXPECT_EQ(number_at(report, "status.4xx"), completed);
  EXPECT_NE(verdict_codes(report).find("mostly_non_2xx"), std::string::npos);
}

// Item 5. A visible share of errors (10% here): a warning above the latencies, each code
// counted, and the run still worked (exit 0) since most answers were good.
TEST(StatusTest, AVisibleShareOfErrorAnswersWarnsAboveTheLatencies) {
  ServerProcess server({hostile_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"-r", "200", "-c", "2", "-t", "1", "-d", "1", "--json", server.url("/tenth-404")}, 30);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const double ok = number_at(report, "status_codes.200");
  const double not_found = number_at(report, "status_codes.404");
  EXPECT_EQ(ok + not_found, number_at(report, "requests.completed"));
  EXPECT_GE(not_found, 10);
  EXPECT_NE(verdict_codes(report).find("non_2xx_responses"), std::string::npos);

  const Finished text = run_hammer(
      {"-r", "200", "-c", "2", "-t", "1", "-d", "1", server.url("/tenth-404")}, 30);
  const size_t warning = text.out.find("had an error status (404 \u00d7");
  ASSERT_NE(warning, std::string::npos) << text.out;
  EXPECT_LT(warning, text.out.find("Latency")) << text.out;
  EXPECT_NE(text.out.find("Status         200 \u00d7"), std::string::npos) << text.out;
}

// A server that resets every third request on a connection: a third of the requests fail
// unanswered, too few for run_failed, and once the report said nothing of them above the
// latencies (a new user's trial: 697 of 1,394 failed, exit 0, no warning). Said first now,
// with the kinds counted; the run still worked (exit 0).
TEST(StatusTest, AShareOfRequestsFailedUnansweredWarnsAboveTheLatencies) {
  ServerProcess server({hostile_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run =
      run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", server.url("/reset-third")}, 30);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const double completed = number_at(report, "requests.completed");
  const double read = number_at(report, "errors.read");
  EXPECT_GE(read, 10);
  EXPECT_GE(completed, read);  // two answers a connection for each reset
  const JsonValue* verdict = verdict_with_code(report, "failed_requests");
  ASSERT_NE(verdict, nullptr) << run.out;
  EXPECT_EQ(number_at(*verdict, "figures.read"), read);
  EXPECT_EQ(number_at(*verdict, "figures.failed"), number_at(report, "requests.failed"));

  const Finished text = run_hammer({"-c", "2", "-t", "1", "-d", "1", server.url("/reset-third")}, 30);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  const size_t warning = text.out.find("failed without an answer (read ");
  ASSERT_NE(warning, std::string::npos) << text.out;
  EXPECT_LT(warning, text.out.find("Latency")) << text.out;
}

// Item 6. A 64 MB body is held once: it is sent from where --body read it, never copied into
// the request (before: three copies, about 200 MB of resident memory).
TEST(RequestBodyTest, ASixtyFourMegabyteBodyIsHeldOnce) {
  char path[] = "/tmp/hammer-body-64m-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  constexpr int64_t kBodyBytes = int64_t{64} << 20;
  const std::string chunk(1 << 20, 'b');
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(write(fd, chunk.data(), chunk.size()), static_cast<ssize_t>(chunk.size()));
  }
  close(fd);
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer({"-m", "POST", "--body", path, "-c", "1", "-t", "1", "-d",
                                   "0.5", "--timeout", "5s", "--json", server.url()},
                                  60);
  std::remove(path);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_GE(number_at(report, "requests.completed"), 1);
  EXPECT_EQ(number_at(report, "requests.failed"), 0);
#if defined(HAMMER_EXPECT_SANITIZER)
  GTEST_SKIP() << "sanitizer builds keep shadow memory and quarantine: RSS is not the program's";
#endif
  ASSERT_GT(run.max_rss_kb, 0);
  // One copy plus hammer's own few megabytes; two copies would be over 128 MiB.
  EXPECT_LT(run.max_rss_kb, (kBodyBytes + kBodyBytes / 2) / 1024)
      << "peak RSS " << run.max_rss_kb << " KiB for a 64 MiB body";
}

// Item 9. A report that cannot be written (stdout on a full disk) is exit 2 with one line on
// stderr, for the report, --json, --help and --version alike.
TEST(OutputTest, AReportThatCannotBeWrittenIsExitTwoWithOneLine) {
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const std::vector<std::vector<std::string>> commands = {
      {"--json", "-c", "1", "-d", "0.2", server.url()},
      {"-c", "1", "-d", "0.2", server.url()},
      {"--help"},
      {"--version"},
  };
  for (const std::vector<std::string>& command : commands) {
    SCOPED_TRACE(command.front());
    // sh -c 'exec "$0" "$@" > /dev/full' HAMMER ARGS...
    std::vector<std::string> argv = {"/bin/sh", "-c", "exec \"$0\" \"$@\" > /dev/full",
                                     hammer_binary()};
    argv.insert(argv.end(), command.begin(), command.end());
    const Finished run = run_process(argv, 30);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_EQ(run.err, "hammer: cannot write to standard output: No space left on device\n");
  }
}

}  // namespace
}  // namespace hammer::test
