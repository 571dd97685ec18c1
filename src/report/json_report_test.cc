// SPDX-License-Identifier: MIT
#include "report/json_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "json/json_value.h"
#include "report/report_test_support.h"
#include "report/verdict_text.h"
#include "stats/histogram_v2.h"

namespace hammer {
namespace {

using testing::censored_run;
using testing::closed_loop_run;
using testing::open_loop_run;
using Type = JsonValue::Kind;

// Through hammer's own strict reader: a report it reads is JSON to the letter, no member twice.
JsonValue parse_report(const ReportInput& input) {
  const std::string text = render_json_report(input);
  auto parsed = parse_json(text);
  EXPECT_TRUE(parsed.has_value()) << (parsed ? "" : parsed.error()) << "\n" << text;
  return parsed ? std::move(*parsed) : JsonValue{};
}

/// The member at `path` exists and has type `type` (integers: a number with no fraction).
::testing::AssertionResult has(const JsonValue& root,
                               std::initializer_list<std::string_view> path, Type type,
                               bool integer = false) {
  std::string where;
  for (std::string_view step : path) {
    where += '.';
    where += step;
  }
  const JsonValue* node = root.at(path);
  if (node == nullptr) return ::testing::AssertionFailure() << where << " is missing";
  if (node->kind != type) {
    return ::testing::AssertionFailure() << where << " has type " << static_cast<int>(node->kind);
  }
  if (integer && !node->as_int().has_value()) {
    return ::testing::AssertionFailure() << where << " = " << node->text << " is not an integer";
  }
  return ::testing::AssertionSuccess();
}

int64_t int_at(const JsonValue& root, std::initializer_list<std::string_view> path) {
  const JsonValue* node = root.at(path);
  return node != nullptr ? node->as_int().value_or(-1) : -1;
}

std::string string_at(const JsonValue& root, std::initializer_list<std::string_view> path) {
  const JsonValue* node = root.at(path);
  return node != nullptr && node->kind == Type::string ? node->text : "<missing>";
}

void expect_histogram_members(const JsonValue& root, std::string_view which) {
  for (std::string_view name : {"count", "min_ns", "max_ns", "mean_ns", "stdev_ns",
                                "out_of_range"}) {
    EXPECT_TRUE(has(root, {"latency", which, name}, Type::number, true));
  }
  for (std::string_view q : {"50", "75", "90", "95", "99", "99.9", "99.99"}) {
    EXPECT_TRUE(has(root, {"latency", which, "percentiles_ns", q}, Type::number, true));
  }
  EXPECT_TRUE(has(root, {"latency", which, "hdr"}, Type::string));
}

TEST(JsonReportTest, IsOneDocumentEndingInANewline) {
  const auto run = open_loop_run();
  const std::string text = render_json_report(run.input());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.front(), '{');
  EXPECT_EQ(text.back(), '\n');
  auto parsed = parse_json(text);
  EXPECT_TRUE(parsed.has_value()) << parsed.error();
}

TEST(JsonReportTest, HasEveryDocumentedMemberWithItsType) {
  auto run = open_loop_run();
  run.verdicts.push_back(OverCapacityVerdict{1500.5, 2000, 300, 40, 0});
  const JsonValue root = parse_report(run.input({"a note"}));

  EXPECT_TRUE(has(root, {"hammer", "version"}, Type::string));
  EXPECT_TRUE(has(root, {"hammer", "schema"}, Type::number, true));

  EXPECT_TRUE(has(root, {"config", "url"}, Type::string));
  EXPECT_TRUE(has(root, {"config", "connections"}, Type::number, true));
  EXPECT_TRUE(has(root, {"config", "threads"}, Type::number, true));
  EXPECT_TRUE(has(root, {"config", "duration_s"}, Type::number));
  EXPECT_TRUE(has(root, {"config", "rate"}, Type::number));
  EXPECT_TRUE(has(root, {"config", "mode"}, Type::string));
  EXPECT_TRUE(has(root, {"config", "stopwatch"}, Type::string));
  EXPECT_TRUE(has(root, {"config", "timeout_ms"}, Type::number));
  EXPECT_TRUE(has(root, {"config", "method"}, Type::string));

  EXPECT_TRUE(has(root, {"elapsed_ns"}, Type::number, true));
  for (std::string_view name : {"scheduled", "sent", "completed", "unsent", "bytes_read"}) {
    EXPECT_TRUE(has(root, {"requests", name}, Type::number, true)) << name;
  }
  EXPECT_TRUE(has(root, {"requests", "per_second"}, Type::number));
  EXPECT_TRUE(has(root, {"connections", "opened"}, Type::number, true));

  expect_histogram_members(root, "corrected");
  expect_histogram_members(root, "uncorrected");

  for (std::string_view kind : {"connect", "read", "write", "timeout", "parse"}) {
    EXPECT_TRUE(has(root, {"errors", kind}, Type::number, true)) << kind;
  }
  for (std::string_view status : {"1xx", "2xx", "3xx", "4xx", "5xx"}) {
    EXPECT_TRUE(has(root, {"status", status}, Type::number, true)) << status;
  }
  for (std::string_view name : {"dispatched", "mean_ns", "max_ns", "behind_schedule",
                                "threshold_ns", "peak_backlog", "idle_dispatched",
                                "idle_sum_ns", "timer_granularity_ns"}) {
    EXPECT_TRUE(has(root, {"dispatch_lag", name}, Type::number, true)) << name;
  }
  EXPECT_TRUE(has(root, {"dispatch_lag", "cause", "server"}, Type::number, true));
  EXPECT_TRUE(has(root, {"dispatch_lag", "cause", "generator"}, Type::number, true));
  EXPECT_TRUE(has(root, {"dispatch_lag", "hdr"}, Type::string));

  ASSERT_TRUE(has(root, {"verdicts"}, Type::array));
  ASSERT_TRUE(has(root, {"notes"}, Type::array));
  EXPECT_TRUE(has(root, {"interrupted"}, Type::boolean));
}

TEST(JsonReportTest, CarriesTheVersionAndSchemaOne) {
  const JsonValue root = parse_report(open_loop_run().input());
  EXPECT_EQ(string_at(root, {"hammer", "version"}), HAMMER_VERSION);
  EXPECT_EQ(int_at(root, {"hammer", "schema"}), 1);
}

TEST(JsonReportTest, ConfigFiguresAreInTheUnitsTheirNamesSay) {
  auto run = open_loop_run();
  run.config.method = "POST";
  run.config.duration_ns = 2'500'000'000;
  const JsonValue root = parse_report(run.input());
  EXPECT_EQ(string_at(root, {"config", "url"}), "http://127.0.0.1:8082/");
  EXPECT_EQ(int_at(root, {"config", "connections"}), 20);
  EXPECT_EQ(int_at(root, {"config", "threads"}), 4);
  EXPECT_EQ(root.at({"config", "duration_s"})->as_double(), 2.5);
  EXPECT_EQ(root.at({"config", "rate"})->as_double(), 2000.0);
  EXPECT_EQ(string_at(root, {"config", "mode"}), "open");
  EXPECT_EQ(string_at(root, {"config", "stopwatch"}), "corrected");
  EXPECT_EQ(root.at({"config", "timeout_ms"})->as_double(), 2000.0);
  EXPECT_EQ(string_at(root, {"config", "method"}), "POST");
}

TEST(JsonReportTest, CountersAndThroughputMatchTheRun) {
  const auto run = open_loop_run();
  const JsonValue root = parse_report(run.input());
  EXPECT_EQ(int_at(root, {"elapsed_ns"}), 10'000'000'000);
  EXPECT_EQ(int_at(root, {"requests", "scheduled"}), 20'000);
  EXPECT_EQ(int_at(root, {"requests", "sent"}), 19'995);
  EXPECT_EQ(int_at(root, {"requests", "completed"}), 19'990);
  EXPECT_EQ(int_at(root, {"requests", "unsent"}), 5);
  EXPECT_EQ(int_at(root, {"requests", "bytes_read"}), 1'562'500);
  EXPECT_DOUBLE_EQ(root.at({"requests", "per_second"})->as_double().value_or(-1), 1999.0);
  EXPECT_EQ(int_at(root, {"connections", "opened"}), 20);
  EXPECT_EQ(int_at(root, {"errors", "connect"}), 0);
  EXPECT_EQ(int_at(root, {"errors", "read"}), 4);
  EXPECT_EQ(int_at(root, {"errors", "write"}), 2);
  EXPECT_EQ(int_at(root, {"errors", "timeout"}), 0);
  EXPECT_EQ(int_at(root, {"errors", "parse"}), 4);
  EXPECT_EQ(int_at(root, {"status", "2xx"}), 19'990);
  EXPECT_EQ(int_at(root, {"status", "5xx"}), 0);
}

TEST(JsonReportTest, LatencyFiguresAreTheHistogramsInIntegerNanoseconds) {
  const auto run = open_loop_run();
  const JsonValue root = parse_report(run.input());
  const auto& corrected = run.result.corrected;
  const auto& uncorrected = run.result.uncorrected;
  EXPECT_EQ(int_at(root, {"latency", "corrected", "count"}), 1000);
  EXPECT_EQ(int_at(root, {"latency", "corrected", "min_ns"}), corrected.min());
  EXPECT_EQ(int_at(root, {"latency", "corrected", "max_ns"}), corrected.max());
  EXPECT_EQ(int_at(root, {"latency", "corrected", "mean_ns"}), std::llround(corrected.mean()));
  EXPECT_EQ(int_at(root, {"latency", "corrected", "stdev_ns"}), std::llround(corrected.stdev()));
  EXPECT_EQ(int_at(root, {"latency", "corrected", "percentiles_ns", "99.9"}),
            corrected.value_at_percentile(99.9));
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "percentiles_ns", "50"}),
            uncorrected.value_at_percentile(50));
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "percentiles_ns", "99.99"}),
            uncorrected.value_at_percentile(99.99));
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "out_of_range"}), 0);
}

