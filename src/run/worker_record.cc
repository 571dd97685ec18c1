// SPDX-License-Identifier: MIT
//
// Recording: what each answer, failure and event adds to the worker's figures. Everything
// goes to the RunResult of the phase its request belongs to (phase_for: by intended send time
// in open loop, actual send in closed loop), to its --requests line when there are several,
// and to the timeline by time. Counters and preallocated histograms only: this runs for every
// request, so it allocates nothing and touches no atomic; publish_progress is the one place
// the loop stores into atomics, at most every kPublishIntervalNs. record_response, once per
// answer, is worker_record.h's (inline where the answer is matched).
#include "run/worker.h"

namespace hammer {

void Worker::publish_progress(int64_t now_ns) {
  next_publish_ns_ = now_ns + kPublishIntervalNs;
  int64_t completed = result_.completed;
  int64_t errors = result_.failed_requests();
  if (warmup_ != nullptr) {
    completed += warmup_->completed;
    errors += warmup_->failed_requests();
  }
  if (ramp_ != nullptr) {
    completed += ramp_->completed;
    errors += ramp_->failed_requests();
  }
  published_completed_.store(completed, std::memory_order_relaxed);
  published_errors_.store(errors, std::memory_order_relaxed);
}

void Worker::count_error(ErrorKind kind, int64_t when_ns) {
  ++phase_for(when_ns).errors[static_cast<int>(kind)];
  if (started_) result_.timeline.record_error(when_ns, kind == ErrorKind::timeout);
}

}  // namespace hammer
