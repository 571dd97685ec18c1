// SPDX-License-Identifier: MIT
#pragma once
// What the sweep's text (sweep_report.cc), JSON (sweep_json.cc) and noise wording
// (sweep_noise_text.cc) share: the kind of sweep, how a level is named, the Little's law
// yardstick, the busiest step. Internal to report/.
#include <string>

#include "core/config.h"
#include "sweep/sweep.h"

namespace hammer::sweep_parts {

bool connection_sweep(const Config& config);
/// Little's law applies to a closed loop: every connection always has a request in flight
/// (with -p N, N of them).
bool littles_law_applies(const Config& config);
/// What req/s x mean latency must give back: every connection holds -p requests in flight.
double littles_law_expected(const Config& config, const StepSummary& step);
/// The sweep is judged against --slo limits.
bool judged(const Config& config);
/// "4 connections", "1 connection", "250 req/s".
std::string level_text(const Config& config, double level);
/// A signal ended the sweep: which step it cut, if one was running, and how much of it ran.
std::string interrupted_note(const Config& config, const SweepResult& result);
}  // namespace hammer::sweep_parts
