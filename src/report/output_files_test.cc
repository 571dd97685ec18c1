// SPDX-License-Identifier: MIT
#include "report/output_files.h"

#include <gtest/gtest.h>

#include "report/hgrm.h"
#include "report/interval_log_report.h"
#include "report/output_formats.h"
#include "report/report_test_support.h"

namespace hammer {
namespace {

TEST(OutputFormatsTest, TheExtensionChoosesTheFormatIgnoringCase) {
  ASSERT_NE(output_format_for_path("run.json"), nullptr);
  EXPECT_EQ(output_format_for_path("run.json")->format, OutputFormat::json);
  EXPECT_EQ(output_format_for_path("a/b.c/RUN.HGRM")->format, OutputFormat::hgrm);
  EXPECT_EQ(output_format_for_path("t.csv")->format, OutputFormat::csv);
  EXPECT_EQ(output_format_for_path("t.Hlog")->format, OutputFormat::hlog);
  EXPECT_EQ(output_format_for_path("run.json.txt"), nullptr);
  EXPECT_EQ(output_format_for_path("json"), nullptr);
  EXPECT_EQ(output_format_for_path(".json"), nullptr) << "a name is needed before the extension";
  EXPECT_EQ(output_format_for_path("dir.json/"), nullptr);
}

TEST(OutputFilesTest, EachOutputGetsItsFormatAndHgrmWritesBothHistograms) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.outputs = {{"r.json", OutputFormat::json},
                        {"r.hgrm", OutputFormat::hgrm},
                        {"r.csv", OutputFormat::csv}};
  const auto files = render_run_outputs(run.input(), "{\"the\": \"document\"}\n");
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].path, "r.json");
  EXPECT_EQ(files[0].contents, "{\"the\": \"document\"}\n");
  EXPECT_EQ(files[1].path, "r.hgrm");
  EXPECT_EQ(files[1].contents, render_hgrm(run.result.corrected)) << "corrected leads";
  EXPECT_EQ(files[2].path, "r.uncorrected.hgrm");
  EXPECT_EQ(files[2].contents, render_hgrm(run.result.uncorrected));
  EXPECT_EQ(files[3].path, "r.csv");
  EXPECT_TRUE(files[3].contents.starts_with("second,")) << files[3].contents;
}