bool names(const JsonValue* list, std::string_view name) {
  if (list == nullptr) return false;
  for (const JsonValue& item : list->items) {
    if (item.text == name) return true;
  }
  return false;
}

TEST(JsonReportTest, ACensoredPercentileIsTheTimeoutAndNamedInCensored) {
  const auto run = censored_run();
  const JsonValue root = parse_report(run.input());
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "timed_out"}), 2);
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "percentiles_ns", "99"}), 2'000'000'000);
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "max_ns"}), 2'000'000'000);
  const JsonValue* censored = root.at({"latency", "uncorrected", "censored"});
  ASSERT_NE(censored, nullptr);
  ASSERT_TRUE(censored->is_array());
  EXPECT_EQ(censored->items.size(), 6u);  // 99, 99.9, 99.99, max, mean, stdev
  for (std::string_view name : {"99", "99.9", "99.99", "max", "mean", "stdev"}) {
    EXPECT_TRUE(names(censored, name)) << name;
  }
  EXPECT_FALSE(names(censored, "95"));
  EXPECT_LT(int_at(root, {"latency", "uncorrected", "percentiles_ns", "95"}), 2'000'000'000);
  // The mean counts the 2 timed out at the timeout: (1 + ... + 98 ms + 2 x 2 s) / 100 = 88.51 ms,
  // a bound (the answers' own mean, 49.5 ms, would hide them); the stdev is unknown.
  EXPECT_NEAR(static_cast<double>(int_at(root, {"latency", "uncorrected", "mean_ns"})), 88.51e6,
              0.1e6);
  const JsonValue* stdev = root.at({"latency", "uncorrected", "stdev_ns"});
  ASSERT_NE(stdev, nullptr);
  EXPECT_TRUE(stdev->is_null());
  // Without a timeout the list is empty.
  const JsonValue plain = parse_report(open_loop_run().input());
  const JsonValue* none = plain.at({"latency", "corrected", "censored"});
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(none->items.empty());
}

