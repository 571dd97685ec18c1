// SPDX-License-Identifier: MIT
#include "report/regimes.h"

#include <gtest/gtest.h>

#include "run/timeline_readings_testing.h"

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

using testing::rows_of;

TEST(RegimeNoteTest, ASlowStartIsNamedWithItsRatesAndAWarmupThatCoversIt) {
  // autocannon's case: three slow seconds, then a steady 42k.
  const auto note =
      regime_note(rows_of({300, 900, 4'000, 42'000, 42'500, 41'800, 42'100, 42'300}), kSecond,
                  30'000);
  ASSERT_TRUE(note.has_value());
  EXPECT_NE(note->find("seconds 1 (300 req/s), 2 (900 req/s) and 3 (4000 req/s)"),
            std::string::npos)
      << *note;
  EXPECT_NE(note->find("median of 41900 req/s"), std::string::npos) << *note;
  EXPECT_NE(note->find("Requests/sec (30000)"), std::string::npos) << *note;
  EXPECT_NE(note->find("--warmup 3s"), std::string::npos) << *note;
}

TEST(RegimeNoteTest, ANoisyFastPhaseDoesNotHideASlowStart) {
  // Seen on a busy machine: the fast seconds vary 2x among themselves.
  const auto note =
      regime_note(rows_of({417, 345, 6'756, 15'751, 7'869}), kSecond, 6'214);
  ASSERT_TRUE(note.has_value());
  EXPECT_NE(note->find("seconds 1 (417 req/s) and 2 (345 req/s) against"), std::string::npos)
      << *note;
  EXPECT_NE(note->find("--warmup 2s"), std::string::npos) << *note;
}

TEST(RegimeNoteTest, ASlowMajorityNamesTheFastSeconds) {
  const auto note = regime_note(rows_of({1'000, 1'100, 950, 9'000, 9'500}), kSecond, 4'300);
  ASSERT_TRUE(note.has_value());
  EXPECT_NE(note->find("seconds 4 (9000 req/s) and 5 (9500 req/s)"), std::string::npos) << *note;
  EXPECT_NE(note->find("not at the start"), std::string::npos) << *note;
}

// -r 0.5 -d 4: one request every other second, by the schedule. The note read "two regimes:
// seconds 2 (0 req/s) and 4 (0 req/s) against a median of 0 req/s; Requests/sec (0) counts
// both". Rows of a few requests each are too coarse to show a regime: one request more or
// less halves them.
TEST(RegimeNoteTest, RowsOfAFewRequestsEachAreTooCoarseForANote) {
  EXPECT_FALSE(regime_note(rows_of({1, 0, 1, 0}), kSecond, 0.5));
  EXPECT_FALSE(regime_note(rows_of({4, 1, 5, 4, 5}), kSecond, 3.8));
  // Ten a second is enough: a second with none is a regime.
  EXPECT_TRUE(regime_note(rows_of({10, 10, 0, 10, 10}), kSecond, 8));
}

TEST(RegimeNoteTest, ASteadyRunHasNoNote) {
  EXPECT_FALSE(regime_note(rows_of({10'000, 9'500, 10'400, 9'900, 10'100}), kSecond, 10'000));
  // Ordinary noise on a busy machine (a second at 60% of the median) is not a regime.
  EXPECT_FALSE(regime_note(rows_of({10'000, 6'000, 10'400, 9'900, 10'100}), kSecond, 9'000));
}

TEST(RegimeNoteTest, FewerThanThreeRowsSayNothing) {
  EXPECT_FALSE(regime_note(rows_of({10, 10'000}), kSecond, 5'000));
}

TEST(RegimeNoteTest, WarmupRowsAreLeftOutAndTheSuggestionCountsFromTheStart) {
  // Warm-up of 2 s already; the slow part lasted into the first measured second.
  const auto note = regime_note(rows_of({100, 200, 300, 20'000, 20'100, 19'900}, 2), kSecond,
                                15'000);
  ASSERT_TRUE(note.has_value());
  EXPECT_NE(note->find("second 3 (300 req/s)"), std::string::npos) << *note;
  EXPECT_NE(note->find("--warmup 3s"), std::string::npos) << *note;
  // A warm-up that covers the slow part leaves a steady measured part.
  EXPECT_FALSE(regime_note(rows_of({100, 200, 300, 20'000, 20'100, 19'900}, 3), kSecond, 20'000));
}

TEST(RegimeNoteTest, ADipInTheMiddleIsNamedButNoWarmupIsSuggested) {
  const auto note =
      regime_note(rows_of({10'000, 10'100, 500, 9'900, 10'000}), kSecond, 8'000);
  ASSERT_TRUE(note.has_value());
  EXPECT_NE(note->find("second 3 (500 req/s)"), std::string::npos) << *note;
  EXPECT_NE(note->find("not at the start"), std::string::npos) << *note;
  EXPECT_EQ(note->find("--warmup"), std::string::npos) << *note;
}

TEST(RegimeNoteTest, AShortLastRowIsNotARegime) {
  std::vector<SecondFigures> rows = rows_of({10'000, 10'000, 10'000, 10'000});
  rows.back().length_ns = 100 * kMs;  // a 0.1 s tail with 1,000 requests is 10k req/s...
  rows.back().completed = 50;         // ... but this one is too short to judge
  EXPECT_FALSE(regime_note(rows, kSecond, 10'000));
}

TEST(SlowRequestNoteTest, AFewStalledRequestsAreCountedAndPlaced) {
  SlowRequestFigures figures;
  figures.threshold_ns = slow_threshold_ns(0, 100'000);  // 10x p50 = 1 ms
  figures.max_ns = 316 * kMs;
  figures.p999_ns = 400'000;
  const auto note = slow_request_note(rows_of({50'000, 50'000, 50'000}, 0, {20, 0, 0}), figures);
  ASSERT_TRUE(note.has_value());
  EXPECT_EQ(*note,
            "20 requests took over 1.00ms (max 316.00ms), all in second 1 — no percentile shows "
            "them");
}

TEST(SlowRequestNoteTest, SeveralSecondsAreListedWithTheirCounts) {
  SlowRequestFigures figures;
  figures.threshold_ns = 100 * kMs;
  figures.threshold_given = true;
  figures.max_ns = 250 * kMs;
  figures.p999_ns = 120 * kMs;  // they show in p99.9: no "no percentile" claim
  const auto note =
      slow_request_note(rows_of({1'000, 1'000, 1'000, 1'000}, 0, {0, 12, 0, 3}), figures);
  ASSERT_TRUE(note.has_value());
  EXPECT_EQ(*note, "15 requests took over 100.00ms (max 250.00ms), in seconds 2 (12) and 4 (3)");
}

TEST(SlowRequestNoteTest, NothingToSayWhenMaxIsCloseToTheTail) {
  SlowRequestFigures figures;
  figures.threshold_ns = 1 * kMs;
  figures.max_ns = 3 * kMs;
  figures.p999_ns = 2 * kMs;  // max within 10x p99.9: an ordinary tail
  EXPECT_FALSE(slow_request_note(rows_of({1'000, 1'000, 1'000}, 0, {5, 0, 0}), figures));
  figures.threshold_given = true;  // unless --slow asked for a count
  EXPECT_TRUE(slow_request_note(rows_of({1'000, 1'000, 1'000}, 0, {5, 0, 0}), figures));
}

TEST(SlowRequestNoteTest, WarmupRowsDoNotCount) {
  SlowRequestFigures figures;
  figures.threshold_ns = 1 * kMs;
  figures.max_ns = 300 * kMs;
  figures.p999_ns = 100'000;
  EXPECT_FALSE(slow_request_note(rows_of({1'000, 1'000, 1'000}, 1, {20, 0, 0}), figures));
}

TEST(SlowRequestNoteTest, ThresholdIsSlowWhenGivenElseTenTimesTheMedian) {
  EXPECT_EQ(slow_threshold_ns(5 * kMs, 100'000), 5 * kMs);
  EXPECT_EQ(slow_threshold_ns(0, 100'000), 1 * kMs);
}

}  // namespace
}  // namespace hammer
