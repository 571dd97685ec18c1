// SPDX-License-Identifier: MIT
#include "report/text_report.h"

#include <gtest/gtest.h>

#include <cerrno>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "http/url.h"
#include "report/format.h"
#include "report/report_test_support.h"
#include "report/slo_report.h"
#include "report/verdict_text.h"

namespace hammer {
namespace {

using testing::censored_run;
using testing::closed_loop_run;
using testing::FabricatedRun;
using testing::open_loop_run;

using testing::contains;
using testing::has_line;
using testing::lines_of;

/// A single-column percentile line: label right-aligned in 8, two spaces, value in 8.
std::string percentile_line(const std::string& label, int64_t value_ns) {
  const std::string value = format_duration_ns(value_ns);
  return std::string(8 - label.size(), ' ') + label + "  " +
         std::string(value.size() < 8 ? 8 - value.size() : 0, ' ') + value;
}


TEST(TextReportTest, HeaderNamesDurationUrlThreadsConnectionsAndRate) {
  const auto run = open_loop_run();
  const auto lines = lines_of(render_text_report(run.input()));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Running 10s test @ http://127.0.0.1:8082/");
  EXPECT_EQ(lines[1], "  4 threads, 20 connections, open loop @ 2000 req/s");
  EXPECT_EQ(lines[2], "  Latency (corrected)");
}

TEST(TextReportTest, ClosedLoopHeaderSaysClosedLoopAndLeadsUncorrected) {
  auto run = closed_loop_run();
  run.config.threads = 1;
  run.config.connections = 1;
  run.config.duration_ns = 1'500'000'000;
  const auto lines = lines_of(render_text_report(run.input()));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Running 1.50s test @ http://127.0.0.1:8082/");
  EXPECT_EQ(lines[1], "  1 thread, 1 connection, closed loop");
  EXPECT_EQ(lines[2], "  Latency (uncorrected, closed loop)");
}

// -n: the count is the run's length; open loop adds the span of its N slots.
TEST(TextReportTest, ARequestCountRunSaysItsCountInTheHeader) {
  auto closed = closed_loop_run();
  closed.config.requests_count = 1000;
  closed.config.duration_ns = 86'400'000'000'000;  // the bound, not said
  EXPECT_EQ(lines_of(render_text_report(closed.input()))[0],
            "Running 1000 requests @ http://127.0.0.1:8082/");
  auto open = open_loop_run();
  open.config.requests_count = 1000;
  open.config.duration_ns = 500'000'000;
  EXPECT_EQ(lines_of(render_text_report(open.input()))[0],
            "Running 1000 requests in 500.00ms @ http://127.0.0.1:8082/");
}

TEST(TextReportTest, HeaderNamesTheEngineThatRanAndNotesAFallback) {
  auto run = closed_loop_run();
  run.config.engine = EngineKind::io_uring;
  EXPECT_EQ(lines_of(render_text_report(run.input()))[1],
            "  4 threads, 20 connections, closed loop, io_uring engine");
  run.config.engine = EngineKind::epoll;
  run.config.engine_fallback.happened = true;
  run.config.engine_fallback.error_number = EPERM;
  const std::string text = render_text_report(run.input());
  EXPECT_EQ(lines_of(text)[1], "  4 threads, 20 connections, closed loop, epoll engine");
  EXPECT_TRUE(has_line(text, "note: io_uring is unavailable here (Operation not permitted); the "
                             "run used epoll"))
      << text;
}

TEST(TextReportTest, AnEngineThatExistsOnlyOnLinuxIsNotedWhereItIsMissing) {
  auto run = closed_loop_run();
  run.config.engine = EngineKind::poll;
  run.config.engine_fallback.happened = true;
  run.config.engine_fallback.linux_only = true;
  run.config.engine_fallback.wanted = EngineKind::epoll;
  run.config.engine_fallback.used = EngineKind::poll;
  const std::string text = render_text_report(run.input());
  EXPECT_EQ(lines_of(text)[1], "  4 threads, 20 connections, closed loop, poll engine");
  EXPECT_TRUE(has_line(text, "note: epoll exists only in Linux builds of hammer; the run used poll"))
      << text;
}

TEST(TextReportTest, ClosedLoopStopwatchInOpenLoopLeadsUncorrected) {
  auto run = open_loop_run();
  run.config.closed_loop_stopwatch = true;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "  Latency (uncorrected, closed loop)")) << text;
  EXPECT_TRUE(contains(text, "open loop @ 2000 req/s, stopwatch from actual send")) << text;
  // Open loop keeps both columns: the uncorrected one the stopwatch leads with, beside.
  const std::string p50 = format_duration_ns(run.result.uncorrected.value_at_percentile(50));
  EXPECT_TRUE(contains(text, std::string(13 - p50.size(), ' ') + p50 + "    10.0x")) << text;
}

