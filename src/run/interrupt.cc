// SPDX-License-Identifier: MIT
#include "run/interrupt.h"

#include <algorithm>
#include <atomic>

#include "net/wakeup.h"
#include "platform/system.h"

namespace hammer {
namespace {

// The handler may only do async-signal-safe things: lock-free atomics and Wakeup::notify()
// (one write). The targets are filled before their count is published and unpublished before
// they are cleared; `g_in_handler` lets the unregistering thread wait out a handler that
// read the count just before (Windows runs the handler on a thread of its own; POSIX on any).
constexpr int kMaxTargets = 1024;
const Wakeup* g_targets[kMaxTargets];
std::atomic<int> g_target_count{0};
std::atomic<int> g_in_handler{0};
std::atomic<int> g_caught{0};
int g_scope_depth = 0;  // the scopes' own thread only
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free ints");

void on_interrupt() {
  g_in_handler.fetch_add(1);
  g_caught.fetch_add(1);
  const int count = g_target_count.load();
  for (int i = 0; i < count; ++i) g_targets[i]->notify();
  g_in_handler.fetch_sub(1);
}

}  // namespace

InterruptScope::InterruptScope() {
  if (g_scope_depth++ > 0) return;
  g_caught.store(0);
  install_interrupt_handler(on_interrupt);
}

InterruptScope::~InterruptScope() {
  if (--g_scope_depth > 0) return;
  restore_interrupt_handler();
}

int interrupts_caught() { return g_caught.load(); }

InterruptTargets::InterruptTargets(std::span<const Wakeup* const> wakeups) {
  const int count = static_cast<int>(std::min<size_t>(wakeups.size(), kMaxTargets));
  for (int i = 0; i < count; ++i) g_targets[i] = wakeups[static_cast<size_t>(i)];
  g_target_count.store(count);
}

InterruptTargets::~InterruptTargets() {
  g_target_count.store(0);
  while (g_in_handler.load() > 0) {
  }
}

}  // namespace hammer
