// SPDX-License-Identifier: MIT
// One step is one ordinary run: the same code path, the same figures, the same verdicts as a
// single `hammer` invocation, with only the level changed in a copy of the Config (so a
// --warmup in the Config applies to every step). Around each run the generator measures its
// own CPU (getrusage RUSAGE_SELF, user + sys, over the step's wall time): a flat curve means
// nothing if the flat part is hammer's own limit. --control is the stronger proof: the same
// connections against a route that does no work show how much more the generator could drive.
// A level the hiccup meter saw disturbed is run again (sweep/noise.cc says when and why), so
// a host freeze is not read as the server's knee, collapse or capacity.
#include "sweep/sweep.h"

#include <algorithm>

#include "platform/system.h"
#include "run/interrupt.h"
#include "run/verdicts.h"
#include "sweep/noise.h"
#include "time/clock.h"

namespace hammer {
namespace {

int64_t cpu_time_ns() { return process_cpu_ns(); }

Expected<StepSummary, RunError> measure_step(const Config& config, double level,
                                             const ProgressFn& on_progress) {
  const int64_t cpu_before = cpu_time_ns();
  const int64_t wall_before = monotonic_now_ns();
  auto result = run_load(config, on_progress);
  if (!result) return unexpected(result.error());
  const int64_t wall_ns = monotonic_now_ns() - wall_before;
  const int64_t cpu_after = cpu_time_ns();
  double cores = -1;
  // The workers' own CPU clocks when the run read them (the same figure its report gives);
  // else the process's, which adds the meter's and the main thread's little.
  if (result->generator_cpu.measured() && wall_ns > 0) {
    cores = static_cast<double>(result->generator_cpu.cpu_ns) / static_cast<double>(wall_ns);
  } else if (cpu_before >= 0 && cpu_after >= 0 && wall_ns > 0) {
    cores = static_cast<double>(cpu_after - cpu_before) / static_cast<double>(wall_ns);
  }
  return summarize_step(config, level, *result, compute_verdicts(config, *result, online_cpus()), cores,
                        online_cpus());
}

// The row of a step that could not start (its target stopped answering): no figures, failed,
// and the error; it ends the sweep (sweep.h).
StepSummary could_not_start_step(const Config& step_cfg, double level, const std::string& error) {
  StepSummary failed = step_at_level(step_cfg, level);
  failed.failed = true;
  failed.misses.push_back(StepMiss::failed);
  failed.start_error = error;
  return failed;
}

std::vector<double> levels_of(const Config& config, SweepKind kind) {
  if (kind == SweepKind::connections) {
    return {config.sweep.connections.begin(), config.sweep.connections.end()};
  }
  return config.sweep.rates;
}

}  // namespace

SweepKind sweep_kind(const Config& config) {
  return config.sweep.connections.empty() ? SweepKind::rate : SweepKind::connections;
}

Config step_config(const Config& base, SweepKind kind, double level) {
  Config step = base;
  step.sweep = SweepPlan{};
  if (kind == SweepKind::connections) {
    step.connections = static_cast<int64_t>(level);
    step.threads = std::min(base.threads, step.connections);
  } else {
    step.rate = level;
  }
  return step;
}

Config control_config(const Config& base, const Config& step) {
  Config control = step;
  control.url = base.sweep.control_url;
  control.target = base.sweep.control_target;
  control.rate = 0;
  control.closed_loop_stopwatch = false;
  control.slos.clear();
  control.sweep = SweepPlan{};
  control.start_at = StartAt{};  // the control runs after the measured steps, never at the start
  return control;
}

std::vector<CurvePoint> curve_of(const std::vector<StepSummary>& steps) {
  std::vector<CurvePoint> points;
  for (const StepSummary& step : steps) {
    // A step that could not start measured nothing, and one cut short, failed or abandoned
    // by its server measured something other than its level: no point of the curve. (A
    // server killed mid-sweep read "Collapse: ... to 46762 req/s (-49.3%)" from the half
    // step it answered.)
    if (!step.on_curve()) continue;
    points.push_back({step.level, step.per_second, step.mean_ns});
  }
  std::sort(points.begin(), points.end(),
            [](const CurvePoint& a, const CurvePoint& b) { return a.level < b.level; });
  return points;
}

void read_curve(const Config& config, SweepResult& result) {
  if (!result.search) {
    const std::vector<CurvePoint> points = curve_of(result.steps);
    result.knee = find_knee(points);
    result.collapse = find_collapse(points);
  }
  if (!config.slos.empty() && !result.search) {
    const std::vector<double> planned = levels_of(config, result.kind);
    result.capacity =
        capacity_from_steps(result.steps, planned.empty() ? 0 : planned.back());
  }
  if (!result.search) {
    result.knee_noise = reading_noise(
        result.steps,
        result.knee ? knee_levels(result.steps, *result.knee) : std::vector<double>{});
    if (result.collapse) {
      result.collapse_noise = reading_noise(result.steps, collapse_levels(*result.collapse));
    }
  }
  if (result.capacity) {
    result.capacity_noise =
        reading_noise(result.steps, capacity_levels(result.steps, *result.capacity));
  }
}

Expected<SweepResult, RunError> run_sweep(const Config& config, const StepObserver& on_step,
                                          const StepStartObserver& on_step_start,
                                          const ProgressFn& on_progress) {
  // Caught from the first probe to the last step, so that Ctrl-C between steps, or during a
  // step's connect, ends the sweep with what it measured instead of killing it.
  const InterruptScope interrupt_scope;
  SweepResult result;
  result.kind = sweep_kind(config);
  result.search = config.sweep.search();
  std::optional<RunError> error;
  std::optional<StepSummary> could_not_start;

  // A --control URL nobody answers is found now, not after the whole sweep has run.
  if (!config.sweep.control_url.empty()) {
    auto control = reachable_address(config.sweep.control_target, config.timeout_ns);
    if (!control) {
      return unexpected(RunError{control.error().exit_code, "--control: " + control.error().message});
    }
  }

  // --start-at is when the sweep starts: its first step waits for the instant, and each later
  // step follows the one before (held to the instant, the second step would find it passed).
  bool first_step = true;
  auto measure = [&](double level) -> std::optional<StepSummary> {
    if (interrupts_caught() > 0) result.interrupted = true;  // between steps: none starts
    if (result.interrupted || could_not_start) return std::nullopt;
    if (on_step_start) on_step_start(level, false);
    Config step_cfg = step_config(config, result.kind, level);
    if (!first_step) step_cfg.start_at = StartAt{};
    first_step = false;
    auto step = measure_step(step_cfg, level, on_progress);
    if (!step) {
      could_not_start = could_not_start_step(step_cfg, level, step.error().message);
      error = step.error();
      return std::nullopt;
    }
    // A run the host disturbed, or whose p99 a repeat does not give back, is run again
    // (sweep/noise.h). A Ctrl-C, or a repeat that cannot start, ends the repeats: the level
    // keeps the whole runs it has.
    StepSummary settled = measure_level(std::move(*step), [&]() -> std::optional<StepSummary> {
      if (interrupts_caught() > 0) {
        result.interrupted = true;
        return std::nullopt;
      }
      step_cfg.start_at = StartAt{};
      auto again = measure_step(step_cfg, level, on_progress);
      if (!again) {
        could_not_start = could_not_start_step(step_cfg, level, again.error().message);
        error = again.error();
        return std::nullopt;
      }
      if (again->interrupted) {
        // Cut short, the repeat measured only part of a run: the level keeps the whole ones.
        result.interrupted = true;
        return std::nullopt;
      }
      return std::move(*again);
    });
    result.interrupted = result.interrupted || settled.interrupted;
    if (on_step) on_step(settled, false);
    return settled;
  };

  if (result.search) {
    CapacitySearch search;
    search.low = config.sweep.search_low;
    search.high = config.sweep.search_high;
    result.capacity = search_capacity(search, measure, result.steps);
  } else {
    for (double level : levels_of(config, result.kind)) {
      auto step = measure(level);
      if (!step) break;
      result.steps.push_back(std::move(*step));
    }
  }
  if (could_not_start) {
    const bool nothing_measured = result.steps.empty();
    if (nothing_measured) return unexpected(*error);  // as a single run: the one-line error
    result.stopped = could_not_start->start_error;
    if (on_step) on_step(*could_not_start, false);
    result.steps.push_back(std::move(*could_not_start));
  } else if (error) {
    return unexpected(*error);
  }

  if (!config.sweep.control_url.empty() && !result.interrupted && result.stopped.empty()) {
    // Connection sweeps repeat every level; rate sweeps and searches have one connection
    // count, so one closed-loop run at it shows the generator's ceiling.
    std::vector<double> control_levels = {static_cast<double>(config.connections)};
    if (result.kind == SweepKind::connections) control_levels = levels_of(config, result.kind);
    for (double level : control_levels) {
      if (interrupts_caught() > 0) {
        result.interrupted = true;
        break;
      }
      const Config control =
          control_config(config, step_config(config, SweepKind::connections, level));
      if (on_step_start) on_step_start(level, true);
      auto step = measure_step(control, level, on_progress);
      if (!step) {
        // The control route stopped answering mid-way: keep everything measured so far.
        result.stopped = "--control: " + step.error().message;
        break;
      }
      if (on_step) on_step(*step, true);
      if (result.kind == SweepKind::connections) {
        for (StepSummary& measured : result.steps) {
          if (measured.level == level) measured.control_per_second = step->per_second;
        }
      }
      const bool interrupted = step->interrupted;
      result.control_steps.push_back(std::move(*step));
      if (interrupted) {
        result.interrupted = true;
        break;
      }
    }
  }
  read_curve(config, result);
  return result;
}

}  // namespace hammer
