// SPDX-License-Identifier: MIT
#include "merge/merge.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "run/verdicts.h"

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMillisecond = 1'000'000;
constexpr int64_t kOrigin = 1'764'583'200LL * kSecond;

// A shard's document as `hammer --shard I/N --json` would have saved it: `latencies_ms` recorded
// in both histograms and spread over the seconds of its timeline.
RunDocument shard(int64_t index, int64_t count, std::vector<int64_t> latencies_ms,
                  int64_t origin_unix_ns = kOrigin) {
  RunDocument document;
  document.source = "shard" + std::to_string(index) + ".json";
  Config& config = document.config;
  config.url = "http://10.0.0.1:8080/";
  config.connections = 30;
  config.threads = 2;
  config.duration_ns = 3 * kSecond;
  config.rate = 300;
  config.shard = ShardSpec{index, count, true};
  RunResult& result = document.result;
  result.timeline.plan(0, config.duration_ns);
  result.timeline.set_start(0);
  for (size_t i = 0; i < latencies_ms.size(); ++i) {
    const int64_t latency = latencies_ms[i] * 1'000'000;
    result.corrected.record(latency);
    result.uncorrected.record(latency / 2);
    result.timeline.record(static_cast<int64_t>(i % 3) * kSecond, latency);
  }
  result.scheduled = static_cast<int64_t>(latencies_ms.size());
  result.sent = result.completed = result.scheduled;
  result.elapsed_ns = config.duration_ns;
  result.status_classes[1] = result.completed;
  result.status_codes[200] = result.completed - 1;
  result.status_codes[204] = 1;
  result.reconnects = index;
  result.errors[static_cast<int>(ErrorKind::timeout)] = index;
  result.lag.threshold_ns = 1'000'000;
  result.lag.dispatched = result.sent;
  result.lag.sum_ns = 1'000 * index;
  result.lag.max_ns = 100 * index;
  result.lag.behind_generator = index;
  result.lag.behind_schedule = index;
  result.wall_start = WallClockStart{origin_unix_ns, origin_unix_ns + 50'000, 50'000};
  return document;
}

std::string refusal(const std::vector<RunDocument>& documents) {
  auto merged = merge_shards(documents, kSecond);
  EXPECT_FALSE(merged.has_value());
  return merged ? std::string() : merged.error().message;
}

