// SPDX-License-Identifier: MIT
#include "report/compare_report.h"

#include <gtest/gtest.h>

#include <string>

#include "json/json_value.h"

namespace hammer {
namespace {

// p50 moved 30 us beyond its interval and 5%, but within the 80 us its host's wake-ups spread:
// no change, and the row says why; p99 moved 2 ms beyond the host's 0.5 ms: worse.
Comparison held_and_worse() {
  Comparison comparison;
  comparison.a_seconds = 10;
  comparison.b_seconds = 10;
  CompareRow held{50, 200'000, 230'000, 30'000, 20'000, 40'000, CompareVerdict::no_change,
                  false, -1, 80'000, true};
  CompareRow worse{99, 4'000'000, 6'000'000, 2'000'000, 1'500'000, 2'500'000,
                   CompareVerdict::worse, false, -1, 500'000, false};
  comparison.rows = {held, worse};
  return comparison;
}

TEST(CompareReportTest, AChangeHeldByTheHostsNoiseSaysSoInItsRow) {
  const std::string text = render_compare_text(held_and_worse(), {"a.json", "b.json", "corrected"});
  EXPECT_NE(text.find("no change (host noise 80.00us)"), std::string::npos) << text;
  EXPECT_NE(text.find("within either run's host noise"), std::string::npos) << text;
  // The worse row names no host noise: it was not what decided it.
  const size_t p99 = text.find("99%");
  ASSERT_NE(p99, std::string::npos);
  EXPECT_EQ(text.find("host noise", p99), std::string::npos) << text;
}

TEST(CompareReportTest, JsonCarriesEachRowsHostNoiseAndWhetherItHeldTheRow) {
  auto json = parse_json(render_compare_json(held_and_worse(), {"a.json", "b.json", "corrected"}));
  ASSERT_TRUE(json.has_value()) << json.error();
  const JsonValue* rows = json->find("rows");
  ASSERT_NE(rows, nullptr);
  ASSERT_EQ(rows->items.size(), 2u);
  EXPECT_EQ(rows->items[0].find("verdict")->text, "no_change");
  EXPECT_EQ(rows->items[0].find("host_noise_ns")->as_int(), 80'000);
  EXPECT_TRUE(rows->items[0].find("within_host_noise")->boolean);
  EXPECT_EQ(rows->items[1].find("verdict")->text, "worse");
  EXPECT_EQ(rows->items[1].find("host_noise_ns")->as_int(), 500'000);
  EXPECT_FALSE(rows->items[1].find("within_host_noise")->boolean);
}

// Runs too short to resample say so under the header, and a gate says it judged nothing.
TEST(CompareReportTest, RunsWithTooFewSecondsSayNothingWasJudged) {
  Comparison comparison = held_and_worse();
  comparison.a_seconds = 1;
  comparison.b_seconds = 1;
  comparison.too_few_seconds = true;
  comparison.rows = {comparison.rows[1]};
  comparison.rows[0].verdict = CompareVerdict::no_change;
  comparison.rows[0].fail_percent = 10;
  comparison.rows[0].failed = true;  // as compare_runs judges a gate it cannot show holds
  comparison.rows[0].gate_unjudged = true;
  const std::string text = render_compare_text(comparison, {"a.json", "b.json", "corrected"});
  EXPECT_NE(text.find("\n  not judged: A has 1 measured second and B 1, and 3 each are needed "
                      "to resample; every row is no change (run each for 3 s or more)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not judged (too few seconds)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("--fail-if p99+10%: FAIL, not judged: too few measured seconds (A 1, B 1; "
                      "3 needed: run each longer)\n"),
            std::string::npos)
      << text;
  auto json = parse_json(render_compare_json(comparison, {"a.json", "b.json", "corrected"}));
  ASSERT_TRUE(json.has_value()) << json.error();
  EXPECT_TRUE(json->find("too_few_seconds")->boolean);
}

// A row past what the runs can place says how many requests were above it.
TEST(CompareReportTest, ARowWithTooFewRequestsAboveItSaysHowMany) {
  Comparison comparison = held_and_worse();
  CompareRow thin{99.99, 3'650'000, 3'020'000, -630'000, -800'000, -100'000,
                  CompareVerdict::no_change, false, -1, 0, false, 0.2, true};
  comparison.rows = {thin};
  const std::string text = render_compare_text(comparison, {"a.json", "b.json", "corrected"});
  EXPECT_NE(text.find("no change (too few requests above it: 0.2)"), std::string::npos) << text;
  EXPECT_NE(text.find("fewer than 3.7 requests above it in either run"), std::string::npos)
      << text;
  // A --fail-if gate on that row fails, and says it judged nothing.
  comparison.rows[0].fail_percent = 10;
  comparison.rows[0].failed = true;
  comparison.rows[0].gate_unjudged = true;
  const std::string gated = render_compare_text(comparison, {"a.json", "b.json", "corrected"});
  EXPECT_NE(gated.find("--fail-if p99.99+10%: FAIL, not judged: 0.2 requests above it in the "
                       "shorter run, 3.7 needed (a longer or faster run)\n"),
            std::string::npos)
      << gated;
  auto json = parse_json(render_compare_json(comparison, {"a.json", "b.json", "corrected"}));
  ASSERT_TRUE(json.has_value()) << json.error();
  const JsonValue& row = json->find("rows")->items[0];
  EXPECT_TRUE(row.find("too_few_requests")->boolean);
  EXPECT_NEAR(row.find("tail_requests")->as_double().value_or(-1), 0.2, 1e-9);
}

// A censored figure reads as the bound it is, the difference with it, and the runs' timeouts
// and host stalls are said above the rows; columns never run together.
TEST(CompareReportTest, ACensoredRowReadsAsABoundAndTheTimeoutsAreSaid) {
  Comparison comparison = held_and_worse();
  CompareRow bound{99, 2'100'000, 200'000'000, 197'900'000, 197'000'000, 198'000'000,
                   CompareVerdict::worse, true, 10, 0, false, 80, false};
  bound.b_censored = true;
  CompareRow huge{50, 1'000, 42'071'000, 42'070'000, 42'000'000, 42'100'000,
                  CompareVerdict::worse, false, -1, 0, false, 5000, false};
  comparison.rows = {huge, bound};
  comparison.b_facts = {800, 80, 200'000'000, 4, 300'120'000, 297'370'000};
  const std::string text = render_compare_text(comparison, {"a.json", "b.json", "corrected"});
  EXPECT_NE(text.find("  B: 80 of 800 requests timed out (10.0%, --timeout 200.00ms): its "
                      "percentiles they reach are only that bound (\"> 200.00ms\")\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  B: the host stalled 4 times for 10.00ms or more (300.12ms lost, the "
                      "longest 297.37ms)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  > 200.00ms  >+197.90ms >+9423.8%  -"), std::string::npos) << text;
  EXPECT_NE(text.find("worse (B timed out: by at least that)"), std::string::npos) << text;
  EXPECT_NE(text.find("+42.07ms +4207000.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("--fail-if p99+10%: FAIL (worse beyond noise, by >+9423.8%)"),
            std::string::npos)
      << text;
  auto json = parse_json(render_compare_json(comparison, {"a.json", "b.json", "corrected"}));
  ASSERT_TRUE(json.has_value()) << json.error();
  EXPECT_TRUE(json->find("rows")->items[1].find("b_censored")->boolean);
  EXPECT_EQ(json->at({"b_run", "timed_out"})->as_int(), 80);
}

}  // namespace
}  // namespace hammer
