// SPDX-License-Identifier: MIT
// hammer compare on real runs: two runs of one server are "no change" at every row; a server
// that answers an eighth of its requests 5 ms late is "worse" from p90 to p99 (and never
// "better" above, where a row is one or two requests of 2,000), and --fail-if turns that into exit 3. And --arrival poisson: the same seed, the same schedule.
#include <gtest/gtest.h>

#include <cmath>
#include <future>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// One saved open-loop run against `url`: 400 req/s for 5 measured seconds. The stopwatch
// from the actual send leads (--closed-loop): on a busy machine the generator's own late
// dispatch, which the corrected stopwatch charges, swings by milliseconds and would drown the
// server's 5 ms.
Finished save_run(const std::string& url, const std::string& path) {
  return run_hammer({"-r", "400", "-c", "8", "-t", "1", "-d", "5", "-W", "1", "--closed-loop",
                     "-o", path, url},
                    60);
}

// Two saved runs at once, so that whatever else the machine is doing meanwhile falls on both
// alike: run one after the other, a busy spell in one run's seconds (all of them) would read
// as a slower server, and no resampling of a run's own seconds can tell the two apart.
void save_runs_together(const std::string& url_a, const std::string& path_a,
                        const std::string& url_b, const std::string& path_b) {
  auto other = std::async(std::launch::async, [&] { return save_run(url_b, path_b); });
  const Finished first = save_run(url_a, path_a);
  const Finished second = other.get();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_EQ(second.exit_code, 0) << second.err;
}

