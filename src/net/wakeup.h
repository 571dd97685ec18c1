// SPDX-License-Identifier: MIT
#pragma once
// Wakeup: an eventfd a worker registers in its poller so that another thread, or a signal
// handler (Ctrl-C), can interrupt a blocking wait() without any shared flag on the hot path.
#include <string>

#include "core/expected.h"

namespace hammer {

class Wakeup {
 public:
  /// A non-blocking, close-on-exec eventfd. Fails with the system's reason.
  static Expected<Wakeup, std::string> create();

  Wakeup(Wakeup&& other) noexcept;
  Wakeup& operator=(Wakeup&& other) noexcept;
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;
  ~Wakeup();

  /// Register this with kPollRead; it stays readable from notify() until drain().
  int fd() const { return fd_; }

  /// Makes fd() readable. Async-signal-safe (one write(2), errno preserved) and callable
  /// from any thread while the owner waits. Notifications coalesce.
  void notify() const;

  /// Consumes every pending notification; call after the poller reports fd() readable.
  /// Owner thread only.
  void drain() const;

 private:
  explicit Wakeup(int fd) : fd_(fd) {}

  int fd_ = -1;
};

}  // namespace hammer
