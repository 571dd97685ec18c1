// SPDX-License-Identifier: MIT
#include "cli/progress_output.h"

#include <cerrno>

#include "platform/platform.h"

#if HAMMER_POSIX
#include <poll.h>
#include <signal.h>
#include <unistd.h>
#else
#include <io.h>
#endif

namespace hammer {

ProgressOutput::ProgressOutput(int fd) : fd_(fd) {
#if HAMMER_POSIX
  if (fd_ >= 0) ::signal(SIGPIPE, SIG_IGN);
#endif
}

#if HAMMER_WINDOWS
// Windows cannot ask a pipe whether a write would block: each line is written whole, so a
// reader that stops reading holds hammer's calling thread (never a worker) until it reads.
void ProgressOutput::write_line(std::string_view line) {
  if (fd_ < 0) return;
  size_t done = 0;
  while (done < line.size()) {
    const int wrote = ::_write(fd_, line.data() + done, static_cast<unsigned>(line.size() - done));
    if (wrote <= 0) {
      fd_ = -1;
      return;
    }
    done += static_cast<size_t>(wrote);
  }
}
#else
void ProgressOutput::write_line(std::string_view line) {
  if (fd_ < 0) return;
  pollfd ready{fd_, POLLOUT, 0};
  int polled = 0;
  do {
    polled = ::poll(&ready, 1, 0);
  } while (polled < 0 && errno == EINTR);
  if (polled == 1 && (ready.revents & (POLLERR | POLLNVAL)) != 0) {
    fd_ = -1;  // the reader is gone: no more progress
    return;
  }
  if (polled != 1 || (ready.revents & POLLOUT) == 0) {
    ++skipped_;  // the reader is behind: leave this line out rather than wait
    return;
  }
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t wrote = ::write(fd_, line.data() + done, line.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      fd_ = -1;
      return;
    }
    done += static_cast<size_t>(wrote);
  }
}

#endif

}  // namespace hammer
