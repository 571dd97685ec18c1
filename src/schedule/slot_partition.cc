// SPDX-License-Identifier: MIT
// Sharding one schedule over machines, then over threads. A fleet of N machines must send
// exactly the requests one impossibly large machine would have sent, at the same instants, so
// that the fleet's histograms add up to that machine's. The global schedule numbers its slots
// k = 0, 1, 2, ... (intended[k] = t0 + k / rate). Machine I of N (1-based on the command line)
// takes k = I-1, I-1+N, I-1+2N, ...: a round-robin deal, so each machine's load is even at every
// instant (a block split — first third, second third — would leave two machines idle at any
// moment). Inside a machine, the W threads deal that machine's slots round-robin again:
// thread w takes the (w + j*W)-th slot of its machine, which is global slot
// (I-1) + N*w + N*W*j. Both deals are one arithmetic progression, so a worker's schedule stays
// two integers and nothing is allocated or shared; and because residues modulo N*W of the form
// (I-1) + N*w are all distinct for I in 1..N and w in 0..W-1, and there are N*W of them, every
// slot belongs to exactly one (machine, thread).
#include "schedule/slot_partition.h"

namespace hammer {

SlotPartition slots_for(int64_t shard_index, int64_t shard_count, int64_t worker_index,
                        int64_t worker_count) {
  return SlotPartition{shard_index + shard_count * worker_index, shard_count * worker_count};
}

}  // namespace hammer
