// SPDX-License-Identifier: MIT
#pragma once
// The readings a bare number would hide (design.md §3): a server over capacity, too few
// connections for the rate, a generator that was itself the bottleneck, a run that did not
// work. Each is one plain sentence with its figures and a stable code for JSON.
#include <vector>

#include "core/config.h"
#include "run/result.h"

namespace hammer {

std::vector<Verdict> compute_verdicts(const Config& config, const RunResult& result);

/// True when the run did not do its job: no response at all, more failed requests than
/// answers, or mostly answers with an error status (mostly_non_2xx). main() exits 2 then.
bool run_failed(const RunResult& result);

/// More than half of the answers had a status other than 2xx or 3xx (wrk's "Non-2xx or 3xx").
bool mostly_non_2xx(const RunResult& result);

/// True when Ctrl-C or SIGTERM ended the run before its measured part sent a request (during
/// the connects or the warm-up). run_failed() is then true too (exit 2: nothing measured), but
/// the verdict says it was the interruption, not the server.
bool interrupted_before_measuring(const RunResult& result);

}  // namespace hammer
