// SPDX-License-Identifier: MIT
#pragma once
// Fabricated runs for the report tests (header-only, test code): known values recorded into
// the histograms and every counter filled, so a test can predict each printed figure.
#include <sstream>
#include <string>
#include <vector>

#include "core/config.h"
#include "document/fleet_summary.h"
#include "report/report_input.h"
#include "run/result.h"

namespace hammer::testing {

/// A report's lines, and whether one of them is `line` exactly, or `part` is anywhere.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}
inline bool has_line(const std::string& text, const std::string& line) {
  for (const std::string& candidate : lines_of(text)) {
    if (candidate == line) return true;
  }
  return false;
}
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct FabricatedRun {
  Config config;
  RunResult result;
  std::vector<Verdict> verdicts;

  ReportInput input(std::vector<std::string> notes = {}) const {
    return ReportInput{config, result, verdicts, std::move(notes)};
  }
};

/// 4 threads, 20 connections, 2000 req/s for 10 s. Uncorrected latencies are 1 us .. 1 ms in
/// 1 us steps; corrected ones ten times that (10 us .. 10 ms), so a figure shows which
/// histogram it came from.
inline FabricatedRun open_loop_run() {
  FabricatedRun run;
  run.config.url = "http://127.0.0.1:8082/";
  run.config.connections = 20;
  run.config.threads = 4;
  run.config.duration_ns = 10'000'000'000;
  run.config.rate = 2000;
  run.config.timeout_ns = 2'000'000'000;
  for (int64_t i = 1; i <= 1000; ++i) {
    run.result.uncorrected.record(i * 1'000);
    run.result.corrected.record(i * 10'000);
  }
  RunResult& result = run.result;
  result.elapsed_ns = 10'000'000'000;
  result.scheduled = 20'000;
  result.sent = 19'995;
  result.completed = 19'990;
  result.unsent = 5;
  result.bytes_read = 1'562'500;
  result.connects = 20;
  // No timeout: a timed-out request would censor the tail (censored_run() has them), and these
  // runs' figures are the histograms' own.
  result.errors = {0, 4, 2, 0, 4};
  result.status_classes = {0, 19'990, 0, 0, 0};
  result.lag.threshold_ns = 1'000'000;
  result.lag.dispatched = 19'995;
  result.lag.sum_ns = 19'995 * int64_t{11'870'000};
  result.lag.max_ns = 194'660'000;
  result.lag.behind_schedule = 2'461;
  result.lag.behind_server = 2'400;
  result.lag.behind_generator = 61;
  result.lag.peak_backlog = 37;
  return run;
}

/// The same run in closed loop: no rate, no corrected histogram, no dispatch lag.
inline FabricatedRun closed_loop_run() {
  FabricatedRun run = open_loop_run();
  run.config.rate = 0;
  run.result.corrected.reset();
  run.result.scheduled = 0;
  run.result.unsent = 0;
  run.result.lag = DispatchLag{};
  return run;
}

/// Closed loop, 98 answers of 1..98 ms and 2 requests timed out after 2 s (the only errors):
/// the answered share is 98%, so p98 is the slowest answer and p99, p99.9, p99.99 and max are
/// censored ("> 2.00s").
inline FabricatedRun censored_run() {
  FabricatedRun run;
  run.config.url = "http://127.0.0.1:8082/";
  run.config.connections = 4;
  run.config.threads = 1;
  run.config.duration_ns = 1'000'000'000;
  run.config.timeout_ns = 2'000'000'000;
  RunResult& result = run.result;
  for (int64_t ms = 1; ms <= 98; ++ms) result.uncorrected.record(ms * 1'000'000);
  result.elapsed_ns = 1'000'000'000;
  result.sent = 100;
  result.completed = 98;
  result.connects = 6;
  result.errors[static_cast<int>(ErrorKind::timeout)] = 2;
  result.status_classes[1] = 98;
  result.status_codes[200] = 98;
  return run;
}

/// A merged fleet of two shards, s1.json and s2.json, each as `fill` leaves it.
template <typename Fill>
FleetSummary two_shards(Fill fill) {
  FleetSummary fleet;
  fleet.shard_count = 2;
  for (int64_t index : {1, 2}) {
    ShardSummary shard;
    shard.index = index;
    shard.count = 2;
    shard.source = std::to_string(index);  // in steps: GCC 12 -Wrestrict misfires on "s" + s
    shard.source.insert(0, 1, 's');
    shard.source += ".json";
    fill(shard);
    fleet.shards.push_back(shard);
  }
  return fleet;
}

}  // namespace hammer::testing
