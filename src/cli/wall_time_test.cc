// SPDX-License-Identifier: MIT
#include "cli/wall_time.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t k20261201 = 1'796'083'200;  // 2026-12-01T00:00:00Z in Unix seconds

TEST(WallTimeTest, ReadsRfc3339InUtcAndWithOffsets) {
  EXPECT_EQ(*parse_wall_time_ns("2026-12-01T00:00:00Z"), k20261201 * kSecond);
  EXPECT_EQ(*parse_wall_time_ns("2026-12-01t10:00:00z"), (k20261201 + 36'000) * kSecond);
  EXPECT_EQ(*parse_wall_time_ns("2026-12-01 10:00:00Z"), (k20261201 + 36'000) * kSecond);
  EXPECT_EQ(*parse_wall_time_ns("2026-12-01T11:00:00+01:00"), (k20261201 + 36'000) * kSecond);
  EXPECT_EQ(*parse_wall_time_ns("2026-11-30T19:30:00-04:30"), (k20261201 + 0) * kSecond);
  EXPECT_EQ(*parse_wall_time_ns("2026-12-01T00:00:00.25Z"), k20261201 * kSecond + 250'000'000);
  EXPECT_EQ(*parse_wall_time_ns("2026-12-01T00:00:00.123456789Z"),
            k20261201 * kSecond + 123'456'789);
  EXPECT_EQ(*parse_wall_time_ns("2028-02-29T00:00:00Z") % kSecond, 0);  // a leap day
}

TEST(WallTimeTest, ReadsUnixSeconds) {
  EXPECT_EQ(*parse_wall_time_ns("1796083200"), k20261201 * kSecond);
  EXPECT_EQ(*parse_wall_time_ns("1796083200.5"), k20261201 * kSecond + 500'000'000);
}

TEST(WallTimeTest, RefusesWhatIsNotAnInstant) {
  for (const char* bad : {"", "soon", "2026-12-01", "2026-12-01T10:00Z", "2026-12-01T10:00:00",
                          "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-12-01T24:00:00Z",
                          "2026-12-01T10:00:00+1:00", "2026-12-01T10:00:00.Z",
                          "2026-12-01T10:00:00.1234567891Z", "1796083200.", "-5", "1e9",
                          "1969-12-31T23:59:59Z", "2026-12-01T10:00:00Zjunk"}) {
    EXPECT_FALSE(parse_wall_time_ns(bad).has_value()) << bad;
  }
}

}  // namespace
// The epoch itself is an instant (long passed, which the run refuses); a second before it is
// not one --start-at can name.
TEST(WallTimeTest, TheEpochIsTheEarliestInstant) {
  auto epoch = parse_wall_time_ns("1970-01-01T00:00:00Z");
  ASSERT_TRUE(epoch.has_value());
  EXPECT_EQ(*epoch, 0);
  EXPECT_FALSE(parse_wall_time_ns("1969-12-31T23:59:59Z").has_value());
  EXPECT_FALSE(parse_wall_time_ns("1970-01-01T00:00:00+00:01").has_value());
}

}  // namespace hammer
