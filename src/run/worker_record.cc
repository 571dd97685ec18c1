// SPDX-License-Identifier: MIT
//
// Recording: what each answer, failure and event adds to the worker's figures. Everything
// goes to the RunResult of the phase its request belongs to (phase_for: by intended send time
// in open loop, actual send in closed loop), to its --requests line when there are several,
// and to the timeline by time. Counters and preallocated histograms only: this runs for every
// request, so it allocates nothing and touches no atomic; publish_progress is the one place
// the loop stores into atomics, at most every kPublishIntervalNs.
#include "run/worker.h"

namespace hammer {

void Worker::record_response(const Outstanding& done, bool written, const ResponseInfo& info,
                             int64_t now_ns) {
  RunResult& phase = phase_for(done.intended_ns);
  LineStats* stats = line_stats(phase, done.line);
  ++phase.completed;
  if (!written) ++phase.early_responses;
  last_response_ns_ = now_ns;
  const int64_t uncorrected = now_ns - done.actual_send_ns;
  const int64_t corrected = now_ns - done.intended_ns;
  if (info.status >= 100 && info.status <= 599) {
    ++phase.status_classes[info.status / 100 - 1];
    ++phase.status_codes[info.status];
  }
  phase.uncorrected.record(uncorrected);
  if (open_loop_) phase.corrected.record(corrected);
  if (done.generator_late) lag_.note_generator_late_latency(corrected, uncorrected);
  if (stats != nullptr) {
    ++stats->completed;
    if (info.status >= 100 && info.status <= 599) ++stats->status_classes[info.status / 100 - 1];
    stats->uncorrected.record(uncorrected);
    if (open_loop_) stats->corrected.record(corrected);
  }
  result_.timeline.record(done.intended_ns, corrected_stopwatch_ ? corrected : uncorrected);
  if (open_loop_) {
    result_.timeline.record_other(done.intended_ns,
                                  corrected_stopwatch_ ? uncorrected : corrected);
  }
  if (done.first_on_socket) result_.first_requests.record(uncorrected);
}

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