TEST(MergeTest, AddsHistogramsCountsErrorsAndLagExactly) {
  const std::vector<RunDocument> documents = {shard(1, 3, {1, 2, 3, 400}), shard(2, 3, {5, 6}),
                                              shard(3, 3, {7, 8, 9})};
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  const RunResult& total = merged->result;
  // The single histogram of all nine latencies: its percentiles, not an average of three.
  Histogram expected;
  for (int64_t ms : {1, 2, 3, 400, 5, 6, 7, 8, 9}) expected.record(ms * 1'000'000);
  EXPECT_EQ(total.corrected.total_count(), 9);
  for (double q : {50.0, 90.0, 99.0, 100.0}) {
    EXPECT_EQ(total.corrected.value_at_percentile(q), expected.value_at_percentile(q)) << q;
  }
  EXPECT_EQ(total.uncorrected.total_count(), 9);
  EXPECT_EQ(total.scheduled, 9);
  EXPECT_EQ(total.completed, 9);
  EXPECT_EQ(total.status_classes[1], 9);
  EXPECT_EQ(total.status_codes[200], 6);
  EXPECT_EQ(total.status_codes[204], 3);
  EXPECT_EQ(total.reconnects, 6);
  EXPECT_EQ(total.error_count(ErrorKind::timeout), 1 + 2 + 3);
  EXPECT_EQ(total.lag.dispatched, 9);
  EXPECT_EQ(total.lag.sum_ns, 6'000);
  EXPECT_EQ(total.lag.max_ns, 300);
  EXPECT_EQ(total.lag.behind_generator, 6);
  // The timelines add row by row: 9 requests over the three seconds.
  int64_t timeline_total = 0;
  for (const Timeline::Row& row : total.timeline.rows()) timeline_total += row.completed;
  EXPECT_EQ(timeline_total, 9);
  EXPECT_EQ(total.timeline.rows()[0].max_ns, 400'000'000);
  // The fleet: every shard, in order, with its own figures; config is the fleet's.
  ASSERT_EQ(merged->fleet.shards.size(), 3u);
  EXPECT_EQ(merged->fleet.shard_count, 3);
  EXPECT_EQ(merged->fleet.shards[1].index, 2);
  EXPECT_EQ(merged->fleet.shards[1].connections, 10);
  EXPECT_EQ(merged->config.threads, 6);
  EXPECT_EQ(merged->config.connections, 30);
  EXPECT_FALSE(merged->config.shard.given);
  EXPECT_EQ(merged->fleet.start_spread_ns, 0);
  EXPECT_EQ(total.elapsed_ns, 3 * kSecond);
}

TEST(MergeTest, OrderOfTheFilesDoesNotMatter) {
  auto forward = merge_shards({shard(1, 2, {1, 2}), shard(2, 2, {30})}, kSecond);
  auto backward = merge_shards({shard(2, 2, {30}), shard(1, 2, {1, 2})}, kSecond);
  ASSERT_TRUE(forward && backward);
  EXPECT_EQ(forward->result.corrected.value_at_percentile(90),
            backward->result.corrected.value_at_percentile(90));
  EXPECT_EQ(backward->fleet.shards.front().index, 1);
}

TEST(MergeTest, TheMergedRunPrintsEveryPercentileRowAnyShardAskedFor) {
  std::vector<RunDocument> documents = {shard(1, 2, {1, 2}), shard(2, 2, {30})};
  documents[0].config.percentiles = {42, 99.99};
  documents[1].config.percentiles = {99.99, 99.999};
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  EXPECT_EQ(merged->config.percentiles, (std::vector<double>{42, 99.99, 99.999}));
}

TEST(MergeTest, RefusesDifferentUrls) {
  std::vector<RunDocument> documents = {shard(1, 2, {1}), shard(2, 2, {1})};
  documents[1].config.url = "http://10.0.0.2:8080/";
  EXPECT_EQ(refusal(documents),
            "merge: different URLs: shard1.json ran http://10.0.0.1:8080/, shard2.json ran "
            "http://10.0.0.2:8080/");
}

TEST(MergeTest, RefusesIncompatibleConfigsNamingTheSetting) {
  struct Case {
    void (*change)(Config&);
    std::string difference;
  };
  const std::vector<Case> cases = {
      {[](Config& c) { c.rate = 600; }, "--rate 300 vs --rate 600"},
      {[](Config& c) { c.rate = 0; }, "--rate 300 vs closed loop"},
      {[](Config& c) { c.connections = 40; }, "-c 30 vs -c 40"},
      {[](Config& c) { c.duration_ns = 4 * kSecond; }, "-d 3s vs -d 4s"},
      {[](Config& c) { c.warmup_ns = kSecond; }, "--warmup 0s vs --warmup 1s"},
      {[](Config& c) { c.timeout_ns = kSecond; }, "--timeout 10s vs --timeout 1s"},
      {[](Config& c) { c.method = "POST"; }, "-m GET vs -m POST"},
      {[](Config& c) { c.closed_loop_stopwatch = true; }, "no --closed-loop vs --closed-loop"},
      {[](Config& c) { c.ramp_ns = 2 * kSecond; }, "--ramp 0s vs --ramp 2s"},
      {[](Config& c) { c.arrival.kind = Arrival::poisson; },
       "--arrival constant vs --arrival poisson --seed 1"},
      {[](Config& c) { c.pipeline = 8; }, "-p 1 vs -p 8"},
      {[](Config& c) {
         c.requests_path = "a.jsonl";
         c.requests.resize(1, RequestLine{1, "/a", "GET", "/a", {}, {}});
       },
       "no --requests vs --requests a.jsonl (1 line)"},
  };
  for (const Case& test_case : cases) {
    std::vector<RunDocument> documents = {shard(1, 2, {1}), shard(2, 2, {1})};
    test_case.change(documents[1].config);
    EXPECT_EQ(refusal(documents),
              "merge: incompatible configs: shard1.json and shard2.json differ (" +
                  test_case.difference +
                  "); shards of one fleet share every setting but --threads");
  }
  // Threads may differ: machines differ.
  std::vector<RunDocument> documents = {shard(1, 2, {1}), shard(2, 2, {1})};
  documents[1].config.threads = 8;
  EXPECT_TRUE(merge_shards(documents, kSecond).has_value());
}

// Shards run with --requests FILE: the same lines, whatever path the file had on each machine.
std::vector<RunDocument> shards_with_requests(std::vector<std::string> second_paths) {
  std::vector<RunDocument> documents = {shard(1, 2, {1}), shard(2, 2, {1})};
  const std::vector<std::string> first_paths = {"/a", "/b"};
  for (size_t d = 0; d < 2; ++d) {
    Config& config = documents[d].config;
    config.requests_path = d == 0 ? "mix.jsonl" : "/elsewhere/mix.jsonl";
    const auto& paths = d == 0 ? first_paths : second_paths;
    for (size_t i = 0; i < paths.size(); ++i) {
      config.requests.push_back(
          RequestLine{static_cast<int64_t>(i + 1), paths[i], "GET", paths[i], {}, {}});
    }
    documents[d].result.lines.resize(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
      LineStats& line = documents[d].result.lines[i];
      line.sent = line.completed = static_cast<int64_t>(10 * (d + 1) + i);
      line.corrected.record(static_cast<int64_t>((d + 1) * 1'000'000));
    }
  }
  return documents;
}

TEST(MergeTest, RequestsFilesMustHoldTheSameLinesAndTheirFiguresAdd) {
  auto merged = merge_shards(shards_with_requests({"/a", "/b"}), kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  ASSERT_EQ(merged->config.requests.size(), 2u);
  ASSERT_EQ(merged->result.lines.size(), 2u);
  EXPECT_EQ(merged->result.lines[0].completed, 10 + 20);
  EXPECT_EQ(merged->result.lines[1].completed, 11 + 21);
  EXPECT_EQ(merged->result.lines[1].corrected.total_count(), 2);
  EXPECT_EQ(merged->result.lines[1].corrected.max(),
            merged->result.lines[1].corrected.value_at_percentile(100));
  EXPECT_GE(merged->result.lines[1].corrected.max(), 1'990'000);

  EXPECT_EQ(refusal(shards_with_requests({"/a", "/c"})),
            "merge: incompatible configs: shard1.json and shard2.json differ (--requests request "
            "2 GET /b vs GET /c); shards of one fleet share every setting but --threads");
  EXPECT_EQ(refusal(shards_with_requests({"/a"})),
            "merge: incompatible configs: shard1.json and shard2.json differ (--requests "
            "mix.jsonl (2 lines) vs --requests /elsewhere/mix.jsonl (1 line)); shards of one "
            "fleet share every setting but --threads");
}

TEST(MergeTest, TheRampIsMergedApartAndTheMeasuredTimeStartsAfterIt) {
  std::vector<RunDocument> documents = {shard(1, 2, {1, 2, 3}), shard(2, 2, {4, 5, 6})};
  for (RunDocument& document : documents) {
    document.config.ramp_ns = 2 * kSecond;
    document.result.timeline.plan(0, document.config.duration_ns, false, 2 * kSecond);
    document.result.timeline.set_start(0);
    document.result.timeline.record(kSecond / 2, 1'000'000);  // a ramp row
    document.result.ramp = std::make_shared<RunResult>();
    document.result.ramp->elapsed_ns = 2 * kSecond;
    document.result.ramp->completed = 100;
  }
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  EXPECT_EQ(merged->config.ramp_ns, 2 * kSecond);
  ASSERT_TRUE(merged->result.ramp != nullptr);
  EXPECT_EQ(merged->result.ramp->completed, 200);
  EXPECT_EQ(merged->result.ramp->elapsed_ns, 2 * kSecond);
  EXPECT_EQ(merged->result.elapsed_ns, 3 * kSecond);  // measured: after the ramp
  const auto& rows = merged->result.timeline.rows();
  ASSERT_EQ(rows.size(), 5u);  // 2 ramp rows, 3 measured
  EXPECT_TRUE(rows[0].ramp);
  EXPECT_EQ(rows[0].completed, 2);
  EXPECT_FALSE(rows[2].ramp);
}

TEST(MergeTest, RefusesShardsOfDifferentFleetSizes) {
  EXPECT_EQ(refusal({shard(1, 2, {1}), shard(2, 3, {1})}),
            "merge: incompatible configs: shard1.json and shard2.json differ (--shard 1/2 vs "
            "--shard 2/3); shards of one fleet share every setting but --threads");
}

TEST(MergeTest, RefusesAMissingShard) {
  EXPECT_EQ(refusal({shard(1, 3, {1}), shard(3, 3, {1})}),
            "merge: shard 2/3 missing (have 1, 3 of 3); the fleet's figures need every shard");
  EXPECT_EQ(refusal({shard(2, 4, {1})}),
            "merge: shard 1/4, 3/4, 4/4 missing (have 2 of 4); the fleet's figures need every "
            "shard");
}

TEST(MergeTest, RefusesADuplicatedShard) {
  std::vector<RunDocument> documents = {shard(1, 2, {1}), shard(2, 2, {1}), shard(2, 2, {1})};
  documents[2].source = "again.json";
  EXPECT_EQ(refusal(documents), "merge: shard 2/2 appears twice (shard2.json and again.json)");
}

TEST(MergeTest, RefusesARunThatIsNotAShard) {
  std::vector<RunDocument> documents = {shard(1, 1, {1})};
  documents[0].config.shard = ShardSpec{};
  EXPECT_EQ(refusal(documents),
            "merge: shard1.json is not a shard (it was not run with --shard I/N): adding a whole "
            "run to a fleet would count its schedule twice");
}

TEST(MergeTest, ShardsThatStartedApartAreMergedOnTheWallClockAndFlagged) {
  // Shard 2 began its schedule two seconds after shard 1: its first second is the fleet's
  // third, and the fleet ran from the first origin to the last shard's end.
  const std::vector<RunDocument> documents = {shard(1, 2, {1, 1, 1}),
                                              shard(2, 2, {50, 50, 50}, kOrigin + 2 * kSecond)};
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value());
  EXPECT_EQ(merged->fleet.start_spread_ns, 2 * kSecond);
  EXPECT_EQ(merged->result.elapsed_ns, 5 * kSecond);
  const auto& rows = merged->result.timeline.rows();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].max_ns, 1'000'000);
  EXPECT_EQ(rows[2].completed, 2);  // shard 1's third second and shard 2's first
  EXPECT_EQ(rows[2].max_ns, 50'000'000);
  EXPECT_EQ(rows[4].completed, 1);
  // Within the tolerance the same spread is no news.
  auto tolerant = merge_shards(documents, 3 * kSecond);
  ASSERT_TRUE(tolerant.has_value());
  EXPECT_LE(tolerant->fleet.start_spread_ns, tolerant->fleet.start_tolerance_ns);
}

