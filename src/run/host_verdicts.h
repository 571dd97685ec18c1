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

/// How long the host was frozen within the measured part, per meter: the stalls of
/// `min_stall_ns` and more (the kept ones, HostReading::long_stalls), clipped to it. Every
/// thread of hammer was held then, the workers too even when they were waiting on busy
/// connections (which their own pass timing cannot tell from a slow server), so slots due then
/// are the host's. The host_stalled verdict counts stalls of kHostStallVerdictNs and more.
int64_t host_frozen_ns(const Config& config, const RunResult& result,
                       int64_t min_stall_ns = VerdictThresholds::kHostStallVerdictNs);

/// The longest stall of HostReading::kLongStallNs and more that reaches into the measured
/// part (of those kept); 0 when none, or nothing was measured.
int64_t longest_measured_stall_ns(const Config& config, const RunResult& result);

/// Closed loop, the workers' CPU above VerdictThresholds::kGeneratorBoundShare of their time.
/// `cpus`: online where the run ran, 0 when not known.
std::optional<GeneratorBoundVerdict> generator_bound_verdict(const Config& config,
                                                             const RunResult& result,
                                                             int64_t cpus);

}  // namespace hammer
