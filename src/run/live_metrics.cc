// SPDX-License-Identifier: MIT
// See live_metrics.h.
#include "run/live_metrics.h"

#include <algorithm>

namespace hammer {

void LiveHistogram::count_from(const Histogram& histogram) {
  at_or_below.fill(0);
  count = histogram.total_count();
  sum_ns = 0;
  if (count == 0) return;
  const int32_t first = histogram.index_for(histogram.min());
  const int32_t last = histogram.index_for(histogram.max());
  int bound = 0;
  int64_t running = 0;
  for (int32_t index = first; index <= last; ++index) {
    const int64_t slot_count = histogram.count_at_index(index);
    if (slot_count == 0) continue;
    const int64_t value = histogram.value_from_index(index);
    // The bounds this slot's values lie above take the running count before it.
    while (bound < kLiveBucketCount && value > kLiveBucketBoundsNs[bound]) {
      at_or_below[bound++] = running;
    }
    running += slot_count;
    sum_ns += static_cast<double>(slot_count) *
              static_cast<double>(histogram.median_equivalent_value(value));
  }
  while (bound < kLiveBucketCount) at_or_below[bound++] = running;
}

void LiveHistogram::add(const LiveHistogram& other) {
  for (int k = 0; k < kLiveBucketCount; ++k) at_or_below[k] += other.at_or_below[k];
  count += other.count;
  sum_ns += other.sum_ns;
}

void LivePhase::take(const RunResult& phase) {
  present = true;
  sent = phase.sent;
  completed = phase.completed;
  status_classes = phase.status_classes;
  errors = phase.errors;
  corrected.count_from(phase.corrected);
  uncorrected.count_from(phase.uncorrected);
}

void LivePhase::add(const LivePhase& other) {
  present = present || other.present;
  sent += other.sent;
  completed += other.completed;
  for (int k = 0; k < kStatusClassCount; ++k) status_classes[k] += other.status_classes[k];
  for (int k = 0; k < kErrorKindCount; ++k) errors[k] += other.errors[k];
  corrected.add(other.corrected);
  uncorrected.add(other.uncorrected);
}

void LiveFigures::add(const LiveFigures& other) {
  open_loop = open_loop || other.open_loop;
  for (int p = 0; p < kPhaseCount; ++p) phases[p].add(other.phases[p]);
  scheduled += other.scheduled;
  in_flight += other.in_flight;
  connections += other.connections;
  dispatch_lag.add(other.dispatch_lag);
  behind_schedule += other.behind_schedule;
  lag_threshold_ns = std::max(lag_threshold_ns, other.lag_threshold_ns);
}

void LiveMetricsBoard::prepare(int64_t worker_count) {
  const std::lock_guard<std::mutex> lock(slots_mutex_);
  worker_count_ = std::max<int64_t>(worker_count, 0);
  slots_ = std::make_unique<Slot[]>(static_cast<size_t>(worker_count_));
}

void LiveMetricsBoard::publish(int64_t index, const LiveFigures& figures) {
  if (index < 0 || index >= worker_count_) return;
  Slot& slot = slots_[static_cast<size_t>(index)];
  const std::lock_guard<std::mutex> lock(slot.mutex);
  slot.figures = figures;
}

LiveFigures LiveMetricsBoard::total() const {
  LiveFigures sum;
  const std::lock_guard<std::mutex> board_lock(slots_mutex_);
  for (int64_t index = 0; index < worker_count_; ++index) {
    const Slot& slot = slots_[static_cast<size_t>(index)];
    LiveFigures copy;
    {
      const std::lock_guard<std::mutex> lock(slot.mutex);
      copy = slot.figures;
    }
    sum.add(copy);
  }
  return sum;
}

}  // namespace hammer
