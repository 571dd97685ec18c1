// SPDX-License-Identifier: MIT
#pragma once
// run_load(): the whole measured run. Resolves and probes the target, starts one Worker per
// thread with its exact share of connections and of the schedule, waits for them, and merges
// their results once (histograms added, counters summed).
#include <functional>
#include <optional>
#include <string>

#include "core/config.h"
#include "core/exit_code.h"
#include "core/expected.h"
#include "net/socket.h"
#include "run/result.h"

namespace hammer {

class LiveMetricsBoard;

struct RunError {
  ExitCode exit_code;   // bad_input (e.g. --connections above the fd limit) or run_failed
  std::string message;  // one line, without the "hammer: " prefix
};

/// Connections for worker `index` of `count`: `total` split exactly, the first workers taking
/// one more when it does not divide (10 over 4 is 3+3+2+2).
int64_t connections_for_worker(int64_t total, int64_t index, int64_t count);

/// CPUs online on this machine (at least 1): what more --threads can use.
int64_t online_cpus();

/// Where a run stands, for a live progress line. Figures include the warm-up.
struct Progress {
  int64_t elapsed_ns = 0;      // since the run's start (t0), warm-up included
  int64_t total_ns = 0;        // planned: ramp + warm-up + duration
  int64_t requests_count = 0;  // -n in closed loop: the run ends at the count, not total_ns
  int64_t warmup_ns = 0;       // ramp + warm-up: elapsed below it is not measured yet
  int64_t ramp_ns = 0;         // the ramp: elapsed below it is the ramp's
  int64_t completed = 0;       // responses so far (as published by the workers, <= 100 ms old)
  int64_t errors = 0;
  double per_second = 0;       // completions per second, over the last second (ProgressRate)
};
/// Called on the thread that called run_load(), about once a second while the run lasts.
using ProgressFn = std::function<void(const Progress&)>;

/// The most --start-at may lie ahead: a start further off is a typo in the date or a Unix time
/// in milliseconds (1796119200000 is the year 58886), and a wait nothing would show.
inline constexpr int64_t kMaxStartAheadNs = 24 * 3'600'000'000'000;

/// --start-at against the wall clock `now_unix_ns`: nothing without it or when it can be kept;
/// else why not (passed by more than --start-tolerance, or more than kMaxStartAheadNs ahead),
/// ExitCode::bad_input. run_load() checks it before anything connects.
std::optional<RunError> check_start_at(const Config& config, int64_t now_unix_ns);

/// Runs the load described by `config`. Blocks for about config.duration_ns (+ the drain of
/// requests in flight, at most config.timeout_ns). Ctrl-C during the run ends it early; the
/// result then says interrupted.
/// With `on_progress`, the calling thread reports progress about once a second (see Progress);
/// without, it only waits.
/// With `live_metrics` (--metrics-listen), it is sized to the run's workers, which publish
/// their figures into it as the run goes (run/live_metrics.h).
Expected<RunResult, RunError> run_load(const Config& config, const ProgressFn& on_progress = {},
                                       LiveMetricsBoard* live_metrics = nullptr);

/// Resolves `target` and connects once to its addresses in order (at most `timeout_ns` each):
/// the address that connected first, or the error ("cannot connect to 127.0.0.1:1: Connection
/// refused", ExitCode::run_failed). run_load() does this before every run; a sweep does it for
/// --control before its first step.
Expected<SocketAddress, RunError> reachable_address(const Target& target, int64_t timeout_ns);

}  // namespace hammer