TEST(TextReportTest, PrintsP50ToP99AndMaxOfTheLeadHistogram) {
  const auto run = closed_loop_run();
  const std::string text = render_text_report(run.input());
  const auto& uncorrected = run.result.uncorrected;
  for (const auto& [q, label] : std::vector<std::pair<double, std::string>>{
           {50, "50%"}, {75, "75%"}, {90, "90%"}, {95, "95%"}, {99, "99%"}}) {
    EXPECT_TRUE(has_line(text, percentile_line(label, uncorrected.value_at_percentile(q))))
        << label << "\n" << text;
  }
  EXPECT_TRUE(has_line(text, percentile_line("max", uncorrected.max()))) << text;
  EXPECT_FALSE(contains(text, "99.9%")) << text;
  EXPECT_FALSE(contains(text, "ratio")) << text;
}

// Issue 28: open loop without --latency still shows both stopwatches, for the default rows
// (p50..p99, max): the comparison hammer exists for is never hidden. --latency adds the full
// spectrum and the summaries.
TEST(TextReportTest, OpenLoopWithoutLatencyShowsBothStopwatchesForTheDefaultRows) {
  const auto run = open_loop_run();
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "  Latency (corrected)")) << text;
  EXPECT_TRUE(has_line(text, "            corrected  uncorrected    ratio")) << text;
  const auto& corrected = run.result.corrected;
  const auto& uncorrected = run.result.uncorrected;
  for (const auto& [q, label] : std::vector<std::pair<double, std::string>>{
           {50, "     50%"}, {75, "     75%"}, {90, "     90%"}, {95, "     95%"}, {99, "     99%"}}) {
    const std::string left = format_duration_ns(corrected.value_at_percentile(q));
    const std::string right = format_duration_ns(uncorrected.value_at_percentile(q));
    EXPECT_TRUE(has_line(text, label + std::string(13 - left.size(), ' ') + left +
                                   std::string(13 - right.size(), ' ') + right + "    10.0x"))
        << label << "\n" << text;
  }
  // The corrected p50 (about 5 ms) leads; the uncorrected one (about 500 us) is beside it.
  EXPECT_TRUE(contains(text, "     50%       5.00ms")) << text;
  EXPECT_TRUE(contains(text, "     max  ")) << text;
  EXPECT_FALSE(contains(text, "99.9%")) << text;
  EXPECT_FALSE(contains(text, "    corrected    mean ")) << text;
}

// Issue 22: 2 of 100 timed out. The answered p99 (97 ms) is not the run's p99, which is above
// the timeout: it reads as the bound, never as a figure, and the warning above says so.
TEST(TextReportTest, PercentilesAboveTheAnsweredShareReadAsTheTimeoutBound) {
  auto run = censored_run();
  run.verdicts = compute_verdicts(run.config, run.result, 2);
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "     99%   > 2.00s (timed out)")) << text;
  EXPECT_TRUE(has_line(text, "     max   > 2.00s (timed out)")) << text;
  // p50 is rank 50 of the 100 that ended (50 ms), not the answered median (rank 49 of 98).
  const Histogram& answered = run.result.uncorrected;
  EXPECT_TRUE(has_line(text, percentile_line("50%", answered.value_at_percentile(50.0 * 100 / 98))))
      << text;
  EXPECT_FALSE(contains(text, format_duration_ns(answered.value_at_percentile(99)) + "\n"))
      << text;
  const size_t warning = text.find("warning: 2 of 100 requests (2.0%) timed out after 2.00s");
  ASSERT_NE(warning, std::string::npos) << text;
  EXPECT_LT(warning, text.find("  Latency")) << text;
  EXPECT_TRUE(contains(text, "every percentile above 98% (here p99, p99.9, p99.99 and max)"))
      << text;
}