TEST(JsonReportTest, PercentilesFlagAddsKeysAndKeepsEveryDefaultOne) {
  auto run = open_loop_run();
  run.config.percentiles = {50, 99.999, 62.5};
  const JsonValue root = parse_report(run.input());
  const auto& corrected = run.result.corrected;
  EXPECT_EQ(int_at(root, {"latency", "corrected", "percentiles_ns", "99.999"}),
            corrected.value_at_percentile(99.999));
  EXPECT_EQ(int_at(root, {"latency", "corrected", "percentiles_ns", "62.5"}),
            corrected.value_at_percentile(62.5));
  EXPECT_EQ(int_at(root, {"latency", "corrected", "percentiles_ns", "95"}),
            corrected.value_at_percentile(95));
  // Schema 1: the default keys stay, whatever the rows of the text report are.
  for (std::string_view q : {"50", "75", "90", "95", "99", "99.9", "99.99"}) {
    EXPECT_TRUE(has(root, {"latency", "uncorrected", "percentiles_ns", q}, Type::number, true))
        << q;
  }
}

TEST(JsonReportTest, HdrStringsAreV2Base64ThatDecodeToTheSameCounts) {
  const auto run = open_loop_run();
  const JsonValue root = parse_report(run.input());
  for (std::string_view which : {"corrected", "uncorrected"}) {
    const std::string hdr = string_at(root, {"latency", which, "hdr"});
    EXPECT_EQ(hdr.rfind("HISTF", 0), 0u) << which << ": " << hdr.substr(0, 16);
    const auto decoded = decode_v2_base64(hdr);
    ASSERT_TRUE(decoded.has_value()) << which << ": " << decoded.error();
    EXPECT_EQ(decoded->total_count(), 1000);
  }
  EXPECT_EQ(decode_v2_base64(string_at(root, {"latency", "corrected", "hdr"}))->max(),
            run.result.corrected.max());
}

