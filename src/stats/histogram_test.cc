// SPDX-License-Identifier: MIT
#include "stats/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "stats/histogram_testing.h"

namespace hammer {
namespace {

using testing::same_counts;

constexpr int64_t k60s = 60'000'000'000;

// ---- geometry -------------------------------------------------------------------------------

TEST(HistogramTest, DefaultGeometryIs27648SlotsOf221184Bytes) {
  Histogram histogram;
  EXPECT_EQ(histogram.lowest_discernible_value(), 1);
  EXPECT_EQ(histogram.highest_trackable_value(), k60s);
  EXPECT_EQ(histogram.significant_figures(), 3);
  EXPECT_EQ(histogram.counts_length(), 27'648);
  EXPECT_EQ(histogram.counts_bytes(), 221'184u);
}

TEST(HistogramTest, GeometryMatchesHdrHistogramCTestCreate) {
  // hdr_histogram_test.c test_create: hdr_init(1, 3600000000, 3) has counts_len 23552.
  Histogram histogram(1, 3'600'000'000, 3);
  EXPECT_EQ(histogram.counts_length(), 23'552);
  EXPECT_EQ(Histogram::counts_length_for(1, 3'600'000'000, 3), 23'552);
}

TEST(HistogramTest, RejectsGeometriesHdrHistogramRejects) {
  EXPECT_FALSE(Histogram::is_valid_geometry(0, 1000, 3));     // lowest < 1
  EXPECT_FALSE(Histogram::is_valid_geometry(1, 1000, 0));     // figures < 1
  EXPECT_FALSE(Histogram::is_valid_geometry(1, 1000, 6));     // figures > 5
  EXPECT_FALSE(Histogram::is_valid_geometry(100, 199, 3));    // highest < 2 * lowest
  EXPECT_FALSE(Histogram::is_valid_geometry(int64_t{1} << 50, INT64_MAX, 5));  // unit too large
  EXPECT_FALSE(Histogram::is_valid_geometry(INT64_MAX, INT64_MAX, 3));
  EXPECT_TRUE(Histogram::is_valid_geometry(1, 2, 1));
  EXPECT_TRUE(Histogram::is_valid_geometry(1, INT64_MAX, 5));
  EXPECT_EQ(Histogram::counts_length_for(0, 1000, 3), 0);
}

TEST(HistogramTest, EquivalentValuesMatchHdrHistogramJavaTests) {
  // Values from HdrHistogram's Java HistogramTest (1 .. 3.6e9, 3 figures).
  Histogram histogram(1, 3'600'000'000, 3);
  EXPECT_EQ(histogram.lowest_equivalent_value(10007), 10000);
  EXPECT_EQ(histogram.lowest_equivalent_value(10009), 10008);
  EXPECT_EQ(histogram.highest_equivalent_value(8180), 8183);
  EXPECT_EQ(histogram.highest_equivalent_value(8191), 8191);
  EXPECT_EQ(histogram.highest_equivalent_value(8193), 8199);
  EXPECT_EQ(histogram.highest_equivalent_value(9995), 9999);
  EXPECT_EQ(histogram.highest_equivalent_value(10007), 10007);
  EXPECT_EQ(histogram.highest_equivalent_value(10008), 10015);
  EXPECT_EQ(histogram.median_equivalent_value(4), 4);
  EXPECT_EQ(histogram.median_equivalent_value(5), 5);
  EXPECT_EQ(histogram.median_equivalent_value(4000), 4001);
  EXPECT_EQ(histogram.median_equivalent_value(8000), 8002);
  EXPECT_EQ(histogram.median_equivalent_value(10007), 10004);
}

TEST(HistogramTest, EverySlotMapsBackToItselfAndSlotsTile) {
  for (auto [lowest, highest, figures] : {std::tuple{int64_t{1}, k60s, 3},
                                          std::tuple{int64_t{1000}, k60s, 2},
                                          std::tuple{int64_t{1}, INT64_MAX, 5}}) {
    Histogram histogram(lowest, highest, figures);
    int32_t last = histogram.index_for(highest);
    ASSERT_LT(last, histogram.counts_length());
    for (int32_t i = 0; i <= last; ++i) {
      int64_t value = histogram.value_from_index(i);
      ASSERT_EQ(histogram.index_for(value), i) << "slot " << i;
      ASSERT_EQ(histogram.lowest_equivalent_value(value), value);
      if (i < last) {
        // The next slot starts right after this one ends: no gaps, no overlaps.
        ASSERT_EQ(histogram.highest_equivalent_value(value) + 1, histogram.value_from_index(i + 1))
            << "slot " << i;
      }
    }
  }
}

TEST(HistogramTest, SlotWidthStaysWithinAThousandthOfTheValue) {
  Histogram histogram;
  for (int64_t value = 2048; value <= k60s; value = value * 3 / 2 + 7) {
    int64_t width = histogram.highest_equivalent_value(value) -
                    histogram.lowest_equivalent_value(value) + 1;
    EXPECT_LE(static_cast<double>(width), 0.001 * static_cast<double>(value)) << value;
  }
}

// ---- record and edge cases ------------------------------------------------------------------

TEST(HistogramTest, EmptyHistogramReportsZeros) {
  Histogram histogram;
  EXPECT_EQ(histogram.total_count(), 0);
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.max(), 0);
  EXPECT_EQ(histogram.mean(), 0.0);
  EXPECT_EQ(histogram.stdev(), 0.0);
  EXPECT_EQ(histogram.value_at_percentile(50), 0);
  EXPECT_EQ(histogram.value_at_percentile(100), 0);
}

TEST(HistogramTest, OneValueIsEveryPercentile) {
  Histogram histogram;
  histogram.record(123'456'789);
  int64_t low = histogram.lowest_equivalent_value(123'456'789);
  int64_t high = histogram.highest_equivalent_value(123'456'789);
  EXPECT_EQ(histogram.total_count(), 1);
  EXPECT_EQ(histogram.min(), low);
  EXPECT_EQ(histogram.max(), high);
  EXPECT_EQ(histogram.value_at_percentile(0), low);
  for (double q : {0.001, 1.0, 50.0, 99.0, 99.999, 100.0}) {
    EXPECT_EQ(histogram.value_at_percentile(q), high) << q;
  }
  EXPECT_DOUBLE_EQ(histogram.mean(),
                   static_cast<double>(histogram.median_equivalent_value(123'456'789)));
  EXPECT_EQ(histogram.stdev(), 0.0);
}

TEST(HistogramTest, RangeEndsAreRecordedInRange) {
  Histogram histogram;
  histogram.record(1);
  histogram.record(k60s);
  EXPECT_EQ(histogram.out_of_range_count(), 0);
  EXPECT_EQ(histogram.min(), 1);
  EXPECT_EQ(histogram.max(), histogram.highest_equivalent_value(k60s));
  EXPECT_GE(histogram.max(), k60s);
  EXPECT_EQ(histogram.value_at_percentile(50), 1);
  EXPECT_EQ(histogram.count_at_index(histogram.index_for(k60s)), 1);
}

TEST(HistogramTest, ValuesAboveTheRangeAreClampedAndCounted) {
  Histogram histogram;
  histogram.record(k60s + 1);
  histogram.record(INT64_MAX);
  histogram.record_n(k60s * 2, 3);
  histogram.record(5);
  EXPECT_EQ(histogram.total_count(), 6);
  EXPECT_EQ(histogram.out_of_range_count(), 5);
  EXPECT_EQ(histogram.count_at_index(histogram.index_for(k60s)), 5);
  EXPECT_EQ(histogram.max(), histogram.highest_equivalent_value(k60s));
  EXPECT_EQ(histogram.value_at_percentile(100), histogram.highest_equivalent_value(k60s));
}

TEST(HistogramTest, NegativeValuesRecordAsZero) {
  Histogram histogram;
  histogram.record(-5);
  histogram.record(INT64_MIN);
  histogram.record(10);
  EXPECT_EQ(histogram.total_count(), 3);
  EXPECT_EQ(histogram.out_of_range_count(), 0);
  EXPECT_EQ(histogram.count_at_index(0), 2);
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.max(), 10);
  EXPECT_EQ(histogram.value_at_percentile(50), 0);
}

TEST(HistogramTest, RecordNIgnoresCountsBelowOne) {
  Histogram histogram;
  histogram.record_n(100, 0);
  histogram.record_n(100, -4);
  EXPECT_EQ(histogram.total_count(), 0);
  histogram.record_n(100, 7);
  EXPECT_EQ(histogram.total_count(), 7);
  EXPECT_EQ(histogram.count_at_index(histogram.index_for(100)), 7);
}

TEST(HistogramTest, PercentileArgumentIsClampedIntoZeroToHundred) {
  Histogram histogram;
  for (int64_t v = 1; v <= 1000; ++v) histogram.record(v);
  EXPECT_EQ(histogram.value_at_percentile(-10), histogram.min());
  EXPECT_EQ(histogram.value_at_percentile(std::nan("")), histogram.min());
  EXPECT_EQ(histogram.value_at_percentile(250), histogram.max());
  EXPECT_EQ(histogram.value_at_percentile(0), histogram.min());
  EXPECT_EQ(histogram.value_at_percentile(100), histogram.max());
  EXPECT_EQ(histogram.value_at_percentile(50), 500);
}

TEST(HistogramTest, MeanAndStdevOfExactlyRepresentableValues) {
  Histogram histogram;  // values below 2048 have slots one unit wide
  for (int64_t v : {100, 200, 300, 400}) histogram.record(v);
  EXPECT_DOUBLE_EQ(histogram.mean(), 250.0);
  EXPECT_NEAR(histogram.stdev(), std::sqrt(12'500.0), 1e-9);
}

TEST(HistogramTest, RecordNeverGrowsTheAllocation) {
  Histogram histogram;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100'000; ++i) {
    histogram.record(static_cast<int64_t>(rng() >> (1 + rng() % 63)));  // 0 .. INT64_MAX
  }
  EXPECT_EQ(histogram.total_count(), 100'000);
  EXPECT_EQ(histogram.counts_length(), 27'648);
  EXPECT_EQ(histogram.counts_bytes(), 221'184u);
}

TEST(HistogramTest, ResetClearsCountsAndExtremes) {
  Histogram histogram;
  histogram.record(5);
  histogram.record(k60s * 2);
  histogram.reset();
  EXPECT_EQ(histogram.total_count(), 0);
  EXPECT_EQ(histogram.out_of_range_count(), 0);
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.max(), 0);
  EXPECT_TRUE(same_counts(histogram, Histogram()));
  histogram.record(7);
  EXPECT_EQ(histogram.min(), 7);
  EXPECT_EQ(histogram.max(), 7);
}

TEST(HistogramTest, CopiesAreIndependentAndMovesKeepTheCounts) {
  Histogram original;
  original.record(42);
  original.record(k60s + 9);
  Histogram copy(original);
  EXPECT_TRUE(same_counts(copy, original));
  EXPECT_EQ(copy.out_of_range_count(), 1);
  copy.record(1000);
  EXPECT_EQ(original.total_count(), 2);
  EXPECT_EQ(copy.total_count(), 3);

  Histogram other_geometry(1, 3'600'000'000, 2);
  other_geometry = original;  // different geometry: takes the source's
  EXPECT_TRUE(same_counts(other_geometry, original));

  Histogram moved(std::move(copy));
  EXPECT_EQ(moved.total_count(), 3);
  EXPECT_EQ(moved.counts_length(), 27'648);
  Histogram assigned(1, 1000, 1);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.total_count(), 3);
  EXPECT_EQ(assigned.max(), original.max());
}

// ---- add ------------------------------------------------------------------------------------

std::vector<int64_t> latency_like_values(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> lognormal(std::log(2e6), 1.5);
  std::vector<int64_t> values;
  values.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) values.push_back(static_cast<int64_t>(lognormal(rng)));
  return values;
}

TEST(HistogramTest, SumOfTwoHistogramsEqualsHistogramOfTheUnion) {
  std::vector<int64_t> a = latency_like_values(1, 50'000);
  std::vector<int64_t> b = latency_like_values(2, 30'000);
  b.push_back(-3);
  b.push_back(k60s * 5);
  Histogram first, second, both;
  for (int64_t v : a) first.record(v), both.record(v);
  for (int64_t v : b) second.record(v), both.record(v);
  first.add(second);
  EXPECT_TRUE(same_counts(first, both));
  EXPECT_EQ(first.out_of_range_count(), both.out_of_range_count());
  EXPECT_EQ(first.out_of_range_count(), 1);
  EXPECT_EQ(first.value_at_percentile(99.9), both.value_at_percentile(99.9));
}

TEST(HistogramTest, AddingEmptyChangesNothingAndAddingToEmptyCopies) {
  Histogram some;
  for (int64_t v : latency_like_values(3, 1000)) some.record(v);
  Histogram before(some);
  some.add(Histogram());
  EXPECT_TRUE(same_counts(some, before));
  Histogram empty;
  empty.add(some);
  EXPECT_TRUE(same_counts(empty, some));
}

TEST(HistogramTest, AddAcrossGeometriesReRecordsEachSlot) {
  Histogram coarse(1, 3'600'000'000, 2);
  for (int64_t v : latency_like_values(4, 20'000)) coarse.record(v);
  Histogram fine;
  fine.add(coarse);
  EXPECT_EQ(fine.total_count(), coarse.total_count());
  for (double q : {1.0, 50.0, 90.0, 99.0, 99.9}) {
    double expected = static_cast<double>(coarse.value_at_percentile(q));
    EXPECT_NEAR(static_cast<double>(fine.value_at_percentile(q)), expected, expected * 0.01) << q;
  }
  // Out of range in the narrower one: clamped and counted once.
  Histogram narrow(1, 1'000'000, 3);
  Histogram wide;
  wide.record(5'000'000);
  wide.record(k60s * 2);  // already out of range in `wide`
  narrow.add(wide);
  EXPECT_EQ(narrow.total_count(), 2);
  EXPECT_EQ(narrow.out_of_range_count(), 2);
}

// ---- oracle: percentiles against an exact sorted vector --------------------------------------

struct Distribution {
  std::string name;
  std::vector<int64_t> values;
};

std::vector<Distribution> oracle_distributions() {
  constexpr int kN = 100'000;
  std::vector<Distribution> out;
  std::mt19937_64 rng(20240601);
  auto clamp = [](double v) { return std::clamp<int64_t>(static_cast<int64_t>(v), 1, k60s); };

  Distribution uniform{"uniform 1us..10ms", {}};
  std::uniform_int_distribution<int64_t> uniform_ns(1'000, 10'000'000);
  for (int i = 0; i < kN; ++i) uniform.values.push_back(uniform_ns(rng));
  out.push_back(std::move(uniform));

  Distribution small{"uniform 1..5000 ns", {}};
  std::uniform_int_distribution<int64_t> small_ns(1, 5'000);
  for (int i = 0; i < kN; ++i) small.values.push_back(small_ns(rng));
  out.push_back(std::move(small));

  Distribution lognormal{"log-normal around 1ms", {}};
  std::lognormal_distribution<double> lognormal_ns(std::log(1e6), 1.2);
  for (int i = 0; i < kN; ++i) lognormal.values.push_back(clamp(lognormal_ns(rng)));
  out.push_back(std::move(lognormal));

  Distribution bimodal{"bimodal 200us/5ms with a 1..30 s tail", {}};
  std::normal_distribution<double> fast(200e3, 20e3), slow(5e6, 500e3);
  std::uniform_real_distribution<double> tail(1e9, 30e9), pick(0.0, 1.0);
  for (int i = 0; i < kN; ++i) {
    double p = pick(rng);
    bimodal.values.push_back(clamp(p < 0.7 ? fast(rng) : p < 0.999 ? slow(rng) : tail(rng)));
  }
  out.push_back(std::move(bimodal));

  out.push_back({"all equal", std::vector<int64_t>(kN, 123'456'789)});
  return out;
}

// The exact percentile, with HdrHistogram's rank convention: the value at 1-based rank
// round(q / 100 * n), at least 1 (hdr_value_at_percentile's count_at_percentile).
int64_t exact_percentile(const std::vector<int64_t>& sorted, double q) {
  auto n = static_cast<int64_t>(sorted.size());
  auto rank = static_cast<int64_t>((q / 100.0) * static_cast<double>(n) + 0.5);
  rank = std::clamp<int64_t>(rank, 1, n);
  return sorted[static_cast<size_t>(rank - 1)];
}

::testing::AssertionResult within_a_thousandth(int64_t actual, int64_t expected) {
  double error = std::fabs(static_cast<double>(actual) - static_cast<double>(expected));
  if (error <= 0.001 * static_cast<double>(expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual << " vs exact " << expected << " (relative error "
                                       << error / static_cast<double>(expected) << ")";
}

TEST(HistogramTest, PercentilesAreWithinAThousandthOfTheExactSortedValues) {
  for (Distribution& distribution : oracle_distributions()) {
    SCOPED_TRACE(distribution.name);
    Histogram histogram;
    for (int64_t v : distribution.values) histogram.record(v);
    std::vector<int64_t>& sorted = distribution.values;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(histogram.total_count(), static_cast<int64_t>(sorted.size()));

    std::vector<double> quantiles;
    for (int q = 1; q <= 99; ++q) quantiles.push_back(q);
    quantiles.push_back(99.9);
    quantiles.push_back(99.99);
    for (double q : quantiles) {
      int64_t exact = exact_percentile(sorted, q);
      int64_t reported = histogram.value_at_percentile(q);
      EXPECT_TRUE(within_a_thousandth(reported, exact)) << "p" << q;
      // And exactly HdrHistogram's answer: the top of the exact value's slot.
      EXPECT_EQ(reported, histogram.highest_equivalent_value(exact)) << "p" << q;
    }
    EXPECT_TRUE(within_a_thousandth(histogram.min(), sorted.front())) << "min";
    EXPECT_TRUE(within_a_thousandth(histogram.max(), sorted.back())) << "max";
    EXPECT_EQ(histogram.value_at_percentile(0), histogram.min());
    EXPECT_EQ(histogram.value_at_percentile(100), histogram.max());

    long double sum = 0;
    for (int64_t v : sorted) sum += static_cast<long double>(v);
    auto exact_mean = static_cast<double>(sum / static_cast<long double>(sorted.size()));
    EXPECT_NEAR(histogram.mean(), exact_mean, exact_mean * 0.001);
    long double squares = 0;
    for (int64_t v : sorted) {
      long double d = static_cast<long double>(v) - exact_mean;
      squares += d * d;
    }
    auto exact_stdev = static_cast<double>(std::sqrt(squares / static_cast<long double>(sorted.size())));
    EXPECT_NEAR(histogram.stdev(), exact_stdev, exact_mean * 0.001 + exact_stdev * 0.001);
  }
}

}  // namespace
}  // namespace hammer