TEST(TextReportTest, SideBySideCensorsBothColumnsAndReadsNoRatioFromABound) {
  auto run = censored_run();
  run.config.rate = 100;
  run.config.print_latency = true;
  for (int64_t ms = 1; ms <= 98; ++ms) run.result.corrected.record(ms * 2'000'000);
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "     99%      > 2.00s      > 2.00s        - (timed out)")) << text;
  EXPECT_TRUE(has_line(text, "     max      > 2.00s      > 2.00s        - (timed out)")) << text;
  bool median_has_ratio = false;
  for (const std::string& line : lines_of(text)) {
    if (line.rfind("     50%", 0) == 0) median_has_ratio = line.ends_with("2.0x");
  }
  EXPECT_TRUE(median_has_ratio) << text;
}

TEST(TextReportTest, AnSloOnACensoredPercentileIsMissedOrCannotBeJudged) {
  const auto run = censored_run();
  SloLimit at_timeout;
  at_timeout.key = "p99";
  at_timeout.percentile = 99;
  at_timeout.limit_ns = 2'000'000'000;
  SloLimit above = at_timeout;
  above.limit_ns = 5'000'000'000;
  const std::string lines =
      render_slo_lines(evaluate_slos({at_timeout, above}, run.config, run.result));
  EXPECT_TRUE(has_line(lines, "SLO p99 <= 2.00s: > 2.00s (timed out), MISSED")) << lines;
  EXPECT_TRUE(has_line(lines,
                       "SLO p99 <= 5.00s: > 2.00s (timed out), MISSED (cannot be judged: the "
                       "true figure is above --timeout, maybe below the limit; a --timeout above "
                       "5.00s would tell)"))
      << lines;
}

TEST(TextReportTest, TotalsLineCountsCompletedRequestsTimeAndBytes) {
  const auto run = open_loop_run();
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "  19990 requests in 10.00s, 1.49MB read")) << text;
}

TEST(TextReportTest, RequestsPerSecondIsCompletedOverElapsed) {
  auto run = open_loop_run();
  run.result.completed = 20'000;
  run.result.elapsed_ns = 10'002'451'000;  // 20000 / 10.002451 s = 1999.5099...
  run.result.bytes_read = 1'560'000;       // / 10.002451 s = 155961.77 B/s = 152.31 KB/s
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Requests/sec   1999.51")) << text;
  EXPECT_TRUE(has_line(text, "Transfer/sec   152.31KB")) << text;
}

TEST(TextReportTest, ZeroElapsedTimeGivesZeroThroughputNotInfinity) {
  auto run = open_loop_run();
  run.result.elapsed_ns = 0;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Requests/sec   0.00")) << text;
  EXPECT_TRUE(has_line(text, "Transfer/sec   0.00B")) << text;
}

TEST(TextReportTest, SocketErrorsListEveryKindIncludingParse) {
  const auto run = open_loop_run();
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Socket errors  connect 0, read 4, write 2, timeout 0, parse 4"))
      << text;
}

TEST(TextReportTest, FailedRequestsAndConnectionEventsLinesKeepTheirLabelApartFromTheFigure) {
  auto run = open_loop_run();
  run.result.errors = {7, 1, 2, 3, 4};
  run.result.reconnects = 2;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Failed requests  10 of 19,995 sent got no valid answer")) << text;
  EXPECT_TRUE(has_line(text, "Connection events  7 failed connects, 2 reconnects, 0 unsolicited "
                             "responses (not failed requests)"))
      << text;
  // Each of them retried once and failed at last: counted once, as failed (the line said "not
  // failed requests" beside "Failed requests 9,449 of 9,449").
  run.result.retried = 10;
  EXPECT_TRUE(has_line(render_text_report(run.input()),
                       "Retried          10 requests sent again after a polite close (each "
                       "counted once, by its last try)"))
      << render_text_report(run.input());
}