TEST(JsonReportTest, DispatchLagCarriesItsCause) {
  const JsonValue root = parse_report(open_loop_run().input());
  EXPECT_EQ(int_at(root, {"dispatch_lag", "dispatched"}), 19'995);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "mean_ns"}), 11'870'000);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "max_ns"}), 194'660'000);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "behind_schedule"}), 2'461);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "threshold_ns"}), 1'000'000);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "peak_backlog"}), 37);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "cause", "server"}), 2'400);
  EXPECT_EQ(int_at(root, {"dispatch_lag", "cause", "generator"}), 61);
  // A result that does not know its budget (an older document) says null.
  EXPECT_TRUE(has(root, {"dispatch_lag", "budget_ns"}, Type::null));
  auto budgeted = open_loop_run();
  budgeted.result.lag.budget_ns = 1'000'000;
  budgeted.config.dispatch_precision_ns = 1'000'000;
  const JsonValue with_budget = parse_report(budgeted.input());
  EXPECT_EQ(int_at(with_budget, {"dispatch_lag", "budget_ns"}), 1'000'000);
  EXPECT_EQ(int_at(with_budget, {"config", "dispatch_precision_ns"}), 1'000'000);
}

TEST(JsonReportTest, ClosedLoopHasNullCorrectedRateScheduledAndDispatchLag) {
  const JsonValue root = parse_report(closed_loop_run().input());
  EXPECT_TRUE(has(root, {"latency", "corrected"}, Type::null));
  EXPECT_TRUE(has(root, {"config", "rate"}, Type::null));
  EXPECT_TRUE(has(root, {"requests", "scheduled"}, Type::null));
  EXPECT_TRUE(has(root, {"dispatch_lag"}, Type::null));
  EXPECT_EQ(string_at(root, {"config", "mode"}), "closed");
  EXPECT_EQ(string_at(root, {"config", "stopwatch"}), "uncorrected");
  expect_histogram_members(root, "uncorrected");
}

