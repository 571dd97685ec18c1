// SPDX-License-Identifier: MIT
#include "run/pipeline_ring.h"

#include <gtest/gtest.h>

#include <vector>

namespace hammer {
namespace {

Outstanding request(int32_t line) {
  Outstanding r;
  r.line = line;
  return r;
}

TEST(PipelineRingTest, AnswersLeaveOldestFirstAcrossTheWrap) {
  Outstanding slots[3];
  PipelineRing ring;
  ring.bind(slots, 3);
  int32_t next = 0;
  std::vector<int32_t> answered;
  // Enough rounds for the head to wrap several times.
  for (int round = 0; round < 5; ++round) {
    while (!ring.full()) ring.push(request(next++));
    ring.mark_written();
    answered.push_back(ring.front().line);
    ring.pop_front();
    answered.push_back(ring.front().line);
    ring.pop_front();
  }
  for (size_t i = 0; i < answered.size(); ++i) EXPECT_EQ(answered[i], static_cast<int32_t>(i));
  EXPECT_EQ(ring.count(), 1);
}

TEST(PipelineRingTest, WrittenCountFollowsTheAnswers) {
  Outstanding slots[4];
  PipelineRing ring;
  ring.bind(slots, 4);
  ring.push(request(0));
  ring.push(request(1));
  ring.push(request(2));
  ring.mark_written();
  EXPECT_EQ(ring.written(), 1);
  EXPECT_EQ(ring.first_unwritten().line, 1);
  ring.pop_front();  // the written one answered
  EXPECT_EQ(ring.written(), 0);
  EXPECT_EQ(ring.first_unwritten().line, 1);
  ring.pop_front();  // an early answer: nothing was counted written
  EXPECT_EQ(ring.written(), 0);
  EXPECT_FALSE(ring.all_written());
  ring.mark_written();
  EXPECT_TRUE(ring.all_written());
  EXPECT_EQ(ring.at(0).line, 2);
}

TEST(PipelineRingTest, DrainHandsOverEveryRequestOnceAndStartsOver) {
  Outstanding slots[3];
  PipelineRing ring;
  ring.bind(slots, 3);
  for (int32_t i = 0; i < 3; ++i) ring.push(request(i));
  ring.mark_written();
  ring.pop_front();
  ring.push(request(3));  // wrapped: slot 0 again
  std::vector<int32_t> drained;
  ring.drain([&](Outstanding& r) { drained.push_back(r.line); });
  EXPECT_EQ(drained, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.written(), 0);
  ring.push(request(7));
  EXPECT_EQ(&ring.front(), &slots[0]);  // reset: the slab's first slot
}

TEST(ResendQueueTest, FirstInFirstOutUpToItsCapacity) {
  Outstanding slots[2];
  ResendQueue queue;
  queue.bind(slots, 2);
  EXPECT_TRUE(queue.empty());
  queue.push(request(1));
  queue.push(request(2));
  EXPECT_FALSE(queue.has_room());
  EXPECT_EQ(queue.pop().line, 1);
  queue.push(request(3));  // wraps
  EXPECT_EQ(queue.pop().line, 2);
  EXPECT_EQ(queue.pop().line, 3);
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace hammer
