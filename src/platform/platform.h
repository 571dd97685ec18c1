// SPDX-License-Identifier: MIT
#pragma once
// Which operating-system interfaces this build may use. Everything that differs between Linux,
// macOS and Windows is decided here, once, by three macros that are always defined (0 or 1), so
// `#if HAMMER_LINUX_APIS` is a compile error waiting to happen only if this header is missing:
//
//   HAMMER_LINUX_APIS  eventfd, epoll, epoll_pwait2, ppoll, prctl, timerfd, io_uring,
//                      SOCK_NONBLOCK/SOCK_CLOEXEC. Linux only, and off in a HAMMER_PORTABLE build.
//   HAMMER_POSIX       poll(2), pipes, fcntl, sigaction, RLIMIT_NOFILE: macOS, the BSDs, and
//                      Linux (with or without HAMMER_PORTABLE).
//   HAMMER_WINDOWS     Winsock 2 (WSAPoll), console control handlers, QueryPerformanceCounter.
//
// HAMMER_PORTABLE (CMake -DHAMMER_PORTABLE=ON) builds on Linux exactly the code a macOS build
// takes: the poll backend, a self-pipe for wake-ups, fcntl for non-blocking sockets, no prctl.
// That is how the macOS code path is tested on Linux (scripts/test.sh runs the e2e suite on it).

#if defined(_WIN32)
#define HAMMER_WINDOWS 1
#define HAMMER_POSIX 0
#define HAMMER_LINUX_APIS 0
#elif defined(__linux__) && !defined(HAMMER_PORTABLE)
#define HAMMER_WINDOWS 0
#define HAMMER_POSIX 1
#define HAMMER_LINUX_APIS 1
#else
#define HAMMER_WINDOWS 0
#define HAMMER_POSIX 1
#define HAMMER_LINUX_APIS 0
#endif
