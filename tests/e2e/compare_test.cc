// SPDX-License-Identifier: MIT
// hammer compare on real runs: two runs of one server are "no change" at every row; a server
// that answers an eighth of its requests 5 ms late is "worse" from p90 up, and --fail-if
// turns that into exit 3. And --arrival poisson: the same seed, the same schedule.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// One saved open-loop run against `server`: 400 req/s for 5 measured seconds.
void save_run(const ServerProcess& server, const std::string& path) {
  const Finished run = run_hammer({"-r", "400", "-c", "16", "-t", "1", "-d", "5", "-W", "1",
                                   "-o", path, server.url()},
                                  60);
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

std::vector<std::string> server_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {test_server_binary(), "--port", "0", "--hold-us", "2000"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CompareTest, TwoRunsOfOneServerAreNoChangeAndASlowTailIsWorseFromP90Up) {
  const std::string a = private_directory() + "compare_a.json";
  const std::string again = private_directory() + "compare_again.json";
  const std::string slow = private_directory() + "compare_slow.json";
  {
    ServerProcess server(server_args({}));
    ASSERT_TRUE(server.ready()) << server.startup_output();
    save_run(server, a);
    save_run(server, again);
  }
  {
    // 1 in 8 answers 5 ms later (12.5%: at exactly 10% the p90 lies on the edge between the
    // fast and the slow answers, and could read either).
    ServerProcess server(server_args({"--delay-us", "5000", "--delay-every", "8"}));
    ASSERT_TRUE(server.ready()) << server.startup_output();
    save_run(server, slow);
  }

  const Finished same = run_hammer({"compare", a, again, "--json", "--fail-if", "p99+10%"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  const JsonValue same_report = parse_report(same);
  const JsonValue* rows = same_report.find("rows");
  ASSERT_NE(rows, nullptr);
  ASSERT_GE(rows->items.size(), 5u);
  for (const JsonValue& row : rows->items) {
    EXPECT_EQ(row.find("verdict")->text, "no_change") << row.find("percentile")->text;
  }

  const Finished worse = run_hammer({"compare", a, slow, "--json", "--fail-if", "p99+10%"});
  EXPECT_EQ(worse.exit_code, 3) << worse.out << worse.err;
  const JsonValue worse_report = parse_report(worse);
  for (const JsonValue& row : worse_report.find("rows")->items) {
    const std::string percentile = row.find("percentile")->text;
    const double q = std::stod(percentile);
    EXPECT_EQ(row.find("verdict")->text, q >= 90 ? "worse" : "no_change") << percentile;
  }
  EXPECT_TRUE(worse_report.find("failed")->boolean);

  // The text says the same, and the gate that the slow run passes (p50) exits 0.
  const Finished text = run_hammer({"compare", a, slow, "--fail-if", "p50+10%"});
  EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("worse"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("--fail-if p50+10%: pass"), std::string::npos) << text.out;
}

TEST(CompareTest, BadArgumentsAreOneLine) {
  const Finished one = run_hammer({"compare", "a.json"});
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_NE(one.err.find("expected two saved runs, got 1"), std::string::npos) << one.err;
  const Finished rule = run_hammer({"compare", "a.json", "b.json", "--fail-if", "p99"});
  EXPECT_EQ(rule.exit_code, 1);
  EXPECT_NE(rule.err.find("--fail-if: expected pNN+X% (e.g. p99+10%), got 'p99'"),
            std::string::npos)
      << rule.err;
}

TEST(PoissonArrivalTest, TheSameSeedSendsTheSameScheduleAndTheReportSaysSo) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  std::vector<double> scheduled;
  for (const char* seed : {"7", "7", "8"}) {
    const Finished run = run_hammer({"-r", "1000", "-c", "8", "-t", "2", "-d", "2", "--ramp",
                                     "1s", "--arrival", "poisson", "--seed", seed, "--json",
                                     server.url()},
                                    60);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const JsonValue report = parse_report(run);
    EXPECT_EQ(report.find("config.arrival")->text, "poisson");
    EXPECT_EQ(report.find("config.seed")->text, seed);
    const double measured = number_at(report, "requests.scheduled");
    EXPECT_EQ(number_at(report, "requests.sent") + number_at(report, "requests.unsent"),
              measured);
    // 2,000 expected in the measured 2 s; a Poisson count's sd is 45.
    EXPECT_NEAR(measured, 2000, 5 * 45);
    scheduled.push_back(measured);
  }
  EXPECT_EQ(scheduled[0], scheduled[1]);  // the same seed: the very same slots
}

}  // namespace
}  // namespace hammer::test
