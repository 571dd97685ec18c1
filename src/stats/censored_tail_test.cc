// SPDX-License-Identifier: MIT
#include "stats/censored_tail.h"

#include <gtest/gtest.h>

#include <cmath>

namespace hammer {
namespace {

constexpr int64_t kTimeoutNs = 2'000'000'000;

// `answered` values of 1..answered ms, and `timed_out` more that have none.
CensoredTail tail_of(Histogram& histogram, int64_t answered, int64_t timed_out) {
  for (int64_t ms = 1; ms <= answered; ++ms) histogram.record(ms * 1'000'000);
  return censored_tail(histogram, timed_out, kTimeoutNs);
}

TEST(CensoredTailTest, NothingIsCensoredWithoutATimeout) {
  const CensoredTail tail{1000, 0, kTimeoutNs};
  EXPECT_FALSE(tail.any());
  EXPECT_FALSE(tail.censors(99.99));
  EXPECT_FALSE(tail.censors(100));
  EXPECT_DOUBLE_EQ(tail.answered_percent(), 100.0);
}

TEST(CensoredTailTest, APercentileAtExactlyTheAnsweredShareIsTheSlowestAnswerAndAboveIsCensored) {
  // 98 answered, 2 timed out: p98 is rank 98 of 100 (the slowest answer); p98.0001 is past it.
  const CensoredTail two_of_hundred{98, 2, kTimeoutNs};
  EXPECT_FALSE(two_of_hundred.censors(98));
  EXPECT_TRUE(two_of_hundred.censors(98.0001));
  EXPECT_TRUE(two_of_hundred.censors(99));
  EXPECT_FALSE(two_of_hundred.censors(97.9999));
  EXPECT_DOUBLE_EQ(two_of_hundred.answered_percent(), 98.0);
  // 1 of 1000: p99.9 is exactly the answered share (0.999 x 1000 = 999, not above 999); a double
  // product 0.999 * 1000 would not be exact.
  const CensoredTail one_of_thousand{999, 1, kTimeoutNs};
  EXPECT_FALSE(one_of_thousand.censors(99.9));
  EXPECT_TRUE(one_of_thousand.censors(99.9001));
  EXPECT_FALSE(one_of_thousand.censors(99));
  // 1 of 10,000 hides p99.99 only by its boundary: 0.9999 x 10,000 = 9,999 answered.
  const CensoredTail one_of_ten_thousand{9'999, 1, kTimeoutNs};
  EXPECT_FALSE(one_of_ten_thousand.censors(99.99));
  EXPECT_TRUE(CensoredTail({9'998, 2, kTimeoutNs}).censors(99.99));
}

TEST(CensoredTailTest, CountsPastSixtyFourBitProductsStillCompareRight) {
  const int64_t huge = 40'000'000'000'000;  // 4 x 10^13: 10^6 x it overflows 64 bits
  EXPECT_FALSE(CensoredTail({huge * 99, huge, kTimeoutNs}).censors(99));
  EXPECT_TRUE(CensoredTail({huge * 99, huge, kTimeoutNs}).censors(99.0001));
}

// The mean of every request that ended: the timed out counted at the timeout, a bound; with
// none timed out, the histogram's own mean, exact.
TEST(CensoredTailTest, TheMeanCountsTimedOutRequestsAtTheTimeout) {
  Histogram histogram(1'000, 60'000'000'000, 3);
  const CensoredTail tail = tail_of(histogram, 90, 10);  // 1..90 ms, then 10 past 2 s
  const TailFigure mean = tail.mean(histogram);
  EXPECT_TRUE(mean.censored);
  // (1 + ... + 90 ms + 10 x 2 s) / 100 = (4,095 + 20,000) / 100 ms.
  EXPECT_NEAR(static_cast<double>(mean.value_ns), 240.95e6, 0.1e6);
  Histogram plain(1'000, 60'000'000'000, 3);
  const TailFigure exact = tail_of(plain, 90, 0).mean(plain);
  EXPECT_FALSE(exact.censored);
  EXPECT_EQ(exact.value_ns, std::llround(plain.mean()));
  // Nothing answered: the bound is the timeout itself.
  Histogram empty(1'000, 60'000'000'000, 3);
  EXPECT_EQ(tail_of(empty, 0, 5).mean(empty).value_ns, kTimeoutNs);
}

TEST(CensoredTailTest, ACensoredFigureIsTheTimeoutAsABound) {
  Histogram histogram;
  const CensoredTail tail = tail_of(histogram, 98, 2);
  const TailFigure p99 = tail.at(histogram, 99);
  EXPECT_TRUE(p99.censored);
  EXPECT_EQ(p99.value_ns, kTimeoutNs);
  const TailFigure max = tail.max(histogram);
  EXPECT_TRUE(max.censored);
  EXPECT_EQ(max.value_ns, kTimeoutNs);
}

// Corrected latencies include the wait for a connection, which --timeout does not bound: an
// answer can take longer than the timeout. A censored figure is then at least the slowest
// answer, which the percentile at the answered share reads (a p99 read "> 200.00ms" beside a
// p90 of 421 ms; then "> 100.00ms" at p99 under a p95 of 142.74 ms): the figures never fall
// as the percentile rises.
TEST(CensoredTailTest, AnswersSlowerThanTheTimeoutRaiseTheBound) {
  Histogram histogram;
  for (int64_t ms = 1; ms <= 90; ++ms) histogram.record(ms * 10'000'000);  // 10 ms .. 900 ms
  const CensoredTail tail = censored_tail(histogram, 10, 200'000'000);
  const TailFigure p90 = tail.at(histogram, 90);  // the answered share: the slowest answer
  ASSERT_FALSE(p90.censored);
  EXPECT_EQ(histogram.lowest_equivalent_value(p90.value_ns),
            histogram.lowest_equivalent_value(900'000'000));
  for (double q : {90.001, 91.0, 99.0, 99.99}) {
    const TailFigure figure = tail.at(histogram, q);
    ASSERT_TRUE(figure.censored) << q;
    EXPECT_GE(figure.value_ns, p90.value_ns) << q;
    EXPECT_LE(figure.value_ns, tail.max(histogram).value_ns) << q;
  }
  // Answers all faster than the timeout leave it the bound.
  Histogram fast;
  for (int64_t ms = 1; ms <= 90; ++ms) fast.record(ms * 1'000'000);
  EXPECT_EQ(censored_tail(fast, 10, 200'000'000).at(fast, 99).value_ns, 200'000'000);
}

// Whatever the answers and timeouts, the figures rise with the percentile (uncensored,
// censored and max alike).
TEST(CensoredTailTest, FiguresNeverFallAsThePercentileRises) {
  for (int64_t timed_out : {1, 5, 30}) {
    Histogram histogram;
    for (int64_t i = 1; i <= 100; ++i) histogram.record(i * i * 20'000);  // 20 us .. 200 ms
    const CensoredTail tail = censored_tail(histogram, timed_out, 100'000'000);
    int64_t previous = 0;
    for (double q : {50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99}) {
      const int64_t value = tail.at(histogram, q).value_ns;
      EXPECT_GE(value, previous) << "p" << q << " with " << timed_out << " timed out";
      previous = value;
    }
    EXPECT_GE(tail.max(histogram).value_ns, previous);
  }
}

TEST(CensoredTailTest, AnUncensoredPercentileCountsTheTimedOutAsSlowest) {
  // 98 answered (1..98 ms) and 2 timed out: p49 of the 100 is rank 49, 49 ms — not the
  // answered p49 (rank 48.02 of 98, 48 ms); p98 is the slowest answer.
  Histogram histogram;
  const CensoredTail tail = tail_of(histogram, 98, 2);
  const TailFigure p49 = tail.at(histogram, 49);
  EXPECT_FALSE(p49.censored);
  EXPECT_EQ(histogram.lowest_equivalent_value(p49.value_ns),
            histogram.lowest_equivalent_value(49'000'000));
  EXPECT_EQ(histogram.lowest_equivalent_value(tail.at(histogram, 98).value_ns),
            histogram.lowest_equivalent_value(histogram.max()));
  // Without a timeout it is the histogram's own percentile.
  const CensoredTail none = censored_tail(histogram, 0, kTimeoutNs);
  EXPECT_EQ(none.at(histogram, 49).value_ns, histogram.value_at_percentile(49));
  EXPECT_EQ(none.max(histogram).value_ns, histogram.max());
}

TEST(CensoredTailTest, NoAnswerAtAllCensorsEveryPercentile) {
  const CensoredTail tail{0, 5, kTimeoutNs};
  EXPECT_TRUE(tail.censors(50));
  EXPECT_DOUBLE_EQ(tail.answered_percent(), 0.0);
}

}  // namespace
}  // namespace hammer
