// SPDX-License-Identifier: MIT
// Many machines, one truth (issue 15), on one machine: three `hammer --shard I/3` processes with
// one --start-at drive one pausing server, each from its own network namespace and address when
// the test may create them (root), and `hammer merge` adds their documents. The merged run must
// be the single run's schedule exactly, count exactly what the server answered, and give the
// corrected percentiles that design.md §1's arithmetic predicts and a single process measures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// 50 req/s for 10 s against a server that stalls 2 s after every 260th response: one stall,
// at response 260 (about 5.2 s in, over at 7.2 s; response 520 never comes), so a fraction
// f = 2 s / 10 s = 0.2 of the intended departures fall inside it: truth p90 1000 ms, p99
// 1900 ms. 150 connections are enough for every request of the stall to be in flight at once
// (100), so each waits exactly the rest of it: design.md §1's uniform wait. What the model
// leaves out — the server's threads waking one after another when the stall ends, tens of ms
// on a busy machine — grows with the requests in flight (rate x stall), not with the stall,
// so a low rate and a long stall keep it a small part of the figures.
constexpr double kRate = 50;
constexpr int kSeconds = 10;
constexpr double kPauseMs = 2000;
constexpr int kEvery = 260;
constexpr int kShards = 3;

// design.md §1 with f counted over this run: pause x (q - (1 - f)) / f.
double truth_ms(double q) {
  const int stalls = static_cast<int>((kRate * kSeconds - 1) / kEvery);  // 1
  const double f = stalls * kPauseMs / 1000.0 / kSeconds;
  return kPauseMs * (q - (1.0 - f)) / f;
}

