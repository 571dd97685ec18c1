// SPDX-License-Identifier: MIT
#include "report/sweep_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json_value.h"
#include "sweep/sweep.h"

namespace hammer {
namespace {

// A connection sweep over 1, 2 and 4 connections whose throughput falls after the first.
struct FabricatedSweep {
  Config config;
  SweepResult result;
};

FabricatedSweep falling_sweep() {
  FabricatedSweep sweep;
  sweep.config.url = "http://127.0.0.1:8082/";
  sweep.config.threads = 1;
  sweep.config.duration_ns = 1'000'000'000;
  sweep.config.sweep.connections = {1, 2, 4};
  const double per_second[] = {40'000, 33'000, 30'000};
  for (int i = 0; i < 3; ++i) {
    StepSummary step;
    step.level = 1 << i;
    step.connections = 1 << i;
    step.threads = 1;
    step.elapsed_ns = 1'000'000'000;
    step.completed = static_cast<int64_t>(per_second[i]);
    step.per_second = per_second[i];
    step.has_latency = true;
    step.p50_ns = step.p99_ns = step.max_ns = 25'000 * (i + 1);
    step.mean_ns = 25'000.0 * (i + 1);
    step.cpu_cores = 0.37;
    step.usable_cores = 1;
    sweep.result.steps.push_back(step);
  }
  sweep.result.knee = KneeReading{0, 1, 40'000, 33'000, 25'000, 4, 75'000};
  sweep.result.collapse = CollapseReading{0, 1, 1, 40'000, 2, 33'000};
  return sweep;
}

// The capacity searches' gate: --slo p99=50ms.
SloLimit p99_under_50ms() {
  SloLimit limit;
  limit.key = "p99";
  limit.limit_text = "50ms";
  limit.percentile = 99;
  limit.limit_ns = 50'000'000;
  return limit;
}

// A capacity search `--rate LOW:HIGH --slo p99=50ms`, one thread, 1 s steps.
Config search_config(int64_t connections, double low, double high) {
  Config config;
  config.url = "http://127.0.0.1:8082/";
  config.threads = 1;
  config.connections = connections;
  config.duration_ns = 1'000'000'000;
  config.sweep.search_low = low;
  config.sweep.search_high = high;
  config.slos.push_back(p99_under_50ms());
  return config;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end = 0; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

TEST(SweepReportTest, TheDocumentCarriesTheTextReportsSentences) {
  const FabricatedSweep sweep = falling_sweep();
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  auto document = parse_json(render_sweep_json(sweep.config, sweep.result));
  ASSERT_TRUE(document.has_value()) << document.error();
  const JsonValue* summary = document->find("sweep")->find("summary");
  ASSERT_NE(summary, nullptr);
  std::vector<std::string> carried;
  for (const JsonValue& line : summary->items) carried.push_back(line.text);
  EXPECT_EQ(carried, lines_of(text));
  ASSERT_EQ(carried.size(), 3u) << text;
  EXPECT_TRUE(carried[0].starts_with("Knee: throughput stops rising after 1 connection: "));
  EXPECT_TRUE(carried[1].starts_with("Collapse: throughput fell as load rose, from 40000 req/s"));
  EXPECT_EQ(carried[2], "Generator CPU: its busiest step used 0.37 of 1 usable core (at 1 "
                        "connection), the most of any step's share, below the 80% that would "
                        "make it suspect.")
      << "one core is singular";
}

// With -p N every connection holds N requests in flight: Little's law gives back
// connections x N, and the deviation is measured from that, not from the connection count
// (it read +300% on every row of a healthy -p 4 sweep).
TEST(SweepReportTest, LittlesLawWithPipeliningComparesWithConnectionsTimesTheDepth) {
  FabricatedSweep sweep = falling_sweep();
  sweep.config.pipeline = 4;
  for (StepSummary& step : sweep.result.steps) {
    // 4 x connections in flight: per_second x mean = 4 x connections.
    step.mean_ns = 4.0 * static_cast<double>(step.connections) * 1e9 / step.per_second;
  }
  auto document = parse_json(render_sweep_json(sweep.config, sweep.result));
  ASSERT_TRUE(document.has_value()) << document.error();
  const JsonValue* steps = document->find("sweep")->find("steps");
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(steps->items.size(), 3u);
  for (const JsonValue& step : steps->items) {
    const JsonValue* in_flight = step.find("littles_law")->find("in_flight");
    const JsonValue* deviation = step.find("littles_law")->find("deviation_pct");
    ASSERT_NE(in_flight, nullptr);
    ASSERT_NE(deviation, nullptr);
    EXPECT_NEAR(in_flight->as_double().value_or(-1),
                4 * step.find("connections")->as_double().value_or(-1), 1e-6);
    EXPECT_NEAR(deviation->as_double().value_or(-1), 0, 1e-6);
  }
  const std::string row = render_sweep_row(sweep.config, sweep.result.steps[1]);
  EXPECT_NE(row.find("+0.0%"), std::string::npos) << row;
}

// A search over 1:100000 that met at every doubling up to 128 req/s and ran out of steps: the
// sentence gives 128 as a lower bound and the range still to search, the JSON says the same.
// Issue 22: a timed-out request held its connection for --timeout. Left out, Little's law read
// fewer in flight than the connections carried; counted, a step whose every connection was
// always busy reads the connection count again.
TEST(SweepReportTest, LittlesLawCountsEachTimedOutRequestAtTheTimeout) {
  FabricatedSweep sweep = falling_sweep();
  for (StepSummary& step : sweep.result.steps) {
    // Half the connections' time went to answers, half to requests timed out after 1 s.
    step.elapsed_ns = 10'000'000'000;
    step.mean_ns = 0.5 * static_cast<double>(step.connections) * 1e9 / step.per_second;
    step.tail = CensoredTail{step.completed, 5 * step.connections, 1'000'000'000};
  }
  const std::string row = render_sweep_row(sweep.config, sweep.result.steps[1]);
  EXPECT_NE(row.find("+0.0%"), std::string::npos) << row;
  EXPECT_NEAR(sweep.result.steps[1].in_flight(),
              static_cast<double>(sweep.result.steps[1].connections), 1e-6);
  // The columns then do not multiply out (req/s x mean is half of rps*mean): said.
  sweep.config.timeout_ns = 1'000'000'000;
  EXPECT_NE(render_sweep_summary(sweep.config, sweep.result)
                .find("note: rps*mean counts each timed-out request as holding its connection "
                      "for --timeout 1.00s; the mean column is the answered requests'\n"),
            std::string::npos);
}

TEST(SweepReportTest, ASearchOutOfStepsGivesALowerBoundAndTheRangeLeft) {
  Config config = search_config(20, 1, 100000);
  config.rate = 100000;
  SweepResult result;
  result.kind = SweepKind::rate;
  result.search = true;
  for (int i = 0; i < 8; ++i) {
    StepSummary step;
    step.level = 1 << i;
    step.rate = step.level;
    step.connections = 20;
    step.threads = 1;
    step.per_second = step.level;
    result.steps.push_back(step);
  }
  CapacityReading reading;
  reading.found = true;
  reading.rate = 128;
  reading.out_of_steps = true;
  reading.steps = 8;
  result.capacity = reading;

  const std::string text = render_sweep_summary(config, result);
  EXPECT_NE(text.find("Capacity: at least 128 req/s"), std::string::npos) << text;
  EXPECT_NE(text.find("--rate 128:100000"), std::string::npos) << text;
  EXPECT_EQ(text.find("is the highest rate"), std::string::npos) << text;
  auto document = parse_json(render_sweep_json(config, result));
  ASSERT_TRUE(document.has_value()) << document.error();
  const JsonValue* capacity = document->find("sweep")->find("capacity");
  ASSERT_NE(capacity, nullptr);
  ASSERT_NE(capacity->find("out_of_steps"), nullptr);
  EXPECT_TRUE(capacity->find("out_of_steps")->boolean);
  EXPECT_EQ(capacity->find("first_failing_level")->kind, JsonValue::Kind::null);
}

// A sweep against a server that never answered: every level failed with 0 req/s. The knee line
// said "throughput was still rising (or latency flat) up to 2 connections", a curve that was
// never measured.
TEST(SweepReportTest, NoKneeIsReadFromASweepWithNoResponse) {
  FabricatedSweep sweep = falling_sweep();
  for (StepSummary& step : sweep.result.steps) {
    step.completed = 0;
    step.per_second = 0;
    step.has_latency = false;
    step.errors = 5;
    step.failed = true;
  }
  sweep.result.knee.reset();
  sweep.result.collapse.reset();
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_EQ(text.find("still rising"), std::string::npos) << text;
  EXPECT_NE(text.find("Knee: none: no level got a response"), std::string::npos) << text;
}

// A rate sweep whose every level was sustained (500 and 900 req/s, no knee) with a --control
// route that drove 66k req/s: the summary said "the plateau is the server's, not hammer's", a
// plateau the sweep never reached.
TEST(SweepReportTest, AControlRunDoesNotNameAPlateauTheSweepNeverReached) {
  FabricatedSweep sweep = falling_sweep();
  sweep.config.sweep.control_url = "http://127.0.0.1:8083/";
  sweep.result.knee.reset();
  sweep.result.collapse.reset();
  sweep.result.steps.resize(2);
  for (StepSummary& step : sweep.result.steps) step.per_second = 1000 * step.level;
  StepSummary control = sweep.result.steps.back();
  control.per_second = 66'000;
  sweep.result.control_steps.push_back(control);
  std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_EQ(text.find("the plateau is the server's"), std::string::npos) << text;
  EXPECT_NE(text.find("no level reached a plateau"), std::string::npos) << text;
  // With a knee, the plateau is there to blame.
  sweep.result.knee = KneeReading{0, 1, 1000, 1020, 25'000, 2, 75'000};
  text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_NE(text.find("the plateau is the server's, not hammer's"), std::string::npos) << text;
}

// A rate sweep of 400, 800 and 1600 req/s against a server that holds about 860: the last level
// sent 858 req/s of its 1600 (over capacity), 7% above the 800 before, so no knee was read,
// and the line said "throughput was still rising (or latency flat) up to 1600 req/s".
TEST(SweepReportTest, ARateSweepWhoseLastLevelFellShortSaysTheLimitLiesBelowIt) {
  FabricatedSweep sweep = falling_sweep();
  sweep.config.sweep.connections.clear();
  sweep.config.sweep.rates = {400, 800, 1600};
  sweep.config.rate = 1600;
  sweep.config.connections = 10;
  sweep.result.kind = SweepKind::rate;
  sweep.result.knee.reset();
  sweep.result.collapse.reset();
  const double rates[] = {400, 800, 1600};
  const double achieved[] = {400, 800, 858};
  for (size_t i = 0; i < 3; ++i) {
    StepSummary& step = sweep.result.steps[i];
    step.level = step.rate = rates[i];
    step.connections = 10;
    step.per_second = achieved[i];
  }
  sweep.result.steps[2].verdict_codes = {VerdictCode::over_capacity};
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_EQ(text.find("still rising (or latency flat)"), std::string::npos) << text;
  EXPECT_NE(text.find("1600 req/s completed only 858 req/s"), std::string::npos) << text;
  EXPECT_NE(text.find("between 800 req/s and 1600 req/s"), std::string::npos) << text;
}

// A knee read at a level already short of its rate is past the server's limit: the sentence
// places the limit below it (a server topping out at 975 req/s read "stops rising after 1200
// req/s", 95% of that level late).
TEST(SweepReportTest, AKneeAtALevelPastTheServersLimitSaysTheLimitLiesBelowIt) {
  FabricatedSweep sweep = falling_sweep();
  sweep.config.sweep.connections.clear();
  sweep.config.sweep.rates = {500, 900, 1200, 2000};
  sweep.config.rate = 2000;
  sweep.config.connections = 8;
  sweep.result.kind = SweepKind::rate;
  sweep.result.collapse.reset();
  sweep.result.steps.push_back(sweep.result.steps.back());
  const double rates[] = {500, 900, 1200, 2000};
  const double achieved[] = {500, 900, 976, 975};
  for (size_t i = 0; i < 4; ++i) {
    StepSummary& step = sweep.result.steps[i];
    step.level = step.rate = rates[i];
    step.connections = 8;
    step.per_second = achieved[i];
    step.dispatched = 1000;
    step.behind_server = i >= 2 ? 954 : 0;
  }
  sweep.result.knee = KneeReading{2, 1200, 976, 975, 50'000'000, 2000, 180'000'000};
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_NE(text.find("Knee: the server saturates between 900 req/s and 1200 req/s: at most 976 "
                      "req/s completed, where 1200 req/s was offered (95.4% late for the "
                      "server)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("stops rising after"), std::string::npos) << text;
}

// A level whose server stopped answering, or that failed, keeps its row, marked, and is no
// point of the curve: the half step a dying server answered read as a collapse.
TEST(SweepReportTest, ALevelTheServerAbandonedIsMarkedAndLeftOutOfTheReadings) {
  FabricatedSweep sweep = falling_sweep();
  sweep.result.steps[1].verdict_codes = {VerdictCode::server_stopped_answering};
  sweep.result.steps[2].failed = true;
  sweep.result.steps[2].verdict_codes = {VerdictCode::mostly_non_2xx};
  read_curve(sweep.config, sweep.result);
  EXPECT_FALSE(sweep.result.collapse.has_value());
  EXPECT_FALSE(sweep.result.knee.has_value());
  const std::string text = render_sweep_text(sweep.config, sweep.result);
  EXPECT_NE(text.find("  the server stopped answering\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  failed: mostly answers other than 2xx/3xx\n"), std::string::npos) << text;
  EXPECT_NE(text.find("note: the knee and collapse are read from the levels that ran whole; left "
                      "out: 2 connections (the server stopped answering), 4 connections "
                      "(failed: mostly answers other than 2xx/3xx)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Knee: not read: fewer than two levels ran whole"), std::string::npos)
      << text;
}

// One level where hammer sent late: "(at level 800)", not "(at levels 800)".
TEST(SweepReportTest, TheLateWarningCountsItsLevelsInGoodEnglish) {
  FabricatedSweep sweep = falling_sweep();
  sweep.result.steps[1].verdict_codes = {VerdictCode::generator_saturated};
  sweep.result.steps[1].behind_generator = 13;
  std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_NE(text.find("13 requests late with a connection idle (at level 2);"), std::string::npos)
      << text;
  sweep.result.steps[2].verdict_codes = {VerdictCode::generator_saturated};
  sweep.result.steps[2].behind_generator = 1;
  text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_NE(text.find("14 requests late with a connection idle (at levels 2, 4);"),
            std::string::npos)
      << text;
}

// A level whose lateness moved no percentile (generator_late) is noted, not warned about.
TEST(SweepReportTest, LatenessThatMovesNoPercentileIsANoteNotAWarning) {
  FabricatedSweep sweep = falling_sweep();
  sweep.result.steps[1].verdict_codes = {VerdictCode::generator_late};
  sweep.result.steps[1].behind_generator = 13;
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_EQ(text.find("warning: hammer itself sent"), std::string::npos) << text;
  EXPECT_NE(text.find("note: hammer itself sent 13 requests late with a connection idle (at 2), "
                      "too few or too little to move a reported percentile by a tenth"),
            std::string::npos)
      << text;
}

// One connection, one thread: singular (it read "1 connections, up to 1 threads").
TEST(SweepReportTest, TheHeaderCountsInTheSingular) {
  Config config;
  config.url = "http://127.0.0.1:8082/";
  config.connections = 1;
  config.threads = 1;
  config.duration_ns = 1'000'000'000;
  config.sweep.rates = {50, 100};
  config.rate = 100;
  const std::string header = render_sweep_header(config);
  EXPECT_NE(header.find(", 1 connection, up to 1 thread; "), std::string::npos) << header;
  config.connections = 4;
  config.threads = 2;
  EXPECT_NE(render_sweep_header(config).find(", 4 connections, up to 2 threads; "),
            std::string::npos);
}

// A capacity search (or a stepped sweep with --slo) interrupted before any level missed: the
// best level so far is "at least", never "the highest rate that met" as if the search had
// bracketed the capacity, nor "the top of the range" when the top never ran.
// SIGTERM (timeout(1), a CI runner, kubectl) 1 s into the second 2 s step of
// --rate 100,200,300: the note said "interrupted by Ctrl-C", and nothing said that the 200 row
// covered half a step. The note names both signals and the step that was cut, and how long it ran.
TEST(SweepReportTest, AnInterruptedSweepNamesTheStepItCutAndHowLongItRan) {
  FabricatedSweep sweep = falling_sweep();
  sweep.config.duration_ns = 2'000'000'000;
  sweep.result.interrupted = true;
  sweep.result.steps.pop_back();
  sweep.result.steps.back().interrupted = true;
  sweep.result.steps.back().elapsed_ns = 1'000'000'000;
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  const std::string note =
      "note: interrupted (Ctrl-C or SIGTERM) during the step at 2 connections, which ran 1.00s "
      "of 2.00s; later steps were not run";
  EXPECT_NE(text.find(note + "\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("by Ctrl-C"), std::string::npos) << text;
  // Between two steps: no step was cut.
  sweep.result.steps.back().interrupted = false;
  EXPECT_NE(render_sweep_summary(sweep.config, sweep.result)
                .find("note: interrupted (Ctrl-C or SIGTERM); later steps were not run\n"),
            std::string::npos);
}

// The cut step's row says so as it is printed (the note comes only at the end, and a reader
// of the rows alone took a third of a step for a whole one).
TEST(SweepReportTest, TheRowOfTheCutStepIsMarked) {
  FabricatedSweep sweep = falling_sweep();
  StepSummary& cut = sweep.result.steps.back();
  EXPECT_EQ(render_sweep_row(sweep.config, cut).find("interrupted"), std::string::npos);
  cut.interrupted = true;
  cut.elapsed_ns = 120'000'000;
  const std::string row = render_sweep_row(sweep.config, cut);
  EXPECT_NE(row.find("  interrupted after 120.00ms\n"), std::string::npos) << row;
}

// Ctrl-C before the first step: no rate was measured, so none "missed".
TEST(SweepReportTest, ASearchCutBeforeItsFirstStepReadsNoCapacity) {
  const Config config = search_config(4, 100, 100000);
  SweepResult result;
  result.kind = SweepKind::rate;
  result.search = true;
  result.interrupted = true;
  result.capacity = CapacityReading{};
  const std::string text = render_sweep_summary(config, result);
  EXPECT_NE(text.find("Capacity: not read: the search was interrupted before its first step.\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("no rate met"), std::string::npos) << text;
  EXPECT_NE(text.find("note: interrupted (Ctrl-C or SIGTERM); later steps were not run"),
            std::string::npos)
      << text;
}

TEST(SweepReportTest, ACapacityCutShortByCtrlCIsALowerBound) {
  Config config = search_config(4, 100, 100000);
  SweepResult result;
  result.kind = SweepKind::rate;
  result.search = true;
  result.interrupted = true;
  for (double level : {100.0, 200.0, 400.0}) {
    StepSummary step;
    step.level = step.rate = step.per_second = level;
    step.connections = 4;
    step.threads = 1;
    result.steps.push_back(step);
  }
  result.steps.back().interrupted = true;
  CapacityReading reading;
  reading.found = true;
  reading.rate = 400;
  reading.steps = 3;
  result.capacity = reading;
  std::string text = render_sweep_summary(config, result);
  EXPECT_NE(text.find("Capacity: at least 400 req/s: every rate tried met every SLO (p99 <= "
                      "50.00ms), but the search was interrupted before any rate missed."),
            std::string::npos)
      << text;

  // The same levels as a stepped list --rate 100,200,400,800, cut after 400.
  config.sweep.search_low = config.sweep.search_high = 0;
  config.sweep.rates = {100, 200, 400, 800};
  result.search = false;
  result.capacity = capacity_from_steps(result.steps, 800);
  text = render_sweep_summary(config, result);
  // The cut step measured part of a run: it decides nothing (it was read as 400 met).
  EXPECT_NE(text.find("Capacity: at least 200 req/s: every level tried met every SLO (p99 <= "
                      "50.00ms), but the sweep was interrupted before any level missed."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("top of the range"), std::string::npos) << text;
}


// Issue 23: a level the host left unsettled after its repeats is marked where it is shown, and
// the readings it places are not given as findings.
TEST(SweepReportTest, ANoisyLevelIsMarkedOnItsRowExplainedAndCarriedInTheDocument) {
  FabricatedSweep sweep = falling_sweep();
  StepSummary& noisy = sweep.result.steps[2];  // 4 connections: neither reading rests on it
  noisy.noisy = true;
  noisy.runs = 3;
  noisy.run_p99_ns = {400'000'000, 75'000, 9'000'000};
  noisy.host_measured = true;
  sweep.result.steps[1].runs = 2;  // repeated, and reproduced
  read_curve(sweep.config, sweep.result);

  const std::string row = render_sweep_row(sweep.config, noisy);
  EXPECT_TRUE(row.starts_with("      4~")) << row;
  EXPECT_TRUE(row.ends_with("  noisy after 3 runs\n")) << row;
  EXPECT_TRUE(render_sweep_row(sweep.config, sweep.result.steps[1]).ends_with("  2 runs\n"));
  EXPECT_EQ(render_sweep_row(sweep.config, sweep.result.steps[0]).find("run"), std::string::npos);

  const std::vector<std::string> lines = lines_of(render_sweep_summary(sweep.config, sweep.result));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "~ noisy: 4 connections was still unsettled after its repeats (host "
                      "stalls, or p99s more than 1.5x apart); the row shows its quietest run. "
                      "Repeat on a quieter machine.");
  EXPECT_EQ(lines[1], "note: 2 connections was run again after the host stalled, and "
                      "reproduced; the row shows the quietest run");
  // The knee and the collapse are placed by 1 and 2 connections: they stand, beside the noise.
  EXPECT_TRUE(lines[2].starts_with("Knee: throughput stops rising after 1 connection: ")) << lines[2];
  EXPECT_TRUE(lines[2].ends_with(" It rests on a noisy level: 4 connections.")) << lines[2];
  EXPECT_TRUE(lines[3].ends_with(" It rests on a noisy level: 4 connections.")) << lines[3];

  auto document = parse_json(render_sweep_json(sweep.config, sweep.result));
  ASSERT_TRUE(document.has_value()) << document.error();
  const JsonValue* steps = document->at({"sweep", "steps"});
  ASSERT_NE(steps, nullptr);
  EXPECT_TRUE(steps->items[2].find("noisy")->boolean);
  EXPECT_EQ(steps->items[2].find("runs")->as_double(), 3.0);
  EXPECT_EQ(steps->items[2].find("run_p99_ns")->items.size(), 3u);
  EXPECT_EQ(steps->items[2].find("host_stall_ns")->as_double(), 0.0);
  EXPECT_FALSE(steps->items[0].find("noisy")->boolean);
  EXPECT_TRUE(steps->items[0].find("host_stall_ns")->is_null());  // no meter in a made-up step
  const JsonValue* noise = document->at({"sweep", "noise"});
  ASSERT_NE(noise, nullptr);
  EXPECT_EQ(noise->find("noisy_levels")->items.size(), 1u);
  EXPECT_EQ(noise->find("repeated_levels")->items.size(), 2u);
  EXPECT_EQ(noise->find("knee")->text, "rests_on_noisy");
  EXPECT_EQ(noise->find("collapse")->text, "rests_on_noisy");
  EXPECT_TRUE(noise->find("capacity")->is_null());
}

TEST(SweepReportTest, AReadingANoisyLevelPlacesCannotBeRead) {
  FabricatedSweep sweep = falling_sweep();
  sweep.result.steps[1].noisy = true;  // 2 connections: where the fall is, after the knee
  sweep.result.steps[1].runs = 3;
  read_curve(sweep.config, sweep.result);
  const std::string text = render_sweep_summary(sweep.config, sweep.result);
  EXPECT_NE(text.find("Knee: cannot be read: it rests on 1 connection and 2 connections, and 2 "
                      "connections stayed noisy after its repeats; repeat the sweep on a "
                      "quieter machine.\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Collapse: cannot be read: it rests on 1 connection and 2 connections"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("throughput fell"), std::string::npos) << text;
  auto document = parse_json(render_sweep_json(sweep.config, sweep.result));
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->at({"sweep", "noise", "collapse"})->text, "unreadable");
}

TEST(SweepReportTest, ACapacityWhoseMissingRateStayedNoisyCannotBeRead) {
  const Config config = search_config(4, 100, 1000);
  SweepResult result;
  result.kind = SweepKind::rate;
  result.search = true;
  for (double level : {100.0, 200.0, 400.0, 300.0}) {
    StepSummary step;
    step.level = step.rate = step.per_second = level;
    step.connections = 4;
    step.threads = 1;
    if (level >= 300) step.misses.push_back(StepMiss::slo);
    result.steps.push_back(step);
  }
  result.steps[3].noisy = true;  // 300 req/s: a freeze, not the server, may have missed it
  result.steps[3].runs = 3;
  CapacityReading reading;
  reading.found = true;
  reading.rate = 200;
  reading.first_failing = 300;
  reading.steps = 4;
  result.capacity = reading;
  read_curve(config, result);
  EXPECT_EQ(result.capacity_noise, ReadingNoise::unreadable);
  const std::string text = render_sweep_summary(config, result);
  EXPECT_NE(text.find("Capacity: cannot be read: it rests on 200 req/s and 300 req/s, and 300 "
                      "req/s stayed noisy after its repeats; repeat the search on a quieter "
                      "machine.\n"),
            std::string::npos)
      << text;
}

TEST(SweepReportTest, TheHeaderSaysTheMostRunsAndTimeBeforeTheSweepStarts) {
  FabricatedSweep sweep = falling_sweep();
  sweep.config.warmup_ns = 2'000'000'000;
  const std::vector<std::string> lines = lines_of(render_sweep_header(sweep.config));
  ASSERT_GE(lines.size(), 3u);
  // 3 levels x 3 runs x (1 s + 2 s of warm-up).
  EXPECT_EQ(lines[2], "  at most 9 runs, up to 27s: a level is run up to 2 more times when the "
                      "host stalls or its p99 does not reproduce");
  auto document = parse_json(render_sweep_json(sweep.config, sweep.result));
  ASSERT_TRUE(document.has_value()) << document.error();
  EXPECT_EQ(document->at({"sweep", "max_runs"})->as_double(), 9.0);
  EXPECT_EQ(document->at({"sweep", "max_duration_ns"})->as_double(), 27e9);
}

}  // namespace
}  // namespace hammer
