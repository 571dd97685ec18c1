// SPDX-License-Identifier: MIT
#pragma once
// ReportInput: what both reports (text and JSON) render, and the readings they share — which
// histogram leads, throughput, and the notes the report adds on its own — so the two reports
// can never disagree about a figure.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "document/fleet_summary.h"
#include "run/result.h"
#include "run/verdicts.h"
#include "stats/censored_tail.h"
#include "stats/histogram.h"
#include "sweep/slo.h"

namespace hammer {

/// The references must outlive the render_*_report() call that reads them.
struct ReportInput {
  const Config& config;
  const RunResult& result;
  const std::vector<Verdict>& verdicts;
  /// Extra notes from the caller, printed after the ones the report derives itself (see
  /// report_notes(); callers must not repeat those).
  std::vector<std::string> notes;
  /// --slo outcomes of the run (sweep/slo.h); null when no --slo was given.
  const std::vector<SloOutcome>* slo = nullptr;
  /// `hammer merge`: the shards this result adds up (document/fleet_summary.h); null for a single run.
  const FleetSummary* fleet = nullptr;
  /// `hammer report`: the saved run's notes as it printed them (RunDocument::notes), which
  /// replace the ones report_notes() would derive; null for a live run or a merge.
  const std::vector<std::string>* saved_notes = nullptr;
};

/// A percentile a report prints, with its label ("99.9" for 99.9; core/percentiles.h).
struct PercentilePoint {
  double q;
  std::string label;
};
/// The text report's rows: --percentiles as given; else the default spectrum, cut at 99
/// unless `full` (--latency).
std::vector<PercentilePoint> text_percentiles(const Config& config, bool full);
/// JSON's percentiles_ns keys: the whole default spectrum (every schema-1 key, always) and the
/// --percentiles rows, rising.
std::vector<PercentilePoint> json_percentiles(const Config& config);

/// The histogram whose figures the report leads with: corrected or uncorrected, per
/// Config::corrected_stopwatch_leads().
const Histogram& lead_histogram(const ReportInput& input);
/// What `result`'s timeouts censor in `histogram`, one of its latency histograms (or a line's:
/// give that line's timeouts).
CensoredTail tail_of(const Config& config, const RunResult& result, const Histogram& histogram);
CensoredTail tail_of(const Config& config, int64_t timed_out, const Histogram& histogram);
/// "12.34ms", or "> 2.00s" for a figure that timeouts censor.
std::string tail_figure_text(const TailFigure& figure);

/// Completed responses per second of measured wall time (never a mean of samples); 0 when no
/// time was measured.
double requests_per_second(const RunResult& result);
/// Bytes read per second of measured wall time; 0 when no time was measured.
double bytes_per_second(const RunResult& result);
/// Mean dispatch lag in ns over every dispatched request (0 when none), rounded.
int64_t mean_dispatch_lag_ns(const DispatchLag& lag);

/// Every note of the report, in order: an interrupted run, latencies clamped at the
/// histogram's limit, the first socket and parse errors, the timeline's regime and
/// slow-request notes (report/timeline_report.h), then input.notes. A saved run's
/// (input.saved_notes): those, as they were printed.
std::vector<std::string> report_notes(const ReportInput& input);

/// "-t 3 runs more threads than the 1 CPU available to hammer: ..." (Config::threads_above_cpus).
std::string threads_above_cpus_note(const Config& config);

/// "io_uring is unavailable here (REASON); the run used epoll", or "" when no fallback.
std::string engine_fallback_note(const EngineFallback& fallback);

}  // namespace hammer