std::string ip_binary() {
  for (const char* path : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return {};
}

// The test's network namespaces: "srv" holds the server on 10.231.0.1 (its loopback), and
// shard k's namespace reaches it through its own veth pair, from 10.231.k.2. Every shard thus
// runs the same URL from its own address, as separate machines would. Removed when destroyed.
class Namespaces {
 public:
  Namespaces() {
    ip_ = ip_binary();
    if (ip_.empty() || geteuid() != 0) return;
    prefix_ = "hmr" + std::to_string(getpid() % 100000);
    if (!ip({"netns", "add", name("s")})) return;
    created_.push_back(name("s"));
    ready_ = ip({"-n", name("s"), "link", "set", "lo", "up"}) &&
             ip({"-n", name("s"), "addr", "add", "10.231.0.1/32", "dev", "lo"});
    for (int k = 1; ready_ && k <= kShards; ++k) {
      const std::string shard = name(std::to_string(k));
      const std::string host_end = prefix_ + "h" + std::to_string(k);
      const std::string server_end = prefix_ + "v" + std::to_string(k);
      const std::string net = "10.231." + std::to_string(k) + ".";
      ready_ = ip({"netns", "add", shard});
      if (!ready_) break;
      created_.push_back(shard);
      ready_ = ip({"link", "add", host_end, "type", "veth", "peer", "name", server_end}) &&
               ip({"link", "set", host_end, "netns", shard}) &&
               ip({"link", "set", server_end, "netns", name("s")}) &&
               ip({"-n", shard, "link", "set", "lo", "up"}) &&
               ip({"-n", shard, "addr", "add", net + "2/24", "dev", host_end}) &&
               ip({"-n", shard, "link", "set", host_end, "up"}) &&
               ip({"-n", name("s"), "addr", "add", net + "1/24", "dev", server_end}) &&
               ip({"-n", name("s"), "link", "set", server_end, "up"}) &&
               ip({"-n", shard, "route", "add", "10.231.0.1/32", "via", net + "1"});
    }
  }
  ~Namespaces() {
    for (const std::string& created : created_) ip({"netns", "del", created});
  }
  bool ready() const { return ready_; }
  /// `argv` run inside namespace `which` ("s", "1".."3"); unchanged without namespaces.
  std::vector<std::string> in(const std::string& which, std::vector<std::string> argv) const {
    if (!ready_) return argv;
    argv.insert(argv.begin(), {ip_, "netns", "exec", name(which)});
    return argv;
  }
  std::string host() const { return ready_ ? "10.231.0.1" : "127.0.0.1"; }

 private:
  std::string name(const std::string& which) const { return prefix_ + which; }
  bool ip(std::vector<std::string> args) const {
    args.insert(args.begin(), ip_);
    return run_process(args, 10).exit_code == 0;
  }
  std::string ip_;
  std::string prefix_;
  std::vector<std::string> created_;
  bool ready_ = false;
};

std::vector<std::string> pausing_server_argv(const std::string& host) {
  return {python_binary(), pausing_server_script(), "--host", host, "--port", "0",
          "--pause-ms", std::to_string(static_cast<int>(kPauseMs)), "--every",
          std::to_string(kEvery)};
}

// One of the pausing server's own figures: "count" (responses it sent) or "overrun" (the most
// a response held by a stall left after the stall's end, in ms: see tools/pausing_server.py).
int64_t server_figure(const Namespaces& namespaces, const std::string& url,
                      const std::string& figure) {
  const Finished asked = run_process(
      namespaces.in("s", {python_binary(), "-c",
                          "import sys, urllib.request; "
                          "print(urllib.request.urlopen(sys.argv[1]).read().decode())",
                          url + "__pausing_server/" + figure}),
      30);
  EXPECT_EQ(asked.exit_code, 0) << asked.err;
  return std::atoll(asked.out.c_str());
}

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

struct Figures {
  double scheduled = 0, completed = 0, p90_ms = 0, p99_ms = 0, late_ms = 0;
  double server_overrun_ms = 0;  // the server's own lateness after its stall (server_figure)
  double host_stall_ms = 0;      // hammer's hiccup meter: the longest its host stalled
};

// design.md §1's figure, give or take 5%, plus whatever the machine itself added to the stall:
// the model counts the stall as exactly kPauseMs, and a server whose threads woke late on a
// busy machine held its requests that much longer (635 ms seen beside four compiles on two
// cores); a hammer whose host stalled read their answers that much later. Both are measured in
// the same run (the server's overrun, hammer's hiccup meter), never guessed, so the margin
// follows the machine, not the other way round.
double margin_ms(double reference_ms, double machine_ms) {
  return 0.05 * reference_ms + machine_ms;
}

Figures figures_of(const JsonValue& report) {
  Figures figures;
  figures.scheduled = number_at(report, "requests.scheduled");
  figures.completed = number_at(report, "requests.completed");
  figures.p90_ms = number_at(report, "latency.corrected.percentiles_ns.90") / 1e6;
  figures.p99_ms = number_at(report, "latency.corrected.percentiles_ns.99") / 1e6;
  const JsonValue* late = report.find("start.late_ns");
  figures.late_ms = late != nullptr ? late->number / 1e6 : 0;
  const JsonValue* host_stall = report.find("host.max_stall_ns");
  figures.host_stall_ms = host_stall != nullptr ? host_stall->number / 1e6 : 0;
  return figures;
}

// One attempt: the fleet of three shards and its merge, then one process at the same total
// rate. The counts are exact and checked here; what the percentiles missed by is returned
// (empty when every one was within its measured margin).
std::string fleet_and_single_process(const Namespaces& namespaces,
                                     const std::string& directory) {
  // --timeout above the stall: a request that waits it out is slow, not failed.
  const std::vector<std::string> common = {"-r", "50", "-c", "150", "-t", "1", "--timeout", "5s",
                                           "-d", std::to_string(kSeconds), "--json"};

  // The fleet.
  std::vector<std::string> documents;
  std::vector<Figures> shards;
  std::vector<double> shard_lag_p50_ns, shard_lag_max_ns;
  double shards_dispatched = 0;
  int64_t served = 0;
  double fleet_overrun_ms = 0;
  {
    ServerProcess server(namespaces.in("s", pausing_server_argv(namespaces.host())));
    if (!server.ready()) {
      ADD_FAILURE() << server.startup_output();
      return {};
    }
    const std::string url = "http://" + namespaces.host() + ":" + std::to_string(server.port()) + "/";
    // A start far enough ahead for three processes to start and connect on a busy machine.
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const double start_at =
        static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()) /
            1e3 + 5.0;
    char start_text[32];
    std::snprintf(start_text, sizeof start_text, "%.3f", start_at);
    std::vector<Finished> runs(kShards);
    std::vector<std::thread> threads;
    for (int k = 1; k <= kShards; ++k) {
      std::vector<std::string> argv = {hammer_binary(), "--shard",
                                       std::to_string(k) + "/" + std::to_string(kShards),
                                       "--start-at", start_text};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.push_back(url);
      threads.emplace_back([&, k, argv] {
        runs[static_cast<size_t>(k - 1)] = run_process(namespaces.in(std::to_string(k), argv), 60);
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int k = 1; k <= kShards; ++k) {
      const Finished& run = runs[static_cast<size_t>(k - 1)];
      if (run.exit_code != 0) {
        ADD_FAILURE() << "shard " << k << ": " << run.err;
        return {};
      }
      const JsonValue report = parse_report(run);
      shards.push_back(figures_of(report));
      shard_lag_p50_ns.push_back(number_at(report, "dispatch_lag.p50_ns"));
      shard_lag_max_ns.push_back(number_at(report, "dispatch_lag.max_ns"));
      shards_dispatched += number_at(report, "dispatch_lag.dispatched");
      documents.push_back(write_file(directory + "/shard" + std::to_string(k) + ".json", run.out));
    }
    served = server_figure(namespaces, url, "count");
    fleet_overrun_ms = static_cast<double>(server_figure(namespaces, url, "overrun"));
  }
  std::vector<std::string> merge = {"merge"};
  merge.insert(merge.end(), documents.begin(), documents.end());
  merge.push_back("--json");
  const Finished merged_run = run_hammer(merge);
  if (merged_run.exit_code != 0) {
    ADD_FAILURE() << merged_run.err;
    return {};
  }
  const JsonValue merged_report = parse_report(merged_run);
  const Figures merged = figures_of(merged_report);
  EXPECT_EQ(number_at(merged_report, "fleet.shards"), 3);
  // The dispatch lag is merged from every shard's samples, not dropped: the union's largest
  // lag is the largest shard's, and its percentiles are read from the samples (a percentile of
  // ~170 samples a shard moves by a whole sample with rounding, so the merged p99 is bounded by
  // the shards' medians and maxima rather than by their p99s).
  EXPECT_EQ(number_at(merged_report, "dispatch_lag.dispatched"), shards_dispatched);
  const double largest_ns = *std::max_element(shard_lag_max_ns.begin(), shard_lag_max_ns.end());
  EXPECT_EQ(number_at(merged_report, "dispatch_lag.max_ns"), largest_ns);
  const double merged_lag_p99_ns = number_at(merged_report, "dispatch_lag.p99_ns");
  EXPECT_GE(merged_lag_p99_ns,
            *std::min_element(shard_lag_p50_ns.begin(), shard_lag_p50_ns.end()));
  EXPECT_LE(merged_lag_p99_ns, largest_ns * 1.01);  // HdrHistogram's ~1% buckets

  // One process at the same total rate, against a fresh server (its stalls start counting anew).
  Figures single;
  {
    ServerProcess server(namespaces.in("s", pausing_server_argv(namespaces.host())));
    if (!server.ready()) {
      ADD_FAILURE() << server.startup_output();
      return {};
    }
    const std::string url = "http://" + namespaces.host() + ":" + std::to_string(server.port()) + "/";
    std::vector<std::string> argv = {hammer_binary()};
    argv.insert(argv.end(), common.begin(), common.end());
    argv.push_back(url);
    const Finished run = run_process(namespaces.in("1", argv), 60);
    if (run.exit_code != 0) {
      ADD_FAILURE() << run.err;
      return {};
    }
    single = figures_of(parse_report(run));
    single.server_overrun_ms = static_cast<double>(server_figure(namespaces, url, "overrun"));
  }

  std::printf("[ shards  ] %-10s %9s %9s %10s %10s %9s\n", "", "scheduled", "completed",
              "p90 (ms)", "p99 (ms)", "late (ms)");
  for (size_t k = 0; k < shards.size(); ++k) {
    std::printf("[ shards  ] shard %zu/3  %9.0f %9.0f %10.2f %10.2f %9.3f\n", k + 1,
                shards[k].scheduled, shards[k].completed, shards[k].p90_ms, shards[k].p99_ms,
                shards[k].late_ms);
  }
  std::printf("[ shards  ] %-10s %9.0f %9.0f %10.2f %10.2f   (server counted %lld)\n", "merged",
              merged.scheduled, merged.completed, merged.p90_ms, merged.p99_ms,
              static_cast<long long>(served));
  std::printf("[ shards  ] %-10s %9.0f %9.0f %10.2f %10.2f\n", "single", single.scheduled,
              single.completed, single.p90_ms, single.p99_ms);
  std::printf("[ shards  ] %-10s %9.0f %9s %10.2f %10.2f\n", "truth", kRate * kSeconds, "",
              truth_ms(0.90), truth_ms(0.99));
  double longest_shard_stall_ms = 0;
  for (const Figures& shard : shards) {
    longest_shard_stall_ms = std::max(longest_shard_stall_ms, shard.host_stall_ms);
  }
  std::printf("[ shards  ] the server's own lateness after its stall: %.0f ms (fleet), %.0f ms "
              "(single); hammer's longest host stall: %.0f ms (fleet), %.0f ms (single); "
              "each margin is 5%% plus both\n",
              fleet_overrun_ms, single.server_overrun_ms, longest_shard_stall_ms,
              single.host_stall_ms);

  // The union of the shards' slots is the single run's schedule, exactly.
  EXPECT_EQ(merged.scheduled, single.scheduled);
  EXPECT_EQ(merged.scheduled, kRate * kSeconds);
  // Every request the server answered is in the merged count, and nothing else.
  EXPECT_EQ(static_cast<int64_t>(merged.completed), served);
  // Percentiles of the added histograms: the analytic truth, and what one process measures.
  // These are the figures a busy machine moves (by the margins measured above): a reading
  // outside them gets one retry, said as such, and fails only on both attempts.
  const double fleet_machine_ms = fleet_overrun_ms + longest_shard_stall_ms;
  const double single_machine_ms = single.server_overrun_ms + single.host_stall_ms;
  std::string misses;
  for (auto [merged_ms, single_ms, truth, name] :
       {std::tuple{merged.p90_ms, single.p90_ms, truth_ms(0.90), "p90"},
        std::tuple{merged.p99_ms, single.p99_ms, truth_ms(0.99), "p99"}}) {
    const auto judge = [&](double figure, double reference, double margin, const char* what) {
      if (std::abs(figure - reference) <= margin) return;
      misses += std::string(name) + " " + what + ": " + std::to_string(figure) +
                " ms against " + std::to_string(reference) + " +- " + std::to_string(margin) +
                " ms; ";
    };
    judge(merged_ms, truth, margin_ms(truth, fleet_machine_ms), "merged vs design.md §1");
    judge(single_ms, truth, margin_ms(truth, single_machine_ms),
          "single process vs design.md §1");
    judge(merged_ms, single_ms,
          margin_ms(single_ms, std::max(fleet_machine_ms, single_machine_ms)),
          "merged vs single process");
  }
  return misses;
}

TEST(ShardTest, ThreeShardsMergeIntoTheSingleRunsScheduleCountsAndPercentiles) {
  const Namespaces namespaces;
  std::printf("[ shards  ] %s\n", namespaces.ready()
                                      ? "each shard in its own network namespace (10.231.k.2)"
                                      : "no network namespaces here: every shard on 127.0.0.1");
  const std::string directory = private_directory();
  for (int attempt = 1; attempt <= 2; ++attempt) {
    const std::string misses = fleet_and_single_process(namespaces, directory);
    if (misses.empty() || ::testing::Test::HasFailure()) return;
    if (attempt == 2) {
      ADD_FAILURE() << misses << "on both attempts";
      return;
    }
    std::printf("retrying once: %s\n", misses.c_str());
  }
}

TEST(ShardTest, AStartTimeThatHasPassedExitsOneBeforeConnecting) {
  const Finished run = run_hammer({"--shard", "1/2", "--start-at", "2020-01-01T00:00:00Z", "-d",
                                   "1", "http://127.0.0.1:1/"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("hammer: --start-at: the start time passed "), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("--start-tolerance"), std::string::npos) << run.err;
}

// A start days ahead is a typo in the date, not a plan: refused at once, never a silent wait.
TEST(ShardTest, AStartTimeDaysAheadExitsOneAtOnce) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const int64_t three_days_s =
      std::chrono::duration_cast<std::chrono::seconds>(now).count() + 3 * 24 * 3600;
  const Finished run = run_hammer({"--shard", "1/2", "--start-at", std::to_string(three_days_s),
                                   "-d", "1", "http://127.0.0.1:1/"},
                                  20);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("hammer: --start-at: the start time is 72.0 hours ahead, more than 24 "
                         "hours"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("waiting until"), std::string::npos) << run.err;
}

TEST(ShardTest, MergeRefusesAFleetWithAMissingShard) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const Finished run = run_hammer({"--shard", "1/2", "-r", "100", "-c", "2", "-d", "1", "--json",
                                   server.url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "shard.index"), 1);
  EXPECT_EQ(number_at(report, "shard.connections"), 1);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 50);  // slots 0, 2, 4, ... of 100
  const std::string path = write_file(private_directory() + "lonely.json", run.out);
  const Finished merged = run_hammer({"merge", path});
  EXPECT_EQ(merged.exit_code, 1);
  EXPECT_EQ(merged.err, "hammer: merge: shard 2/2 missing (have 1 of 2); the fleet's figures "
                        "need every shard\n");
}

