// SPDX-License-Identifier: MIT
//
// Why these rules.
//
// A sweep or search reads one run per level as a finding: one host freeze in a 5 s step moved
// a p99 from 185 ms to 1.5 s, and a step it hit read as a collapse or a missed SLO (issue 23).
// The hiccup meter sees such freezes, so a run it saw disturbed is run again. Disturbed is the
// host_stalled verdict's rule (stalls of 50 ms and more that could have made a reported
// percentile), or the same stalls summing over 1% of the measured time: a closed loop sends
// nothing during a stall, so its throughput — what the knee and the collapse read — is low by
// the share of the time lost, and 1% is well under the knee's 5% and the collapse's 10%.
//
// An undisturbed first run settles its level: it is as good as any single run, and repeating
// every level would triple every sweep on a quiet machine. A disturbed one is repeated until
// two runs reproduce each other's p99, one of them undisturbed: a disturbed run whose p99 an
// undisturbed one gives back was not moved by its stalls, and two disturbed runs that agree
// may both carry the host's figure. Reproduce is within 1.5x (or 1 ms): on a busy 2-core
// machine undisturbed repeats of one level put p99 within 10-40% of each other, while the
// freezes this guards against move it by multiples (185 ms against 1,492 ms). A level still
// unsettled after two repeats is noisy: it is reported, marked, and the readings say so.
//
// A level reports one whole run, not a blend of several (its throughput, percentiles and
// verdicts must belong together): the quietest, and among equally quiet ones the higher p99,
// so a capacity is never read from the luckiest of the runs.
//
// The readings are placed by a few levels: the knee by its level and the next one, where the
// rise stops; the collapse by the level that held and the one that fell; the capacity by the
// highest level that met the limits and the lowest above it that did not (or, none met, the
// lowest that missed). A noisy one of them leaves the reading unreadable: the freeze may be
// the whole of what placed it. Noisy levels elsewhere leave it standing, resting on them.
#include "sweep/noise.h"

#include <algorithm>

#include "run/verdicts.h"

namespace hammer {
namespace {

// The run no host stall moved; the reading is "quiet" in the order reported_run() uses.
bool quieter(const StepSummary& a, const StepSummary& b) {
  const bool a_disturbed = host_disturbed(a);
  const bool b_disturbed = host_disturbed(b);
  if (a_disturbed != b_disturbed) return !a_disturbed;
  if (a.host_stall_ns != b.host_stall_ns) return a.host_stall_ns < b.host_stall_ns;
  return a.p99_ns > b.p99_ns;
}

bool is_noisy_level(std::span<const StepSummary> steps, double level) {
  return std::any_of(steps.begin(), steps.end(), [&](const StepSummary& step) {
    return step.level == level && step.noisy;
  });
}

}  // namespace

bool host_disturbed(const StepSummary& run) {
  const bool stalled = std::find(run.verdict_codes.begin(), run.verdict_codes.end(),
                                 VerdictCode::host_stalled) != run.verdict_codes.end();
  if (stalled) return true;
  return run.elapsed_ns > 0 &&
         static_cast<double>(run.host_stall_ns) >
             kHostLostShare * static_cast<double>(run.elapsed_ns);
}

bool p99_reproduces(const StepSummary& a, const StepSummary& b) {
  if (!a.has_latency || !b.has_latency) return a.has_latency == b.has_latency;
  const int64_t low = std::min(a.p99_ns, b.p99_ns);
  const int64_t high = std::max(a.p99_ns, b.p99_ns);
  return high - low <= kReproduceSlackNs ||
         static_cast<double>(high) <= kReproduceFactor * static_cast<double>(low);
}

LevelState judge_level(std::span<const StepSummary> runs) {
  if (runs.empty()) return LevelState::repeat;
  if (runs.size() == 1 && !host_disturbed(runs[0])) return LevelState::settled;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (host_disturbed(runs[i])) continue;
    for (size_t j = 0; j < runs.size(); ++j) {
      if (j != i && p99_reproduces(runs[i], runs[j])) return LevelState::settled;
    }
  }
  return runs.size() < static_cast<size_t>(1 + kMaxRepeats) ? LevelState::repeat
                                                             : LevelState::noisy;
}

