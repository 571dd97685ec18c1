// SPDX-License-Identifier: MIT
#pragma once
// The parts of the report about time within the run: the warm-up section, the per-second
// timeline (text table and JSON rows), connect time and first requests, and the two timeline
// notes (regimes, slow requests). Text and JSON render the same TimelineRowSummary figures.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "report/json_writer.h"
#include "report/regimes.h"
#include "report/report_input.h"

namespace hammer {

/// One timeline row with its figures computed from its histogram.
struct TimelineRowSummary {
  SecondFigures figures;  // second, start, length, phase, completed, slow
  int64_t errors = 0;
  int64_t p50_ns = 0;     // 0 when the row has no responses (JSON writes null)
  int64_t p99_ns = 0;
  int64_t max_ns = 0;
  int64_t timed_out = 0;  // of the errors: they censor the figures below (each then the timeout)
  bool p50_censored = false;
  bool p99_censored = false;
  bool max_censored = false;
  double per_second = 0;  // completed over the row's own length
  bool ramp = false;      // a --ramp row (figures.warmup is true too: not measured)
  int64_t host_stall_max_ns = 0;  // the longest host stall that began in the row (0: none
                                  // over 10 ms, or no meter)
};

/// The row's phase as the JSON timeline and the CSV name it: "ramp", "warmup" or "measured".
std::string_view timeline_phase_name(const TimelineRowSummary& row);

/// The slow-request threshold for this report: --slow, or 10x the lead p50.
int64_t report_slow_threshold_ns(const ReportInput& input);

/// Every row of the run's timeline that began before the run ended (an interrupted run drops
/// the rest). Empty when the result has no timeline.
std::vector<TimelineRowSummary> summarize_timeline(const ReportInput& input);

/// The regime and slow-request notes, in that order (each only when it has something to say).
std::vector<std::string> timeline_notes(const ReportInput& input);

/// Text: the warm-up section (nothing without --warmup), the connect-time and first-request
/// lines (nothing when no connection opened), and the --timeline table (nothing without it).
void append_warmup_text(const ReportInput& input, std::string& out);
/// --ramp: its own short section, as the warm-up's, before it.
void append_ramp_text(const ReportInput& input, std::string& out);
void append_connect_text(const ReportInput& input, std::string& out);
void append_timeline_text(const ReportInput& input, std::string& out);

/// JSON members "warmup" (null without --warmup) and "timeline" (always).
void write_warmup_json(const ReportInput& input, JsonWriter& json);
/// "ramp": as "warmup" (with scheduled), or null without --ramp.
void write_ramp_json(const ReportInput& input, JsonWriter& json);
void write_timeline_json(const ReportInput& input, JsonWriter& json);

}  // namespace hammer
