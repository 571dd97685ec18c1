// SPDX-License-Identifier: MIT
#include "run/host_samples.h"

#include <gtest/gtest.h>

#include "run/host_meter.h"

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;

// A meter's reading at `interval_ns` with its long stalls, as HostMeter keeps them.
HostReading meter_reading(int64_t interval_ns, const std::vector<HostStall>& stalls) {
  HostReading reading;
  reading.meters = 1;
  reading.interval_ns = interval_ns;
  for (const HostStall& stall : stalls) reading.record_oversleep(stall.at_ns, stall.length_ns);
  return reading;
}

HostSamples reserved() {
  HostSamples samples;
  samples.reserve();
  return samples;
}

TEST(HostSamplesTest, KeepsOnlyTheLongStalls) {
  HostSamples samples = reserved();
  samples.record(0, kMs, 9 * kMs);  // 9 ms: an oversleep, not a long stall
  samples.record(kMs, 2 * kMs, 12 * kMs);
  samples.record(20 * kMs, 21 * kMs, -5);  // woken early: nothing
  EXPECT_EQ(samples.count(), 1);
  EXPECT_EQ(samples.sum_ns(), 12 * kMs);
  EXPECT_EQ(samples.max_ns(), 12 * kMs);
  ASSERT_EQ(samples.stalls().size(), 1u);
  EXPECT_EQ(samples.stalls()[0].began_ns, kMs);
  EXPECT_EQ(samples.stalls()[0].due_ns, 2 * kMs);
}

TEST(HostSamplesTest, RecordingAllocatesNothingOnceReserved) {
  HostSamples samples = reserved();
  const SampledStall* before = samples.stalls().data();
  for (int64_t i = 0; i < HostReading::kMaxStallsKept + 10; ++i) {
    samples.record(i * 100 * kMs, i * 100 * kMs + kMs, 20 * kMs);
  }
  EXPECT_EQ(samples.stalls().data(), before);
  EXPECT_EQ(static_cast<int64_t>(samples.stalls().size()), HostReading::kMaxStallsKept);
  EXPECT_EQ(samples.count(), HostReading::kMaxStallsKept + 10);  // the rest still counted
}

// The process stopped for 300 ms from 1.000 s: the meter (25 ms sleeps) and two workers
// (sleeps to their slots, 0.5 ms apart) each overslept into the same 300 ms. One stall.
TEST(HostSamplesTest, OneStallThatEveryThreadSawIsCountedOnce) {
  const int64_t interval = HostMeter::kSampledIntervalNs;
  HostReading reading = meter_reading(interval, {{990 * kMs, 290 * kMs}});  // felt from 1.015 s
  HostSamples first = reserved();
  first.record(999 * kMs + 700'000, 1'000 * kMs + 200'000, 299 * kMs + 800'000);
  HostSamples second = reserved();
  second.record(999 * kMs + 900'000, 1'000 * kMs + 400'000, 299 * kMs + 600'000);
  absorb_samples(reading, {&first, &second});
  EXPECT_EQ(reading.long_count, 1);
  ASSERT_EQ(reading.long_stalls.size(), 1u);
  // Its longest sighting, the first worker's: when its sleep began, and its overrun.
  EXPECT_EQ(reading.long_stalls[0].at_ns, 999 * kMs + 700'000);
  EXPECT_EQ(reading.long_stalls[0].length_ns, 299 * kMs + 800'000);
  EXPECT_EQ(reading.long_sum_ns, 299 * kMs + 800'000);
  EXPECT_EQ(reading.max_ns, 299 * kMs + 800'000);
  // The histogram and the interval stay the meter's: compare/ weights one by the other.
  EXPECT_EQ(reading.oversleeps.total_count(), 1);
  EXPECT_EQ(reading.interval_ns, interval);
}

// Between the meter's wake-ups (25 ms apart) a 15 ms stall can pass unseen by it; a worker
// saw it. Two separate stalls stay two, in time order.
TEST(HostSamplesTest, StallsTheMeterMissedJoinItsOwnInTimeOrder) {
  HostReading reading = meter_reading(HostMeter::kSampledIntervalNs, {{2'000 * kMs, 60 * kMs}});
  HostSamples worker = reserved();
  worker.record(500 * kMs, 500 * kMs + 500'000, 15 * kMs);
  worker.record(2'024 * kMs, 2'025 * kMs, 59 * kMs);  // the meter's stall, seen again
  absorb_samples(reading, {&worker});
  EXPECT_EQ(reading.long_count, 2);
  ASSERT_EQ(reading.long_stalls.size(), 2u);
  EXPECT_EQ(reading.long_stalls[0].at_ns, 500 * kMs);
  EXPECT_EQ(reading.long_stalls[0].length_ns, 15 * kMs);
  EXPECT_EQ(reading.long_stalls[1].at_ns, 2'000 * kMs);  // the meter's sighting, longer
  EXPECT_EQ(reading.long_stalls[1].length_ns, 60 * kMs);
  EXPECT_EQ(reading.long_sum_ns, 75 * kMs);
  EXPECT_EQ(reading.max_ns, 60 * kMs);
}

TEST(HostSamplesTest, NoMeterNoReading) {
  HostReading reading;  // no meter ran (a start refused)
  HostSamples worker = reserved();
  worker.record(0, kMs, 50 * kMs);
  absorb_samples(reading, {&worker});
  EXPECT_FALSE(reading.measured());
  EXPECT_EQ(reading.long_count, 0);
}

TEST(HostSamplesTest, WorkersSampleTheHostWhenEachSleepsAtLeastEveryMeterInterval) {
  Config config;
  config.threads = 1;
  EXPECT_FALSE(workers_sample_host(config));  // closed loop: no schedule to sleep to
  config.rate = 2'000;
  EXPECT_TRUE(workers_sample_host(config));
  config.rate = 200;  // a slot every 5 ms: as often as the meter
  EXPECT_TRUE(workers_sample_host(config));
  config.rate = 199;
  EXPECT_FALSE(workers_sample_host(config));
  config.rate = 2'000;
  config.threads = 20;  // 100 req/s each
  EXPECT_FALSE(workers_sample_host(config));
  config.threads = 2;
  config.shard.count = 10;  // the fleet's rate: 100 req/s for each of this shard's workers
  EXPECT_FALSE(workers_sample_host(config));
  config.shard.count = 1;
  config.dispatch_precision_ns = 5 * kMs;  // wake-ups 5 ms apart at the least
  EXPECT_FALSE(workers_sample_host(config));
  config.precise_dispatch = true;  // a budget of 0
  EXPECT_TRUE(workers_sample_host(config));
}

}  // namespace
}  // namespace hammer