// Issue 10 (QA): open loop shows what was due, sent and unsent, and why the unsent were not
// sent; requests due with no connection up are failed requests, counted against what was due.
TEST(TextReportTest, OpenLoopShowsDueSentAndUnsentAndFailsTheUnsentWithNoConnection) {
  auto run = open_loop_run();  // 20,000 due, 19,995 sent, 5 unsent
  std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Schedule       20,000 due, 19,995 sent, 5 unsent (0 with no "
                             "connection up, 5 behind busy connections)"))
      << text;
  run.result.unsent = 0;
  run.result.sent = 20'000;
  text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Schedule       20,000 due, 20,000 sent, 0 unsent")) << text;

  run.result.sent = 8'000;
  run.result.unsent = 12'000;
  run.result.unsent_no_connection = 11'990;
  text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Schedule       20,000 due, 8,000 sent, 12,000 unsent (11,990 with "
                             "no connection up, 10 behind busy connections)"))
      << text;
  EXPECT_TRUE(has_line(text, "Failed requests  12,000 of 20,000 due got no valid answer (10 of "
                             "8,000 sent, 11,990 unsent with no connection up)"))
      << text;
  EXPECT_FALSE(contains(render_text_report(closed_loop_run().input()), "Schedule"));
}

TEST(TextReportTest, Non2xxLineAppearsOnlyWhenThereAreSome) {
  auto run = open_loop_run();
  EXPECT_FALSE(contains(render_text_report(run.input()), "Non-2xx"));
  run.result.status_classes = {1, 19'000, 5, 300, 684};
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "Non-2xx or 3xx responses: 985")) << text;
}

TEST(TextReportTest, TheWarmupLineCountsItsErrorStatusesOnlyWhenThereAreSome) {
  auto run = open_loop_run();
  run.config.warmup_ns = 1'000'000'000;
  run.result.warmup = std::make_shared<RunResult>();
  run.result.warmup->elapsed_ns = 1'000'000'000;
  run.result.warmup->completed = 300;
  run.result.warmup->status_classes = {0, 300, 0, 0, 0};
  EXPECT_FALSE(contains(render_text_report(run.input()), "non-2xx"));
  run.result.warmup->status_classes = {0, 200, 0, 40, 60};
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(contains(text, ", 0 failed requests, 100 non-2xx or 3xx responses\n")) << text;
  // The measured part's line counts its own.
  EXPECT_FALSE(contains(text, "Non-2xx")) << text;
}

TEST(TextReportTest, DispatchLagLineInOpenLoopOnly) {
  const auto open = open_loop_run();
  EXPECT_TRUE(has_line(render_text_report(open.input()),
                       "Dispatch lag   mean 11.87ms, max 194.66ms, 2461 requests behind "
                       "schedule (server 2400, hammer 61)"))
      << render_text_report(open.input());
  const auto closed = closed_loop_run();
  EXPECT_FALSE(contains(render_text_report(closed.input()), "Dispatch lag"));
}

// The precision budget (--dispatch-precision) closes the line: lateness within it is by design.
TEST(TextReportTest, DispatchLagLineStatesThePrecisionBudget) {
  auto open = open_loop_run();
  open.result.lag.budget_ns = 1'000'000;
  EXPECT_TRUE(has_line(render_text_report(open.input()),
                       "Dispatch lag   mean 11.87ms, max 194.66ms, 2461 requests behind "
                       "schedule (server 2400, hammer 61), budget 1.00ms"))
      << render_text_report(open.input());
}

