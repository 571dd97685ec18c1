// SPDX-License-Identifier: MIT
// Several requests per run (--requests), pipelining (-p) and ramp-up (--ramp), against
// test_server counting requests by path (--count-paths 1, GET /__counts).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "e2e/e2e.h"
#include "e2e/plain_get.h"

namespace hammer::test {
namespace {

// test_server's per-path counts: {"total": N, "/a": n, ...}, read with one plain GET.
std::map<std::string, int64_t> server_counts(int port) {
  std::map<std::string, int64_t> counts;
  const std::optional<std::string> got = plain_get(port, "/__counts", 5);
  if (!got) return counts;
  const std::string& response = *got;
  const size_t body = response.find("\r\n\r\n");
  EXPECT_NE(body, std::string::npos) << response;
  std::istringstream lines(body == std::string::npos ? "" : response.substr(body + 4));
  for (std::string first, second; lines >> first >> second;) {
    if (first == "total") {
      counts["total"] = std::stoll(second);
    } else {
      counts[second] = std::stoll(first);
    }
  }
  return counts;
}

// A file in a fresh temporary folder, removed with it.
struct TempFile {
  explicit TempFile(const std::string& text) {
    char folder[] = "/tmp/hammer_e2e_requests_XXXXXX";
    dir = ::mkdtemp(folder) ? folder : "/tmp";
    path = dir + "/requests.jsonl";
    std::ofstream(path) << text;
  }
  ~TempFile() {
    std::remove(path.c_str());
    ::rmdir(dir.c_str());
  }
  std::string dir;
  std::string path;
};

const JsonValue* line_entry(const JsonValue& report, size_t index) {
  const JsonValue* lines = report.find("requests_file.lines");
  if (lines == nullptr || index >= lines->items.size()) return nullptr;
  return &lines->items[index];
}

TEST(RequestsFileTest, FivePathsEachGetExactlyAFifthOfAnOpenLoopRun) {
  ServerProcess server({test_server_binary(), "--port", "0", "--count-paths", "1"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::vector<std::string> categories = {"alpha", "beta", "gamma", "delta", "epsilon"};
  std::string text;
  for (const std::string& category : categories) {
    text += "{\"path\": \"/search?category=" + category + "\"}\n";
  }
  const TempFile file(text);
  const Finished run = run_hammer({"-r", "2000", "-d", "5", "-c", "20", "-t", "2", "--requests",
                                   file.path, "--json", server.url()},
                                  60);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 10000);
  // A stalled host can leave the schedule's last few slots unsent at the deadline (each
  // thread's last ones: the schedule is first in, first out). The mix is still exact: thread j
  // of T sent a prefix of its slots j, j + T, ..., which cycle over the 5 lines (T and 5 are
  // coprime), so each line got floor or ceil of a fifth of each thread's share: the lines
  // differ by at most T, and by nothing when every slot went.
  const int64_t sent = number_at(report, "requests.sent");
  const int64_t threads = 2;
  EXPECT_GE(sent, 9900) << "most of the schedule went out";
  EXPECT_EQ(number_at(report, "requests.completed"), sent);

  const std::map<std::string, int64_t> counts = server_counts(server.port());
  EXPECT_EQ(counts.at("total"), sent);
  int64_t fewest = INT64_MAX;
  int64_t most = 0;
  int64_t sum = 0;
  for (size_t i = 0; i < categories.size(); ++i) {
    const std::string path = "/search?category=" + categories[i];
    const JsonValue* entry = line_entry(report, i);
    ASSERT_NE(entry, nullptr) << i;
    EXPECT_EQ(entry->find("name")->text, path);
    const auto line_sent = static_cast<int64_t>(entry->find("sent")->number);
    if (sent == 10000) {
      EXPECT_EQ(line_sent, 2000) << path;
    }
    fewest = std::min(fewest, line_sent);
    most = std::max(most, line_sent);
    sum += line_sent;
    // What hammer says it sent on each line is what the server saw on that path.
    EXPECT_EQ(counts.count(path) ? counts.at(path) : -1, line_sent) << path;
    EXPECT_EQ(entry->find("completed")->number, line_sent) << path;
    EXPECT_EQ(entry->find("status.2xx")->number, line_sent) << path;
    EXPECT_GT(entry->find("latency.corrected.p99_ns")->number, 0) << path;
    EXPECT_GT(entry->find("latency.uncorrected.max_ns")->number, 0) << path;
  }
  EXPECT_EQ(sum, sent);
  EXPECT_LE(most - fewest, threads) << "the rotation is i mod n over the global schedule";
}

TEST(RequestsFileTest, ClosedLoopRotatesOverTheLinesAndTheTextNamesEach) {
  ServerProcess server({test_server_binary(), "--port", "0", "--count-paths", "1"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const TempFile file(
      "{\"path\": \"/one\", \"name\": \"first\"}\n"
      "{\"path\": \"/two\", \"method\": \"POST\", \"body\": \"abc\"}\n"
      "{\"path\": \"/three\", \"headers\": {\"X-Trace\": \"1\"}}\n");
  const Finished run =
      run_hammer({"-c", "4", "-t", "2", "-d", "1", "--requests", file.path, server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Requests by line (" + file.path + ", 3 lines"), std::string::npos)
      << run.out;
  for (const char* name : {"  first\n", "  /two\n", "  /three\n"}) {
    EXPECT_NE(run.out.find(name), std::string::npos) << name << run.out;
  }
  const std::map<std::string, int64_t> counts = server_counts(server.port());
  const int64_t total = counts.at("total");
  ASSERT_GT(total, 300);
  // Each worker goes through the lines in turn: the mix is exact up to each worker's last round.
  for (const char* path : {"/one", "/two", "/three"}) {
    EXPECT_NEAR(static_cast<double>(counts.at(path)), static_cast<double>(total) / 3, 4) << path;
  }
}

// Lines and workers that share a factor (4 lines, 2 workers): each worker goes through every
// line, so the mix is the file's however unevenly the workers keep pace. Numbered as the run's
// sends, worker 0 took lines 1 and 3 and worker 1 lines 2 and 4: 16,685 against 10,442 sends
// per line, and the slower worker's lines read 3.6 times slower at p50.
TEST(RequestsFileTest, ClosedLoopGivesEveryLineItsShareWhenTheWorkersShareAFactorWithIt) {
  ServerProcess server({test_server_binary(), "--port", "0", "--count-paths", "1"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const TempFile file("{\"path\": \"/y1\"}\n{\"path\": \"/y2\"}\n{\"path\": \"/y3\"}\n"
                      "{\"path\": \"/y4\"}\n");
  const Finished run =
      run_hammer({"-c", "2", "-t", "2", "-d", "1", "--requests", file.path, server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::map<std::string, int64_t> counts = server_counts(server.port());
  ASSERT_GT(counts.at("total"), 100);
  int64_t fewest = INT64_MAX;
  int64_t most = 0;
  for (const char* path : {"/y1", "/y2", "/y3", "/y4"}) {
    ASSERT_EQ(counts.count(path), 1u) << path;
    fewest = std::min(fewest, counts.at(path));
    most = std::max(most, counts.at(path));
  }
  // Each worker's lines differ by at most one send (its last round), so two workers' by two.
  EXPECT_LE(most - fewest, 2) << fewest << " to " << most;
}

TEST(RequestsFileTest, ABadFileExitsOneWithFileAndLineAndSendsNothing) {
  ServerProcess server({test_server_binary(), "--port", "0", "--count-paths", "1"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  struct Case {
    std::string text;
    std::string reason;  // after "FILE:"
  };
  const std::vector<Case> cases = {
      {"{\"path\": \"/\"}\n{\"path\": \"/a\",}\n",
       "2: bad JSON: trailing comma before '}' at column 15"},
      {"{\"path\": \"/\", \"method\": \"GET\", \"method\": \"POST\"}\n",
       "1: bad JSON: duplicate key \"method\" at column 32"},
      {"{\"path\": \"/\", \"verb\": \"GET\"}\n",
       "1: unknown member 'verb' (members: path, method, headers, body, body_file, name)"},
      {"{\"path\": \"/\"}\n\n{\"path\": \"/x\", \"headers\": {\"Bad Header\": \"1\"}}\n",
       "3: header 'Bad Header': whitespace between the header name and ':'"},
      {"{\"path\": \"search\"}\n", "1: path must start with '/', got 'search'"},
      {"{\"path\": \"/\", \"body\": \"abc\", \"headers\": {\"Content-Length\": \"10\"}}\n",
       "1: Content-Length 10 contradicts the body of 3 bytes"},
      {"{\"path\": \"/\", \"body\": \"abc\", \"body_file\": \"x\"}\n",
       "1: 'body' and 'body_file' are both given; give one"},
  };
  for (const Case& bad : cases) {
    const TempFile file(bad.text);
    const Finished run = run_hammer({"-d", "1", "--requests", file.path, server.url()}, 30);
    EXPECT_EQ(run.exit_code, 1) << bad.text;
    EXPECT_EQ(run.err, "hammer: --requests: " + file.path + ":" + bad.reason + "\n") << bad.text;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
  EXPECT_EQ(server_counts(server.port()).at("total"), 0);
}

TEST(PipelineTest, EightInFlightPerConnectionBeatsOneAndTheServerCountMatches) {
  // Each read the server makes costs 2 ms, as a round trip would: with -p 8 the requests that
  // arrive together share it, with -p 1 each pays it alone. One run each, judged by the ratio.
  ServerProcess server({test_server_binary(), "--port", "0", "--count-paths", "1",
                        "--read-delay-us", "2000"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  auto run_with = [&](const char* depth) {
    const int64_t before = server_counts(server.port()).at("total");
    const Finished run = run_hammer(
        {"-c", "2", "-t", "1", "-d", "2", "-p", depth, "--json", server.url()}, 30);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const JsonValue report = parse_report(run);
    const double completed = number_at(report, "requests.completed");
    EXPECT_EQ(number_at(report, "requests.sent"), completed) << depth;
    EXPECT_EQ(number_at(report, "config.pipeline"), std::stod(depth));
    // Every request the server answered was completed, and no other.
    EXPECT_EQ(static_cast<double>(server_counts(server.port()).at("total") - before), completed)
        << depth;
    return number_at(report, "requests.per_second");
  };
  const double one = run_with("1");
  const double eight = run_with("8");
  std::printf("-p 1: %.0f req/s, -p 8: %.0f req/s\n", one, eight);
  EXPECT_GT(eight, 2.5 * one) << "-p 1 " << one << " req/s, -p 8 " << eight << " req/s";
}

TEST(PipelineTest, AConnectionClosedMidPipelineFailsExactlyItsOutstandingRequests) {
  // The server closes after every 5th response, with up to 3 more requests pipelined behind
  // it: with --no-retry those fail (read errors), every other one completes, none is lost or
  // counted twice. (Without it they are sent again: tests/e2e/wire_test.cc.)
  ServerProcess server({test_server_binary(), "--port", "0", "--count-paths", "1",
                        "--close-every", "5"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"--no-retry", "-c", "2", "-t", "1", "-d", "1", "-p", "4", "--json", server.url()}, 30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const double sent = number_at(report, "requests.sent");
  const double completed = number_at(report, "requests.completed");
  const double read_errors = number_at(report, "errors.read");
  EXPECT_GT(read_errors, 0);
  EXPECT_EQ(sent, completed + read_errors + number_at(report, "errors.write") +
                      number_at(report, "errors.timeout") + number_at(report, "errors.parse"));
  EXPECT_EQ(static_cast<double>(server_counts(server.port()).at("total")), completed);
}

TEST(RampTest, TheRampHoldsRTOverTwoRequestsInItsOwnTimelinePhase) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer(
      {"--ramp", "2", "-r", "2000", "-d", "1", "-c", "10", "-t", "2", "--json", server.url()}, 60);
  const size_t verdicts = run.out.find("\"verdicts\"");
  ASSERT_EQ(run.exit_code, 0) << run.err
                              << (verdicts == std::string::npos ? std::string()
                                                                : run.out.substr(verdicts, 1500));
  const JsonValue report = parse_report(run);
  // R T / 2 = 2000 slots in the ramp, then R x duration measured.
  EXPECT_EQ(number_at(report, "ramp.scheduled"), 2000);
  EXPECT_NEAR(number_at(report, "ramp.completed"), 2000, 20);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 2000);
  EXPECT_EQ(number_at(report, "config.ramp_s"), 2);
  const JsonValue* rows = report.find("timeline.rows");
  ASSERT_NE(rows, nullptr);
  ASSERT_GE(rows->items.size(), 3u);
  double ramp_requests = 0;
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(rows->items[i].find("phase")->text, "ramp") << i;
    ramp_requests += rows->items[i].find("requests")->number;
  }
  EXPECT_EQ(ramp_requests, number_at(report, "ramp.completed"));
  EXPECT_EQ(rows->items[2].find("phase")->text, "measured");
  // The rate rises linearly: a quarter of the ramp's requests in its first half.
  EXPECT_NEAR(rows->items[0].find("requests")->number, 500, 20);
  EXPECT_NEAR(rows->items[1].find("requests")->number, 1500, 20);
}

}  // namespace
}  // namespace hammer::test