// Issue 10 (QA): --shard 2/2 -r 1 -d 1: the fleet's one slot is shard 1's. Shard 2 has nothing
// to send; it says so in one line, exits 0 (its server did not fail) and its report is a valid,
// empty document that merges with shard 1's.
TEST(ShardTest, AShardWithNoSlotsSaysSoAndExitsZeroWithAnEmptyReport) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const std::vector<std::string> flags = {"-c", "2", "-r", "1", "-d", "1"};
  auto shard_args = [&](const std::string& shard, bool json) {
    std::vector<std::string> args = {"--shard", shard};
    args.insert(args.end(), flags.begin(), flags.end());
    if (json) args.push_back("--json");
    args.push_back(server.url());
    return args;
  };
  const Finished text = run_hammer(shard_args("2/2", false));
  EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("shard 2/2 had no requests to send"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("did not work"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("0 responses against"), std::string::npos) << text.out;

  const Finished empty = run_hammer(shard_args("2/2", true));
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  const JsonValue report = parse_report(empty);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 0);
  EXPECT_EQ(number_at(report, "requests.sent"), 0);
  EXPECT_EQ(number_at(report, "requests.failed"), 0);
  const JsonValue* verdicts = report.find("verdicts");
  ASSERT_NE(verdicts, nullptr);
  ASSERT_EQ(verdicts->items.size(), 1u);
  EXPECT_EQ(verdicts->items[0].find("code")->text, "no_work");

  const Finished busy = run_hammer(shard_args("1/2", true));
  ASSERT_EQ(busy.exit_code, 0) << busy.err;
  EXPECT_EQ(number_at(parse_report(busy), "requests.completed"), 1);
  const std::string one = write_file(private_directory() + "busy-1.json", busy.out);
  const std::string two = write_file(private_directory() + "empty-2.json", empty.out);
  const Finished merged = run_hammer({"merge", "--json", one, two});
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(number_at(parse_report(merged), "requests.completed"), 1);
}

