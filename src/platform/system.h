// SPDX-License-Identifier: MIT
#pragma once
// The process-level services that differ per operating system: Ctrl-C, the terminal, CPU time,
// the timer resolution and the monotonic clock's source. See platform.h for which build gets
// which.
#include <cstdint>

#include "platform/platform.h"

namespace hammer {

/// While installed, every SIGINT or SIGTERM (on Windows every CTRL_C_EVENT or
/// CTRL_BREAK_EVENT, delivered on a thread of its own) calls `on_interrupt`, which must be
/// async-signal-safe, instead of ending the process. One handler at a time;
/// restore_interrupt_handler() puts back what was there before.
void install_interrupt_handler(void (*on_interrupt)());
void restore_interrupt_handler();

/// A write to a pipe with no reader (`hammer ... | head -0`, a reader that died) fails with
/// EPIPE instead of killing the process with SIGPIPE, so the report's failure is said (exit 2)
/// and the -o files are still written. Windows has no such signal: nothing to do there.
void ignore_broken_pipe_signal();

/// stderr is an interactive terminal that understands "\r\033[K" (on Windows, once virtual
/// terminal processing could be turned on). A pipe, a file or an old console: false.
bool stderr_is_terminal();

/// User + system CPU time this process has used, in ns; -1 when the system cannot say.
int64_t process_cpu_ns();

/// User + system CPU time the calling thread has used, in ns (its per-thread CPU clock); -1
/// when the system cannot say. What a worker's share of the run is measured with.
int64_t thread_cpu_ns();

/// Steal time of the whole host so far, in ns summed over its CPUs: time a hypervisor ran
/// another guest while this one had work (Linux: /proc/stat's "cpu" line, eighth field). -1
/// where the system does not say (macOS, Windows, the portable build, a kernel without it).
int64_t host_steal_ns();

/// Online CPUs (at least 1).
int64_t online_cpu_count();

/// CPUs this process may run on (its affinity mask, e.g. under taskset or start /affinity);
/// 0 where the system cannot say (macOS, the portable build).
int64_t usable_cpu_count();

/// CPUs this process may use: its affinity mask where the system has one (Linux, Windows),
/// else every online CPU (macOS, the portable build). At least 1.
int64_t available_cpu_count();

/// While alive, the system's timers run as finely as they can (Windows: timeBeginPeriod with
/// the smallest period, normally 1 ms instead of 15.6 ms; elsewhere the kernel's timers are
/// already fine and this does nothing).
class FineTimerScope {
 public:
  FineTimerScope();
  ~FineTimerScope();
  FineTimerScope(const FineTimerScope&) = delete;
  FineTimerScope& operator=(const FineTimerScope&) = delete;

 private:
  [[maybe_unused]] unsigned period_ms_ = 0;  // Windows: the period to end; 0 when none began
};

#if HAMMER_WINDOWS
/// QueryPerformanceCounter in ns; time/clock.h's monotonic_now_ns() on Windows.
int64_t windows_monotonic_now_ns();
#endif

}  // namespace hammer
