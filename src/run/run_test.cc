// SPDX-License-Identifier: MIT
#include "run/run.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kStart = 1'796'083'200'000'000'000;  // 2026-12-01T00:00:00Z

Config starting_at(int64_t unix_ns, int64_t tolerance_ns = 0) {
  Config config;
  config.start_at = StartAt{unix_ns, tolerance_ns, true};
  return config;
}

TEST(CheckStartAtTest, NothingToCheckWithoutAStartTime) {
  EXPECT_FALSE(check_start_at(Config{}, kStart).has_value());
}

TEST(CheckStartAtTest, AStartAheadByUpToADayIsKept) {
  EXPECT_FALSE(check_start_at(starting_at(kStart), kStart).has_value());
  EXPECT_FALSE(check_start_at(starting_at(kStart + kMaxStartAheadNs), kStart).has_value());
}

TEST(CheckStartAtTest, AStartMoreThanADayAheadIsRefusedWithHowFar) {
  const auto refused = check_start_at(starting_at(kStart + kMaxStartAheadNs + 1), kStart);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->exit_code, ExitCode::bad_input);
  EXPECT_EQ(refused->message.rfind("--start-at: the start time is 24.0 hours ahead", 0), 0u)
      << refused->message;
}

TEST(CheckStartAtTest, APassedStartIsRefusedBeyondTheToleranceOnly) {
  const int64_t second = 1'000'000'000;
  EXPECT_FALSE(check_start_at(starting_at(kStart, 2 * second), kStart + 2 * second).has_value());
  const auto refused = check_start_at(starting_at(kStart, 2 * second), kStart + 3 * second);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->exit_code, ExitCode::bad_input);
  EXPECT_EQ(refused->message.rfind("--start-at: the start time passed 3.000s ago", 0), 0u)
      << refused->message;
}

}  // namespace
}  // namespace hammer