TEST(MergeTest, ALongFleetWhoseStartsSpreadAddsEveryShardsTimelineRows) {
  // Five-minute shards fill a timeline's kMaxRows one-second rows; shard 2 began two seconds
  // late, so the fleet's wall clock spans 302 s. The merged timeline keeps the shards' rows of
  // one second (it used to widen to two-second rows for the extra two, and then dropped every
  // shard's rows, whose width no longer matched, without a word).
  std::vector<RunDocument> documents = {shard(1, 2, {1, 1, 1}),
                                        shard(2, 2, {50, 50, 50}, kOrigin + 2 * kSecond)};
  for (RunDocument& document : documents) {
    document.config.duration_ns = Timeline::kMaxRows * kSecond;
    document.result.elapsed_ns = document.config.duration_ns;
    Timeline timeline;
    timeline.plan(0, document.config.duration_ns);
    ASSERT_EQ(timeline.interval_ns(), kSecond);
    timeline.set_start(0);
    for (int64_t second : {0, 150, 299}) timeline.record(second * kSecond, 1'000'000);
    document.result.timeline = std::move(timeline);
  }
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  const Timeline& timeline = merged->result.timeline;
  EXPECT_EQ(timeline.interval_ns(), kSecond);
  int64_t completed = 0;
  for (const Timeline::Row& row : timeline.rows()) completed += row.completed;
  EXPECT_EQ(completed, 6);
  ASSERT_EQ(timeline.rows().size(), static_cast<size_t>(Timeline::kMaxRows + 2));
  EXPECT_EQ(timeline.rows()[301].completed, 1);  // shard 2's last second
}

