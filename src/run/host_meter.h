// SPDX-License-Identifier: MIT
#pragma once
// HostMeter: the hiccup meter (Gil Tene's jHiccup). A thread of hammer's own that does nothing
// but sleep a short fixed interval, over and over, and records by how much each sleep overran.
// It touches no socket and waits on no server, so any overrun is the host's: a machine too busy
// to run hammer's threads on time, a VM whose CPU was stolen, a process stopped (SIGSTOP, a
// laptop's suspend). What it saw is the run's HostReading (run/host_reading.h). See
// host_meter.cc for the interval and its cost.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "run/host_reading.h"
#include "time/clock.h"

namespace hammer {

/// Where the meter's sleeps come from: the thread's sleep in a run, a fake in tests (one that
/// moves a ManualClock by what the test wants the sleep to have taken).
class Sleeper {
 public:
  virtual ~Sleeper() = default;
  virtual void sleep_ns(int64_t ns) = 0;
  /// Ends the sleep under way, and any later one, at once (HostMeter::stop()).
  virtual void interrupt() {}
};

/// The thread's own sleep, which stop() can cut short: a run's end waits for no interval.
class InterruptibleSleeper final : public Sleeper {
 public:
  void sleep_ns(int64_t ns) override;
  void interrupt() override;

 private:
  std::mutex mutex_;
  std::condition_variable woken_;
  bool interrupted_ = false;
};

class HostMeter {
 public:
  /// The sleep each wake-up asks for: 5 ms costs about 0.5% of a core on a VM whose wake-up
  /// costs ~24 us (docs/performance.md); 1 ms would cost 1.4-2.5%. A stall is measured whole
  /// whatever the interval (the sleep it falls in overruns by it); stalls that matter to a
  /// verdict are tens of ms.
  static constexpr int64_t kIntervalNs = 5'000'000;
  /// The sleep when the workers' own sleeps sample the host at least every kIntervalNs
  /// (run/host_samples.h): the meter then only covers what they may miss (a stall while a
  /// worker runs), 40 wake-ups a second.
  static constexpr int64_t kSampledIntervalNs = 25'000'000;

  /// `clock` and `sleeper` (null: the thread's own sleep) must outlive the meter.
  explicit HostMeter(const Clock& clock = monotonic_clock(), Sleeper* sleeper = nullptr,
                     int64_t interval_ns = kIntervalNs);
  HostMeter(const HostMeter&) = delete;
  HostMeter& operator=(const HostMeter&) = delete;
  ~HostMeter();

  /// Prepares a reading whose stall times count from `origin_ns` (the run's t0); allocates
  /// everything the meter keeps. start() calls it.
  void begin(int64_t origin_ns);
  /// One sleep and its oversleep recorded: what the thread repeats (tests call it directly).
  void tick();
  /// begin(), then tick() on a thread of its own until stop().
  void start(int64_t origin_ns);
  /// Stops the thread (its sleep cut short) and completes the reading: how long it observed,
  /// the host's steal time over the run, the meter's own CPU time.
  void stop();

  const HostReading& reading() const { return reading_; }

 private:

  const Clock& clock_;
  InterruptibleSleeper own_sleeper_;
  Sleeper* sleeper_;
  int64_t interval_ns_;
  int64_t origin_ns_ = 0;
  int64_t last_wake_ns_ = 0;
  int64_t steal_before_ns_ = -1;
  HostReading reading_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace hammer
