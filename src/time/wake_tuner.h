// SPDX-License-Identifier: MIT
#pragma once
// WakeTuner: how early an open-loop worker should wake before a request's slot, from the
// oversleep it measures on this host while running.
//
// A worker sleeps in the poller with a nanosecond timeout and 1 ns timer slack, yet the kernel
// wakes it some microseconds late (more on a busy host). Spinning through a fixed window before
// every slot (what hammer did before) made dispatch precise but burned a core at 10k req/s. The
// tuner instead records each timed-out sleep's oversleep (woke at - asked for) in a small
// decaying histogram, and sets the lead — how long before a slot to stop sleeping and poll
// without blocking — to one quantile of it:
//  - balanced (default): the median. Half the wake-ups land before the slot and spin the
//    short rest; the other half are late by less than the spread of the oversleep. The median
//    dispatch lag stays near zero at little CPU.
//  - precise (--precise-dispatch): the 99th percentile, capped higher. Nearly every wake-up
//    lands early and spins to the slot: sub-10 us dispatch for the price of the spin.
//  - no spin: the lead is 0, for a worker that shares its core with another hammer thread
//    (spinning there steals the very time the other thread needs to send on schedule).
// A lead under kSmallNs is 0 too: the wake-up is already as precise as a spin would make it.
// No allocation, no system call; record() is O(1) and the lead is recomputed every
// kRecomputeEvery samples (a walk over kBuckets counters).
#include <array>
#include <cstdint>

namespace hammer {

enum class SpinPolicy : uint8_t { none, balanced, precise };

class WakeTuner {
 public:
  static constexpr int64_t kBucketNs = 1'000;   // 1 us resolution
  static constexpr int kBuckets = 256;          // oversleeps of 256 us and more share the last
  static constexpr int kRecomputeEvery = 32;
  static constexpr int64_t kDecayEvery = 512;   // then every count halves: recent samples lead
  static constexpr int64_t kSmallNs = 2'000;
  static constexpr int64_t kBalancedCapNs = 50'000;
  static constexpr int64_t kPreciseCapNs = 200'000;
  /// Before any sample: what the precise policy assumes (the old fixed window); balanced
  /// starts at 0 and learns.
  static constexpr int64_t kPreciseInitialLeadNs = 60'000;

  explicit WakeTuner(SpinPolicy policy = SpinPolicy::balanced);

  /// A sleep asked to end at `asked_ns` ended (by its timeout, no event) at `woke_ns`.
  void record(int64_t asked_ns, int64_t woke_ns);

  /// How long before a slot to stop sleeping.
  int64_t lead_ns() const { return lead_ns_; }
  SpinPolicy policy() const { return policy_; }
  int64_t samples() const { return samples_; }
  /// Oversleep at quantile q in (0, 1] of the decayed window, to the bucket's upper edge; 0
  /// with no samples.
  int64_t oversleep_at(double q) const;

 private:
  void recompute();

  SpinPolicy policy_;
  int64_t lead_ns_ = 0;
  int64_t samples_ = 0;
  int64_t window_total_ = 0;
  std::array<int32_t, kBuckets> counts_{};
};

}  // namespace hammer