// Shards 1/2 and 2/2 of -r 40 -c 2 -d 1 against `url`, one after the other, each expected to
// exit `exit_code`; their documents saved as <prefix>-1.json and <prefix>-2.json in `paths`.
void run_two_shards(const std::string& url, int exit_code, const std::string& prefix,
                    std::vector<std::string>& paths) {
  for (const char* shard : {"1/2", "2/2"}) {
    const Finished run =
        run_hammer({"--shard", shard, "-r", "40", "-c", "2", "-d", "1", "--json", url});
    ASSERT_EQ(run.exit_code, exit_code) << run.err;
    paths.push_back(write_file(private_directory() + prefix + "-" +
                                   std::string(1, shard[0]) + ".json",
                               run.out));
  }
}

// A shard's --slo judges only its own share of the load: the fleet's p99 is not any shard's.
// hammer merge --slo judges the merged histograms as a single run judges its own: the SLO lines
// after the report, slo and slo_passed in the document, exit 3 on a miss.
TEST(ShardTest, MergeGatesTheFleetOnItsSlosFromTheMergedHistograms) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  std::vector<std::string> paths;
  ASSERT_NO_FATAL_FAILURE(run_two_shards(server.url(), 0, "gate", paths));
  // The two shards ran one after the other: their origins are about a second apart.
  auto merge = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"merge", paths[0], paths[1], "--start-tolerance", "1m"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_hammer(args);
  };
  const Finished met = merge({"--slo", "p99=60s", "--slo", "errors=1%"});
  EXPECT_EQ(met.exit_code, 0) << met.err;
  EXPECT_NE(met.out.find("SLO p99 <= 60.00s: "), std::string::npos) << met.out;
  EXPECT_NE(met.out.find("SLO errors <= 1.00%: 0.00%, met"), std::string::npos) << met.out;

  const Finished missed = merge({"--slo", "p99=1ns", "--json"});
  EXPECT_EQ(missed.exit_code, 3) << missed.err;
  const JsonValue document = parse_report(missed);
  const JsonValue* slo = document.find("slo");
  ASSERT_NE(slo, nullptr);
  ASSERT_EQ(slo->items.size(), 1u);
  EXPECT_EQ(slo->items[0].find("key")->text, "p99");
  EXPECT_FALSE(slo->items[0].find("pass")->boolean);
  // The merged p99, from the added histograms: the document's own percentile.
  EXPECT_EQ(number_at(slo->items[0], "measured"),
            number_at(document, "latency.corrected.percentiles_ns.99"));
  EXPECT_FALSE(document.find("slo_passed")->boolean);

  const Finished bad = merge({"--slo", "p99<50ms"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(bad.err.starts_with("hammer: merge: --slo: expected KEY=LIMIT")) << bad.err;

  // The merged run's files, as a run's -o writes them: the .hgrm (with the uncorrected one
  // beside it, open loop) counts every merged answer, and the .csv's rows add up to them.
  const std::string directory = private_directory();
  const Finished files =
      merge({"-o", directory + "/fleet.hgrm", "-o", directory + "/fleet.csv", "--json"});
  ASSERT_EQ(files.exit_code, 0) << files.err;
  const double completed = number_at(parse_report(files), "requests.completed");
  for (const char* name : {"/fleet.hgrm", "/fleet.uncorrected.hgrm"}) {
    std::ifstream hgrm(directory + name);
    double total = -1;
    for (std::string line; std::getline(hgrm, line);) {
      const size_t at = line.find("Total count");
      if (at != std::string::npos) total = std::atof(line.c_str() + line.find('=', at) + 1);
    }
    EXPECT_EQ(total, completed) << name;
  }
  std::ifstream csv(directory + "/fleet.csv");
  std::string row;
  std::getline(csv, row);  // the header
  double rows_total = 0;
  while (std::getline(csv, row)) {
    // second,start_s,length_s,phase,requests,...: the fifth field.
    size_t field = 0;
    for (int comma = 0; comma < 4; ++comma) field = row.find(',', field) + 1;
    rows_total += std::atof(row.c_str() + field);
  }
  EXPECT_EQ(rows_total, completed);
  const Finished clash =
      merge({"-o", directory + "/fleet.hgrm", "-o", directory + "/fleet.uncorrected.hgrm"});
  EXPECT_EQ(clash.exit_code, 1);
  EXPECT_TRUE(clash.err.starts_with("hammer: merge: --output: -o " + directory +
                                    "/fleet.hgrm already writes the uncorrected histogram"))
      << clash.err;
}

// A fleet whose run did not work (every answer a 503: each shard exits 2) merges into a run
// whose report says "the run did not work"; hammer merge exits 2 as that single run would,
// not 0, so a fleet's script that gates on the merge sees it.
TEST(ShardTest, AMergedRunThatDidNotWorkExitsTwo) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "status", "--status", "503"});
  ASSERT_TRUE(server.ready());
  std::vector<std::string> paths;
  ASSERT_NO_FATAL_FAILURE(run_two_shards(server.url(), 2, "failing", paths));
  const Finished merged =
      run_hammer({"merge", paths[0], paths[1], "--start-tolerance", "1m", "--slo", "p99=60s"});
  EXPECT_EQ(merged.exit_code, 2) << merged.err;
  EXPECT_NE(merged.out.find("the run did not work"), std::string::npos) << merged.out;
}

}  // namespace
}  // namespace hammer::test
