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
  if (live_board_ != nullptr) publish_live(now_ns);
}

void Worker::publish_live(int64_t now_ns) {
  live_.open_loop = open_loop_;
  for (int index = 0; index < kPhaseCount; ++index) live_.phases[index] = LivePhase{};
  // Without --ramp or --warmup, phase_results_ points every phase at the measured result.
  if (ramp_ != nullptr) live_.phases[static_cast<int>(Phase::ramp)].take(*ramp_);
  if (warmup_ != nullptr) live_.phases[static_cast<int>(Phase::warmup)].take(*warmup_);
  live_.phases[static_cast<int>(Phase::measured)].take(result_);
  live_.scheduled = open_loop_ && started_ ? schedule_.taken_count() + schedule_.due_count(now_ns) : 0;
  live_.in_flight = in_flight_;
  live_.connections = live_connections_;
  const DispatchLag& lag = lag_.lag();
  live_.dispatch_lag.count_from(lag.histogram);
  live_.behind_schedule = lag.behind_schedule;
  live_.lag_threshold_ns = lag.threshold_ns;
  live_board_->publish(worker_index_, live_);
}

void Worker::count_error(ErrorKind kind, int64_t when_ns) {
  ++phase_for(when_ns).errors[static_cast<int>(kind)];
  if (started_) result_.timeline.record_error(when_ns, kind == ErrorKind::timeout);
}

}  // namespace hammer
