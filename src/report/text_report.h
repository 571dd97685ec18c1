// SPDX-License-Identifier: MIT
#pragma once
// The human report, shaped like wrk's so its users read it without a manual (design.md §3).
#include <string>

#include "report/report_input.h"

namespace hammer {

/// The whole text report, every line ending in '\n'. Leads with the histogram the stopwatch
/// chose (corrected in open loop, uncorrected otherwise) and labels it; with
/// config.print_latency prints the full spectrum, in open loop corrected and uncorrected side
/// by side with their ratio.
std::string render_text_report(const ReportInput& input);

}  // namespace hammer