TEST(TextReportTest, LatencyFlagPrintsBothColumnsSideBySideWithTheRatio) {
  auto run = open_loop_run();
  run.config.print_latency = true;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "  Latency (corrected)")) << text;
  EXPECT_TRUE(has_line(text, "            corrected  uncorrected    ratio")) << text;
  const auto& corrected = run.result.corrected;
  const auto& uncorrected = run.result.uncorrected;
  // Corrected values are exactly ten times the uncorrected ones, up to histogram precision.
  for (const char* label : {"     50%", "     75%", "     90%", "     95%", "     99%", "   99.9%",
                            "  99.99%", "     max"}) {
    bool found = false;
    for (const std::string& line : lines_of(text)) {
      if (line.rfind(label, 0) == 0) {
        found = true;
        EXPECT_TRUE(line.ends_with("10.0x")) << line;
      }
    }
    EXPECT_TRUE(found) << label << "\n" << text;
  }
  const std::string p99_corrected = format_duration_ns(corrected.value_at_percentile(99));
  const std::string p99_uncorrected = format_duration_ns(uncorrected.value_at_percentile(99));
  EXPECT_TRUE(has_line(text, "     99%" + std::string(13 - p99_corrected.size(), ' ') +
                                 p99_corrected + std::string(13 - p99_uncorrected.size(), ' ') +
                                 p99_uncorrected + "    10.0x"))
      << text;
  EXPECT_TRUE(contains(text, "    corrected    mean ")) << text;
  EXPECT_TRUE(contains(text, "    uncorrected  mean ")) << text;
}

TEST(TextReportTest, PercentilesFlagChoosesTheRowsWithOrWithoutLatency) {
  for (const bool full : {false, true}) {
    auto run = closed_loop_run();
    run.config.print_latency = full;
    run.config.percentiles = {50, 99.9, 99.999};
    const std::string text = render_text_report(run.input());
    const auto& uncorrected = run.result.uncorrected;
    for (const auto& [q, label] : std::vector<std::pair<double, std::string>>{
             {50, "50%"}, {99.9, "99.9%"}, {99.999, "99.999%"}}) {
      EXPECT_TRUE(has_line(text, percentile_line(label, uncorrected.value_at_percentile(q))))
          << label << "\n" << text;
    }
    EXPECT_TRUE(has_line(text, percentile_line("max", uncorrected.max()))) << text;
    for (const char* absent : {"     75%", "     90%", "     95%", "     99%", "  99.99%"}) {
      EXPECT_FALSE(contains(text, std::string(absent) + "  ")) << absent << "\n" << text;
    }
  }
}

TEST(TextReportTest, LatencyFlagInClosedLoopPrintsOneFullColumn) {
  auto run = closed_loop_run();
  run.config.print_latency = true;
  const std::string text = render_text_report(run.input());
  const auto& uncorrected = run.result.uncorrected;
  EXPECT_TRUE(has_line(text, percentile_line("99.9%", uncorrected.value_at_percentile(99.9))))
      << text;
  EXPECT_TRUE(contains(text, "  99.99%  ")) << text;
  EXPECT_TRUE(contains(text, "     max  ")) << text;
  EXPECT_TRUE(contains(text, "    mean " + format_duration_ns(std::llround(uncorrected.mean())) +
                                 ", stdev "))
      << text;
  EXPECT_FALSE(contains(text, "ratio")) << text;
}

TEST(TextReportTest, EmptyHistogramSaysNoSuccessfulResponsesInsteadOfZeros) {
  auto run = closed_loop_run();
  run.result.uncorrected.reset();
  run.result.completed = 0;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "  Latency: no successful responses")) << text;
  EXPECT_FALSE(contains(text, "50%")) << text;
  EXPECT_FALSE(contains(text, "max")) << text;
  // Interrupted before the measured part sent anything: nothing was measured, which is not
  // the server's failing to answer.
  run.result.interrupted = true;
  run.result.sent = 0;
  const std::string interrupted = render_text_report(run.input());
  EXPECT_TRUE(has_line(interrupted, "  Latency: nothing measured")) << interrupted;
  EXPECT_FALSE(contains(interrupted, "no successful responses")) << interrupted;
}

