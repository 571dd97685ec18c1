// SPDX-License-Identifier: MIT
#pragma once
// The verdicts about the machine hammer ran on rather than the server: a host that stalled
// long enough to make reported percentiles (host_stalled), and a closed loop whose workers were
// on a CPU nearly all the time (generator_bound). compute_verdicts() adds them after the
// others; the rules are here, with their reasons in host_verdicts.cc.
#include <optional>

#include "core/config.h"
#include "run/result.h"
#include "run/verdicts.h"

namespace hammer {

/// The stalls the hiccup meter saw set against the lead histogram's reported percentiles
/// (Config::percentiles, or the default rows the text report prints): nullopt when no
/// percentile could have been made by them, or nothing was measured.
std::optional<HostStalledVerdict> host_stalled_verdict(const Config& config,
                                                       const RunResult& result);

/// Closed loop, the workers' CPU above VerdictThresholds::kGeneratorBoundShare of their time.
/// `cpus`: online where the run ran, 0 when not known.
std::optional<GeneratorBoundVerdict> generator_bound_verdict(const Config& config,
                                                             const RunResult& result,
                                                             int64_t cpus);

}  // namespace hammer
