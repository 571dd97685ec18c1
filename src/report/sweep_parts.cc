// SPDX-License-Identifier: MIT
#include "report/sweep_parts.h"

#include <algorithm>

#include "report/format.h"

namespace hammer::sweep_parts {

bool connection_sweep(const Config& config) { return !config.sweep.connections.empty(); }

// Little's law applies to a closed loop: every connection always has a request in flight
// (with -p N, N of them).
bool littles_law_applies(const Config& config) {
  return connection_sweep(config) && !config.open_loop();
}

// What req/s x mean latency must give back: every connection holds -p requests in flight.
double littles_law_expected(const Config& config, const StepSummary& step) {
  return static_cast<double>(step.connections) *
         static_cast<double>(std::max<int64_t>(config.pipeline, 1));
}

bool judged(const Config& config) { return !config.slos.empty(); }

std::string level_text(const Config& config, double level) {
  if (connection_sweep(config)) {
    const auto count = static_cast<int64_t>(level);
    return std::to_string(count) + (count == 1 ? " connection" : " connections");
  }
  return format_number(level) + " req/s";
}

// A signal ended the sweep: which step it cut, if one was running, and how much of it ran (the
// row above covers only that part).
std::string interrupted_note(const Config& config, const SweepResult& result) {
  std::string text = "interrupted (Ctrl-C or SIGTERM)";
  for (const StepSummary& step : result.steps) {
    if (!step.interrupted) continue;
    text += " during the step at " + level_text(config, step.level) + ", which ran " +
            format_duration_ns(step.elapsed_ns) + " of " + format_duration_ns(config.duration_ns);
    break;
  }
  return text + "; later steps were not run";
}

}  // namespace hammer::sweep_parts
