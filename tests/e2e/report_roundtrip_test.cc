// SPDX-License-Identifier: MIT
// Issue 24: one document model. Every run here is saved with `-o run.json -o run.html`; then
// `hammer report run.json` must print letter for letter what the run printed on stdout (the
// live progress line goes to stderr, so stdout is the whole report) and `hammer report
// run.json -o again.html` must write the run's own page byte for byte. The scenarios cover
// what the document has to carry for that: closed loop with the default thread count, open
// loop with timeouts, -p, --requests with --latency, --timeline and --slo, warm-up and ramp,
// sweeps (one with --slo, timeouts and --control; a capacity search), an https:// run (its TLS and Handshake lines), and a merged fleet.
#include <gtest/gtest.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "e2e/e2e.h"
#include "support/nginx_tls.h"

namespace hammer::test {
namespace {

class ReportRoundTripTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const {
    return private_directory() + ::testing::UnitTest::GetInstance()->current_test_info()->name() +
           "." + name;
  }

  // Runs hammer with `args` saving run.json and run.html, then renders both back and compares.
  // Returns the run's stdout so a test can check that the scenario printed what it is about.
  std::string expect_round_trip(std::vector<std::string> args, int exit_code = 0) {
    const std::string json = path("run.json");
    const std::string html = path("run.html");
    args.insert(args.end() - 1, {"-o", json, "-o", html});
    const Finished run = run_hammer(args, 40);
    EXPECT_EQ(run.exit_code, exit_code) << run.err;
    const Finished report = run_hammer({"report", json}, 20);
    EXPECT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(report.out, run.out) << "hammer report prints what the run printed";
    const Finished page = run_hammer({"report", json, "-o", path("again.html")}, 20);
    EXPECT_EQ(page.exit_code, 0) << page.err;
    const std::string own = read_file(html);
    EXPECT_FALSE(own.empty()) << "the run wrote no page";
    EXPECT_TRUE(own == read_file(path("again.html"))) << "the two pages differ";
    return run.out;
  }
};

TEST_F(ReportRoundTripTest, ClosedLoopWithTheDefaultThreads) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  expect_round_trip({"-c", "3", "-d", "0.5", server.url()});
}

TEST_F(ReportRoundTripTest, OpenLoopWithTimeouts) {
  ServerProcess server({test_server_binary(), "--port", "0", "--silent-every", "100"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string out = expect_round_trip(
      {"-r", "400", "-c", "4", "-t", "2", "-d", "1", "--timeout", "150ms", server.url()});
  EXPECT_NE(out.find("timed out"), std::string::npos) << out;
}

TEST_F(ReportRoundTripTest, PipelinedWithWarmupAndRamp) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  expect_round_trip({"-p", "4", "-r", "300", "-c", "4", "-t", "2", "--ramp", "0.3", "-W", "0.3",
                     "-d", "0.6", server.url()});
}

// --latency and --timeline print tables of the text report only; the document said neither,
// so `hammer report` printed the short percentile column and no timeline (it failed here).
TEST_F(ReportRoundTripTest, RequestsFileWithTheFullSpectrumTimelineAndSlo) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string lines = path("lines.jsonl");
  std::ofstream(lines) << "{\"path\": \"/a\"}\n{\"path\": \"/b\", \"name\": \"bee\"}\n"
                          "{\"method\": \"POST\", \"path\": \"/c\", \"body\": \"x\"}\n";
  const std::string out = expect_round_trip({"--requests", lines, "-r", "300", "-c", "3", "-t",
                                             "1", "-d", "1", "--latency", "--timeline", "--slo",
                                             "p99=2s", "--slo", "errors=5%", server.url()});
  EXPECT_NE(out.find("99.99%"), std::string::npos) << out;
  EXPECT_NE(out.find("Timeline"), std::string::npos) << out;
  EXPECT_NE(out.find("SLO p99 <= 2.00s"), std::string::npos) << out;
}

// A sweep's document prints the sweep's table and readings (it was refused: "renders as HTML
// only"), and its page is the sweep's own.
TEST_F(ReportRoundTripTest, Sweep) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  expect_round_trip({"-r", "100,200", "-c", "2", "-t", "1", "-d", "0.3", server.url()});
}

