// SPDX-License-Identifier: MIT
#pragma once
// Reports of a sweep (text table and one JSON document) and of --slo outcomes. The text is
// built in pieces so the command can print each row as its step finishes: a sweep takes
// (steps x -d) seconds and a silent terminal for minutes reads as a hang.
#include <string>
#include <vector>

#include "core/config.h"
#include "report/json_writer.h"
#include "sweep/slo.h"
#include "sweep/sweep.h"

namespace hammer {

/// One line per --slo: "SLO p99 <= 30.00ms: 12.34ms, met" (or "MISSED"), each ending '\n'.
std::string render_slo_lines(const std::vector<SloOutcome>& outcomes);

/// The members "slo": [{key, limit, unit, measured, pass}] and "slo_passed" of a JSON object
/// being written. Latency limits and figures are integer ns; the error rate a fraction.
void write_slo_json(const std::vector<SloOutcome>& outcomes, JsonWriter& json);

/// The sweep's heading and column names.
std::string render_sweep_header(const Config& config);
/// The heading of the --control rows, printed before the first of them.
std::string render_control_header(const Config& config);
/// One step as a table row.
std::string render_sweep_row(const Config& config, const StepSummary& step);
/// The readings after the table: knee, collapse, capacity, control ratio, generator CPU.
std::string render_sweep_summary(const Config& config, const SweepResult& result);
/// Header, every row (control rows under their own heading), then the summary.
std::string render_sweep_text(const Config& config, const SweepResult& result);

/// The whole sweep as one JSON document (docs/json.md, "Sweeps"), ending in '\n'.
std::string render_sweep_json(const Config& config, const SweepResult& result);

}  // namespace hammer
