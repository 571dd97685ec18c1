// SPDX-License-Identifier: MIT
#include "report/csv_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "report/report_test_support.h"
#include "report/timeline_report.h"

namespace hammer {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CsvReportTest, TimelineHasOneRowPerSecondWithWarmupMarkedAndEmptyCellsForNoResponse) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.warmup_ns = 1'000'000'000;
  run.config.duration_ns = 2'000'000'000;
  Timeline& timeline = run.result.timeline;
  timeline.plan(run.config.warmup_ns, run.config.duration_ns);
  timeline.set_start(0);
  timeline.record(500'000'000, 2'000'000);    // warm-up second
  timeline.record(1'500'000'000, 1'000'000);  // first measured second; the second one is empty
  timeline.record_error(1'600'000'000);
  run.result.elapsed_ns = 2'000'000'000;
  run.result.warmup = std::make_shared<RunResult>();
  run.result.warmup->elapsed_ns = 1'000'000'000;
  // The hiccup meter saw the host stall 300 ms, 0.2 s into the first measured second.
  run.result.host.meters = 1;
  run.result.host.long_stalls = {{1'200'000'000, 300'000'000}};
  const std::string csv = render_timeline_csv(run.input());
  const auto lines = lines_of(csv);
  ASSERT_EQ(lines.size(), 4u) << csv;
  EXPECT_EQ(lines[0],
            "second,start_s,length_s,phase,requests,per_second,p50_ns,p99_ns,max_ns,errors,slow,"
            "timed_out,censored,host_stall_max_ns");
  EXPECT_TRUE(lines[1].starts_with("1,0,1,warmup,1,1,")) << lines[1];
  EXPECT_TRUE(lines[2].starts_with("2,1,1,measured,1,1,")) << lines[2];
  EXPECT_TRUE(lines[1].ends_with(",0")) << lines[1] << ": no stall in the warm-up";
  EXPECT_TRUE(lines[2].ends_with(",1000000,1,0,0,,300000000"))
      << lines[2] << ": exact max, one error, no timeout, the host's longest stall";
  EXPECT_EQ(lines[3], "3,2,1,measured,0,0,,,,0,0,0,,0") << "no response: empty latency cells";
}

// --ramp 1 -W 1: the CSV named the ramp's row "warmup" while the JSON timeline, the --timeline
// table and the HTML page called it "ramp"; a spreadsheet filtering on phase mixed the two.
TEST(CsvReportTest, ARampRowIsNamedRampAsInTheJsonTimeline) {
  testing::FabricatedRun run = testing::open_loop_run();
  const int64_t s = 1'000'000'000;
  run.config.ramp_ns = 1 * s;
  run.config.warmup_ns = 1 * s;
  run.config.duration_ns = 1 * s;
  run.result.elapsed_ns = 1 * s;
  run.result.ramp = std::make_shared<RunResult>();
  run.result.ramp->elapsed_ns = 1 * s;
  run.result.warmup = std::make_shared<RunResult>();
  run.result.warmup->elapsed_ns = 1 * s;
  run.result.timeline.plan(run.config.warmup_ns, run.config.duration_ns, true, run.config.ramp_ns);
  run.result.timeline.set_start(0);
  for (int64_t second = 0; second < 3; ++second) {
    run.result.timeline.record(second * s + s / 2, 1'000'000);
  }
  const auto lines = lines_of(render_timeline_csv(run.input()));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(lines[1].starts_with("1,0,1,ramp,1,")) << lines[1];
  EXPECT_TRUE(lines[2].starts_with("2,1,1,warmup,1,")) << lines[2];
  EXPECT_TRUE(lines[3].starts_with("3,2,1,measured,1,")) << lines[3];
}

// A row's p50/p99 come from its 2-digit histogram, whose buckets report their highest value; its
// max is exact. One answer of 3,994,775 ns read p99 3,997,695 above max 3,994,775 in the CSV,
// the JSON and the --timeline table. No percentile of a row can exceed its largest latency.
TEST(CsvReportTest, ARowsPercentilesNeverExceedItsExactMax) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.duration_ns = 1'000'000'000;
  Timeline& timeline = run.result.timeline;
  timeline.plan(0, run.config.duration_ns);
  timeline.set_start(0);
  timeline.record(500'000'000, 3'994'775);
  run.result.elapsed_ns = 1'000'000'000;
  const auto rows = summarize_timeline(run.input());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].max_ns, 3'994'775);
  EXPECT_LE(rows[0].p99_ns, rows[0].max_ns);
  EXPECT_LE(rows[0].p50_ns, rows[0].max_ns);
  const auto lines = lines_of(render_timeline_csv(run.input()));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[1].ends_with(",3994775,3994775,3994775,0,0,0,,")) << lines[1];
}

