// SPDX-License-Identifier: MIT
//
// The hiccup meter, and why it is built this way.
//
// hammer's figures are the server's only if hammer ran when it meant to. A worker that was
// kept off the CPU for 300 ms sends its due requests 300 ms late and reads their answers 300 ms
// late; the corrected stopwatch (rightly) charges that to the requests, and nothing in the
// worker tells a slow server from a frozen host. A thread that only sleeps can: it asks for
// kIntervalNs and measures what it got. On a quiet machine a 5 ms sleep overruns by tens of
// microseconds; on a busy one, or under a hypervisor that steals the CPU, by whole
// milliseconds to seconds, and every thread of the process (the workers too) lost that time.
// This is jHiccup's idea (Gil Tene), kept as small as it can be:
// - one sleep per interval, one clock read after it: the cost is one wake-up per interval.
//   At 5 ms that is 200 wake-ups a second; on this 2-core VM a wake-up costs 18-24 us of CPU,
//   so about 0.5% of one core (docs/performance.md; bench/hiccup_cost.sh). 1 ms measured
//   1.4% and 2 ms up to 1.2%: more than the 1% budget, for stalls too short to report.
//   Where the workers sleep to their slots at least every 5 ms, their waits sample the host
//   more often than the meter would (run/host_samples.h), and it sleeps kSampledIntervalNs
//   (25 ms, 40 wake-ups a second): at 2k req/s its 200 were a tenth of hammer's wake-ups;
// - every oversleep goes into an HDR histogram (its shape: a host that is noisy all the time
//   or stalled once); stalls from HostReading::kLongStallNs (10 ms) on are also counted,
//   summed (time lost) and kept with their time, so the report can say when they happened and
//   the verdicts can set each stall against the percentiles it could have moved;
// - the host's steal time (/proc/stat, where Linux has it) is read at the start and the end:
//   a VM's stalls with steal beside them are the hypervisor's.
// The meter runs from the run's start (t0) to the end of the drain: ramp, warm-up and measured
// part; the verdict counts only the stalls that reach into the measured part.
#include "run/host_meter.h"

#include <algorithm>
#include <chrono>

#include "platform/system.h"

namespace hammer {

void InterruptibleSleeper::sleep_ns(int64_t ns) {
  std::unique_lock lock(mutex_);
  woken_.wait_for(lock, std::chrono::nanoseconds(ns), [this] { return interrupted_; });
}

void InterruptibleSleeper::interrupt() {
  {
    const std::lock_guard lock(mutex_);
    interrupted_ = true;
  }
  woken_.notify_all();
}

void HostReading::add(const HostReading& other, int64_t shift_ns) {
  if (!other.measured()) return;
  if (!measured()) interval_ns = other.interval_ns;
  meters += other.meters;
  observed_ns += other.observed_ns;
  oversleeps.add(other.oversleeps);
  max_ns = std::max(max_ns, other.max_ns);
  long_count += other.long_count;
  long_sum_ns += other.long_sum_ns;
  for (const HostStall& stall : other.long_stalls) {
    if (static_cast<int64_t>(long_stalls.size()) >= kMaxStallsKept) break;
    long_stalls.push_back({stall.at_ns + shift_ns, stall.length_ns});
  }
  std::stable_sort(long_stalls.begin(), long_stalls.end(),
                   [](const HostStall& a, const HostStall& b) { return a.at_ns < b.at_ns; });
  if (other.steal_ns >= 0) steal_ns = std::max<int64_t>(steal_ns, 0) + other.steal_ns;
  if (other.meter_cpu_ns >= 0) meter_cpu_ns = std::max<int64_t>(meter_cpu_ns, 0) + other.meter_cpu_ns;
}

void GeneratorCpu::add_worker(int64_t worker_cpu_ns, int64_t worker_wall_ns) {
  // The system could not say, or the worker ran too briefly for a share to mean anything.
  if (worker_cpu_ns < 0 || worker_wall_ns < kMinWallNs) return;
  ++workers;
  cpu_ns += worker_cpu_ns;
  wall_ns += worker_wall_ns;
  busiest_share = std::max(busiest_share, static_cast<double>(worker_cpu_ns) /
                                              static_cast<double>(worker_wall_ns));
}

void GeneratorCpu::add(const GeneratorCpu& other) {
  workers += other.workers;
  cpu_ns += other.cpu_ns;
  wall_ns += other.wall_ns;
  busiest_share = std::max(busiest_share, other.busiest_share);
}

HostMeter::HostMeter(const Clock& clock, Sleeper* sleeper, int64_t interval_ns)
    : clock_(clock),
      sleeper_(sleeper != nullptr ? sleeper : &own_sleeper_),
      interval_ns_(interval_ns) {}

HostMeter::~HostMeter() {
  if (thread_.joinable()) stop();
}

void HostMeter::begin(int64_t origin_ns) {
  origin_ns_ = origin_ns;
  last_wake_ns_ = origin_ns;
  reading_ = HostReading();
  reading_.meters = 1;
  reading_.interval_ns = interval_ns_;
  reading_.long_stalls.reserve(static_cast<size_t>(HostReading::kMaxStallsKept));
  steal_before_ns_ = host_steal_ns();
}

void HostMeter::tick() {
  const int64_t before_ns = clock_.now_ns();
  sleeper_->sleep_ns(interval_ns_);
  const int64_t after_ns = clock_.now_ns();
  last_wake_ns_ = after_ns;
  // Cut short by stop(): a sleep that says nothing of the host.
  if (stopping_.load(std::memory_order_relaxed)) return;
  // An early wake-up (a coarse clock) is no stall: 0.
  reading_.record_oversleep(before_ns - origin_ns_,
                            std::max<int64_t>(after_ns - before_ns - interval_ns_, 0));
}

void HostReading::record_oversleep(int64_t at_ns, int64_t oversleep_ns) {
  oversleeps.record(oversleep_ns);
  max_ns = std::max(max_ns, oversleep_ns);
  if (oversleep_ns < kLongStallNs) return;
  ++long_count;
  long_sum_ns += oversleep_ns;
  if (static_cast<int64_t>(long_stalls.size()) < kMaxStallsKept) {
    long_stalls.push_back({at_ns, oversleep_ns});
  }
}

void HostMeter::start(int64_t origin_ns) {
  begin(origin_ns);
  stopping_.store(false, std::memory_order_relaxed);
  thread_ = std::thread([this] {
    const int64_t cpu_before_ns = thread_cpu_ns();
    while (!stopping_.load(std::memory_order_relaxed)) tick();
    const int64_t cpu_after_ns = thread_cpu_ns();
    if (cpu_before_ns >= 0 && cpu_after_ns >= 0) reading_.meter_cpu_ns = cpu_after_ns - cpu_before_ns;
  });
}

void HostMeter::stop() {
  stopping_.store(true, std::memory_order_relaxed);
  sleeper_->interrupt();
  if (thread_.joinable()) thread_.join();
  reading_.observed_ns = std::max<int64_t>(last_wake_ns_ - origin_ns_, 0);
  const int64_t steal_after_ns = host_steal_ns();
  if (steal_before_ns_ >= 0 && steal_after_ns >= steal_before_ns_) {
    reading_.steal_ns = steal_after_ns - steal_before_ns_;
  }
}

}  // namespace hammer
