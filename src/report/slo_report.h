// SPDX-License-Identifier: MIT
#pragma once
// --slo outcomes in words and in JSON, for a single run's report and for each sweep step.
#include <string>
#include <vector>

#include "core/config.h"
#include "report/json_writer.h"
#include "sweep/slo.h"

namespace hammer {

/// One line per limit: "SLO p99 <= 50.00ms: 41.20ms, met".
std::string render_slo_lines(const std::vector<SloOutcome>& outcomes);

/// The "slo" array and "slo_passed" members of a report (docs/json.md).
void write_slo_json(const std::vector<SloOutcome>& outcomes, JsonWriter& json);

/// A measured figure as the limit's key reads it: a duration, or a percentage for errors.
std::string slo_figure(const SloLimit& limit, double value);
/// The limit's own figure ("50.00ms", "1.00%") and the limit in full ("p99 <= 50.00ms").
std::string limit_figure(const SloLimit& limit);
std::string limit_text(const SloLimit& limit);

}  // namespace hammer