TEST(MergeTest, RefusesTimelinesOfDifferentRowWidthsNamingBoth) {
  // Not from one fleet's settings (those give every shard the same rows): an edited document.
  std::vector<RunDocument> documents = {shard(1, 2, {1, 1, 1}), shard(2, 2, {50, 50, 50})};
  Timeline wide;
  wide.plan(0, documents[1].config.duration_ns, false, 0, 2 * kSecond);
  documents[1].result.timeline = std::move(wide);
  const std::string message = refusal(documents);
  EXPECT_NE(message.find("shard1.json and shard2.json have timelines of different row widths"),
            std::string::npos)
      << message;
}

// Issue 24: a fleet in which one shard was interrupted (Ctrl-C after 1 s of 3) with its counts
// exact and nothing unsent. Its share of the schedule stopped coming at the stop, so the fleet
// offered less than --rate over its 3 s; what the server sustained is read against what was
// offered. It was called over capacity, "the backlog kept growing (0 requests never sent)".
TEST(MergeTest, AFleetWithAnInterruptedShardIsNotCalledOverCapacity) {
  std::vector<RunDocument> documents = {shard(1, 2, std::vector<int64_t>(450, 2)),
                                        shard(2, 2, std::vector<int64_t>(150, 2))};
  documents[1].result.interrupted = true;
  documents[1].result.elapsed_ns = kSecond;
  for (RunDocument& document : documents) {
    // A server a little behind now and then (5% of requests waited for a busy connection),
    // which alone is no backlog: it kept up with what it was offered.
    document.result.lag.behind_server = document.result.lag.dispatched / 20;
  }
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  EXPECT_TRUE(merged->result.interrupted);
  EXPECT_EQ(merged->result.unsent, 0);
  EXPECT_EQ(merged->result.elapsed_ns, 3 * kSecond);
  for (const Verdict& verdict : compute_verdicts(merged->config, merged->result, 0)) {
    EXPECT_FALSE(std::holds_alternative<OverCapacityVerdict>(verdict));
    EXPECT_FALSE(std::holds_alternative<TooFewConnectionsVerdict>(verdict));
  }
  // The same fleet uninterrupted but short of its rate (shard 2 sent a third of its share over
  // the whole 3 s) is over capacity, as before.
  documents[1].result.interrupted = false;
  documents[1].result.elapsed_ns = 3 * kSecond;
  documents[1].result.scheduled = 450;
  documents[1].result.unsent = 300;
  auto short_of_rate = merge_shards(documents, kSecond);
  ASSERT_TRUE(short_of_rate.has_value()) << short_of_rate.error().message;
  bool over_capacity = false;
  for (const Verdict& verdict : compute_verdicts(short_of_rate->config, short_of_rate->result, 0)) {
    over_capacity = over_capacity || std::holds_alternative<OverCapacityVerdict>(verdict);
  }
  EXPECT_TRUE(over_capacity);
}

}  // namespace
}  // namespace hammer

