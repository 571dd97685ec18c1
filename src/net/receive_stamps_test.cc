// SPDX-License-Identifier: MIT
// Receive stamps against a real TCP connection on 127.0.0.1.
#include "net/receive_stamps.h"

#include "net/loopback_pair_test_support.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <ctime>

namespace hammer {
namespace {

int64_t wall_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

TEST(ReceiveStampsTest, AStampedReadCarriesWhenItsBytesArrived) {
  if (!receive_stamps_supported()) GTEST_SKIP() << "no receive timestamps on this platform";
  ASSERT_TRUE(hold_receive_stamps_on());
  LoopbackPair pair;
  ASSERT_TRUE(enable_receive_stamps(pair.client));
  const int64_t before = wall_ns();
  ASSERT_EQ(write(pair.server, "HTTP", 4), 4);
  pollfd entry{pair.client, POLLIN, 0};
  ASSERT_EQ(poll(&entry, 1, 5000), 1);
  // Read well after the arrival: the stamp is the arrival's, not the read's.
  timespec pause{0, 20'000'000};
  nanosleep(&pause, nullptr);
  const int64_t read_at = wall_ns();
  char buffer[16];
  size_t got = 0;
  int error_number = 0;
  int64_t stamp = 0;
  ASSERT_EQ(read_some_stamped(pair.client, buffer, sizeof buffer, &got, &error_number, &stamp),
            Io::done);
  EXPECT_EQ(got, 4u);
  EXPECT_GE(stamp, before);
  EXPECT_LT(stamp, read_at) << "stamped when the bytes came, 20 ms before the read";
}

// The kernel switches stamping on a moment after a socket first asks (and off after the last
// one closes): held on, a new connection's very first read is stamped, every time.
TEST(ReceiveStampsTest, HeldOnEveryNewConnectionsFirstReadIsStamped) {
  if (!receive_stamps_supported()) GTEST_SKIP() << "no receive timestamps on this platform";
  ASSERT_TRUE(hold_receive_stamps_on());
  for (int round = 0; round < 20; ++round) {
    LoopbackPair pair;
    ASSERT_TRUE(enable_receive_stamps(pair.client));
    ASSERT_EQ(write(pair.server, "x", 1), 1);
    pollfd entry{pair.client, POLLIN, 0};
    ASSERT_EQ(poll(&entry, 1, 5000), 1);
    char byte = 0;
    size_t got = 0;
    int error_number = 0;
    int64_t stamp = 0;
    ASSERT_EQ(read_some_stamped(pair.client, &byte, 1, &got, &error_number, &stamp), Io::done);
    EXPECT_NE(stamp, 0) << "round " << round;
  }
}

TEST(ReceiveStampsTest, AReadWithoutStampsSaysSoAndStillReads) {
  LoopbackPair pair;  // no enable_receive_stamps
  ASSERT_EQ(write(pair.server, "x", 1), 1);
  pollfd entry{pair.client, POLLIN, 0};
  ASSERT_EQ(poll(&entry, 1, 5000), 1);
  char buffer[4];
  size_t got = 0;
  int error_number = 0;
  int64_t stamp = -1;
  ASSERT_EQ(read_some_stamped(pair.client, buffer, sizeof buffer, &got, &error_number, &stamp),
            Io::done);
  EXPECT_EQ(got, 1u);
  EXPECT_EQ(stamp, 0);
  EXPECT_EQ(receive_stamp_in(nullptr, 0), 0);
}

}  // namespace
}  // namespace hammer
