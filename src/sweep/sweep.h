// SPDX-License-Identifier: MIT
#pragma once
// Sweeps: one full run (run_load) per level of connections or of rate, each summarised into a
// StepSummary, then read as a curve: the knee, a collapse, Little's law, the capacity under
// the --slo limits (a bounded search when the rate is a range without a step), and with
// --control the same levels against a route that does no work, to show the generator was not
// the limit.
#include <functional>
#include <optional>
#include <vector>

#include "core/config.h"
#include "core/expected.h"
#include "run/run.h"
#include "sweep/capacity.h"
#include "sweep/knee.h"
#include "sweep/noise.h"
#include "sweep/step.h"

namespace hammer {

enum class SweepKind { connections, rate };

struct SweepResult {
  SweepKind kind = SweepKind::connections;
  bool search = false;                     // a capacity search, steps in the order tried
  std::vector<StepSummary> steps;          // in the order run
  std::vector<StepSummary> control_steps;  // --control: against the no-work route
  std::optional<KneeReading> knee;         // sweeps over fixed levels only
  std::optional<CollapseReading> collapse;
  std::optional<CapacityReading> capacity;  // with --slo
  /// How far each reading rests on noisy levels (sweep/noise.h); the knee's covers "no knee"
  /// too, which every level decides.
  ReadingNoise knee_noise = ReadingNoise::clean;
  ReadingNoise collapse_noise = ReadingNoise::clean;
  ReadingNoise capacity_noise = ReadingNoise::clean;
  bool interrupted = false;                 // Ctrl-C ended a step; later steps were not run
  /// A step after the first could not start (the server died): the steps before it are kept,
  /// it is the last of `steps` (start_error set), and this is its error. Empty otherwise.
  std::string stopped;
};

/// Which kind of sweep the config asks for.
SweepKind sweep_kind(const Config& config);

/// The config of one step: the base with its level applied (connections, with threads capped
/// at the level; or the rate).
Config step_config(const Config& base, SweepKind kind, double level);

/// The config of a --control step: the step's config aimed at base's control URL, in closed
/// loop (the most the generator can drive with those connections), without SLO limits.
Config control_config(const Config& base, const Config& step);

/// Called after each step, as it finishes (for progress output).
using StepObserver = std::function<void(const StepSummary& step, bool control)>;

/// Runs every step. A first step that cannot start (target unreachable), or a --control URL
/// that does not connect (checked before the first step), is the sweep's error; a later step
/// that cannot start ends the sweep with the steps before it kept and it marked (stopped).
/// A step that ran but failed is kept and the sweep goes on. A level whose run the host
/// disturbed is run again, at most kMaxRepeats more times (sweep/noise.h): its step is one
/// run's figures, with `runs` and `noisy`; on_step is told once per level, after its repeats.
/// `on_progress`, when given, is each step's run_load() progress; `on_step_start` is told
/// each step's level before it runs.
using StepStartObserver = std::function<void(double level, bool control)>;
Expected<SweepResult, RunError> run_sweep(const Config& config, const StepObserver& on_step,
                                          const StepStartObserver& on_step_start = {},
                                          const ProgressFn& on_progress = {});

/// The curve of the steps, sorted by level.
std::vector<CurvePoint> curve_of(const std::vector<StepSummary>& steps);

/// The readings of a finished sweep (knee, collapse, capacity), from its steps, and how far
/// they rest on noisy levels; run_sweep calls it, tests call it on made-up steps.
void read_curve(const Config& config, SweepResult& result);

}  // namespace hammer
