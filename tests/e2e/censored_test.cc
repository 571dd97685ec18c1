// SPDX-License-Identifier: MIT
// Issue 22: timeouts censor the tail. test_server --silent-every 20 never answers one request in
// 20 (and answers the rest at once), so with a 200 ms --timeout about 5% of the requests time
// out: p99 and max are only known to be above 200 ms, and must never read as a finite figure.
// Open loop on 20 connections: the answers keep coming while a few connections wait out their
// timeout (closed loop on 4, every connection could be waiting at the end, which reads as a
// server that stopped answering).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

constexpr double kTimeoutNs = 200e6;

std::vector<std::string> censored_run_args(const ServerProcess& server) {
  return {"-r", "400", "-c", "20", "-t", "1", "-d", "1", "--timeout", "200", server.url()};
}

bool lists(const JsonValue* names, const std::string& name) {
  if (names == nullptr) return false;
  return std::any_of(names->items.begin(), names->items.end(),
                     [&](const JsonValue& item) { return item.text == name; });
}

TEST(CensoredTest, TextShowsTheWarningAboveTheLatenciesAndCensoredRowsAndAnSloOnOneExitsThree) {
  ServerProcess server({test_server_binary(), "--port", "0", "--silent-every", "20"});
  ASSERT_TRUE(server.ready());
  std::vector<std::string> args = censored_run_args(server);
  args.insert(args.end() - 1, {"--slo", "p99=100ms"});
  const Finished run = run_hammer(args);
  EXPECT_EQ(run.exit_code, 3) << run.out << run.err;
  const size_t warning = run.out.find("timed out after 200.00ms and have no latency");
  const size_t latency = run.out.find("  Latency");
  ASSERT_NE(warning, std::string::npos) << run.out;
  ASSERT_NE(latency, std::string::npos) << run.out;
  EXPECT_LT(warning, latency) << "the warning comes above the latency table\n" << run.out;
  // Open loop: both stopwatches side by side, each a bound, and no ratio read from bounds.
  EXPECT_NE(run.out.find("     99%   > 200.00ms   > 200.00ms        - (timed out)\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("     max   > 200.00ms   > 200.00ms        - (timed out)\n"),
            std::string::npos)
      << run.out;
  // The median is answered (19 of every 20 are): a figure, not a bound.
  const size_t median = run.out.find("     50%  ");
  ASSERT_NE(median, std::string::npos) << run.out;
  EXPECT_NE(run.out.substr(median, 20).find_first_of("0123456789"), std::string::npos);
  EXPECT_EQ(run.out.substr(median, run.out.find('\n', median) - median).find('>'),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("SLO p99 <= 100.00ms: > 200.00ms (timed out), MISSED"),
            std::string::npos)
      << run.out;
}

TEST(CensoredTest, AnSloAboveTheTimeoutCannotBeJudgedAndIsAMiss) {
  ServerProcess server({test_server_binary(), "--port", "0", "--silent-every", "20"});
  ASSERT_TRUE(server.ready());
  std::vector<std::string> args = censored_run_args(server);
  args.insert(args.end() - 1, {"--slo", "p99=1s"});
  const Finished run = run_hammer(args);
  EXPECT_EQ(run.exit_code, 3) << run.out << run.err;
  EXPECT_NE(run.out.find("SLO p99 <= 1.00s: > 200.00ms (timed out), MISSED (cannot be judged"),
            std::string::npos)
      << run.out;
}

TEST(CensoredTest, JsonCarriesTheBoundAndTheCensoredMark) {
  ServerProcess server({test_server_binary(), "--port", "0", "--silent-every", "20"});
  ASSERT_TRUE(server.ready());
  std::vector<std::string> args = censored_run_args(server);
  args.insert(args.end() - 1, "--json");
  const Finished run = run_hammer(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const double timeouts = number_at(report, "errors.timeout");
  const double answered = number_at(report, "latency.corrected.count");
  ASSERT_GT(timeouts, 0);
  // About 1 in 20 (the run's last requests and reconnects blur it): p99 is censored, p50 not.
  ASSERT_GT(timeouts / (timeouts + answered), 0.02);
  EXPECT_EQ(number_at(report, "latency.corrected.timed_out"), timeouts);
  EXPECT_EQ(number_at(report, "latency.uncorrected.timed_out"), timeouts);
  const JsonValue* censored = report.find("latency.corrected.censored");
  ASSERT_NE(censored, nullptr);
  EXPECT_TRUE(lists(censored, "99"));
  EXPECT_TRUE(lists(censored, "99.9"));
  EXPECT_TRUE(lists(censored, "max"));
  EXPECT_FALSE(lists(censored, "50"));
  const JsonValue* percentiles = report.find("latency.corrected.percentiles_ns");
  ASSERT_NE(percentiles, nullptr);
  EXPECT_EQ(percentiles->members.at("99").number, kTimeoutNs);
  EXPECT_LT(percentiles->members.at("50").number, kTimeoutNs);
  EXPECT_EQ(number_at(report, "latency.corrected.max_ns"), kTimeoutNs);
  EXPECT_EQ(number_at(report, "latency.uncorrected.max_ns"), kTimeoutNs);
  const JsonValue* verdicts = report.find("verdicts");
  ASSERT_NE(verdicts, nullptr);
  EXPECT_TRUE(std::any_of(verdicts->items.begin(), verdicts->items.end(), [](const JsonValue& v) {
    const JsonValue* code = v.find("code");
    return code != nullptr && code->text == "censored_tail";
  }));
}

// A bare --timeout below 100 is milliseconds (wrk reads seconds): said whenever one timed out.
TEST(CensoredTest, ABareSmallTimeoutThatTimedRequestsOutSaysItWasReadAsMilliseconds) {
  ServerProcess server({test_server_binary(), "--port", "0", "--silent-every", "20"});
  ASSERT_TRUE(server.ready());
  const Finished run =
      run_hammer({"-r", "200", "-c", "10", "-t", "1", "-d", "0.5", "--timeout", "50", server.url()});
  EXPECT_NE(run.out.find("note: --timeout 50 was read as 50 ms (a bare number is milliseconds; "
                         "wrk reads seconds): for 50 seconds write --timeout 50s"),
            std::string::npos)
      << run.out;
  // With its unit, the flag says what it means: no note (it followed --timeout 50ms too).
  const Finished with_unit = run_hammer(
      {"-r", "200", "-c", "10", "-t", "1", "-d", "0.5", "--timeout", "50ms", server.url()});
  EXPECT_NE(with_unit.out.find("timed out"), std::string::npos) << with_unit.out;
  EXPECT_EQ(with_unit.out.find("was read as"), std::string::npos) << with_unit.out;
}

}  // namespace
}  // namespace hammer::test
