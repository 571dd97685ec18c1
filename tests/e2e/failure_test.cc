// SPDX-License-Identifier: MIT
// Runs that cannot work: nothing listening, a server that never answers, bad flags.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

TEST(FailureTest, ConnectionRefusedExitsTwoQuicklyNamingTheTarget) {
  const int port = unused_port();
  const Finished run = run_hammer({"-d", "5", "http://127.0.0.1:" + std::to_string(port) + "/"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_LT(run.wall_s, 2.0);
  EXPECT_NE(run.err.find("hammer: cannot connect to 127.0.0.1:" + std::to_string(port) +
                         ": Connection refused"),
            std::string::npos)
      << run.err;
}

// A name that does not resolve (.invalid never does, RFC 6761): the target is unreachable,
// exit 2 with one line naming the host and the resolver's reason, said once (it read "cannot
// resolve H:80: cannot resolve 'H' port '80': ..."). Nothing is sent anywhere.
TEST(FailureTest, AHostThatDoesNotResolveExitsTwoInOneLineNamingIt) {
  const Finished run = run_hammer({"-d", "5", "--json", "http://no-such-host.invalid:8080/"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "") << "no document: nothing ran";
  EXPECT_TRUE(run.err.starts_with("hammer: cannot resolve 'no-such-host.invalid' port '8080': "))
      << run.err;
  EXPECT_EQ(run.err.find("cannot resolve", 10), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST(FailureTest, SilentServerCountsEachTimeoutOnceAndSaysTheRunDidNotWork) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "silent"});
  ASSERT_TRUE(server.ready());
  const Finished run =
      run_hammer({"-c", "4", "-t", "2", "-d", "1", "--timeout", "300", "--json", server.url()});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_LT(run.wall_s, 1.0 + 0.3 + 1.0);
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "requests.completed"), 0);
  EXPECT_EQ(number_at(report, "latency.uncorrected.count"), 0);
  // Every request sent timed out exactly once: no request lost, none counted twice.
  const double sent = number_at(report, "requests.sent");
  EXPECT_GE(sent, 4);
  EXPECT_EQ(number_at(report, "errors.timeout"), sent);
  ASSERT_NO_FATAL_FAILURE(expect_first_verdict(report, "run_failed"));
}

TEST(FailureTest, SilentServerTextReportSaysItDidNotWork) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "silent"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer({"-c", "2", "-d", "0.5", "--timeout", "200", server.url()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("did not work"), std::string::npos) << run.out;
  EXPECT_LT(run.wall_s, 0.5 + 0.2 + 1.0);
}

struct BadFlag {
  std::vector<std::string> args;
  std::string expected_stderr;
};

TEST(FailureTest, EveryBadFlagExitsOneNamingTheFlagAndValue) {
  const std::string url = "http://127.0.0.1:1/";
  const std::vector<BadFlag> table = {
      {{"-c", "abc", url}, "hammer: --connections: expected a whole number >= 1, got 'abc'"},
      {{"-c", "0", url}, "--connections"},
      {{"-t", "x", url}, "--threads"},
      {{"-c", "2", "-t", "3", url}, "--threads"},
      {{"-d", "soon", url}, "--duration"},
      {{"-d", "-1", url}, "--duration"},
      {{"-r", "fast", url}, "--rate: expected a number > 0"},
      {{"-r", "0", url}, "--rate"},
      {{"-m", "GE T", url}, "--method"},
      {{"-H", "NoColon", url}, "--header"},
      {{"--body", "/nonexistent/file", url}, "--body"},
      {{"-H", "Host: a", "-H", "Host: b", url}, "hammer: --header: Host is given twice"},
      {{"-H", "Content-Length: 5", url},
       "hammer: --header: Content-Length 5 contradicts the body of 0 bytes"},
      {{"--timeout", "0", url}, "--timeout"},
      {{"--conections", "5", url}, "did you mean '--connections'?"},
      {{"--tls-min", "1.4", "https://127.0.0.1/"}, "--tls-min"},
      {{"ftp://127.0.0.1/"}, "ftp://127.0.0.1/"},
      {{}, "missing URL"},
  };
  for (const BadFlag& row : table) {
    const Finished run = run_hammer(row.args, 10);
    EXPECT_EQ(run.exit_code, 1) << row.expected_stderr;
    EXPECT_NE(run.err.find(row.expected_stderr), std::string::npos)
        << "stderr: " << run.err << " expected: " << row.expected_stderr;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
}

TEST(FailureTest, CtrlCEndsTheRunEarlyAndStillReports) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_process({hammer_binary(), "-r", "500", "-c", "4", "-d", "20",
                                    "--json", server.url()},
                                   30, SIGINT, 1.0);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(run.wall_s, 5.0);
  const JsonValue report = parse_report(run);
  ASSERT_NO_FATAL_FAILURE(expect_interrupted(report));
  // About one second of a 500 req/s schedule was measured, not twenty.
  EXPECT_GT(number_at(report, "requests.completed"), 100);
  EXPECT_LT(number_at(report, "requests.scheduled"), 2500);
}

TEST(FailureTest, ConnectionsAboveTheHardFileLimitAreABadInput) {
  // prlimit(1) lowers the limits for hammer alone: 64 descriptors cannot hold 500 connections.
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_process(
      {"/usr/bin/prlimit", "--nofile=64:64", hammer_binary(), "-c", "500", "-d", "1",
       server.url()},
      10);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("hammer: --connections: 500 connections"), std::string::npos)
      << run.err;
}

TEST(FailureTest, HelpAndVersionExitZero) {
  const Finished help = run_hammer({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--connections"), std::string::npos);
  const Finished version = run_hammer({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("hammer ", 0), 0u);
}

}  // namespace
}  // namespace hammer::test