TEST(TextReportTest, VerdictsPrintOneLineEachThenNotes) {
  auto run = open_loop_run();
  run.verdicts.push_back(OverCapacityVerdict{1500, 2000, 300, 40, 0});
  run.verdicts.push_back(GeneratorSaturatedVerdict{50, 1000, 3'000'000, 2, 2, false, {}, 0});
  const auto lines = lines_of(render_text_report(run.input({"caller note"})));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[lines.size() - 3], verdict_sentence(run.verdicts[0]));
  EXPECT_EQ(lines[lines.size() - 2], verdict_sentence(run.verdicts[1]));
  EXPECT_EQ(lines.back(), "note: caller note");
}

TEST(TextReportTest, ClampedLatenciesGetANote) {
  auto run = closed_loop_run();
  run.result.uncorrected.record(61'000'000'000);
  run.result.uncorrected.record(90'000'000'000);
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text,
                       "note: 2 uncorrected latencies exceeded 60.00s (the histogram's limit) "
                       "and were clamped to it"))
      << text;
}

TEST(TextReportTest, InterruptedRunSaysSoAndWhen) {
  auto run = open_loop_run();
  run.result.interrupted = true;
  run.result.elapsed_ns = 3'210'000'000;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text,
                       "note: interrupted after 3.21s; figures cover the measured part"))
      << text;
}

// Issue 28: a stop before the measured part began has no elapsed time to give ("after 0ns"):
// the note says which phase it fell in.
TEST(TextReportTest, AnInterruptBeforeTheMeasuredPartSaysWhereItCame) {
  auto run = open_loop_run();
  run.result.interrupted = true;
  run.result.elapsed_ns = 0;
  run.result.sent = 0;
  run.result.completed = 0;
  run.config.warmup_ns = 3'000'000'000;
  run.result.warmup = std::make_shared<RunResult>();
  run.result.warmup->elapsed_ns = 1'200'000'000;
  std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "note: interrupted during the warm-up, 1.20s into --warmup 3.00s: "
                             "the measured part never began"))
      << text;
  EXPECT_FALSE(contains(text, "after 0ns")) << text;

  run.config.ramp_ns = 2'000'000'000;
  run.result.ramp = std::make_shared<RunResult>();
  run.result.ramp->elapsed_ns = 500'000'000;
  run.result.warmup->elapsed_ns = 0;
  text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "note: interrupted during the ramp, 500.00ms into --ramp 2.00s: "
                             "the measured part never began"))
      << text;

  run.config.ramp_ns = 0;
  run.config.warmup_ns = 0;
  run.result.ramp.reset();
  run.result.warmup.reset();
  text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "note: interrupted before the first request: the measured part "
                             "never began"))
      << text;
}

TEST(TextReportTest, FirstSocketAndParseErrorsBecomeNotes) {
  auto run = open_loop_run();
  run.result.first_socket_error = "connect: Connection refused";
  run.result.first_parse_error = "bad status line";
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(has_line(text, "note: first socket error: connect: Connection refused")) << text;
  EXPECT_TRUE(has_line(text, "note: first parse error: bad status line")) << text;
}

// "Requests by line (one.jsonl, 1 lines; ...)": a one-line file is one line.
TEST(TextReportTest, RequestsByLineCountsItsLinesInGoodEnglish) {
  for (int count : {1, 2}) {
    FabricatedRun run = closed_loop_run();
    run.config.requests_path = "mix.jsonl";
    for (int i = 0; i < count; ++i) {
      RequestLine line;
      line.line_number = i + 1;
      line.method = "GET";
      line.path = std::to_string(i);  // in steps: GCC 12 -Wrestrict misfires on "/" + s
      line.path.insert(0, 1, '/');
      line.name = line.path;
      run.config.requests.push_back(line);
    }
    run.result.lines.resize(static_cast<size_t>(count));
    const std::string text = render_text_report(run.input());
    const std::string want = count == 1 ? "Requests by line (mix.jsonl, 1 line; measured part)"
                                        : "Requests by line (mix.jsonl, 2 lines; measured part)";
    EXPECT_NE(text.find(want), std::string::npos) << text;
  }
}

