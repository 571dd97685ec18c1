// SPDX-License-Identifier: MIT
//
// Poisson arrivals that shard exactly. Users arrive independently: the gaps between them are
// exponential with mean 1 / rate, and a bursty schedule shows the queueing a metronome hides.
// The schedule still has to be one global sequence of slots that workers and shards deal out
// by index (slot_partition.cc), so slot k's time must be a function of (seed, k) alone: a
// worker that takes slots 3, 7, 11, ... needs S(3) = the sum of the gaps 0, 1 and 2 that other
// workers send. Summing every gap before k each time is O(k); keeping a running sum means every
// worker walks every slot. Instead the slots come in blocks of kBlock:
//
//   - block b's total G_b is a Gamma(kBlock, 1) variate drawn from (seed, b) alone
//     (Marsaglia and Tsang's method), so a walker skips a block for the price of one draw;
//   - inside the block, raw exponentials x_0 .. x_{kBlock-1} are drawn from (seed, b, i), and
//     the gaps are G_b x_i / (x_0 + ... + x_{kBlock-1}).
//
// For independent exponentials the proportions x_i / sum(x) are independent of their sum
// (Dirichlet(1, ..., 1)), so scaling them by an independent Gamma(kBlock) total gives again
// independent exponential gaps of mean 1: exactly a unit-rate Poisson process, not an
// approximation (schedule_test.cc checks the gaps with a Kolmogorov-Smirnov test). And because
// every S(k) is computed by one expression in one order (the block totals summed from block 0,
// then the raw prefix), every worker computes the same bits for the same k.
//
// Cost: taking slot k + stride from slot k costs min(stride, kBlock) raw draws plus one pass
// over a block when it is entered (kBlock draws, for the sum), and one Gamma draw per block
// skipped; a draw is a hash and a log, a few ns. Counting the slots before a time from slot 0
// (Phases::slots_before) costs one Gamma draw per kBlock slots.
//
// The schedule maps S(k), in mean gaps, to time as the constant schedule maps k: through the
// inverse of the cumulative rate (schedule.h, SlotTimes). Under --ramp the rate climbs, and the
// time-change theorem makes Lambda^{-1}(S(k)) a Poisson process of exactly that rising rate.
#include "schedule/arrivals.h"

#include <cmath>
#include <numbers>

namespace hammer {

namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
// Draws per block for its Gamma total: three per attempt, 21 attempts.
constexpr uint64_t kGammaDraws = 64;
constexpr int kGammaAttempts = 21;

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Gamma(shape, 1) for shape >= 1, Marsaglia and Tsang (2000): exact rejection sampling, which
// accepts well over 99% of attempts at this shape. The loop is bounded; running out of draws
// (chance below 1e-40) returns the attempt's mode.
double gamma_variate(uint64_t key, uint64_t first_draw, double shape) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  uint64_t n = first_draw;
  for (int attempt = 0; attempt < kGammaAttempts; ++attempt) {
    const double u1 = arrival_uniform(key, n++);
    const double u2 = arrival_uniform(key, n++);
    const double u = arrival_uniform(key, n++);
    // Box-Muller: one standard normal.
    const double x = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    const double base = 1.0 + c * x;
    if (base <= 0) continue;
    const double v = base * base * base;
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
  return d;
}

}  // namespace

uint64_t arrival_hash(uint64_t key, uint64_t n) { return mix(key + (n + 1) * kGolden); }

double arrival_uniform(uint64_t key, uint64_t n) {
  return (static_cast<double>(arrival_hash(key, n) >> 11) + 0.5) * 0x1.0p-53;
}

PoissonCursor::PoissonCursor(uint64_t seed)
    : gap_key_(mix(seed ^ 0x6761707367617073ULL)),    // "gapsgaps"
      block_key_(mix(seed ^ 0x626c6f636b626c6bULL)),  // "blockblk"
      block_total_(gamma_variate(block_key_, 0, static_cast<double>(kBlock))) {}

void PoissonCursor::next_block() {
  block_start_ = next_block_start();
  ++block_;
  index_ = 0;
  raw_sum_ = 0;
  raw_prefix_ = 0;
  block_total_ = gamma_variate(block_key_, static_cast<uint64_t>(block_) * kGammaDraws,
                               static_cast<double>(kBlock));
}

void PoissonCursor::ensure_raw_sum() {
  if (raw_sum_ > 0) return;
  const uint64_t base = static_cast<uint64_t>(block_) * kBlock;
  double sum = 0;
  for (int64_t i = 0; i < kBlock; ++i) sum += -std::log(arrival_uniform(gap_key_, base + i));
  raw_sum_ = sum;
}

void PoissonCursor::step() {
  if (index_ + 1 == kBlock) {
    next_block();
    return;
  }
  ensure_raw_sum();
  raw_prefix_ += -std::log(arrival_uniform(gap_key_, static_cast<uint64_t>(slot())));
  ++index_;
}

void PoissonCursor::advance_to(int64_t k) {
  while (block_ < k / kBlock) next_block();
  while (slot() < k) step();
}

}  // namespace hammer
