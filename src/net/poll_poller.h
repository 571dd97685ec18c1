// SPDX-License-Identifier: MIT
#pragma once
// PollPoller: poll(2) through ppoll, the portable fallback (HAMMER_POLLER=poll). Same
// contract as EpollPoller, so the worker is written once; see poller.h.
#include <poll.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/expected.h"
#include "net/poll_event.h"

namespace hammer {

/// One per worker thread; not thread-safe. Move-only. Keeps a dense pollfd array (what
/// ppoll wants) plus an fd-indexed table of positions, all sized once by create(), so
/// add/modify/remove are O(1) and wait() allocates nothing. wait() is O(registered fds),
/// the price of poll(2) that epoll avoids.
class PollPoller {
 public:
  /// `max_fds` (>= 1): descriptors must be < max_fds (use the RLIMIT_NOFILE soft limit);
  /// the tables take about 20 bytes per possible fd.
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

  /// As EpollPoller::wait(): nanosecond timeouts via ppoll; 0 on timeout or EINTR, else the
  /// count or -errno. When more fds are ready than `capacity`, the next call starts after
  /// the last one reported, so a small batch cannot starve fds registered late.
  int wait(PollEvent* out, int capacity, int64_t timeout_ns);

 private:
  explicit PollPoller(int max_fds);

  std::vector<pollfd> entries_;         // dense: [0, count_) registered
  std::vector<uint64_t> tokens_;        // parallel to entries_
  std::vector<int32_t> index_of_fd_;    // fd -> position in entries_, -1 if absent
  int32_t count_ = 0;
  int32_t scan_start_ = 0;              // where the next wait() starts reporting
};

}  // namespace hammer