namespace hammer {
namespace {

// Issue 23: each shard's hiccup meter and generator CPU add into the fleet's; a shard saved by
// an older hammer (no meter) still merges, adding nothing to the meter.
TEST(MergeTest, AddsTheShardsHostMetersOnTheFleetsClock) {
  std::vector<RunDocument> documents = {shard(1, 3, {1, 2}), shard(2, 3, {3}, kOrigin + kSecond),
                                        shard(3, 3, {4})};
  for (int i = 0; i < 2; ++i) {
    HostReading& host = documents[static_cast<size_t>(i)].result.host;
    host.meters = 1;
    host.interval_ns = 2'000'000;
    host.observed_ns = 3 * kSecond;
    host.oversleeps.record(40'000'000 * (i + 1));
    host.max_ns = 40'000'000 * (i + 1);
    host.long_count = 1;
    host.long_sum_ns = host.max_ns;
    host.long_stalls = {{kSecond / 2, host.max_ns}};
    documents[static_cast<size_t>(i)].result.generator_cpu.add_worker(
        600 * kMillisecond, 1'000 * kMillisecond * (i + 1));
  }
  auto merged = merge_shards(documents, 2 * kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  const HostReading& host = merged->result.host;
  EXPECT_EQ(host.meters, 2);
  EXPECT_EQ(host.oversleeps.total_count(), 2);
  EXPECT_EQ(host.max_ns, 80'000'000);
  EXPECT_EQ(host.long_count, 2);
  EXPECT_EQ(host.long_sum_ns, 120'000'000);
  EXPECT_EQ(host.observed_ns, 6 * kSecond);
  ASSERT_EQ(host.long_stalls.size(), 2u);
  EXPECT_EQ(host.long_stalls[0].at_ns, kSecond / 2);
  // Shard 2 began a second after shard 1: its stall, on the fleet's clock, too.
  EXPECT_EQ(host.long_stalls[1].at_ns, kSecond + kSecond / 2);
  const GeneratorCpu& cpu = merged->result.generator_cpu;
  EXPECT_EQ(cpu.workers, 2);
  EXPECT_EQ(cpu.cpu_ns, 1'200 * kMillisecond);
  EXPECT_EQ(cpu.wall_ns, 3'000 * kMillisecond);
  EXPECT_DOUBLE_EQ(cpu.busiest_share, 0.6);
}

// Issue 25: shards of an https:// fleet add their handshakes (counts and the handshake-time
// histograms) and their TLS failures; shards whose handshakes settled different TLS are
// marked (the report says so) instead of the first shard's version standing for all.
TEST(MergeTest, HttpsShardsAddTheirHandshakesAndDifferingTlsIsMarked) {
  std::vector<RunDocument> documents = {shard(1, 2, {1, 2, 3}), shard(2, 2, {4, 5, 6})};
  for (RunDocument& document : documents) {
    document.config.url = "https://10.0.0.1:8443/";
    document.config.cpus_available = 8;
    TlsSummary& tls = document.result.tls;
    tls.used = true;
    tls.version = "1.3";
    tls.cipher = "TLS_AES_256_GCM_SHA384";
    tls.alpn = "http/1.1";
    tls.full_handshakes = 2 * document.config.shard.index;
    tls.resumed_handshakes = 10;
    for (int64_t i = 1; i <= 5; ++i) {
      document.result.handshake_time.record(i * 1'000'000 * document.config.shard.index);
    }
  }
  documents[1].result.errors[static_cast<int>(ErrorKind::tls)] = 3;
  documents[1].result.tls.first_error = "alert received: handshake failure";
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  const RunResult& result = merged->result;
  EXPECT_TRUE(result.tls.used);
  EXPECT_EQ(result.tls.full_handshakes, 6);
  EXPECT_EQ(result.tls.resumed_handshakes, 20);
  EXPECT_EQ(result.error_count(ErrorKind::tls), 3);
  EXPECT_EQ(result.tls.first_error, "alert received: handshake failure");
  EXPECT_EQ(result.handshake_time.total_count(), 10);
  EXPECT_EQ(result.handshake_time.max(), documents[1].result.handshake_time.max());
  EXPECT_FALSE(merged->fleet.tls_differs());
  EXPECT_EQ(merged->config.cpus_available, 0);  // read back from the shards, not the fleet's
  ASSERT_EQ(merged->fleet.shards.size(), 2u);
  EXPECT_EQ(merged->fleet.shards[1].tls_version, "1.3");

  documents[1].result.tls.version = "1.2";
  documents[1].result.tls.cipher = "ECDHE-ECDSA-AES256-GCM-SHA384";
  auto mixed = merge_shards(documents, kSecond);
  ASSERT_TRUE(mixed.has_value()) << mixed.error().message;
  EXPECT_TRUE(mixed->fleet.tls_differs());
  EXPECT_EQ(mixed->result.tls.version, "1.3");  // the first shard's, and the note says so
}

// --http2 shards (each document's `http2` as document/http2_section.cc reads it) add up by
// RunResult::add: counts summed, the lowest server limit, the first errors, the histograms.
TEST(MergeTest, Http2ShardsAddTheirSummaries) {
  std::vector<RunDocument> documents = {shard(1, 2, {1, 2, 3}), shard(2, 2, {4, 5, 6})};
  for (RunDocument& document : documents) {
    Http2Summary& http2 = document.result.http2;
    http2.used = true;
    http2.cleartext = true;
    http2.streams = 10;
    http2.server_max_streams = 50 * document.config.shard.index;
    http2.sessions = 4;
    http2.goaways = document.config.shard.index;
    http2.resets_received[7] = 3;  // REFUSED_STREAM
    http2.data_bytes = 1'000;
    for (int64_t i = 1; i <= 5; ++i) http2.first_byte.record(i * 1'000'000);
  }
  documents[1].result.http2.first_session_error = "GOAWAY sent: PROTOCOL_ERROR";
  auto merged = merge_shards(documents, kSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  const Http2Summary& http2 = merged->result.http2;
  EXPECT_TRUE(http2.used);
  EXPECT_TRUE(http2.cleartext);
  EXPECT_EQ(http2.streams, 10);
  EXPECT_EQ(http2.server_max_streams, 50);
  EXPECT_EQ(http2.sessions, 8);
  EXPECT_EQ(http2.goaways, 3);
  EXPECT_EQ(http2.resets_received[7], 6);
  EXPECT_EQ(http2.data_bytes, 2'000);
  EXPECT_EQ(http2.first_session_error, "GOAWAY sent: PROTOCOL_ERROR");
  EXPECT_EQ(http2.first_byte.total_count(), 10);
}

}  // namespace
}  // namespace hammer
