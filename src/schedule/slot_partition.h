// SPDX-License-Identifier: MIT
#pragma once
// Which slots of the one global schedule a worker sends. See slot_partition.cc.
#include <cstdint>

namespace hammer {

/// The global slots k = first + j * stride (j = 0, 1, ...): one worker's share of the global
/// schedule intended[k] = t0 + k * 1e9 / rate.
struct SlotPartition {
  int64_t first = 0;   // the partition's lowest slot
  int64_t stride = 1;  // distance between its slots (>= 1)

  /// How many of the global slots 0 .. global_slots - 1 belong to this partition.
  int64_t count_below(int64_t global_slots) const {
    return global_slots > first ? (global_slots - first + stride - 1) / stride : 0;
  }
  bool contains(int64_t slot) const { return slot >= first && (slot - first) % stride == 0; }
};

/// Shard `shard_index` (0-based) of `shard_count` machines takes the slots k with
/// k mod shard_count == shard_index; worker `worker_index` of that shard's `worker_count`
/// threads takes every worker_count-th of those. For every shard and worker count the
/// partitions of all (shard, worker) pairs cover each slot exactly once.
SlotPartition slots_for(int64_t shard_index, int64_t shard_count, int64_t worker_index,
                        int64_t worker_count);

/// -n N in closed loop, where no schedule assigns the requests: a partition's share of N is
/// its count of the global slots 0 .. N - 1, so the shares of every (shard, worker) pair add
/// up to exactly N, split as evenly as the slots (1000 over 3 workers: 334 + 333 + 333).
inline int64_t requests_share(const SlotPartition& partition, int64_t total) {
  return partition.count_below(total);
}

}  // namespace hammer
