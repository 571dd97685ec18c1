// SPDX-License-Identifier: MIT
#include "time/receive_clock.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kUs = 1'000;
constexpr int64_t kEpoch = 1'796'000'000'000'000'000;  // the wall clock, late 2026

TEST(ReceiveClockTest, AStampIsTheWallClockLessTheOffset) {
  ReceiveClock clock;
  EXPECT_EQ(clock.to_monotonic(kEpoch, 10'000 * kUs), 0) << "no offset read yet";
  // Monotonic 5,000 us..5,002 us bracket the wall clock's kEpoch + 5,001 us.
  EXPECT_TRUE(clock.note_offset(5'000 * kUs, kEpoch + 5'001 * kUs, 5'002 * kUs));
  // A packet stamped 300 us before the wall reading arrived at monotonic 4,701 us.
  EXPECT_EQ(clock.to_monotonic(kEpoch + 4'701 * kUs, 5'002 * kUs), 4'701 * kUs);
  EXPECT_EQ(clock.to_monotonic(0, 5'002 * kUs), 0) << "a read without a stamp";
  EXPECT_EQ(clock.to_monotonic(kEpoch + 6'000 * kUs, 5'002 * kUs), 0)
      << "a stamp after the harvest's own reading is not a time this read can have";
  EXPECT_EQ(clock.steps(), 0);
}

TEST(ReceiveClockTest, AStepOfTheWallClockIsCountedAndItsStampsAreNotTrusted) {
  ReceiveClock clock;
  EXPECT_TRUE(clock.note_offset(1'000 * kUs, kEpoch + 1'000 * kUs, 1'000 * kUs));
  // Jitter well under a step: still the same offset.
  EXPECT_TRUE(clock.note_offset(2'000 * kUs, kEpoch + 2'000 * kUs + 50, 2'000 * kUs));
  // The wall clock stepped back 2 s (an NTP step) between two wake-ups.
  const int64_t stepped = kEpoch - 2'000'000 * kUs;
  EXPECT_FALSE(clock.note_offset(3'000 * kUs, stepped + 3'000 * kUs, 3'000 * kUs));
  EXPECT_EQ(clock.steps(), 1);
  EXPECT_NEAR(static_cast<double>(clock.largest_step_ns()), 2e9, 1'000) << "2 s, less the jitter";
  // Stamps read in the wake-up that found the step may predate it: none is used.
  EXPECT_EQ(clock.to_monotonic(stepped + 2'900 * kUs, 3'000 * kUs), 0);
  // From the next reading on, the new offset holds.
  EXPECT_TRUE(clock.note_offset(4'000 * kUs, stepped + 4'000 * kUs, 4'000 * kUs));
  EXPECT_EQ(clock.to_monotonic(stepped + 3'900 * kUs, 4'000 * kUs), 3'900 * kUs);
  EXPECT_EQ(clock.steps(), 1);
}

TEST(ReceiveClockTest, AReadingInterruptedBetweenTheClocksKeepsTheLastOffset) {
  ReceiveClock clock;
  EXPECT_TRUE(clock.note_offset(1'000 * kUs, kEpoch + 1'000 * kUs, 1'000 * kUs));
  // 40 us between the two monotonic readings (preempted): its offset could be 40 us off.
  EXPECT_TRUE(clock.note_offset(2'000 * kUs, kEpoch + 2'040 * kUs, 2'040 * kUs));
  EXPECT_EQ(clock.to_monotonic(kEpoch + 1'500 * kUs, 2'040 * kUs), 1'500 * kUs);
  EXPECT_EQ(clock.steps(), 0);
}

}  // namespace
}  // namespace hammer
