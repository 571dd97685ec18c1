// SPDX-License-Identifier: MIT
#pragma once
// The host as the workers' own sleeps see it. In open loop a worker sleeps to its next slot
// over and over, as the hiccup meter (run/host_meter.h) sleeps its interval: a sleep that
// overran by HostReading::kLongStallNs or more is a stall of the host (or of the process),
// the same evidence the meter collects, taken at the schedule's pace instead of the meter's
// (at 2k req/s on one worker, a sleep every 0.5 ms). Where every worker sleeps at least every
// kIntervalNs (workers_sample_host), the meter sleeps HostMeter::kSampledIntervalNs instead:
// at 2k req/s its 200 wake-ups a second were a tenth of hammer's (docs/performance.md). At
// the end the workers' stalls join the meter's reading (HostReading::absorb), a stall that
// several threads saw counted once.
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "run/host_reading.h"

namespace hammer {

/// One sleep that overran by HostReading::kLongStallNs or more, as a worker saw it.
struct SampledStall {
  int64_t began_ns = 0;  // when the sleep began, from the run's start (t0)
  int64_t due_ns = 0;    // when it should have ended, from t0: the stall was felt from here
  int64_t length_ns = 0; // how much longer than asked the sleep took
};

/// One worker's long stalls. Reserved before the run: recording appends, never allocates.
class HostSamples {
 public:
  /// Reserves room for HostReading::kMaxStallsKept stalls (24 bytes each).
  void reserve();
  /// A sleep from `began_ns` (t0-based) that should have ended at `due_ns` and overran by
  /// `oversleep_ns`: kept when it is a long stall.
  void record(int64_t began_ns, int64_t due_ns, int64_t oversleep_ns) {
    if (oversleep_ns < HostReading::kLongStallNs) return;
    ++count_;
    sum_ns_ += oversleep_ns;
    max_ns_ = oversleep_ns > max_ns_ ? oversleep_ns : max_ns_;
    if (stalls_.size() < stalls_.capacity()) stalls_.push_back({began_ns, due_ns, oversleep_ns});
  }

  int64_t count() const { return count_; }    // every long stall seen, kept or not
  int64_t sum_ns() const { return sum_ns_; }  // their total length
  int64_t max_ns() const { return max_ns_; }  // the longest
  const std::vector<SampledStall>& stalls() const { return stalls_; }  // the first ones, by time

 private:
  int64_t count_ = 0;
  int64_t sum_ns_ = 0;
  int64_t max_ns_ = 0;
  std::vector<SampledStall> stalls_;
};

/// Whether every worker of this run sleeps to its slots at least every
/// HostMeter::kIntervalNs in the measured part: open loop with each worker's share of the
/// rate at 1 / kIntervalNs or more, and a --dispatch-precision under kIntervalNs. A ramp's
/// first slots are sparser: its stalls are the meter's alone, as before.
bool workers_sample_host(const Config& config);

/// The meter's reading with the workers' stalls joined to it: the long stalls of every
/// thread, in time order, where two that overlap (from when each was felt to its end) are one
/// stall, its longest sighting. The oversleep histogram and the interval stay the meter's own
/// (compare/ weights them by it). Stalls past the kept ones are counted, unmatched.
void absorb_samples(HostReading& reading, const std::vector<const HostSamples*>& samples);

}  // namespace hammer
