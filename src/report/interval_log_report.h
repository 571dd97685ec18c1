// SPDX-License-Identifier: MIT
#pragma once
// The run as an HdrHistogram interval log (.hlog): one interval per timeline row of the
// measured part, tagged corrected and uncorrected. See interval_log_report.cc.
#include <string>

#include "report/report_input.h"
#include "stats/interval_log.h"

namespace hammer {

/// The measured rows as interval histograms: Tag=corrected and Tag=uncorrected in open loop,
/// Tag=uncorrected alone in closed loop; StartTime and BaseTime are the wall-clock instant the
/// measured part began.
IntervalLog interval_log_of(const ReportInput& input);

/// interval_log_of() in the log format's text (stats/interval_log.h).
std::string render_interval_log(const ReportInput& input);

}  // namespace hammer
