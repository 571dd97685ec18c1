// SPDX-License-Identifier: MIT
// An eventfd is a counter: notify() adds 1, drain() reads (and so zeroes) it. Readable
// while non-zero, which is exactly a level-triggered "someone wants you" bit.
#include "net/wakeup.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace hammer {

Expected<Wakeup, std::string> Wakeup::create() {
  const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) return unexpected(std::string("eventfd: ") + std::strerror(errno));
  return Wakeup(fd);
}

Wakeup::Wakeup(Wakeup&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

Wakeup& Wakeup::operator=(Wakeup&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

Wakeup::~Wakeup() {
  if (fd_ >= 0) close(fd_);
}

void Wakeup::notify() const {
  const int saved_errno = errno;  // a signal handler must not clobber the code it interrupted
  const uint64_t one = 1;
  // EAGAIN means the counter is saturated: already readable, nothing to do. A write to a
  // non-blocking eventfd never sleeps, so it cannot fail with EINTR.
  [[maybe_unused]] const ssize_t written = write(fd_, &one, sizeof one);
  errno = saved_errno;
}

void Wakeup::drain() const {
  uint64_t count = 0;
  while (read(fd_, &count, sizeof count) < 0 && errno == EINTR) {
  }
}

}  // namespace hammer
