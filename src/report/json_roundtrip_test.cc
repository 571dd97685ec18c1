// SPDX-License-Identifier: MIT
// A saved document reads back into the run it was rendered from (document/run_document), so
// `hammer merge` adds the very histograms the shards recorded.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "document/run_document.h"
#include "http/url.h"
#include "merge/merge.h"
#include "report/fleet_report.h"
#include "report/json_report.h"
#include "report/report_test_support.h"
#include "report/text_report.h"
#include "report/tls_report.h"
#include "sweep/slo.h"
#include "time/time_units.h"

namespace hammer {
namespace {

TEST(JsonRoundTripTest, AShardsDocumentReadsBackIntoItsConfigAndResult) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.shard = ShardSpec{2, 3, true};
  run.config.start_at = StartAt{1'796'083'200'000'000'000, 250'000'000, true};
  run.result.wall_start = WallClockStart{1'796'083'200'000'000'000, 1'796'083'200'000'123'456,
                                         123'456, 2'500'000'000};
  run.result.status_codes[200] = 19'000;
  run.result.status_codes[404] = 990;
  run.result.reconnects = 7;
  run.result.unsent_no_connection = 3;
  run.result.last_answer_ns = 7'000'000'000;
  run.result.unanswered_tail_ns = 3'000'000'000;
  run.result.due_after_last_answer = 6'000;
  run.result.timeline.plan(0, run.config.duration_ns);
  run.result.timeline.set_start(0);
  for (int64_t i = 1; i <= 1000; ++i) run.result.timeline.record(i * 9'000'000, i * 10'000);
  // The lag's samples and its idle-connection figures (the timer-floor reading) go through
  // the document too, so that `hammer merge` judges the fleet as it judges one run.
  for (int64_t i = 1; i <= 500; ++i) run.result.lag.histogram.record(i * 4'000);
  run.result.lag.idle_dispatched = 400;
  run.result.lag.idle_sum_ns = 400 * int64_t{1'300'000};
  run.result.lag.timer_granularity_ns = 1'000'000;
  const std::string json = render_json_report(run.input());

  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  const Config& config = document->config;
  EXPECT_EQ(config.url, run.config.url);
  EXPECT_EQ(config.connections, 20);
  EXPECT_EQ(config.threads, 4);
  EXPECT_EQ(config.rate, 2000);
  EXPECT_EQ(config.duration_ns, run.config.duration_ns);
  EXPECT_EQ(config.timeout_ns, run.config.timeout_ns);
  EXPECT_EQ(config.shard.index, 2);
  EXPECT_EQ(config.shard.count, 3);
  EXPECT_TRUE(config.shard.given);
  EXPECT_TRUE(config.start_at.given());
  EXPECT_EQ(config.start_at.unix_ns, 1'796'083'200'000'000'000);
  EXPECT_EQ(config.start_at.tolerance_ns, 250'000'000);

  const RunResult& result = document->result;
  EXPECT_EQ(result.wall_start.started_unix_ns, 1'796'083'200'000'123'456);
  EXPECT_EQ(result.wall_start.late_ns, 123'456);
  EXPECT_EQ(result.wall_start.connecting_ns, 2'500'000'000);
  EXPECT_EQ(result.scheduled, 20'000);
  EXPECT_EQ(result.unsent, 5);
  EXPECT_EQ(result.unsent_no_connection, 3);
  EXPECT_EQ(result.last_answer_ns, 7'000'000'000);
  EXPECT_EQ(result.unanswered_tail_ns, 3'000'000'000);
  EXPECT_EQ(result.due_after_last_answer, 6'000);
  EXPECT_EQ(result.failed_requests(), run.result.failed_requests());
  EXPECT_EQ(result.errors, run.result.errors);
  EXPECT_EQ(result.status_classes, run.result.status_classes);
  EXPECT_EQ(result.status_codes, run.result.status_codes);
  EXPECT_EQ(result.reconnects, 7);
  EXPECT_EQ(result.lag.sum_ns, run.result.lag.sum_ns);
  EXPECT_EQ(result.lag.behind_generator, 61);
  EXPECT_EQ(result.lag.peak_backlog, 37);
  EXPECT_EQ(result.lag.idle_dispatched, 400);
  EXPECT_EQ(result.lag.idle_sum_ns, 400 * int64_t{1'300'000});
  EXPECT_EQ(result.lag.timer_granularity_ns, 1'000'000);
  EXPECT_EQ(result.lag.histogram.total_count(), 500);
  EXPECT_EQ(result.lag.histogram.value_at_percentile(99),
            run.result.lag.histogram.value_at_percentile(99));
  // Histograms count for count, not percentiles re-read.
  EXPECT_EQ(result.corrected.total_count(), 1000);
  for (int32_t i = 0; i < result.corrected.counts_length(); ++i) {
    ASSERT_EQ(result.corrected.count_at_index(i), run.result.corrected.count_at_index(i)) << i;
  }
  EXPECT_EQ(result.uncorrected.value_at_percentile(99),
            run.result.uncorrected.value_at_percentile(99));
  // The timeline's rows and their histograms.
  ASSERT_EQ(result.timeline.rows().size(), run.result.timeline.rows().size());
  for (size_t row = 0; row < result.timeline.rows().size(); ++row) {
    EXPECT_EQ(result.timeline.rows()[row].completed, run.result.timeline.rows()[row].completed);
    EXPECT_EQ(result.timeline.rows()[row].max_ns, run.result.timeline.rows()[row].max_ns);
    EXPECT_EQ(result.timeline.row_histogram(static_cast<int32_t>(row)).value_at_percentile(99),
              run.result.timeline.row_histogram(static_cast<int32_t>(row)).value_at_percentile(99));
  }
}

TEST(JsonRoundTripTest, RampPipelineAndRequestsFileReadBack) {
  // What `hammer merge` needs of --ramp, -p and --requests: the settings to compare shards
  // by, the ramp's own figures, and each line's counts and histograms.
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.shard = ShardSpec{1, 2, true};
  run.config.ramp_ns = 2'000'000'000;
  run.config.pipeline = 8;
  run.config.requests_path = "mix.jsonl";
  for (int i = 1; i <= 3; ++i) {
    RequestLine line;
    line.line_number = i;
    line.method = "GET";
    line.path = "/p" + std::to_string(i);
    line.name = i == 2 ? "two" : line.path;
    run.config.requests.push_back(line);
  }
  run.result.lines.resize(3);
  for (int i = 0; i < 3; ++i) {
    LineStats& stats = run.result.lines[static_cast<size_t>(i)];
    stats.sent = stats.completed = 10 + i;
    stats.status_classes[1] = stats.completed;
    stats.errors[static_cast<int>(ErrorKind::timeout)] = i;
    for (int k = 1; k <= stats.completed; ++k) {
      stats.corrected.record(k * 1'000'000);
      stats.uncorrected.record(k * 100'000);
    }
  }
  run.result.ramp = std::make_shared<RunResult>();
  run.result.ramp->elapsed_ns = 2'000'000'000;
  run.result.ramp->scheduled = run.result.ramp->sent = 2'000;
  run.result.ramp->completed = 1'999;
  run.result.ramp->corrected.record(5'000'000);
  run.result.timeline.plan(0, run.config.duration_ns, false, run.config.ramp_ns);
  run.result.timeline.set_start(0);
  run.result.timeline.record(500'000'000, 1'000);  // in the ramp's first second
  const std::string json = render_json_report(run.input());

  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  const Config& config = document->config;
  EXPECT_EQ(config.ramp_ns, 2'000'000'000);
  EXPECT_EQ(config.pipeline, 8);
  EXPECT_EQ(config.requests_path, "mix.jsonl");
  ASSERT_EQ(config.requests.size(), 3u);
  EXPECT_EQ(config.requests[1].name, "two");
  EXPECT_EQ(config.requests[2].path, "/p3");
  EXPECT_EQ(config.requests[2].line_number, 3);
  const RunResult& result = document->result;
  ASSERT_TRUE(result.ramp != nullptr);
  EXPECT_EQ(result.ramp->scheduled, 2'000);
  EXPECT_EQ(result.ramp->completed, 1'999);
  EXPECT_EQ(result.ramp->corrected.total_count(), 1);
  ASSERT_EQ(result.lines.size(), 3u);
  EXPECT_EQ(result.lines[2].completed, 12);
  EXPECT_EQ(result.lines[2].errors[static_cast<int>(ErrorKind::timeout)], 2);
  EXPECT_EQ(result.lines[2].corrected.value_at_percentile(100),
            run.result.lines[2].corrected.value_at_percentile(100));
  EXPECT_EQ(result.lines[1].uncorrected.total_count(), 11);
  // The timeline keeps its ramp rows first.
  ASSERT_EQ(result.timeline.rows().size(), run.result.timeline.rows().size());
  EXPECT_TRUE(result.timeline.rows()[0].ramp);
  EXPECT_EQ(result.timeline.rows()[0].completed, 1);
  EXPECT_FALSE(result.timeline.rows()[2].ramp);
}

// -n reads back (`hammer report` prints the same header); a run of -d reads back without one.
TEST(JsonRoundTripTest, TheRequestCountReadsBack) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.requests_count = 1000;
  run.config.duration_ns = 500'000'000;
  run.result.timeline.plan(0, run.config.duration_ns);
  run.result.timeline.set_start(0);
  auto document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->config.requests_count, 1000);
  EXPECT_EQ(document->config.duration_ns, 500'000'000);
  run.config.requests_count = 0;
  document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->config.requests_count, 0);
}

// An https:// run's TLS flags are saved and read back; an http:// run's config.tls is null.
TEST(JsonRoundTripTest, TheTlsFlagsReadBack) {
  testing::FabricatedRun run = testing::open_loop_run();
  EXPECT_NE(render_json_report(run.input()).find("\"tls\": null"), std::string::npos);
  run.config.target = *parse_url("https://localhost:8443/");
  run.config.tls.insecure = true;
  run.config.tls.ca_file = "ca.pem";
  run.config.tls.cert_file = "client.pem";
  run.config.tls.key_file = "client.key";
  run.config.tls.min_version = TlsVersion::tls1_3;
  run.config.tls.resume = false;
  std::string text = render_json_report(run.input());
  auto document = read_run_document(text);
  ASSERT_TRUE(document.has_value()) << document.error();
  const TlsConfig& tls = document->config.tls;
  EXPECT_TRUE(tls.insecure);
  EXPECT_EQ(tls.ca_file, "ca.pem");
  EXPECT_EQ(tls.cert_file, "client.pem");
  EXPECT_EQ(tls.key_file, "client.key");
  EXPECT_EQ(tls.min_version, TlsVersion::tls1_3);
  EXPECT_EQ(tls.max_version, TlsVersion::tls1_3);
  EXPECT_FALSE(tls.resume);
  const size_t at = text.find("\"min\": \"1.3\"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 12, "\"min\": \"1.1\"");
  document = read_run_document(text);
  ASSERT_FALSE(document.has_value());
  EXPECT_NE(document.error().find("config.tls.min: expected \"1.2\" or \"1.3\""),
            std::string::npos)
      << document.error();
}

// --data and --data-order are saved (the run's inputs, beside --requests) and read back.
TEST(JsonRoundTripTest, TheDataFileAndItsOrderReadBack) {
  testing::FabricatedRun run = testing::open_loop_run();
  std::string without = render_json_report(run.input());
  EXPECT_NE(without.find("\"data\": null"), std::string::npos) << without;
  EXPECT_NE(without.find("\"data_order\": null"), std::string::npos);
  run.config.data_path = "keys.csv";
  run.config.data_order = DataOrder::random;
  auto document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->config.data_path, "keys.csv");
  EXPECT_EQ(document->config.data_order, DataOrder::random);
  run.config.data_order = DataOrder::sequential;
  std::string text = render_json_report(run.input());
  EXPECT_NE(text.find("\"data_order\": \"sequential\""), std::string::npos);
  const size_t at = text.find("\"sequential\"");
  text.replace(at, 12, "\"shuffled\"");
  document = read_run_document(text);
  ASSERT_FALSE(document.has_value());
  EXPECT_NE(document.error().find("config.data_order: expected \"sequential\" or \"random\", "
                                  "got \"shuffled\""),
            std::string::npos)
      << document.error();
}

TEST(JsonRoundTripTest, ThePercentileRowsReadBackAndBadOnesAreRefused) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.shard = ShardSpec{1, 2, true};
  run.config.percentiles = {42, 99.99};
  const std::string json = render_json_report(run.input());
  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->config.percentiles, (std::vector<double>{42, 99.99}));

  std::string bad = json;
  const size_t at = bad.find("\"percentiles\": [");
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, std::string("\"percentiles\": [").size(), "\"percentiles\": [100, ");
  auto refused = read_run_document(bad);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().find("config.percentiles: expected an array"), std::string::npos)
      << refused.error();
}

TEST(JsonRoundTripTest, TheWarmupsAndTheRampsStatusesReadBack) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.warmup_ns = 1'000'000'000;
  run.config.ramp_ns = 1'000'000'000;
  run.result.warmup = std::make_shared<RunResult>();
  run.result.warmup->completed = 300;
  run.result.warmup->status_classes = {0, 200, 0, 0, 100};
  run.result.warmup->status_codes[200] = 200;
  run.result.warmup->status_codes[503] = 100;
  run.result.ramp = std::make_shared<RunResult>();
  run.result.ramp->completed = 40;
  run.result.ramp->status_classes = {0, 0, 0, 40, 0};
  run.result.ramp->status_codes[429] = 40;

  auto document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  const RunResult& result = document->result;
  ASSERT_TRUE(result.warmup != nullptr && result.ramp != nullptr);
  EXPECT_EQ(result.warmup->status_classes, run.result.warmup->status_classes);
  EXPECT_EQ(result.warmup->status_codes, run.result.warmup->status_codes);
  EXPECT_EQ(result.ramp->status_classes, run.result.ramp->status_classes);
  EXPECT_EQ(result.ramp->status_codes, run.result.ramp->status_codes);
  // The measured part's own statuses are untouched by the phases'.
  EXPECT_EQ(result.status_classes, run.result.status_classes);
}

TEST(JsonRoundTripTest, AWarmupWithoutStatusesFromAnOlderDocumentStillReads) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.warmup_ns = 1'000'000'000;
  run.result.warmup = std::make_shared<RunResult>();
  run.result.warmup->completed = 10;
  run.result.warmup->status_classes[1] = 10;
  std::string json = render_json_report(run.input());
  // Cut the warm-up's status members out, as documents written before them lack them.
  const size_t warmup = json.find("\"warmup\": {");
  ASSERT_NE(warmup, std::string::npos);
  const size_t from = json.find(",\n    \"status\": {", warmup);
  const size_t to = json.find("\n  }", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  json.erase(from, to - from);

  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  ASSERT_TRUE(document->result.warmup != nullptr);
  EXPECT_EQ(document->result.warmup->completed, 10);
  EXPECT_EQ(document->result.warmup->status_classes[1], 0);
}

TEST(JsonRoundTripTest, AShardsDocumentSaysItsShareAndStart) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.shard = ShardSpec{3, 3, true};
  const std::string json = render_json_report(run.input());
  // 20 connections over 3 shards: 7+7+6; 2000 req/s: 666.67 each.
  EXPECT_NE(json.find("\"shard\": {\n    \"index\": 3,\n    \"count\": 3,\n    \"connections\": 6"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"start_at\": false"), std::string::npos);
}

// Issue 24: what `hammer merge` writes, the reader reads. Shards that began their schedules
// 1 s apart (within --start-tolerance 5s) merge onto the fleet's wall clock, one row longer than
// a shard's duration; `hammer report merged.json` refused the row: "timeline.rows[10].second: 11
// is outside the run's duration and warm-up".
TEST(JsonRoundTripTest, AFleetWhoseShardsStartedApartReadsBackWithEveryTimelineRow) {
  constexpr int64_t kOrigin = 1'796'083'200'000'000'000;
  std::vector<RunDocument> shards;
  for (int64_t index : {1, 2}) {
    testing::FabricatedRun run = testing::open_loop_run();
    run.config.shard = ShardSpec{index, 2, true};
    const int64_t origin = kOrigin + (index - 1) * kNanosPerSecond;
    run.result.wall_start = WallClockStart{origin, origin, 0};
    run.result.timeline.plan(0, run.config.duration_ns, true);
    run.result.timeline.set_start(0);
    for (int64_t second = 0; second < 10; ++second) {
      run.result.timeline.record(second * kNanosPerSecond + 1, (second + 1) * 1'000'000);
    }
    auto document = read_run_document(render_json_report(run.input()));
    ASSERT_TRUE(document.has_value()) << document.error();
    document->source = "shard" + std::to_string(index) + ".json";
    shards.push_back(std::move(*document));
  }
  auto merged = merge_shards(shards, 5 * kNanosPerSecond);
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  const std::vector<Verdict> verdicts;
  ReportInput input{merged->config, merged->result, verdicts, {}};
  input.fleet = &merged->fleet;
  auto read = read_run_document(render_json_report(input));
  ASSERT_TRUE(read.has_value()) << read.error();
  const Timeline& written = merged->result.timeline;
  const Timeline& timeline = read->result.timeline;
  ASSERT_EQ(written.rows().size(), 11u);
  ASSERT_EQ(timeline.rows().size(), written.rows().size());
  EXPECT_EQ(timeline.interval_ns(), written.interval_ns());
  for (size_t i = 0; i < written.rows().size(); ++i) {
    EXPECT_EQ(timeline.rows()[i].completed, written.rows()[i].completed) << i;
    EXPECT_EQ(timeline.rows()[i].length_ns, written.rows()[i].length_ns) << i;
  }
  EXPECT_EQ(timeline.rows()[10].completed, 1);  // shard 2's last second, the fleet's eleventh
}

}  // namespace
}  // namespace hammer

namespace hammer {
namespace {

// A saved run with timeouts reads back with them, and its timeline rows keep their own; a
// re-render (hammer report, hammer merge) censors the same figures from those counts.
TEST(JsonRoundTripTest, TimeoutsReadBackSoARerenderCensorsTheSameFigures) {
  testing::FabricatedRun run = testing::censored_run();
  run.result.timeline.plan(0, run.config.duration_ns);
  run.result.timeline.set_start(0);
  for (int64_t ms = 1; ms <= 98; ++ms) run.result.timeline.record(0, ms * 1'000'000);
  run.result.timeline.record_error(0, true);
  run.result.timeline.record_error(0, true);
  auto document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->result.error_count(ErrorKind::timeout), 2);
  EXPECT_EQ(document->config.timeout_ns, run.config.timeout_ns);
  ASSERT_FALSE(document->result.timeline.rows().empty());
  EXPECT_EQ(document->result.timeline.rows()[0].timed_out, 2);
  const std::vector<Verdict> none;
  const std::string text = render_text_report({document->config, document->result, none, {}});
  EXPECT_NE(text.find("     99%   > 2.00s (timed out)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("     max   > 2.00s (timed out)\n"), std::string::npos) << text;
}

// Issue 23: the hiccup meter and the generator's CPU go through the document, so that
// `hammer report RUN.json` prints what the run printed and `hammer merge` adds the meters.
TEST(JsonRoundTripTest, TheHostsReadingAndTheGeneratorCpuReadBack) {
  testing::FabricatedRun run = testing::closed_loop_run();
  HostReading& host = run.result.host;
  host.meters = 1;
  host.interval_ns = 2'000'000;
  host.observed_ns = 10'000'000'000;
  for (int i = 0; i < 100; ++i) host.oversleeps.record(60'000);
  host.oversleeps.record(312'000'000);
  host.max_ns = 312'000'000;
  host.long_count = 1;
  host.long_sum_ns = 312'000'000;
  host.long_stalls = {{1'200'000'000, 312'000'000}};
  host.steal_ns = 4'000'000;
  host.meter_cpu_ns = 21'000'000;
  run.result.generator_cpu.add_worker(9'500'000'000, 10'000'000'000);
  run.result.timeline.plan(0, run.config.duration_ns);
  run.result.timeline.set_start(0);
  run.result.timeline.record(1'500'000'000, 1'000'000);
  const std::string json = render_json_report(run.input());
  // The timeline's row of the stall says so: one column, the longest stall begun in it.
  EXPECT_NE(json.find("\"host_stall_max_ns\": 312000000"), std::string::npos) << json;

  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  const HostReading& back = document->result.host;
  EXPECT_EQ(back.meters, 1);
  EXPECT_EQ(back.interval_ns, 2'000'000);
  EXPECT_EQ(back.observed_ns, 10'000'000'000);
  EXPECT_EQ(back.max_ns, 312'000'000);
  EXPECT_EQ(back.long_count, 1);
  EXPECT_EQ(back.long_sum_ns, 312'000'000);
  ASSERT_EQ(back.long_stalls.size(), 1u);
  EXPECT_EQ(back.long_stalls[0].at_ns, 1'200'000'000);
  EXPECT_EQ(back.long_stalls[0].length_ns, 312'000'000);
  EXPECT_EQ(back.steal_ns, 4'000'000);
  EXPECT_EQ(back.meter_cpu_ns, 21'000'000);
  EXPECT_EQ(back.oversleeps.total_count(), 101);
  EXPECT_EQ(back.oversleeps.value_at_percentile(50), host.oversleeps.value_at_percentile(50));
  const GeneratorCpu& cpu = document->result.generator_cpu;
  EXPECT_EQ(cpu.workers, 1);
  EXPECT_EQ(cpu.cpu_ns, 9'500'000'000);
  EXPECT_EQ(cpu.wall_ns, 10'000'000'000);
  EXPECT_DOUBLE_EQ(cpu.busiest_share, 0.95);
}

TEST(JsonRoundTripTest, ADocumentWithoutTheMeterReadsAsUnmeasured) {
  const testing::FabricatedRun run = testing::closed_loop_run();
  const std::string json = render_json_report(run.input());
  EXPECT_NE(json.find("\"host\": null"), std::string::npos);
  EXPECT_NE(json.find("\"generator_cpu\": null"), std::string::npos);
  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_FALSE(document->result.host.measured());
  EXPECT_FALSE(document->result.generator_cpu.measured());
}

// Issue 25: an https:// run's `tls` member reads back, so `hammer report` prints its TLS,
// Handshake and -k lines and `hammer merge` adds its handshakes. They were dropped.
TEST(JsonRoundTripTest, TheTlsSectionReadsBackAndPrintsTheSameLines) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.url = "https://127.0.0.1:8443/";
  TlsSummary& tls = run.result.tls;
  tls.used = true;
  tls.verified = false;
  tls.version = "1.3";
  tls.cipher = "TLS_AES_256_GCM_SHA384";
  tls.alpn = "http/1.1";
  tls.full_handshakes = 4;
  tls.resumed_handshakes = 16;
  tls.first_error = "certificate verify failed: self-signed certificate";
  run.result.errors[static_cast<int>(ErrorKind::tls)] = 2;
  for (int64_t i = 1; i <= 20; ++i) run.result.handshake_time.record(i * 100'000);
  auto document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  const TlsSummary& read = document->result.tls;
  EXPECT_TRUE(read.used);
  EXPECT_FALSE(read.verified);
  EXPECT_EQ(read.version, "1.3");
  EXPECT_EQ(read.cipher, "TLS_AES_256_GCM_SHA384");
  EXPECT_EQ(read.alpn, "http/1.1");
  EXPECT_EQ(read.full_handshakes, 4);
  EXPECT_EQ(read.resumed_handshakes, 16);
  EXPECT_EQ(read.first_error, tls.first_error);
  EXPECT_EQ(document->result.handshake_time.total_count(), 20);
  EXPECT_EQ(document->result.handshake_time.max(), run.result.handshake_time.max());
  std::string written;
  std::string again;
  append_tls_text(run.input(), written);
  const std::vector<Verdict> none;
  append_tls_text(ReportInput{document->config, document->result, none, {}}, again);
  EXPECT_NE(written.find("16 resumed"), std::string::npos) << written;
  EXPECT_EQ(again, written);

  // A plain-HTTP run's `"tls": null` reads as no TLS; a `tls` of the wrong shape is refused.
  auto plain = read_run_document(render_json_report(testing::open_loop_run().input()));
  ASSERT_TRUE(plain.has_value()) << plain.error();
  EXPECT_FALSE(plain->result.tls.used);
  std::string json = render_json_report(run.input());
  json.replace(json.find("\"verify\": false"), 15, "\"verify\": 0");
  auto bad = read_run_document(json);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error(), "tls.verify: expected true or false");
}

// The --slo limits are typed values in the reader (they were rebuilt as text by
// `hammer report` and parsed again), and --latency/--timeline are kept in config.
TEST(JsonRoundTripTest, SloLimitsAndTheTextTablesReadBack) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.print_latency = true;
  run.config.print_timeline = true;
  SloLimit p999{"p99.9", 99.9, 50'000'000, 0, "50ms"};
  SloLimit errors{"errors", 0, 0, 0.015, "1.5%"};
  const std::vector<SloOutcome> outcomes = evaluate_slos({p999, errors}, run.config, run.result);
  ReportInput input = run.input();
  input.slo = &outcomes;
  const std::string json = render_json_report(input);
  auto document = read_run_document(json);
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_TRUE(document->config.print_latency);
  EXPECT_TRUE(document->config.print_timeline);
  ASSERT_EQ(document->slo_limits.size(), 2u);
  EXPECT_EQ(document->slo_limits[0].key, "p99.9");
  EXPECT_EQ(document->slo_limits[0].percentile, 99.9);
  EXPECT_EQ(document->slo_limits[0].limit_ns, 50'000'000);
  EXPECT_TRUE(document->slo_limits[1].is_error_rate());
  EXPECT_EQ(document->slo_limits[1].error_rate, 0.015);
  std::string edited = json;
  edited.replace(edited.find("\"key\": \"p99.9\""), 14, "\"key\": \"q99.9\"");
  auto bad = read_run_document(edited);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error(), "slo[0].key: expected pNN[.N], max or errors, got \"q99.9\"");
}

// A fleet whose shards settled different TLS says so in a note, naming each shard's, and the
// merged document's fleet members keep them for `hammer report merged.json`.
TEST(JsonRoundTripTest, AFleetOfDifferingTlsSaysSoAndReadsItBack) {
  const FleetSummary fleet = testing::two_shards([](ShardSummary& shard) {
    shard.tls_version = shard.index == 1 ? "1.3" : "1.2";
    shard.tls_cipher =
        shard.index == 1 ? "TLS_AES_256_GCM_SHA384" : "ECDHE-ECDSA-AES256-GCM-SHA384";
    shard.tls_alpn = "http/1.1";
  });
  ASSERT_TRUE(fleet.tls_differs());
  EXPECT_EQ(tls_differs_note(fleet),
            "the shards' TLS differs (1/2 1.3 TLS_AES_256_GCM_SHA384 ALPN http/1.1, 2/2 1.2 "
            "ECDHE-ECDSA-AES256-GCM-SHA384 ALPN http/1.1); the TLS line names shard 1/2's, the "
            "handshake counts are every shard's");
  testing::FabricatedRun run = testing::open_loop_run();
  ReportInput input = run.input();
  input.fleet = &fleet;
  auto document = read_run_document(render_json_report(input));
  ASSERT_TRUE(document.has_value()) << document.error();
  ASSERT_TRUE(document->fleet.has_value());
  ASSERT_EQ(document->fleet->shards.size(), 2u);
  EXPECT_EQ(document->fleet->shards[1].tls_version, "1.2");
  EXPECT_EQ(document->fleet->shards[1].tls_cipher, "ECDHE-ECDSA-AES256-GCM-SHA384");
  EXPECT_TRUE(document->fleet->tls_differs());
  EXPECT_EQ(render_fleet_table(*document->fleet), render_fleet_table(fleet));
}

}  // namespace
}  // namespace hammer
