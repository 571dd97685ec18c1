// SPDX-License-Identifier: MIT
#pragma once
// The lines --progress-fd writes: one compact JSON object per line (docs/json.md, "Progress
// lines"), for programs that show a run as it goes (the npm package's run() onProgress).
#include <string>

#include "run/run.h"
#include "sweep/step.h"

namespace hammer {

/// Which sweep step a progress line belongs to; absent for a single run.
struct StepPosition {
  int64_t index = 0;  // from 1, in the order run (control steps continue the count)
  double level = 0;   // connections, or req/s
  bool control = false;
};

/// {"type":"progress",...}\n: where a run stands.
std::string render_progress_line(const Progress& progress, const StepPosition* step);

/// {"type":"step",...}\n: a sweep step that just finished, with its headline figures.
std::string render_step_line(const StepSummary& step, const StepPosition& position);

}  // namespace hammer
