// SPDX-License-Identifier: MIT
#pragma once
// PollPoller: poll(2), the portable backend (--engine poll; the only one on macOS and, as
// WSAPoll, on Windows). Same contract as EpollPoller, so the worker is written once; see
// readiness_engine.h. On Linux the timeout goes through ppoll in nanoseconds; elsewhere poll and
// WSAPoll take whole milliseconds, rounded up so that a timeout is never cut short.
#include <cstdint>
#include <string>
#include <vector>

#include "core/expected.h"
#include "net/fd_index.h"
#include "net/poll_event.h"
#include "platform/native_socket.h"

namespace hammer {

/// One per worker thread; not thread-safe. Move-only. Keeps a dense pollfd array (what
/// poll wants) plus an fd -> position index (fd_index.h), all sized once by create(), so
/// add/modify/remove are O(1) and wait() allocates nothing. wait() is O(registered fds),
/// the price of poll(2) that epoll avoids.
class PollPoller {
 public:
  /// `max_fds` (>= 1): on POSIX descriptors must be < max_fds (use the RLIMIT_NOFILE soft
  /// limit); on Windows at most max_fds sockets may be registered. About 20 bytes per fd.
  static Expected<PollPoller, std::string> create(int max_fds);

  PollPoller(PollPoller&&) noexcept = default;
  PollPoller& operator=(PollPoller&&) noexcept = default;
  PollPoller(const PollPoller&) = delete;
  PollPoller& operator=(const PollPoller&) = delete;

  /// As EpollPoller::add(); also false when fd >= max_fds.
  bool add(int fd, uint32_t interest, uint64_t token);
  /// As EpollPoller::modify(): false if fd is not registered.
  bool modify(int fd, uint32_t interest, uint64_t token);
  /// As EpollPoller::remove(): no-op if not registered. A closed fd left registered is
  /// reported as hangup_or_error (POLLNVAL).
  void remove(int fd);

  /// As EpollPoller::wait(): 0 on timeout or EINTR, else the count or -errno. When more fds
  /// are ready than `capacity`, the next call starts after the last one reported, so a small
  /// batch cannot starve fds registered late.
  int wait(PollEvent* out, int capacity, int64_t timeout_ns);

  /// The unit wait()'s timeout is rounded up to: 1 ns with ppoll, 1 ms with poll/WSAPoll.
  /// A worker sleeping towards a request's slot can be this late (see the timer_floor
  /// verdict).
  static int64_t timeout_granularity_ns();

 private:
  explicit PollPoller(int max_fds);

#if HAMMER_WINDOWS
  using FdIndex = HashedFdIndex;
#else
  using FdIndex = DirectFdIndex;
#endif

  std::vector<pollfd> entries_;         // dense: [0, count_) registered
  std::vector<uint64_t> tokens_;        // parallel to entries_
  FdIndex index_of_fd_;                 // fd -> position in entries_, -1 if absent
  int32_t count_ = 0;
  int32_t scan_start_ = 0;              // where the next wait() starts reporting
};

}  // namespace hammer
