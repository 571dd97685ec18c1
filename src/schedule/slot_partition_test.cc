// SPDX-License-Identifier: MIT
#include "schedule/slot_partition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "schedule/schedule.h"

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

// The slots (by intended time) a schedule sends, in order.
std::vector<int64_t> drain(OpenLoopSchedule& schedule) {
  std::vector<int64_t> times;
  while (schedule.has_next()) {
    times.push_back(schedule.next_intended_ns());
    schedule.take();
  }
  return times;
}

TEST(SlotPartitionTest, ShardIofNTakesTheSlotsCongruentToIMinusOne) {
  // --shard 2/3, one thread: slots 1, 4, 7, ...
  const SlotPartition slots = slots_for(1, 3, 0, 1);
  EXPECT_EQ(slots.first, 1);
  EXPECT_EQ(slots.stride, 3);
  for (int64_t k = 0; k < 100; ++k) EXPECT_EQ(slots.contains(k), k % 3 == 1) << k;
}

TEST(SlotPartitionTest, ThreadsDealTheirShardsSlotsRoundRobin) {
  // --shard 2/3 with 2 threads: the shard's slots 1, 4, 7, 10, ... alternate between them.
  EXPECT_EQ(slots_for(1, 3, 0, 2).first, 1);
  EXPECT_EQ(slots_for(1, 3, 1, 2).first, 4);
  EXPECT_EQ(slots_for(1, 3, 1, 2).stride, 6);
}

TEST(SlotPartitionTest, CountBelowCountsExactlyTheContainedSlots) {
  for (int64_t first = 0; first < 7; ++first) {
    for (int64_t stride = first + 1; stride < 9; ++stride) {
      const SlotPartition slots{first, stride};
      int64_t counted = 0;
      for (int64_t global = 0; global < 60; ++global) {
        EXPECT_EQ(slots.count_below(global), counted) << first << "/" << stride << " " << global;
        if (slots.contains(global)) ++counted;
      }
    }
  }
}

// The property --shard promises: for any N, any per-machine thread counts and any rate, every
// slot of the single-run schedule is sent by exactly one (shard, thread), at its instant.
TEST(SlotPartitionTest, NoSlotIsLostOrDoubledForAnyShardCountThreadCountOrRate) {
  const int64_t start = 123'456;
  const std::vector<double> rates = {0.5, 1, 3, 7.3, 999.9, 1000, 2000, 33'333.3};
  for (double rate : rates) {
    const int64_t deadline = start + 3 * kSecond + 1'234'567;
    OpenLoopSchedule whole(start, rate, SlotPartition{0, 1}, deadline);
    const std::vector<int64_t> global = drain(whole);
    for (int64_t shards = 1; shards <= 7; ++shards) {
      std::vector<int> times_sent(global.size(), 0);
      int64_t scheduled = 0;
      for (int64_t shard = 0; shard < shards; ++shard) {
        const int64_t threads = 1 + (shard * 5 + shards) % 4;  // machines differ: 1..4 threads
        for (int64_t worker = 0; worker < threads; ++worker) {
          OpenLoopSchedule share(start, rate, slots_for(shard, shards, worker, threads), deadline);
          scheduled += share.scheduled_count();
          int64_t expect_k = slots_for(shard, shards, worker, threads).first;
          for (int64_t t : drain(share)) {
            ASSERT_LT(expect_k, static_cast<int64_t>(global.size())) << rate << " " << shards;
            // The slot's intended time is the single run's, to the nanosecond.
            EXPECT_EQ(t, global[static_cast<size_t>(expect_k)]) << rate << " " << shards;
            ++times_sent[static_cast<size_t>(expect_k)];
            expect_k += shards * threads;
          }
        }
      }
      EXPECT_EQ(scheduled, static_cast<int64_t>(global.size())) << rate << " " << shards;
      for (size_t k = 0; k < times_sent.size(); ++k) {
        ASSERT_EQ(times_sent[k], 1) << "slot " << k << " rate " << rate << " shards " << shards;
      }
    }
  }
}

TEST(SlotPartitionTest, MoreShardsThanSlotsLeavesTheExtraShardsEmpty) {
  // 2 req/s for one second over 5 machines: slots 0 and 1 only; shards 3..5 send nothing.
  int64_t scheduled = 0;
  for (int64_t shard = 0; shard < 5; ++shard) {
    OpenLoopSchedule share(0, 2.0, slots_for(shard, 5, 0, 1), kSecond);
    EXPECT_EQ(share.scheduled_count(), shard < 2 ? 1 : 0) << shard;
    scheduled += share.scheduled_count();
  }
  EXPECT_EQ(scheduled, 2);
}

// -n N in closed loop: the shares of every (shard, worker) pair add up to exactly N, each
// within one of the others, for any fleet shape; with more workers than N the extra ones get 0.
TEST(SlotPartitionTest, ARequestCountSplitsExactlyOverShardsAndWorkers) {
  for (int64_t total : {1, 2, 7, 1000, 1001, 999'983}) {
    for (int64_t shards = 1; shards <= 5; ++shards) {
      for (int64_t workers = 1; workers <= 6; ++workers) {
        int64_t sum = 0;
        int64_t least = INT64_MAX;
        int64_t most = 0;
        for (int64_t shard = 0; shard < shards; ++shard) {
          for (int64_t worker = 0; worker < workers; ++worker) {
            const int64_t share =
                requests_share(slots_for(shard, shards, worker, workers), total);
            sum += share;
            least = std::min(least, share);
            most = std::max(most, share);
          }
        }
        EXPECT_EQ(sum, total) << total << " " << shards << "x" << workers;
        EXPECT_LE(most - least, 1) << total << " " << shards << "x" << workers;
      }
    }
  }
  // 1000 over 3 workers: 334 + 333 + 333, the first workers taking the remainder.
  EXPECT_EQ(requests_share(slots_for(0, 1, 0, 3), 1000), 334);
  EXPECT_EQ(requests_share(slots_for(0, 1, 1, 3), 1000), 333);
  EXPECT_EQ(requests_share(slots_for(0, 1, 2, 3), 1000), 333);
  // 2 requests over 4 workers: two send one each, two send none.
  EXPECT_EQ(requests_share(slots_for(0, 1, 3, 4), 2), 0);
}

}  // namespace
}  // namespace hammer
