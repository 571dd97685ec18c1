// SPDX-License-Identifier: MIT
#pragma once
// Ctrl-C and SIGTERM for a whole command, not only while a run's workers are up. A sweep is
// many runs with gaps between them (a step's summary and row, the next step's connect probe and
// set-up, the --control probe); a signal that landed in a gap used to meet the default action
// and kill the process, its finished rows and -o files lost (exit 130). Now the signals are
// caught for as long as an InterruptScope lives and counted, so the sweep sees them between
// steps; a run under way registers its workers' wake-ups (InterruptTargets), which each signal
// pokes, and checks the count once registered, so a signal during its set-up is not missed.
#include <span>

namespace hammer {

class Wakeup;

/// While one lives, SIGINT and SIGTERM (Windows: Ctrl-C, Ctrl-Break) are caught and counted
/// instead of ending the process. Scopes nest (main, the sweep, each run); the outermost one
/// installs the handler and resets the count, and puts back what was there before when it
/// ends. Create and destroy them on one thread.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

/// Signals caught since the outermost InterruptScope began; 0 outside any.
int interrupts_caught();

/// While alive, every caught signal also pokes each of `wakeups` (a run's workers; at most
/// 1024). It cannot see signals caught before it: its maker checks interrupts_caught() after
/// making it. Unregistering waits for a handler still poking, so the wake-ups may be destroyed
/// right after. One at a time.
class InterruptTargets {
 public:
  explicit InterruptTargets(std::span<const Wakeup* const> wakeups);
  ~InterruptTargets();
  InterruptTargets(const InterruptTargets&) = delete;
  InterruptTargets& operator=(const InterruptTargets&) = delete;
};

}  // namespace hammer