// Every member a step carries: SLO outcomes that timeouts censor (every 40th request is never
// answered), dispatch lag, --control steps and their ratio, the capacity reading.
TEST_F(ReportRoundTripTest, SweepWithSloTimeoutsAndControl) {
  ServerProcess server({test_server_binary(), "--port", "0", "--silent-every", "40"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string out = expect_round_trip(
      {"-r", "100,200", "-c", "4", "-t", "1", "-d", "0.5", "--timeout", "150ms", "--slo",
       "p99=100ms", "--slo", "errors=50%", "--control", server.url(), server.url()},
      3);
  EXPECT_NE(out.find("(timed out)"), std::string::npos) << out;
  EXPECT_NE(out.find("Control @ "), std::string::npos) << out;
  EXPECT_NE(out.find("Capacity: "), std::string::npos) << out;
}

// A capacity search: its steps in the order tried, its range in the header.
TEST_F(ReportRoundTripTest, CapacitySearch) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string out = expect_round_trip({"-r", "50:400", "--slo", "p99=1s", "-c", "2", "-t",
                                             "1", "-d", "0.2", server.url()});
  EXPECT_NE(out.find("capacity search over 50 to 400 req/s"), std::string::npos) << out;
}

// The TLS line, the Handshake line and the -k line come from the document's `tls` member.
TEST_F(ReportRoundTripTest, HttpsRunWithResumedHandshakes) {
  if (access(kNginx, X_OK) != 0 || access(kOpenssl, X_OK) != 0) {
    GTEST_SKIP() << kNginx << " or " << kOpenssl << " is not installed (scripts/deps.sh)";
  }
  TlsServer server;
  ASSERT_TRUE(server.ready()) << "nginx did not start";
  const std::string out = expect_round_trip(
      {"-c", "2", "-t", "1", "-d", "0.5", "--cacert", server.ca(), server.url("/close")});
  EXPECT_NE(out.find("resumed"), std::string::npos) << out;
  EXPECT_NE(out.find("Handshake"), std::string::npos) << out;
  // The page lists the TLS lines and has the handshake-time row beside connect time.
  const std::string page = read_file(path("run.html"));
  EXPECT_NE(page.find("<li class=\"verdict\" data-tls>TLS            1."), std::string::npos);
  EXPECT_NE(page.find("<td class=\"name\">TLS handshake</td>"), std::string::npos);
  const std::string insecure =
      expect_round_trip({"-k", "-r", "200", "-c", "2", "-t", "1", "-d", "0.5", server.url()});
  EXPECT_NE(insecure.find("not verified (-k)"), std::string::npos) << insecure;
}

// Two https:// shards merged: the fleet's TLS line counts both shards' handshakes (they add),
// and `hammer report merged.json` prints what merge printed, TLS lines included.
TEST_F(ReportRoundTripTest, MergedHttpsShardsAddTheirHandshakes) {
  if (access(kNginx, X_OK) != 0 || access(kOpenssl, X_OK) != 0) {
    GTEST_SKIP() << kNginx << " or " << kOpenssl << " is not installed (scripts/deps.sh)";
  }
  TlsServer server;
  ASSERT_TRUE(server.ready()) << "nginx did not start";
  std::vector<std::string> shards;
  int64_t handshakes = 0;
  for (int index : {1, 2}) {
    const std::string saved = path("shard" + std::to_string(index) + ".json");
    const Finished shard =
        run_hammer({"--shard", std::to_string(index) + "/2", "-r", "100", "-c", "2", "-t", "1",
                    "-d", "0.5", "--cacert", server.ca(), "--json", "-o", saved,
                    server.url("/close")},
                   30);
    ASSERT_EQ(shard.exit_code, 0) << shard.err;
    const JsonValue document = parse_report(shard);
    handshakes += static_cast<int64_t>(number_at(document, "tls.handshakes.full") +
                                       number_at(document, "tls.handshakes.resumed"));
    shards.push_back(saved);
  }
  const std::string merged = path("merged.json");
  const Finished merge = run_hammer(
      {"merge", shards[0], shards[1], "--start-tolerance", "60s", "-o", merged});
  ASSERT_EQ(merge.exit_code, 0) << merge.err << merge.out;
  EXPECT_NE(merge.out.find("; " + std::to_string(handshakes) + " handshakes: "),
            std::string::npos)
      << merge.out;
  EXPECT_NE(merge.out.find("Handshake      p50 "), std::string::npos) << merge.out;
  const Finished report = run_hammer({"report", merged});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.out, merge.out);
}

// Two shards whose schedules began 2 s apart (one after the other: each 1 s long), merged
// within --start-tolerance 5s: `hammer report merged.json` reads what merge wrote (it refused
// a timeline row past the duration), prints what merge printed, and renders its page byte for
// byte.
TEST_F(ReportRoundTripTest, MergedShardsStartedApart) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const int64_t first = static_cast<int64_t>(std::time(nullptr)) + 2;
  std::vector<std::string> shards;
  for (int index : {1, 2}) {
    const std::string saved = path("shard" + std::to_string(index) + ".json");
    const std::string start = std::to_string(first + 2 * (index - 1));
    const Finished shard = run_hammer({"--shard", std::to_string(index) + "/2", "--start-at",
                                       start, "-r", "200", "-c", "2", "-t", "1", "-d", "1", "-o",
                                       saved, server.url()},
                                      30);
    ASSERT_EQ(shard.exit_code, 0) << shard.err;
    shards.push_back(saved);
  }
  const std::string merged = path("merged.json");
  const Finished merge = run_hammer({"merge", shards[0], shards[1], "--start-tolerance", "5s",
                                     "-o", merged, "-o", path("merged.html")});
  ASSERT_EQ(merge.exit_code, 0) << merge.err << merge.out;
  const Finished report = run_hammer({"report", merged});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.out, merge.out) << "hammer report prints what hammer merge printed";
  const Finished page = run_hammer({"report", merged, "-o", path("again.html")});
  EXPECT_EQ(page.exit_code, 0) << page.err;
  EXPECT_TRUE(read_file(path("merged.html")) == read_file(path("again.html")));
}

}  // namespace
}  // namespace hammer::test
