// SPDX-License-Identifier: MIT
#include "run/interrupt.h"

#include <gtest/gtest.h>

#include <csignal>

#include "net/wakeup.h"
#include "platform/platform.h"
#if HAMMER_POSIX
#include <poll.h>
#endif

namespace hammer {
namespace {

// The wake-up's descriptor is readable (POSIX; the Windows build runs no unit tests).
bool poked(const Wakeup& wakeup) {
#if HAMMER_POSIX
  pollfd watched{wakeup.fd(), POLLIN, 0};
  return ::poll(&watched, 1, 0) == 1 && (watched.revents & POLLIN) != 0;
#else
  (void)wakeup;
  return true;
#endif
}

// A signal between two runs (no workers registered) is caught and counted, not the default
// kill; one while targets are registered also pokes them; the count restarts with the next
// outermost scope.
TEST(InterruptTest, SignalsAreCountedInsideAScopeAndPokeTheRegisteredWakeups) {
  {
    const InterruptScope outer;
    EXPECT_EQ(interrupts_caught(), 0);
    std::raise(SIGINT);
    EXPECT_EQ(interrupts_caught(), 1);
    {
      const InterruptScope inner;  // a run inside a sweep: the count carries on
      EXPECT_EQ(interrupts_caught(), 1);
      auto wakeup = Wakeup::create();
      ASSERT_TRUE(wakeup.has_value()) << wakeup.error();
      const Wakeup* targets[] = {&*wakeup};
      const InterruptTargets registered(targets);
      EXPECT_FALSE(poked(*wakeup));
      std::raise(SIGTERM);
      EXPECT_EQ(interrupts_caught(), 2);
      EXPECT_TRUE(poked(*wakeup));
    }
    std::raise(SIGINT);  // the inner scope's end put nothing back: still caught
    EXPECT_EQ(interrupts_caught(), 3);
  }
  const InterruptScope next;
  EXPECT_EQ(interrupts_caught(), 0);
}

}  // namespace
}  // namespace hammer
