// SPDX-License-Identifier: MIT
#pragma once
// --slo outcomes in words and in JSON, for a single run's report and for each sweep step.
#include <string>
#include <vector>

#include "core/config.h"
#include "report/json_writer.h"
#include "sweep/slo.h"

namespace hammer {

/// One line per --slo: "SLO p99 <= 30.00ms: 12.34ms, met" (or "MISSED"), each ending '\n'.
std::string render_slo_lines(const std::vector<SloOutcome>& outcomes);

/// A limit's members {key, limit, unit} inside an object being written (a sweep's `slo`
/// lists the limits alone; each outcome below starts with them).
void write_slo_limit_members(const SloLimit& limit, JsonWriter& json);

/// The members "slo": [{key, limit, unit, measured, pass, censored, unjudged}] and "slo_passed" of a JSON object
/// being written. Latency limits and figures are integer ns; the error rate a fraction.
void write_slo_json(const std::vector<SloOutcome>& outcomes, JsonWriter& json);

/// A measured figure as the limit's key reads it: a duration, or a percentage for errors.
std::string slo_figure(const SloLimit& limit, double value);
/// The limit's own figure ("50.00ms", "1.00%") and the limit in full ("p99 <= 50.00ms").
std::string limit_figure(const SloLimit& limit);
std::string limit_text(const SloLimit& limit);
/// The measured figure of an outcome: "12.34ms", "> 2.00s (timed out)" when timeouts censor
/// it, or "no response to measure".
std::string slo_measured_text(const SloOutcome& outcome);

}  // namespace hammer