// A row whose requests timed out (1 of 2 here): its p99 and max are censored, empty cells.
TEST(CsvReportTest, ATimelineRowsCensoredFiguresAreEmptyAndNamed) {
  testing::FabricatedRun run = testing::censored_run();
  Timeline& timeline = run.result.timeline;
  timeline.plan(0, run.config.duration_ns);
  timeline.set_start(0);
  timeline.record(500'000'000, 3'000'000);
  timeline.record_error(600'000'000, true);
  const auto lines = lines_of(render_timeline_csv(run.input()));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[1].ends_with(",,,1,0,1,p99_ns max_ns,")) << lines[1];
  EXPECT_TRUE(lines[1].starts_with("1,0,1,measured,1,1,")) << lines[1];
}

// Ctrl-C at 1.2 s of a 5 s run: the last row covers 0.2 s, and its rate is over those 0.2 s.
// It kept its planned second, so a steady 500 req/s read 100 req/s in the row it was cut in
// (and the two-regimes note could take that for a drop).
TEST(CsvReportTest, AnInterruptedRunsLastRowIsAsLongAsTheRunWent) {
  testing::FabricatedRun run = testing::open_loop_run();
  const int64_t ms = 1'000'000;
  run.config.duration_ns = 5'000 * ms;
  Timeline& timeline = run.result.timeline;
  timeline.plan(0, run.config.duration_ns);
  timeline.set_start(0);
  for (int64_t k = 0; k < 600; ++k) timeline.record(k * 2 * ms, 1 * ms);  // 500 req/s
  run.result.elapsed_ns = 1'200 * ms;
  run.result.interrupted = true;
  const auto lines = lines_of(render_timeline_csv(run.input()));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[1].starts_with("1,0,1,measured,500,500,")) << lines[1];
  EXPECT_TRUE(lines[2].starts_with("2,1,0.2,measured,100,500,")) << lines[2];
}

TEST(CsvReportTest, SweepHasAHeaderThenStepsThenControlSteps) {
  Config config;
  SweepResult result;
  StepSummary step;
  step.level = 2;
  step.connections = 2;
  step.threads = 2;
  step.completed = 100;
  step.per_second = 50.5;
  step.has_latency = true;
  step.p50_ns = 1'000;
  step.p90_ns = 2'000;
  step.p99_ns = 3'000;
  step.p999_ns = 4'000;
  step.max_ns = 5'000;
  step.mean_ns = 1'500.4;
  step.cpu_cores = 0.25;
  result.steps.push_back(step);
  StepSummary control = step;
  control.misses.push_back(StepMiss::failed);
  control.has_latency = false;
  control.cpu_cores = -1;
  result.control_steps.push_back(control);
  const auto lines = lines_of(render_sweep_csv(config, result));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[0].starts_with("series,level,connections,")) << lines[0];
  EXPECT_EQ(lines[1], "sweep,2,2,2,,100,50.5,0,0,1000,2000,3000,4000,5000,1500,,,,0.25,yes,0,,1,no");
  EXPECT_EQ(lines[2], "control,2,2,2,,100,50.5,0,0,,,,,,,,,,,no,0,,1,no");
}

// A figure that timeouts censor has no value: its cell is empty (never the bound as a figure)
// and the censored column names it.
TEST(CsvReportTest, ACensoredFigureIsAnEmptyCellNamedInTheCensoredColumn) {
  Config config;
  SweepResult result;
  StepSummary step;
  step.level = 2;
  step.connections = 2;
  step.has_latency = true;
  step.tail = CensoredTail{98, 2, 2'000'000'000};
  step.p50_ns = 1'000;
  step.p90_ns = 2'000;
  step.p99_ns = 2'000'000'000;
  step.p999_ns = 2'000'000'000;
  step.max_ns = 2'000'000'000;
  step.mean_ns = 1'500;
  result.steps.push_back(step);
  const auto lines = lines_of(render_sweep_csv(config, result));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find(",1000,2000,,,,1500,"), std::string::npos) << lines[1];
  EXPECT_TRUE(lines[1].ends_with(",2,p99_ns p99.9_ns max_ns,1,no")) << lines[1];
  EXPECT_EQ(lines[1].find("2000000000"), std::string::npos) << lines[1];
}

}  // namespace
}  // namespace hammer
