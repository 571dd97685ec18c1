// SPDX-License-Identifier: MIT
#pragma once
// run_load(): the whole measured run. Resolves and probes the target, starts one Worker per
// thread with its exact share of connections and of the schedule, waits for them, and merges
// their results once (histograms added, counters summed).
#include <string>

#include "core/config.h"
#include "core/expected.h"
#include "run/result.h"

namespace hammer {

struct RunError {
  int exit_code;        // 1: bad input (e.g. --connections above the fd limit); 2: environment
  std::string message;  // one line, without the "hammer: " prefix
};

/// Connections for worker `index` of `count`: `total` split exactly, the first workers taking
/// one more when it does not divide (10 over 4 is 3+3+2+2).
int64_t connections_for_worker(int64_t total, int64_t index, int64_t count);

/// Runs the load described by `config`. Blocks for about config.duration_ns (+ the drain of
/// requests in flight, at most config.timeout_ns). Ctrl-C during the run ends it early; the
/// result then says interrupted.
Expected<RunResult, RunError> run_load(const Config& config);

/// Adds `part` into `total`: counts and histograms add, maxima take the maximum.
void merge_result(RunResult& total, const RunResult& part);

}  // namespace hammer
