// SPDX-License-Identifier: MIT
#pragma once
// Wakeup: a descriptor a worker registers in its poller so that another thread, or a signal
// handler (Ctrl-C), can interrupt a blocking wait() without any shared flag on the hot path.
// Linux: an eventfd. macOS and the portable build: a self-pipe (the read end is watched, a
// byte written to the other end makes it readable). Windows: a connected pair of loopback TCP
// sockets, since WSAPoll watches only sockets.
#include <string>

#include "core/expected.h"

namespace hammer {

class Wakeup {
 public:
  /// Non-blocking, close-on-exec descriptors (see above). Fails with the system's reason.
  static Expected<Wakeup, std::string> create();

  Wakeup(Wakeup&& other) noexcept;
  Wakeup& operator=(Wakeup&& other) noexcept;
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;
  ~Wakeup();

  /// Register this with kPollRead; it stays readable from notify() until drain().
  int fd() const { return fd_; }

  /// Makes fd() readable. Async-signal-safe (one write(2) or send(), errno preserved) and callable
  /// from any thread while the owner waits. Notifications coalesce.
  void notify() const;

  /// Consumes every pending notification; call after the poller reports fd() readable.
  /// Owner thread only.
  void drain() const;

 private:
  Wakeup(int fd, int notify_fd) : fd_(fd), notify_fd_(notify_fd) {}
  void close_all();

  int fd_ = -1;         // watched for reading
  int notify_fd_ = -1;  // written by notify(); the same descriptor for an eventfd
};

}  // namespace hammer
