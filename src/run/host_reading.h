// SPDX-License-Identifier: MIT
#pragma once
// What hammer measured of the machine it ran on, beside what it measured of the server: the
// hiccup meter's stalls (run/host_meter.h) and the workers' own CPU time. Plain data in
// RunResult, added like the rest of it (shards' meters add; maxima take the maximum).
#include <cstdint>
#include <vector>

#include "stats/histogram.h"

namespace hammer {

/// One stall of the host at least HostReading::kLongStallNs long.
struct HostStall {
  int64_t at_ns = 0;      // when the meter's sleep began, from the run's start (t0)
  int64_t length_ns = 0;  // how much longer than asked the sleep took
};

/// The hiccup meter's reading over the whole run (ramp, warm-up and measured part).
struct HostReading {
  /// Stalls from this long on are "long": counted, summed and kept one by one (long_stalls).
  static constexpr int64_t kLongStallNs = 10'000'000;
  /// At most this many long stalls are kept one by one (16 bytes each, reserved before the
  /// run); the count and sum still take every one.
  static constexpr int64_t kMaxStallsKept = 4096;
  /// Oversleeps: 1 us to 60 s at 2 significant figures (~1%, 20 KB).
  static constexpr int64_t kLowestDiscernibleNs = 1'000;
  static constexpr int kSignificantFigures = 2;

  HostReading()
      : oversleeps(kLowestDiscernibleNs, Histogram::kDefaultHighestTrackableValue,
                   kSignificantFigures) {}

  int64_t meters = 0;        // meters added: 1 for a run, the shards' for a merge; 0 none ran
  int64_t interval_ns = 0;   // the sleep each wake-up asked for
  int64_t observed_ns = 0;   // how long the meter ran (summed over meters)
  Histogram oversleeps;      // every wake-up's oversleep (0 when on time)
  int64_t max_ns = 0;        // the longest stall (exact)
  int64_t long_count = 0;    // stalls >= kLongStallNs
  int64_t long_sum_ns = 0;   // their total length: time lost to stalls
  std::vector<HostStall> long_stalls;  // the first kMaxStallsKept of them, by time
  int64_t steal_ns = -1;     // the host's steal time over the run (all CPUs); -1 unavailable
  int64_t meter_cpu_ns = -1; // the meter thread's own CPU time; -1 unknown

  bool measured() const { return meters > 0; }
  /// One sleep's oversleep, from a sleep that began `at_ns` after t0: into the histogram and
  /// the maximum, and a long stall when it is one (the first kMaxStallsKept kept, in the order
  /// recorded: a meter records in time order).
  void record_oversleep(int64_t at_ns, int64_t oversleep_ns);
  /// Adds another shard's meter: histograms and sums add, the maximum is the maximum, stalls
  /// are kept in time order. `shift_ns` moves other's stall times onto this reading's t0.
  void add(const HostReading& other, int64_t shift_ns = 0);
};

/// The workers' own CPU time (user + system, each thread's CPU clock) over their run.
struct GeneratorCpu {
  /// A worker that ran less than this says nothing of its share: a run Ctrl-C ended before
  /// its first request ran microseconds, and read "Generator CPU 99.9%" with no CPU spent.
  static constexpr int64_t kMinWallNs = 10'000'000;

  int64_t workers = 0;  // threads measured; 0 when not measured
  int64_t cpu_ns = 0;   // their CPU time, summed
  int64_t wall_ns = 0;  // each one's wall time from the start to its end, summed
  double busiest_share = 0;  // the busiest worker's CPU over its wall time

  bool measured() const { return workers > 0 && wall_ns > 0; }
  /// CPU over wall time, over every worker: 1.0 is every worker on a core all the time.
  double share() const {
    return measured() ? static_cast<double>(cpu_ns) / static_cast<double>(wall_ns) : 0;
  }
  void add_worker(int64_t worker_cpu_ns, int64_t worker_wall_ns);
  void add(const GeneratorCpu& other);
};

}  // namespace hammer
