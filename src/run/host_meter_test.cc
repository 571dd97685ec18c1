// SPDX-License-Identifier: MIT
#include "run/host_meter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>

#include "time/manual_clock.h"

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;

// A sleep that takes what the test scripted: the interval plus the next oversleep in line
// (none left: on time). Moves the ManualClock the meter reads.
class ScriptedSleeper final : public Sleeper {
 public:
  explicit ScriptedSleeper(ManualClock& clock) : clock_(clock) {}
  void sleep_ns(int64_t ns) override {
    int64_t over = 0;
    if (!oversleeps_.empty()) {
      over = oversleeps_.front();
      oversleeps_.pop_front();
    }
    clock_.advance(ns + over);
  }
  std::deque<int64_t> oversleeps_;

 private:
  ManualClock& clock_;
};

TEST(HostMeterTest, RecordsEveryOversleepAndKeepsTheLongStallsWithTheirTime) {
  ManualClock clock(5 * kMs);
  ScriptedSleeper sleeper(clock);
  HostMeter meter(clock, &sleeper, 2 * kMs);
  meter.begin(5 * kMs);  // t0 = now
  sleeper.oversleeps_ = {0, 50'000, 300 * kMs, 0, 12 * kMs, 9 * kMs};
  for (int i = 0; i < 8; ++i) meter.tick();
  meter.stop();
  const HostReading& reading = meter.reading();
  EXPECT_TRUE(reading.measured());
  EXPECT_EQ(reading.interval_ns, 2 * kMs);
  EXPECT_EQ(reading.oversleeps.total_count(), 8);
  EXPECT_EQ(reading.max_ns, 300 * kMs);
  // 9 ms is below the 10 ms a stall needs to count as long: two long stalls, 312 ms lost.
  EXPECT_EQ(reading.long_count, 2);
  EXPECT_EQ(reading.long_sum_ns, 312 * kMs);
  ASSERT_EQ(reading.long_stalls.size(), 2u);
  // The third sleep began after two on-time-ish sleeps: 2 + 2.05 ms after t0.
  EXPECT_EQ(reading.long_stalls[0].at_ns, 4 * kMs + 50'000);
  EXPECT_EQ(reading.long_stalls[0].length_ns, 300 * kMs);
  EXPECT_EQ(reading.long_stalls[1].at_ns, 4 * kMs + 50'000 + 302 * kMs + 2 * kMs);
  EXPECT_EQ(reading.long_stalls[1].length_ns, 12 * kMs);
  // Watched until the last wake-up: 8 intervals and every oversleep.
  EXPECT_EQ(reading.observed_ns, 8 * 2 * kMs + 50'000 + 321 * kMs);
}

TEST(HostMeterTest, AnEarlyWakeUpIsNoStall) {
  ManualClock clock;
  class EarlySleeper final : public Sleeper {
   public:
    explicit EarlySleeper(ManualClock& c) : clock_(c) {}
    void sleep_ns(int64_t ns) override { clock_.advance(ns / 2); }
    ManualClock& clock_;
  } sleeper(clock);
  HostMeter meter(clock, &sleeper, 2 * kMs);
  meter.begin(clock.now_ns());
  meter.tick();
  meter.stop();
  EXPECT_EQ(meter.reading().max_ns, 0);
  EXPECT_EQ(meter.reading().oversleeps.total_count(), 1);
}

TEST(HostMeterTest, KeepsAtMostTheCapOfStallsButCountsEveryOne) {
  ManualClock clock;
  ScriptedSleeper sleeper(clock);
  HostMeter meter(clock, &sleeper, 1 * kMs);
  meter.begin(clock.now_ns());
  const int64_t stalls = HostReading::kMaxStallsKept + 10;
  for (int64_t i = 0; i < stalls; ++i) sleeper.oversleeps_.push_back(11 * kMs);
  for (int64_t i = 0; i < stalls; ++i) meter.tick();
  meter.stop();
  EXPECT_EQ(meter.reading().long_count, stalls);
  EXPECT_EQ(meter.reading().long_sum_ns, stalls * 11 * kMs);
  EXPECT_EQ(static_cast<int64_t>(meter.reading().long_stalls.size()), HostReading::kMaxStallsKept);
}

// The thread's own sleep, counting the sleeps begun: the second begun means the first ended
// and was recorded.
class CountingSleeper final : public Sleeper {
 public:
  void sleep_ns(int64_t ns) override {
    begun_.fetch_add(1);
    own_.sleep_ns(ns);
  }
  void interrupt() override { own_.interrupt(); }
  int64_t begun() const { return begun_.load(); }

 private:
  InterruptibleSleeper own_;
  std::atomic<int64_t> begun_{0};
};

TEST(HostMeterTest, TheThreadRunsUntilStoppedOnTheRealClock) {
  CountingSleeper sleeper;
  HostMeter meter(monotonic_clock(), &sleeper);
  meter.start(monotonic_now_ns());
  // Until a sleep has ended, not a fixed 30 ms: on a busy machine the thread may not have
  // run one whole 5 ms sleep by then (seen under a parallel CI run). Bounded at 10 s.
  for (int i = 0; i < 1000 && sleeper.begun() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  meter.stop();
  ASSERT_GE(sleeper.begun(), 2);
  // Counts only: how late each sleep was is the machine's.
  EXPECT_GE(meter.reading().oversleeps.total_count(), 1);
  EXPECT_GT(meter.reading().observed_ns, 0);
}

// A run's end waits for no sleep of the meter's: stop() cuts it short, and a sleep cut short
// says nothing of the host (no oversleep recorded for it).
TEST(HostMeterTest, StopCutsTheSleepShortAndRecordsNothingOfIt) {
  HostMeter meter(monotonic_clock(), nullptr, 600'000 * kMs);  // ten minutes a sleep
  const int64_t began = monotonic_now_ns();
  meter.start(began);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  meter.stop();
  EXPECT_LT(monotonic_now_ns() - began, 60'000 * kMs);  // not the ten minutes
  EXPECT_EQ(meter.reading().oversleeps.total_count(), 0);
  EXPECT_EQ(meter.reading().long_count, 0);
}

TEST(HostReadingTest, ShardsMetersAddAndTheirStallsMeetOnOneClock) {
  HostReading a;
  a.meters = 1;
  a.interval_ns = 2 * kMs;
  a.observed_ns = 1'000 * kMs;
  a.oversleeps.record(20 * kMs);
  a.max_ns = 20 * kMs;
  a.long_count = 1;
  a.long_sum_ns = 20 * kMs;
  a.long_stalls = {{500 * kMs, 20 * kMs}};
  a.steal_ns = 3 * kMs;
  HostReading b = a;
  b.oversleeps.record(70 * kMs);
  b.max_ns = 70 * kMs;
  b.long_count = 2;
  b.long_sum_ns = 90 * kMs;
  b.long_stalls = {{100 * kMs, 70 * kMs}, {800 * kMs, 20 * kMs}};
  b.steal_ns = -1;  // that machine does not say

  HostReading total;
  total.add(a);
  total.add(b, 200 * kMs);  // b's run began 200 ms after a's
  EXPECT_EQ(total.meters, 2);
  EXPECT_EQ(total.oversleeps.total_count(), 3);
  EXPECT_EQ(total.max_ns, 70 * kMs);
  EXPECT_EQ(total.long_count, 3);
  EXPECT_EQ(total.long_sum_ns, 110 * kMs);
  EXPECT_EQ(total.observed_ns, 2'000 * kMs);
  EXPECT_EQ(total.steal_ns, 3 * kMs);
  ASSERT_EQ(total.long_stalls.size(), 3u);
  EXPECT_EQ(total.long_stalls[0].at_ns, 300 * kMs);
  EXPECT_EQ(total.long_stalls[1].at_ns, 500 * kMs);
  EXPECT_EQ(total.long_stalls[2].at_ns, 1'000 * kMs);
  // A run without a meter (an older document) adds nothing.
  total.add(HostReading());
  EXPECT_EQ(total.meters, 2);
}

TEST(GeneratorCpuTest, SharesAreCpuOverWallTimeAndTheBusiestIsKept) {
  GeneratorCpu cpu;
  EXPECT_FALSE(cpu.measured());
  cpu.add_worker(900 * kMs, 1'000 * kMs);
  cpu.add_worker(500 * kMs, 1'000 * kMs);
  cpu.add_worker(-1, 1'000 * kMs);  // the system could not say: not counted
  cpu.add_worker(999, 1'000);       // a worker that ran 1 us says nothing of a share
  EXPECT_EQ(cpu.workers, 2);
  EXPECT_DOUBLE_EQ(cpu.share(), 0.7);
  EXPECT_DOUBLE_EQ(cpu.busiest_share, 0.9);
}

}  // namespace
}  // namespace hammer
