// SPDX-License-Identifier: MIT
#include "run/phases.h"

#include "schedule/schedule.h"

namespace hammer {

int64_t Phases::slots_before(const SlotPartition& partition, int64_t t_ns) const {
  return OpenLoopSchedule(start_ns_, rate_, partition, t_ns, ramp_ns_, arrival_).scheduled_count();
}

int64_t Phases::slots_in(Phase phase, const SlotPartition& partition) const {
  switch (phase) {
    case Phase::ramp:
      return slots_before(partition, warmup_start_ns());
    case Phase::warmup:
      return slots_before(partition, measured_start_ns()) -
             slots_before(partition, warmup_start_ns());
    case Phase::measured:
      return slots_before(partition, deadline_ns()) -
             slots_before(partition, measured_start_ns());
  }
  return 0;
}

}  // namespace hammer
