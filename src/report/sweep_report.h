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

/// The sweep's heading and column names.
std::string render_sweep_header(const Config& config);
/// The heading of the --control rows, printed before the first of them.
std::string render_control_header(const Config& config);
/// Whether a step is one of the sweep's own or one of --control's: control rows are never
/// judged against --slo (the control route is the yardstick, not the service).
enum class StepRole : uint8_t { measured, control };

/// One step as a table row.
std::string render_sweep_row(const Config& config, const StepSummary& step,
                             StepRole role = StepRole::measured);
/// The readings after the table: knee, collapse, capacity, control ratio, generator CPU.
std::string render_sweep_summary(const Config& config, const SweepResult& result);
/// Header, every row (control rows under their own heading), then the summary.
std::string render_sweep_text(const Config& config, const SweepResult& result);

/// The whole sweep as one JSON document (docs/json.md, "Sweeps"), ending in '\n'.
std::string render_sweep_json(const Config& config, const SweepResult& result);

}  // namespace hammer