// Issue 28: a line whose every answer was a 404 has no errors, and does not read as clean:
// its non-2xx/3xx count stands beside the errors.
TEST(TextReportTest, RequestsByLineShowsNon2xxBesideErrors) {
  FabricatedRun run = closed_loop_run();
  run.config.requests_path = "mix.jsonl";
  for (int i = 0; i < 2; ++i) {
    RequestLine line;
    line.line_number = i + 1;
    line.method = "GET";
    line.path = i == 0 ? "/ok" : "/missing";
    line.name = line.path;
    run.config.requests.push_back(line);
  }
  run.result.lines.resize(2);
  run.result.lines[0].sent = run.result.lines[0].completed = 40;
  run.result.lines[0].status_classes[1] = 40;  // 2xx
  run.result.lines[1].sent = run.result.lines[1].completed = 30;
  run.result.lines[1].status_classes[3] = 30;  // 4xx
  run.result.lines[1].errors[static_cast<int>(ErrorKind::timeout)] = 0;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(contains(text, "   line  requests  errors  non-2xx/3xx  status")) << text;
  EXPECT_TRUE(contains(text, "      1        40       0            0  2xx 40")) << text;
  EXPECT_TRUE(contains(text, "      2        30       0           30  4xx 30")) << text;
}


// A censored figure ("> 150.00ms") fills its column: it keeps a space from its neighbour
// instead of running into it ("430.08us> 150.00ms> 150.00ms", a new user's trial).
TEST(TextReportTest, RequestsByLineKeepsCensoredFiguresApart) {
  FabricatedRun run = closed_loop_run();
  run.config.requests_path = "mix.jsonl";
  run.config.timeout_ns = 150'000'000;
  RequestLine line;
  line.line_number = 1;
  line.method = "GET";
  line.path = "/slow";
  line.name = line.path;
  run.config.requests.push_back(line);
  run.result.lines.resize(1);
  LineStats& stats = run.result.lines[0];
  for (int i = 0; i < 9; ++i) stats.uncorrected.record(430'000);
  stats.sent = 10;
  stats.completed = 9;
  stats.errors[static_cast<int>(ErrorKind::timeout)] = 1;
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(contains(text, "us > 150.00ms > 150.00ms")) << text;
  EXPECT_FALSE(contains(text, "us> ")) << text;
}


// A shard's share of a rate that does not divide is read to two decimals, as the rates the
// report prints are ("3.3333333333333335 of 10 req/s", a new user's trial).
TEST(TextReportTest, AShardsShareOfTheRateReadsAsARate) {
  FabricatedRun run = open_loop_run();
  run.config.rate = 10;
  run.config.connections = 3;
  run.config.shard = ShardSpec{2, 3, true};
  const std::string text = render_text_report(run.input());
  EXPECT_TRUE(contains(text, "shard 2/3: 1 of 3 connections, 3.33 of 10 req/s (slots k mod 3 = 1)"))
      << text;
}


// The README promises the line on every run: one too short for a CPU share says so instead of
// leaving it out (a new user's -n 3 run had a Host line and no Generator CPU line).
TEST(TextReportTest, AGeneratorCpuTooBriefToMeasureIsSaidNotLeftOut) {
  FabricatedRun run = closed_loop_run();
  run.result.host.meters = 1;
  run.result.generator_cpu = GeneratorCpu{};
  run.result.generator_cpu.add_worker(1'000'000, 3'000'000);  // 3 ms: too brief
  std::string text = render_text_report(run.input());
  EXPECT_TRUE(
      contains(text, "Generator CPU  not measured (no thread ran the 10.00ms a share needs)"))
      << text;
  run.result.generator_cpu.add_worker(20'000'000, 40'000'000);
  text = render_text_report(run.input());
  EXPECT_TRUE(contains(text, "Generator CPU  50.0% of 1 thread's time (busiest 50.0%)")) << text;
  EXPECT_FALSE(contains(text, "not measured")) << text;
}

}  // namespace
}  // namespace hammer
