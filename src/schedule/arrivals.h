// SPDX-License-Identifier: MIT
#pragma once
// The arrival process of the open-loop schedule (--arrival, --seed). See arrivals.cc.
#include <cstdint>

#include "core/arrival.h"

namespace hammer {

/// The arrival times of a unit-rate Poisson process, S(0) = 0 and S(k + 1) - S(k) independent
/// exponential gaps of mean 1, as a pure function of (seed, k): every worker and shard that asks
/// for slot k gets the same double, bit for bit, whatever slots it walked before. A cursor over
/// them: it moves forward only, skipping whole blocks of kBlock slots by their totals.
class PoissonCursor {
 public:
  static constexpr int64_t kBlock = 128;

  explicit PoissonCursor(uint64_t seed);

  int64_t slot() const { return block_ * kBlock + index_; }
  /// S(slot()), in mean gaps.
  double arrival() const {
    return index_ == 0 ? block_start_ : block_start_ + block_total_ * (raw_prefix_ / raw_sum_);
  }

  /// Moves to slot `k` (>= slot()).
  void advance_to(int64_t k);
  /// Moves forward while before(arrival()) holds; `before` is monotone (true, then false).
  /// Afterwards slot() is the first slot at or after the old one for which it is false.
  template <typename Before>
  void advance_while(Before before) {
    // A bounded walk: at most one partial block, then block skips, then one block.
    while (before(arrival())) {
      if (before(next_block_start())) {
        next_block();
      } else {
        step();
      }
    }
  }

 private:
  double next_block_start() const { return block_start_ + block_total_; }
  void next_block();
  void step();          // one slot within the block (or into the next)
  void ensure_raw_sum();

  uint64_t gap_key_;
  uint64_t block_key_;
  int64_t block_ = 0;
  int64_t index_ = 0;          // slot within the block, 0 .. kBlock - 1
  double block_start_ = 0;     // S(block_ * kBlock): the totals of the blocks before it
  double block_total_;         // the block's Gamma(kBlock) total
  double raw_sum_ = 0;         // the block's raw exponentials summed (0: not yet computed)
  double raw_prefix_ = 0;      // the first index_ of them summed
};

/// The counter-based generator under it (splitmix64's output function over key + n * gamma):
/// exposed for the tests.
uint64_t arrival_hash(uint64_t key, uint64_t n);
/// A uniform double in (0, 1) from 53 bits of arrival_hash.
double arrival_uniform(uint64_t key, uint64_t n);

}  // namespace hammer
