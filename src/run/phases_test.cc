// SPDX-License-Identifier: MIT
#include "run/phases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "schedule/schedule.h"

namespace hammer {
namespace {

Config config_with(int64_t ramp_ns, int64_t warmup_ns, int64_t duration_ns, double rate = 0) {
  Config config;
  config.ramp_ns = ramp_ns;
  config.warmup_ns = warmup_ns;
  config.duration_ns = duration_ns;
  config.rate = rate;
  return config;
}

TEST(PhasesTest, CutsByTimestampRampThenWarmupThenMeasured) {
  Phases phases(config_with(1'000, 2'000, 5'000));
  phases.start_at(10'000);
  EXPECT_EQ(phases.phase_of(10'000), Phase::ramp);
  EXPECT_EQ(phases.phase_of(10'999), Phase::ramp);
  EXPECT_EQ(phases.phase_of(11'000), Phase::warmup);
  EXPECT_EQ(phases.phase_of(12'999), Phase::warmup);
  EXPECT_EQ(phases.phase_of(13'000), Phase::measured);
  EXPECT_EQ(phases.warmup_start_ns(), 11'000);
  EXPECT_EQ(phases.measured_start_ns(), 13'000);
  EXPECT_EQ(phases.deadline_ns(), 18'000);
  EXPECT_EQ(phases.total_ns(), 8'000);
}

TEST(PhasesTest, APhaseNotAskedForNeverHoldsARequest) {
  Phases warmup_only(config_with(0, 2'000, 5'000));
  warmup_only.start_at(0);
  EXPECT_EQ(warmup_only.phase_of(0), Phase::warmup);
  EXPECT_EQ(warmup_only.phase_of(2'000), Phase::measured);
  Phases ramp_only(config_with(1'000, 0, 5'000));
  ramp_only.start_at(0);
  EXPECT_EQ(ramp_only.phase_of(999), Phase::ramp);
  EXPECT_EQ(ramp_only.phase_of(1'000), Phase::measured);
  EXPECT_FALSE(ramp_only.has(Phase::warmup));
  Phases plain(config_with(0, 0, 5'000));
  plain.start_at(0);
  EXPECT_EQ(plain.phase_of(-1), Phase::measured);
}

TEST(PhasesTest, BeforeTheStartEverythingIsTheFirstPhase) {
  // Connections connect before the shared start: their events belong to the first phase.
  Phases phases(config_with(0, 2'000, 5'000));
  EXPECT_EQ(phases.phase_of(1'000'000'000), Phase::warmup);
  EXPECT_EQ(Phases(config_with(0, 0, 5'000)).phase_of(123), Phase::measured);
}

TEST(PhasesTest, SlotsInEachPhaseAddUpToTheSchedule) {
  // 1000 req/s, 1 s warm-up and 2 s measured, no ramp: 1000 and 2000 slots, one partition.
  Phases phases(config_with(0, 1'000'000'000, 2'000'000'000, 1000));
  phases.start_at(0);
  const SlotPartition all{0, 1};
  EXPECT_EQ(phases.slots_in(Phase::ramp, all), 0);
  EXPECT_EQ(phases.slots_in(Phase::warmup, all), 1000);
  EXPECT_EQ(phases.slots_in(Phase::measured, all), 2000);
  // Every other slot: half of each.
  const SlotPartition half{1, 2};
  EXPECT_EQ(phases.slots_in(Phase::warmup, half), 500);
  EXPECT_EQ(phases.slots_before(half, 1'000'000'000), 500);
}

TEST(PhasesTest, PoissonSlotsBeforeCountExactlyTheSlotsTheWorkersTake) {
  // 2000 req/s, 1 s ramp, 1 s warm-up, 2 s measured, Poisson from seed 17: slots_before must
  // count the very slots a worker's schedule walks, for any partition and any time.
  Config config = config_with(1'000'000'000, 1'000'000'000, 2'000'000'000, 2000);
  config.arrival = {Arrival::poisson, 17};
  Phases phases(config);
  phases.start_at(5'000);
  for (const SlotPartition partition : {SlotPartition{0, 1}, SlotPartition{1, 3}}) {
    OpenLoopSchedule schedule(5'000, 2000, partition, phases.deadline_ns(), config.ramp_ns,
                              config.arrival);
    std::vector<int64_t> times;
    while (schedule.has_next()) {
      times.push_back(schedule.next_intended_ns());
      schedule.take();
    }
    for (int64_t t : {phases.warmup_start_ns(), phases.measured_start_ns(), phases.deadline_ns(),
                      times[times.size() / 2], times[times.size() / 2] + 1, int64_t{5'000}}) {
      const auto expected = std::lower_bound(times.begin(), times.end(), t) - times.begin();
      EXPECT_EQ(phases.slots_before(partition, t), expected) << t;
    }
    EXPECT_EQ(phases.slots_in(Phase::ramp, partition) + phases.slots_in(Phase::warmup, partition) +
                  phases.slots_in(Phase::measured, partition),
              static_cast<int64_t>(times.size()));
  }
}

}  // namespace
}  // namespace hammer
