// SPDX-License-Identifier: MIT
#include "run/progress_rate.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t ms = 1'000'000;

// A steady 500 req/s whose counts arrive in 100 ms publications, read every 100 ms: each
// report sees one publication, none or two. Over one interval that read 0, 1000, 500; over
// the last second it stays within a tenth of the truth.
TEST(ProgressRateTest, ReportsAsOftenAsThePublicationsReadASteadyRateSteadily) {
  ProgressRate rate(0);
  int64_t published = 0;
  for (int report = 1; report <= 40; ++report) {
    const int64_t now = report * 100 * ms + 3 * ms;
    // Publications land just before or just after the report: every third one is late.
    if (report % 3 != 0) published = 50 * report;
    const double per_second = rate.add(now, published);
    if (report >= 10) {
      EXPECT_NEAR(per_second, 500, 60) << "report " << report;
    }
  }
}

// Once a second (the terminal's progress line): each report reads the second since the
// previous one, as before.
TEST(ProgressRateTest, SecondlyReportsReadTheSecondSinceThePrevious) {
  ProgressRate rate(0);
  EXPECT_DOUBLE_EQ(rate.add(1000 * ms, 300), 300);
  EXPECT_DOUBLE_EQ(rate.add(2001 * ms, 900), 600 * 1e9 / (1001.0 * ms));
  EXPECT_DOUBLE_EQ(rate.add(3001 * ms, 1000), 100);
}

// Younger than a second: the rate since the start.
TEST(ProgressRateTest, AYoungRunReadsTheRateSinceItsStart) {
  ProgressRate rate(500 * ms);
  EXPECT_DOUBLE_EQ(rate.add(600 * ms, 10), 100);
  EXPECT_DOUBLE_EQ(rate.add(700 * ms, 30), 150);
}

}  // namespace
}  // namespace hammer