size_t reported_run(std::span<const StepSummary> runs) {
  size_t best = 0;
  for (size_t i = 1; i < runs.size(); ++i) {
    if (quieter(runs[i], runs[best])) best = i;
  }
  return best;
}

StepSummary settle_level(std::span<const StepSummary> runs, bool unfinished) {
  StepSummary level = runs[reported_run(runs)];
  level.runs = static_cast<int>(runs.size());
  level.run_p99_ns.clear();
  for (const StepSummary& run : runs) level.run_p99_ns.push_back(run.has_latency ? run.p99_ns : -1);
  const LevelState state = judge_level(runs);
  level.noisy = state == LevelState::noisy || (unfinished && state == LevelState::repeat);
  return level;
}

StepSummary measure_level(StepSummary first, const RepeatRun& repeat) {
  std::vector<StepSummary> runs = {std::move(first)};
  if (runs.front().interrupted) return settle_level(runs);
  bool unfinished = false;
  while (judge_level(runs) == LevelState::repeat) {
    auto again = repeat();
    if (!again) {
      unfinished = true;
      break;
    }
    runs.push_back(std::move(*again));
  }
  return settle_level(runs, unfinished);
}

ReadingNoise reading_noise(std::span<const StepSummary> steps, std::span<const double> deciding) {
  for (double level : deciding) {
    if (is_noisy_level(steps, level)) return ReadingNoise::unreadable;
  }
  const bool any_noisy = std::any_of(steps.begin(), steps.end(),
                                     [](const StepSummary& step) { return step.noisy; });
  return any_noisy ? ReadingNoise::rests_on_noisy : ReadingNoise::clean;
}

std::vector<double> knee_levels(std::span<const StepSummary> steps, const KneeReading& knee) {
  std::vector<double> levels = {knee.level};
  // The next level up that measured something: where the rise stopped.
  double next = 0;
  for (const StepSummary& step : steps) {
    if (!step.on_curve() || step.level <= knee.level) continue;
    if (next == 0 || step.level < next) next = step.level;
  }
  if (next > 0) levels.push_back(next);
  return levels;
}

std::vector<double> collapse_levels(const CollapseReading& collapse) {
  return {collapse.held_level, collapse.fell_level};
}

std::vector<double> capacity_levels(std::span<const StepSummary> steps,
                                    const CapacityReading& capacity) {
  std::vector<double> levels;
  if (capacity.found) levels.push_back(capacity.rate);
  if (capacity.first_failing > 0) {
    levels.push_back(capacity.first_failing);
  } else if (!capacity.found) {
    // Nothing met: the lowest level that missed says so.
    double lowest = 0;
    for (const StepSummary& step : steps) {
      if (!step.start_error.empty()) continue;
      if (lowest == 0 || step.level < lowest) lowest = step.level;
    }
    if (lowest > 0) levels.push_back(lowest);
  }
  return levels;
}

int64_t sweep_max_runs(const Config& config) {
  const SweepPlan& sweep = config.sweep;
  int64_t levels = 0;
  if (!sweep.connections.empty()) {
    levels = static_cast<int64_t>(sweep.connections.size());
  } else if (sweep.search()) {
    levels = CapacitySearch{}.max_steps;
  } else {
    levels = static_cast<int64_t>(sweep.rates.size());
  }
  int64_t runs = levels * (1 + kMaxRepeats);
  if (!sweep.control_url.empty()) {
    runs += sweep.connections.empty() ? 1 : static_cast<int64_t>(sweep.connections.size());
  }
  return runs;
}

int64_t sweep_max_duration_ns(const Config& config) {
  return sweep_max_runs(config) * (config.ramp_ns + config.warmup_ns + config.duration_ns);
}

}  // namespace hammer