TEST(JsonReportTest, ClosedLoopStopwatchInOpenLoopKeepsBothHistograms) {
  auto run = open_loop_run();
  run.config.closed_loop_stopwatch = true;
  const JsonValue root = parse_report(run.input());
  EXPECT_EQ(string_at(root, {"config", "mode"}), "open");
  EXPECT_EQ(string_at(root, {"config", "stopwatch"}), "uncorrected");
  expect_histogram_members(root, "corrected");
  EXPECT_TRUE(has(root, {"dispatch_lag"}, Type::object));
}

TEST(JsonReportTest, EmptyHistogramHasNullFiguresNotZeros) {
  auto run = closed_loop_run();
  run.result.uncorrected.reset();
  const JsonValue root = parse_report(run.input());
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "count"}), 0);
  for (std::string_view name : {"min_ns", "max_ns", "mean_ns", "stdev_ns"}) {
    EXPECT_TRUE(has(root, {"latency", "uncorrected", name}, Type::null)) << name;
  }
  EXPECT_TRUE(has(root, {"latency", "uncorrected", "percentiles_ns", "99"}, Type::null));
  EXPECT_TRUE(has(root, {"latency", "uncorrected", "hdr"}, Type::string));
}

TEST(JsonReportTest, VerdictsCarryCodeTextAndFigures) {
  auto run = open_loop_run();
  run.verdicts.push_back(TooFewConnectionsVerdict{1, 4600, 230'000, 1.058, 2, false});
  const JsonValue root = parse_report(run.input());
  const JsonValue* verdicts = root.find("verdicts");
  ASSERT_NE(verdicts, nullptr);
  ASSERT_EQ(verdicts->items.size(), 1u);
  const JsonValue& verdict = verdicts->items[0];
  EXPECT_EQ(string_at(verdict, {"code"}), "too_few_connections");
  EXPECT_EQ(string_at(verdict, {"text"}), verdict_sentence(run.verdicts[0]));
  EXPECT_EQ(verdict.at({"figures", "connections"})->as_double(), 1);
  EXPECT_EQ(verdict.at({"figures", "rate"})->as_double(), 4600);
  EXPECT_EQ(verdict.at({"figures", "latency_ns"})->as_double(), 230'000);
  EXPECT_EQ(verdict.at({"figures", "connections_needed"})->as_double(), 1.058);
}

TEST(JsonReportTest, NotesAndInterruptedFlagMatchTheTextReport) {
  auto run = open_loop_run();
  run.result.interrupted = true;
  run.result.elapsed_ns = 3'210'000'000;
  run.result.uncorrected.record(61'000'000'000);
  const JsonValue root = parse_report(run.input({"caller \"note\"\n"}));
  EXPECT_TRUE(root.find("interrupted")->boolean);
  const JsonValue* notes = root.find("notes");
  ASSERT_NE(notes, nullptr);
  ASSERT_EQ(notes->items.size(), 3u);
  EXPECT_EQ(notes->items[0].text,
            "interrupted after 3.21s; figures cover the measured part");
  EXPECT_NE(notes->items[1].text.find("exceeded"), std::string::npos);
  EXPECT_EQ(notes->items[2].text, "caller \"note\"\n");
  EXPECT_EQ(int_at(root, {"latency", "uncorrected", "out_of_range"}), 1);
}

TEST(JsonReportTest, StringsFromTheUserAreEscaped) {
  auto run = open_loop_run();
  run.config.url = "http://127.0.0.1:8082/a\"b\\c\x01";
  const JsonValue root = parse_report(run.input());
  EXPECT_EQ(string_at(root, {"config", "url"}), run.config.url);
}

}  // namespace
}  // namespace hammer
