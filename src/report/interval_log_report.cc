// SPDX-License-Identifier: MIT
// A run's interval log comes from its timeline: each measured row (one second, or wider rows in
// runs past 300 s) becomes one interval per stopwatch. The rows' histograms are the timeline's,
// 2 significant digits from 1 us (jHiccup's precision too), so a log of a 24-hour run stays
// small; the whole run's 3-digit histograms are in the JSON document. A request belongs to the
// row of its intended send time (its actual send in closed loop), the rule that also cuts the
// warm-up, so the log's intervals add up to exactly the measured part's counts.
#include "report/interval_log_report.h"

#include <algorithm>

#include "run/phases.h"

#ifndef HAMMER_VERSION
#define HAMMER_VERSION "unknown"
#endif

namespace hammer {

IntervalLog interval_log_of(const ReportInput& input) {
  const Config& config = input.config;
  const RunResult& result = input.result;
  const Timeline& timeline = result.timeline;
  IntervalLog log;
  // The measured part starts after the ramp and the warm-up (the timeline's rows count from
  // the ramp's start).
  const int64_t measured_start_ns = Phases(config).measured_offset_ns();
  log.start_unix_ns = result.wall_start.origin_unix_ns + measured_start_ns;
  log.base_unix_ns = log.start_unix_ns;
  log.comments.push_back(std::string("[hammer ") + HAMMER_VERSION + " " + config.url +
                         ": intervals by intended send time, 2 significant digits from 1us]");
  if (timeline.empty()) return log;
  const bool lead_is_corrected = config.corrected_stopwatch_leads();
  const int64_t measured_end_ns = measured_start_ns + result.elapsed_ns;
  for (size_t i = 0; i < timeline.rows().size(); ++i) {
    const Timeline::Row& row = timeline.rows()[i];
    if (row.warmup) continue;
    if (row.start_ns >= measured_end_ns && row.start_ns > measured_start_ns) break;
    const int32_t index = static_cast<int32_t>(i);
    const int64_t start_ns = row.start_ns - measured_start_ns;
    auto add = [&](const char* tag, const Histogram& histogram) {
      IntervalHistogram interval;
      interval.tag = tag;
      interval.start_ns = start_ns;
      // A run cut short ends inside its last interval.
      interval.length_ns =
          std::min(row.length_ns, std::max<int64_t>(measured_end_ns - row.start_ns, 1));
      interval.histogram = histogram;
      log.intervals.push_back(std::move(interval));
    };
    const Histogram lead = timeline.row_histogram(index);
    if (config.open_loop() && timeline.has_other()) {
      const Histogram other = timeline.other_row_histogram(index);
      add("corrected", lead_is_corrected ? lead : other);
      add("uncorrected", lead_is_corrected ? other : lead);
    } else if (config.open_loop() && lead_is_corrected) {
      add("corrected", lead);  // a document from before rows kept both stopwatches
    } else {
      add("uncorrected", lead);
    }
  }
  return log;
}

std::string render_interval_log(const ReportInput& input) {
  return write_interval_log(interval_log_of(input));
}

}  // namespace hammer