TEST(OutputFilesTest, HlogIsTheRunsIntervalLogWithBothTags) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.outputs = {{"r.hlog", OutputFormat::hlog}};
  run.result.timeline.plan(0, 2'000'000'000, /*both_stopwatches=*/true);
  run.result.timeline.record(100'000'000, 5'000'000);        // second 0: corrected 5 ms
  run.result.timeline.record_other(100'000'000, 400'000);    // uncorrected 0.4 ms
  run.result.timeline.record(1'500'000'000, 7'000'000);      // second 1
  run.result.timeline.record_other(1'500'000'000, 600'000);
  const auto files = render_run_outputs(run.input(), "{}");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "r.hlog");
  EXPECT_EQ(files[0].contents, render_interval_log(run.input()));
  EXPECT_NE(files[0].contents.find("Tag=corrected,"), std::string::npos) << files[0].contents;
  EXPECT_NE(files[0].contents.find("Tag=uncorrected,"), std::string::npos) << files[0].contents;
  const auto log = read_interval_log(files[0].contents);
  ASSERT_TRUE(log.has_value()) << log.error();
  ASSERT_EQ(log->intervals.size(), 4u) << "two seconds, two tags each";
  EXPECT_EQ(log->intervals[0].tag, "corrected");
  EXPECT_EQ(log->intervals[1].tag, "uncorrected");
  EXPECT_EQ(log->intervals[2].start_ns, 1'000'000'000);
  for (const IntervalHistogram& interval : log->intervals) {
    EXPECT_EQ(interval.histogram.total_count(), 1) << interval.tag << " at " << interval.start_ns;
  }
  // Rows keep 2 significant digits (about 1%).
  EXPECT_NEAR(log->intervals[0].histogram.max(), 5'000'000, 50'000);
  EXPECT_NEAR(log->intervals[3].histogram.max(), 600'000, 6'000);
}

// --ramp comes before the warm-up and the measured part (the timeline's rows start after
// both): the log's intervals are the measured part's, from its start. With --ramp 2 -d 3 the
// log held one interval of three, placed at 2 s, and its StartTime was the ramp's start.
TEST(OutputFilesTest, HlogIntervalsAreTheMeasuredPartsAfterTheRampAndTheWarmup) {
  testing::FabricatedRun run = testing::open_loop_run();
  const int64_t s = 1'000'000'000;
  run.config.ramp_ns = 2 * s;
  run.config.warmup_ns = 1 * s;
  run.config.duration_ns = 3 * s;
  run.result.elapsed_ns = 3 * s;
  run.result.wall_start.origin_unix_ns = 1'796'083'200 * s;
  run.result.timeline.plan(run.config.warmup_ns, run.config.duration_ns, true, run.config.ramp_ns);
  for (int64_t second = 0; second < 6; ++second) {  // ramp 0-1, warm-up 2, measured 3-5
    run.result.timeline.record(second * s + s / 2, 5'000'000);
    run.result.timeline.record_other(second * s + s / 2, 400'000);
  }
  const auto log = read_interval_log(render_interval_log(run.input()));
  ASSERT_TRUE(log.has_value()) << log.error();
  EXPECT_EQ(log->start_unix_ns, run.result.wall_start.origin_unix_ns + 3 * s);
  ASSERT_EQ(log->intervals.size(), 6u) << "three measured seconds, two tags each";
  for (size_t i = 0; i < log->intervals.size(); ++i) {
    EXPECT_EQ(log->intervals[i].start_ns, static_cast<int64_t>(i / 2) * s) << i;
    EXPECT_EQ(log->intervals[i].histogram.total_count(), 1) << i;
  }
}

TEST(OutputFilesTest, ClosedLoopHgrmHasOnlyTheUncorrectedHistogram) {
  testing::FabricatedRun run = testing::closed_loop_run();
  run.config.outputs = {{"out/r.hgrm", OutputFormat::hgrm}};
  const auto files = render_run_outputs(run.input(), "{}");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "out/r.hgrm");
  EXPECT_EQ(files[0].contents, render_hgrm(run.result.uncorrected));
}

TEST(OutputFilesTest, UnderClosedLoopStopwatchTheCorrectedOneGoesBeside) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.config.closed_loop_stopwatch = true;
  run.config.outputs = {{"r.HGRM", OutputFormat::hgrm}};
  const auto files = render_run_outputs(run.input(), "{}");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].contents, render_hgrm(run.result.uncorrected));
  EXPECT_EQ(files[1].path, "r.corrected.HGRM");
  EXPECT_EQ(files[1].contents, render_hgrm(run.result.corrected));
}

TEST(OutputFilesTest, AFileThatCannotBeWrittenDoesNotStopTheOthers) {
  char pattern[] = "/tmp/hammer_outputs_XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  const auto failures = write_files({{dir + "/missing/a.json", "{}", ""},
                                     {dir + "/b.csv", "x\n", ""},
                                     {dir, "a directory", ""},
                                     {dir + "/c.html", "", "could not be rendered"}});
  ASSERT_EQ(failures.size(), 3u);
  EXPECT_EQ(failures[0].path, dir + "/missing/a.json");
  EXPECT_EQ(failures[0].reason, "No such file or directory");
  EXPECT_EQ(failures[1].path, dir);
  EXPECT_EQ(failures[1].reason, "Is a directory");
  EXPECT_EQ(failures[2].path, dir + "/c.html");
  EXPECT_EQ(failures[2].reason, "could not be rendered") << "and nothing written";
  EXPECT_EQ(::unlink((dir + "/b.csv").c_str()), 0) << "b.csv was written";
  ::rmdir(dir.c_str());
}

}  // namespace
}  // namespace hammer
