// SPDX-License-Identifier: MIT
#include "sweep/generator_readings.h"

#include <algorithm>

namespace hammer {
namespace {

bool has_verdict(const StepSummary& step, VerdictCode code) {
  return std::find(step.verdict_codes.begin(), step.verdict_codes.end(), code) !=
         step.verdict_codes.end();
}

void add_late_level(const StepSummary& step, LateLevels& late) {
  late.levels.push_back(step.level);
  late.requests += step.behind_generator;
  late.threads_can_grow = late.threads_can_grow || step.threads_below_cpus;
}

}  // namespace

std::optional<ControlReading> read_control(const SweepResult& result) {
  if (result.control_steps.empty()) return std::nullopt;
  ControlReading reading;
  for (size_t i = 0; i < result.control_steps.size(); ++i) {
    if (result.control_steps[i].per_second > reading.control_best) {
      reading.control_best = result.control_steps[i].per_second;
      reading.best_control = i;
    }
  }
  for (const StepSummary& step : result.steps) {
    reading.sweep_best = std::max(reading.sweep_best, step.per_second);
  }
  if (reading.sweep_best <= 0) return std::nullopt;
  reading.ratio = reading.control_best / reading.sweep_best;
  // A plateau is there only where throughput stopped rising or a level fell short; a sweep
  // that kept up everywhere has none to blame on anyone.
  const bool plateau = result.knee || result.collapse ||
                       std::any_of(result.steps.begin(), result.steps.end(),
                                   [](const StepSummary& step) { return !step.meets(); });
  if (reading.ratio < kMinControlHeadroom) {
    reading.verdict = ControlVerdict::too_little_headroom;
  } else if (plateau) {
    reading.verdict = ControlVerdict::plateau_is_servers;
  } else {
    reading.verdict = ControlVerdict::room_to_spare;
  }
  return reading;
}

GeneratorReading read_generator(const SweepResult& result) {
  GeneratorReading reading;
  double busiest_share = 0;
  for (size_t i = 0; i < result.steps.size(); ++i) {
    const StepSummary& step = result.steps[i];
    if (step.generator_busy) reading.busy.push_back(i);
    if (has_verdict(step, VerdictCode::generator_saturated)) add_late_level(step, reading.saturated);
    if (has_verdict(step, VerdictCode::generator_late)) add_late_level(step, reading.late);
    if (step.cpu_cores < 0 || step.usable_cores <= 0) continue;
    const double share = step.cpu_cores / static_cast<double>(step.usable_cores);
    if (!reading.busiest || share > busiest_share) {
      reading.busiest = i;
      busiest_share = share;
    }
  }
  return reading;
}

}  // namespace hammer
