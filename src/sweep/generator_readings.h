// SPDX-License-Identifier: MIT
#pragma once
// What a finished sweep says about the generator rather than the server, as figures and enums
// with their thresholds beside them; report/ only words them (text, JSON, HTML alike):
//  - --control: the best throughput against the no-work route over the best of the sweep, and
//    what that headroom lets the reader conclude about the plateau;
//  - generator CPU: the busiest step, and the steps over kGeneratorBusyShare (step.h);
//  - hammer's own lateness: the levels whose generator_saturated or generator_late verdicts
//    blame requests sent late on hammer, with their counts.
#include <cstdint>
#include <optional>
#include <vector>

#include "sweep/sweep.h"

namespace hammer {

/// --control drove at least this many times the sweep's best throughput before the plateau
/// is called the server's: below it, the generator may have been the limit.
inline constexpr double kMinControlHeadroom = 2.0;

enum class ControlVerdict : uint8_t {
  too_little_headroom,  // ratio under kMinControlHeadroom: the generator is not ruled out
  plateau_is_servers,   // headroom, and the sweep reached a knee, a collapse or a missed level
  room_to_spare,        // headroom, and no level reached a plateau to blame on anyone
};

struct ControlReading {
  size_t best_control = 0;   // index into control_steps of the highest control throughput
  double control_best = 0;   // its req/s
  double sweep_best = 0;     // the best req/s of the measured steps
  double ratio = 0;          // control_best / sweep_best
  ControlVerdict verdict = ControlVerdict::too_little_headroom;
};

/// nullopt without control steps, or when no measured step answered anything.
std::optional<ControlReading> read_control(const SweepResult& result);

/// Levels (in the order run) whose verdicts name hammer's lateness, and the requests it sent
/// late there with a connection idle.
struct LateLevels {
  std::vector<double> levels;
  int64_t requests = 0;
  bool threads_can_grow = false;  // one of them had more CPUs than --threads
};

struct GeneratorReading {
  /// The step whose CPU was the largest share of its usable cores; nullopt when no step's CPU
  /// was measured.
  std::optional<size_t> busiest;
  std::vector<size_t> busy;  // steps over kGeneratorBusyShare (StepSummary::generator_busy)
  LateLevels saturated;      // VerdictCode::generator_saturated: the latencies include hammer's delay
  LateLevels late;           // VerdictCode::generator_late: too little to move a percentile
};

GeneratorReading read_generator(const SweepResult& result);

}  // namespace hammer
