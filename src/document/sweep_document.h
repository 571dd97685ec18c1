// SPDX-License-Identifier: MIT
#pragma once
// A saved sweep read back: the document render_sweep_json() writes (docs/json.md, "Sweeps")
// turned into the Config and SweepResult it was rendered from, so `hammer report SWEEP.json`
// prints the sweep's text report letter for letter and its HTML page comes from the same
// typed figures as the run's own -o page. The readings (knee, collapse, capacity and how far
// they rest on noisy levels) are the ones the sweep stored, not read again from the steps.
#include <string>

#include "core/config.h"
#include "core/expected.h"
#include "json/json_value.h"
#include "sweep/sweep.h"

namespace hammer {

struct SweepDocument {
  std::string version;  // hammer.version of the writer
  Config config;        // config, with the sweep's levels, range, --control URL and --slo limits
  SweepResult result;   // every step, control step and reading the document carries
};

/// Reads one sweep document. Errors name the member ("sweep.steps[2].level: expected a
/// number") or say why it cannot be read (not a sweep, another schema).
Expected<SweepDocument, std::string> read_sweep_document(const JsonValue& root);

}  // namespace hammer
