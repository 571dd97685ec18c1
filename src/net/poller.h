// SPDX-License-Identifier: MIT
#pragma once
// The engine's readiness poller, chosen at build time (CMake: -DHAMMER_POLLER=epoll|poll,
// which defines HAMMER_POLLER_EPOLL or HAMMER_POLLER_POLL). A type alias, not an interface
// with virtual calls: a build has exactly one backend, and the worker calls wait() in its
// hottest loop. Both backends are always compiled and tested, so the fallback cannot rot.
//
// Both are level-triggered: a descriptor stays reported while it is readable/writable. The
// connection code may read once per wake-up and still never miss data; edge-triggered
// would demand draining every socket to EAGAIN on every wake-up, and one forgotten drain is
// a connection that hangs forever (design.md §5).
#include "net/poll_event.h"  // IWYU pragma: export
#include "net/wakeup.h"      // IWYU pragma: export
#include "platform/platform.h"

// Outside Linux (and in a HAMMER_PORTABLE build) poll is the only backend there is.
#if defined(HAMMER_POLLER_POLL) || !HAMMER_LINUX_APIS
#include "net/poll_poller.h"
namespace hammer {
using Poller = PollPoller;
}  // namespace hammer
#else
#include "net/epoll_poller.h"
namespace hammer {
using Poller = EpollPoller;
}  // namespace hammer
#endif
