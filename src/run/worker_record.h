// SPDX-License-Identifier: MIT
#pragma once
// What an answered request records (worker_record.cc has the rest of the recording). Inline,
// and included only where responses are matched (worker_http1.cc): it runs once per answer,
// and a call across files there costs more than the counters it updates.
#include "run/worker.h"

namespace hammer {

inline void Worker::record_response(const Outstanding& done, bool written, const ResponseInfo& info,
                             int64_t answered_ns) {
  RunResult& phase = phase_for(done.intended_ns);
  // A kernel stamp cannot precede the request's send; should a clock ever say so, the answer
  // took no time rather than negative time.
  const int64_t now_ns = answered_ns > done.actual_send_ns ? answered_ns : done.actual_send_ns;
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

}  // namespace hammer
