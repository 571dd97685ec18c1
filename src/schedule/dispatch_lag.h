// SPDX-License-Identifier: MIT
#pragma once
// DispatchLag: the figures of how late open-loop requests left, kept by the schedule's
// DispatchLagRecorder (schedule.h) and carried in each RunResult.
#include <algorithm>
#include <cstdint>

#include "stats/histogram.h"

namespace hammer {

/// How far behind its intended time each open-loop request went out (actual_send - intended),
/// and whose fault it was. Closed-loop runs leave this all zero.
struct DispatchLag {
  int64_t threshold_ns = 0;      // lag above this counts as "behind schedule"
  int64_t dispatched = 0;        // open-loop requests sent; each has one lag sample
  int64_t sum_ns = 0;
  int64_t max_ns = 0;
  int64_t behind_schedule = 0;   // lag > threshold_ns; == behind_server + behind_generator
  int64_t behind_server = 0;     // late while every connection of its worker was busy
  int64_t behind_generator = 0;  // late although a connection was idle, or due while hammer
                                 // was not running (see behind_absent): hammer's own fault
  // Of behind_generator, those that came due while the worker was absent (it overslept its
  // wait, or a pass ran long: stopped, a frozen host, its own CPU), whatever the connections
  // were doing when they finally left: the catch-up after a stall is not the server's.
  int64_t behind_absent = 0;
  // The measured time one worker was absent that way in absences of 10 ms and more (a stall,
  // as the hiccup meter counts one: shorter ones are a busy host's late wake-ups, whose slots
  // still left): the longest of any worker's (a stopped process stops them all at once; their
  // absences are not added up).
  int64_t absent_ns = 0;
  // The largest lag among behind_generator: what hammer's own lateness came to. max_ns is
  // usually a server stall's, which must not be quoted as hammer's.
  int64_t generator_max_ns = 0;
  int64_t peak_backlog = 0;      // most due-but-unsent requests one worker held at once
  // Requests sent on a connection that was already idle when they were due: whatever lag they
  // have is hammer's own (its timers, its CPU), at any size, not only above threshold_ns.
  int64_t idle_dispatched = 0;
  int64_t idle_sum_ns = 0;
  // The unit a worker's sleep towards a slot is rounded up to: 1 ns with io_uring,
  // epoll_pwait2 or ppoll, 1 ms with poll (macOS) and WSAPoll (Windows). See TimerFloorVerdict.
  int64_t timer_granularity_ns = 0;
  // The precision budget (--dispatch-precision; 0 with --precise-dispatch): slot wake-ups came
  // at least this far apart, so a slot could leave this late by design; threshold_ns is at
  // least twice it (DispatchLagRecorder::use_budget). -1: not known (an older document).
  int64_t budget_ns = -1;
  /// Every lag sample (1 ns to 60 s, 2 significant figures: ~1%), for its percentiles; its
  /// counts are lazily zeroed (core/zeroed_array.h), so the untouched slots cost no memory.
  Histogram histogram = Histogram(1, Histogram::kDefaultHighestTrackableValue, 2);
  /// The corrected latency of each behind_generator request that was answered: where hammer's
  /// own lateness sits among the corrected figures, so the verdicts can tell whether it moves a
  /// reported percentile (GeneratorLateRule, run/verdicts.h).
  /// And the same requests' uncorrected latency: what each would have measured had hammer sent
  /// it on time (its connection was idle at its slot, so the wait was hammer's alone).
  /// Both have the latency histograms' geometry, so the corrected figures without hammer's
  /// lateness are exact bucket by bucket: corrected - late + unlagged. Lazily zeroed, so the
  /// few buckets late requests touch are all they cost.
  Histogram generator_late_latency;
  Histogram generator_late_unlagged;

  /// Adds another worker's or shard's lag: counts and the histogram summed, maxima kept. Every
  /// field is handled here, beside the struct, so a new one is not forgotten.
  void add(const DispatchLag& other) {
    threshold_ns = std::max(threshold_ns, other.threshold_ns);
    dispatched += other.dispatched;
    sum_ns += other.sum_ns;
    max_ns = std::max(max_ns, other.max_ns);
    behind_schedule += other.behind_schedule;
    behind_server += other.behind_server;
    behind_generator += other.behind_generator;
    behind_absent += other.behind_absent;
    absent_ns = std::max(absent_ns, other.absent_ns);
    generator_max_ns = std::max(generator_max_ns, other.generator_max_ns);
    peak_backlog = std::max(peak_backlog, other.peak_backlog);
    idle_dispatched += other.idle_dispatched;
    idle_sum_ns += other.idle_sum_ns;
    timer_granularity_ns = std::max(timer_granularity_ns, other.timer_granularity_ns);
    budget_ns = std::max(budget_ns, other.budget_ns);
    histogram.add(other.histogram);
    generator_late_latency.add(other.generator_late_latency);
    generator_late_unlagged.add(other.generator_late_unlagged);
  }
};

}  // namespace hammer
