// SPDX-License-Identifier: MIT
#include "run/idle_list.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

struct Fixture {
  Connection connections[4];
  IdleList idle;
  Fixture() {
    for (int32_t i = 0; i < 4; ++i) connections[i].index = i;
    idle.bind(connections);
  }
};

TEST(IdleListTest, PopsTheLongestIdleFirst) {
  Fixture f;
  f.idle.push(f.connections[2]);
  f.idle.push(f.connections[0]);
  f.idle.push(f.connections[3]);
  f.idle.push(f.connections[2]);  // already queued: keeps its place
  EXPECT_EQ(f.idle.pop()->index, 2);
  EXPECT_EQ(f.idle.pop()->index, 0);
  EXPECT_EQ(f.idle.pop()->index, 3);
  EXPECT_EQ(f.idle.pop(), nullptr);
  EXPECT_TRUE(f.idle.empty());
}

TEST(IdleListTest, RemovesFromAnyPlace) {
  Fixture f;
  for (auto& connection : f.connections) f.idle.push(connection);
  f.idle.remove(f.connections[1]);  // middle
  f.idle.remove(f.connections[0]);  // head
  f.idle.remove(f.connections[3]);  // tail
  f.idle.remove(f.connections[3]);  // not on it: nothing
  EXPECT_FALSE(f.connections[3].in_idle_list);
  f.idle.push(f.connections[0]);
  EXPECT_EQ(f.idle.pop()->index, 2);
  EXPECT_EQ(f.idle.pop()->index, 0);
  EXPECT_TRUE(f.idle.empty());
}

}  // namespace
}  // namespace hammer
