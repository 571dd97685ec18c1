// SPDX-License-Identifier: MIT
#include "net/fd_index.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace hammer {
namespace {

TEST(DirectFdIndexTest, FindsWhatWasSetAndRejectsFdsOutOfRange) {
  DirectFdIndex index(8);
  EXPECT_FALSE(index.accepts(8));
  EXPECT_FALSE(index.accepts(-1));
  EXPECT_FALSE(index.set(8, 0));
  EXPECT_EQ(index.find(3), -1);
  EXPECT_TRUE(index.set(3, 5));
  EXPECT_EQ(index.find(3), 5);
  index.erase(3);
  EXPECT_EQ(index.find(3), -1);
}

TEST(HashedFdIndexTest, HoldsLargeSparseHandlesUpToItsLimit) {
  HashedFdIndex index(3);
  // Windows-like handle values: multiples of 4, far apart.
  EXPECT_TRUE(index.set(0x1f4, 0));
  EXPECT_TRUE(index.set(0x7ffc, 1));
  EXPECT_TRUE(index.set(0x12345678, 2));
  EXPECT_FALSE(index.accepts(0x200)) << "a fourth fd is beyond max_fds";
  EXPECT_FALSE(index.set(0x200, 3));
  EXPECT_TRUE(index.accepts(0x7ffc)) << "a registered fd may always be moved";
  EXPECT_TRUE(index.set(0x7ffc, 7));
  EXPECT_EQ(index.find(0x1f4), 0);
  EXPECT_EQ(index.find(0x7ffc), 7);
  EXPECT_EQ(index.find(0x12345678), 2);
  index.erase(0x7ffc);
  EXPECT_EQ(index.find(0x7ffc), -1);
  EXPECT_TRUE(index.set(0x200, 3));
  EXPECT_EQ(index.find(0x200), 3);
}

// Random adds, moves and erasures against std::map: backward-shift deletion must never lose
// an entry that probed past the one removed, however the probe runs wrap.
TEST(HashedFdIndexTest, AgreesWithAMapThroughRandomChurn) {
  constexpr int kMax = 64;
  HashedFdIndex index(kMax);
  std::map<int, int32_t> model;
  std::mt19937 random(12345);
  for (int step = 0; step < 20000; ++step) {
    const int fd = static_cast<int>(random() % 200) * 4;  // collide often in a 128-slot table
    const unsigned action = random() % 3;
    if (action < 2) {
      const auto position = static_cast<int32_t>(random() % 1000);
      const bool room = model.count(fd) > 0 || static_cast<int>(model.size()) < kMax;
      EXPECT_EQ(index.set(fd, position), room);
      if (room) model[fd] = position;
    } else {
      index.erase(fd);
      model.erase(fd);
    }
    if (step % 97 == 0) {
      for (int probe = 0; probe < 200 * 4; probe += 4) {
        const auto found = model.find(probe);
        ASSERT_EQ(index.find(probe), found == model.end() ? -1 : found->second)
            << "fd " << probe << " at step " << step;
      }
    }
  }
}

}  // namespace
}  // namespace hammer