// Host stalls of 10 ms or more (hammer's hiccup meter, host.long_stalls) in the saved runs.
double host_stalls(const std::vector<std::string>& paths) {
  double stalls = 0;
  for (const std::string& path : paths) {
    std::string error;
    auto document = parse_json(read_file(path), &error);
    EXPECT_TRUE(document.has_value()) << path << ": " << error;
    if (document) stalls += number_at(*document, "host.long_stalls");
  }
  return stalls;
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
  ServerProcess server(server_args({}));
  ASSERT_TRUE(server.ready()) << server.startup_output();
  // 1 in 8 answers 5 ms later (12.5%: at exactly 10% the p90 lies on the edge between the
  // fast and the slow answers, and could read either).
  ServerProcess slow_server(server_args({"--delay-us", "5000", "--delay-every", "8"}));
  ASSERT_TRUE(slow_server.ready()) << slow_server.startup_output();

  // Two runs of one server. Should they still differ (a burst of other work that lands on one
  // more than the other), the pair is run again, at most twice more, and the test says so.
  for (int attempt = 1;; ++attempt) {
    save_runs_together(server.url(), a, server.url(), again);
    const Finished same = run_hammer({"compare", a, again, "--json", "--fail-if", "p99+10%"});
    const JsonValue same_report = parse_report(same);
    const JsonValue* rows = same_report.find("rows");
    ASSERT_NE(rows, nullptr) << same.out << same.err;
    ASSERT_GE(rows->items.size(), 5u);
    std::string moved;
    for (const JsonValue& row : rows->items) {
      if (row.find("verdict")->text != "no_change") moved += " p" + row.find("percentile")->text;
    }
    if (moved.empty()) {
      EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
      break;
    }
    const double stalls = host_stalls({a, again});
    if (attempt == 3 && stalls > 0) {
      GTEST_SKIP() << "two runs of one server differed at" << moved << " three times, the last with "
                   << "the host stalled for 10 ms or more (" << stalls << " stalls the last "
                   << "time): this machine cannot tell a few milliseconds apart now";
    }
    ASSERT_LT(attempt, 3) << "two runs of one server differ at" << moved << "\n"
                          << run_hammer({"compare", a, again}).out;
    std::cerr << "[ retry    ] two runs of one server differed at" << moved
              << "; running the pair again\n";
  }

  // Against the slow server. A machine that stalls for tens of milliseconds (seen here: 100
  // to 500 ms, other builds on two cores) buries a 5 ms tail in either run; then the pair is
  // run again too, at most twice more, and the test says so.
  for (int attempt = 1;; ++attempt) {
    save_runs_together(server.url(), a, slow_server.url(), slow);
    const Finished worse = run_hammer({"compare", a, slow, "--json", "--fail-if", "p99+10%"});
    const JsonValue worse_report = parse_report(worse);
    const JsonValue* rows = worse_report.find("rows");
    ASSERT_NE(rows, nullptr) << worse.out << worse.err;
    // The tail above p95 is the slowest 100 of 2,000 requests: on a machine that stalled for
    // 10 ms or more (hammer's hiccup meter, host.long_stalls) in either run, those are the
    // stalls as often as the server's 5 ms, and such rows are only held to "never better".
    // Above p99 a row is the slowest 2 (p99.9) or the slowest one (p99.99) of 2,000: a single
    // late wake-up under 10 ms in A's run (seen here: A's p99.9 at 9.3 ms on a quiet host)
    // reaches it as well as the server's 5 ms does; hammer compare calls such rows no change
    // (too few requests above them: 2 and 0.2, under the 3.7 a run needs to place one), and
    // they too are only held to "never better".
    const double stalls = host_stalls({a, slow});
    const double strict_up_to = stalls > 0 ? 95 : 99;
    if (stalls > 0) {
      std::cerr << "[ note     ] the host stalled " << stalls
                << " times for 10 ms or more: rows above p95 are held to \"never better\"\n";
    }
    std::string wrong;
    for (const JsonValue& row : rows->items) {
      const std::string percentile = row.find("percentile")->text;
      const double q = std::stod(percentile);
      const std::string verdict = row.find("verdict")->text;
      // A row whose change the host's own noise matched (its meter's wake-ups spread as far at
      // that percentile: a busy machine's p99) is no change by the run's own figures; p90,
      // 4.7 ms up where the host spreads by about 0.15 ms, is held to "worse" regardless.
      const bool held_by_host = row.find("within_host_noise")->boolean && q > 90;
      if (held_by_host) {
        std::cerr << "[ note     ] p" << percentile << " is within the host's noise ("
                  << number_at(row, "host_noise_ns") << " ns)\n";
      }
      // From p90 up the slow eighth shows; p50 is a fast answer in both (p75 is too, but the
      // queueing behind the late eighth can lift it past the 5% floor).
      const bool right = held_by_host                  ? verdict == "no_change"
                         : q >= 90 && q <= strict_up_to ? verdict == "worse"
                         : q > strict_up_to           ? verdict != "better"
                         : q <= 50          ? verdict == "no_change"
                                            : true;
      if (!right) wrong += " p" + percentile + " " + verdict;
    }
    if (wrong.empty()) {
      // --fail-if p99+10% trips exactly when the p99 row is worse (by far more than 10%).
      bool p99_worse = false;
      for (const JsonValue& row : rows->items) {
        if (row.find("percentile")->text == "99") p99_worse = row.find("verdict")->text == "worse";
      }
      EXPECT_EQ(worse.exit_code, p99_worse ? 3 : 0) << worse.out << worse.err;
      EXPECT_EQ(worse_report.find("failed")->boolean, p99_worse);
      if (stalls == 0 && !p99_worse) {
        std::cerr << "[ note     ] p99 was within the host's noise: --fail-if judged as no change\n";
      }
      break;
    }
    if (attempt == 3 && stalls > 0) {
      GTEST_SKIP() << "the slow server's run read" << wrong << " three times, the last with the "
                   << "host stalled for 10 ms or more (" << stalls << " stalls the last time): "
                   << "this machine cannot measure a 5 ms tail now";
    }
    ASSERT_LT(attempt, 3) << "the slow server's run read" << wrong << "\n"
                          << run_hammer({"compare", a, slow}).out;
    std::cerr << "[ retry    ] the slow server's run read" << wrong
              << "; running the pair again\n";
  }

  // The text says the same, and a gate the slow run passes (p50) exits 0.
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

// B's server never answers one request in ten: they time out, and from p90 up B's figures are
// only --timeout, as B's own report prints them. compare read B's answered requests alone,
// called p99 "no change" and passed --fail-if p99+10% (a user's trial).
TEST(CompareTest, TimedOutRequestsAreABoundThatFailsTheGate) {
  ServerProcess healthy({test_server_binary(), "--port", "0"});
  ServerProcess silent({test_server_binary(), "--port", "0", "--silent-every", "10"});
  ASSERT_TRUE(healthy.ready()) << healthy.startup_output();
  ASSERT_TRUE(silent.ready()) << silent.startup_output();
  const std::string a = private_directory() + "timeouts_a.json";
  const std::string b = private_directory() + "timeouts_b.json";
  for (const auto& [url, path] : {std::pair{healthy.url(), a}, std::pair{silent.url(), b}}) {
    const Finished run = run_hammer({"-r", "100", "-c", "20", "-t", "1", "-d", "3",
                                     "--timeout", "300ms", "-o", path, url},
                                    30);
    ASSERT_NE(run.exit_code, 1) << run.err;
  }
  const Finished compared = run_hammer({"compare", a, b, "--fail-if", "p99+10%"});
  EXPECT_EQ(compared.exit_code, 3) << compared.out << compared.err;
  EXPECT_NE(compared.out.find("requests timed out"), std::string::npos) << compared.out;
  EXPECT_NE(compared.out.find("> 300.00ms"), std::string::npos) << compared.out;
  EXPECT_NE(compared.out.find("--fail-if p99+10%: FAIL"), std::string::npos) << compared.out;
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
