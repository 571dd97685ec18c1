// SPDX-License-Identifier: MIT
#pragma once
// EpollPoller: level-triggered epoll(7), the Linux backend (see poller.h for why level).
// Linux only: a macOS, Windows or HAMMER_PORTABLE build has no EpollPoller at all.
#include "platform/platform.h"
#if HAMMER_LINUX_APIS
#include <sys/epoll.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/expected.h"
#include "net/poll_event.h"

namespace hammer {

/// One per worker thread; not thread-safe (a Wakeup is how another thread gets its
/// attention). Move-only: owns the epoll descriptor.
class EpollPoller {
 public:
  /// `max_fds`: how many descriptors the caller will register at most (>= 1); sizes the
  /// event batch buffer, allocated here once. Fails with the system's reason.
  static Expected<EpollPoller, std::string> create(int max_fds);

  EpollPoller(EpollPoller&& other) noexcept;
  EpollPoller& operator=(EpollPoller&& other) noexcept;
  EpollPoller(const EpollPoller&) = delete;
  EpollPoller& operator=(const EpollPoller&) = delete;
  ~EpollPoller();

  /// Registers `fd` with `interest` (kPollRead | kPollWrite, or 0 for hang-ups only) and the
  /// token that wait() reports for it. False if fd is negative, already registered, or the
  /// kernel refuses (errno says why).
  bool add(int fd, uint32_t interest, uint64_t token);
  /// Changes a registered fd's interest and token. False if fd is not registered.
  bool modify(int fd, uint32_t interest, uint64_t token);
  /// Unregisters `fd`; no-op if it is not registered. Call before close(fd): epoll tracks
  /// the open file, which a dup() elsewhere would keep alive and reporting.
  void remove(int fd);

  /// Waits up to `timeout_ns` (0: don't block; < 0: forever) and writes at most `capacity`
  /// events to `out`. Returns how many, 0 on timeout or EINTR, or -errno. Timeouts are
  /// nanosecond-precise through epoll_pwait2 (Linux 5.11); where the kernel lacks it, the
  /// timeout is rounded UP to whole milliseconds for epoll_wait, so it never wakes early.
  /// No allocation. Events already returned may name an fd that the caller removes while
  /// handling an earlier event of the same batch; tokens let it notice.
  int wait(PollEvent* out, int capacity, int64_t timeout_ns);

  /// Forces the epoll_wait millisecond fallback, as on a kernel without epoll_pwait2.
  void use_millisecond_timeouts_for_testing() { precise_timeouts_ = false; }

  /// The unit wait()'s timeout is rounded up to: 1 ns with epoll_pwait2, else 1 ms.
  int64_t timeout_granularity_ns() const { return precise_timeouts_ ? 1 : 1'000'000; }

 private:
  EpollPoller(int epoll_fd, int max_events);

  int epoll_fd_ = -1;
  std::vector<epoll_event> events_;
  bool precise_timeouts_ = true;  // cleared once epoll_pwait2 answers ENOSYS
};

}  // namespace hammer
#endif  // HAMMER_LINUX_APIS
