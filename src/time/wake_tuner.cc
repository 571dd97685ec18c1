// SPDX-License-Identifier: MIT
#include "time/wake_tuner.h"

#include <algorithm>

namespace hammer {

WakeTuner::WakeTuner(SpinPolicy policy) : policy_(policy) {
  if (policy_ == SpinPolicy::precise) lead_ns_ = kPreciseInitialLeadNs;
}

void WakeTuner::record(int64_t asked_ns, int64_t woke_ns) {
  const int64_t oversleep = woke_ns > asked_ns ? woke_ns - asked_ns : 0;
  const int64_t bucket = std::min<int64_t>(oversleep / kBucketNs, kBuckets - 1);
  ++counts_[static_cast<size_t>(bucket)];
  ++window_total_;
  ++samples_;
  if (window_total_ >= kDecayEvery) {
    window_total_ = 0;
    for (int32_t& count : counts_) {
      count /= 2;
      window_total_ += count;
    }
  }
  if (samples_ % kRecomputeEvery == 0) recompute();
}

int64_t WakeTuner::oversleep_at(double q) const {
  if (window_total_ == 0) return 0;
  const double wanted = q * static_cast<double>(window_total_);
  int64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += counts_[static_cast<size_t>(i)];
    if (static_cast<double>(seen) >= wanted) return (i + 1) * kBucketNs;
  }
  return kBuckets * kBucketNs;
}

void WakeTuner::recompute() {
  int64_t lead = 0;
  switch (policy_) {
    case SpinPolicy::none:
      lead = 0;
      break;
    case SpinPolicy::balanced:
      lead = std::min(oversleep_at(0.5), kBalancedCapNs);
      break;
    case SpinPolicy::precise:
      lead = std::min(oversleep_at(0.99), kPreciseCapNs);
      break;
  }
  lead_ns_ = lead < kSmallNs ? 0 : lead;
}

}  // namespace hammer
