// SPDX-License-Identifier: MIT
// poll(2) with the bookkeeping epoll does in the kernel done here: a dense pollfd array
// with swap-with-last removal, and an fd index to find an entry in O(1).
#include "net/poll_poller.h"

#include <cerrno>
#include <climits>
#include <ctime>

#include "platform/platform.h"

namespace hammer {
namespace {

short poll_interest(uint32_t interest) {
  short events = 0;
  if (interest & kPollRead) events |= POLLIN;
  if (interest & kPollWrite) events |= POLLOUT;
  return events;  // POLLHUP, POLLERR and POLLNVAL are always reported
}

}  // namespace

Expected<PollPoller, std::string> PollPoller::create(int max_fds) {
  if (max_fds < 1) return unexpected(std::string("poll poller: max_fds must be >= 1"));
  return PollPoller(max_fds);
}

PollPoller::PollPoller(int max_fds)
    : entries_(static_cast<size_t>(max_fds)),
      tokens_(static_cast<size_t>(max_fds)),
      index_of_fd_(max_fds) {}

bool PollPoller::add(int fd, uint32_t interest, uint64_t token) {
  if (!index_of_fd_.accepts(fd)) return false;
  if (index_of_fd_.find(fd) >= 0) {
    errno = EEXIST;
    return false;
  }
  if (count_ >= static_cast<int32_t>(entries_.size())) return false;
  const auto position = static_cast<size_t>(count_);
  entries_[position] = pollfd{};
  entries_[position].fd = fd;  // an int widened to SOCKET on Windows (see native_socket.h)
  entries_[position].events = poll_interest(interest);
  tokens_[position] = token;
  index_of_fd_.set(fd, count_++);
  return true;
}

bool PollPoller::modify(int fd, uint32_t interest, uint64_t token) {
  if (!index_of_fd_.accepts(fd)) return false;
  const int32_t position = index_of_fd_.find(fd);
  if (position < 0) {
    errno = ENOENT;
    return false;
  }
  entries_[static_cast<size_t>(position)].events = poll_interest(interest);
  tokens_[static_cast<size_t>(position)] = token;
  return true;
}

void PollPoller::remove(int fd) {
  const int32_t position = index_of_fd_.find(fd);
  if (position < 0) return;
  const int32_t last = --count_;
  index_of_fd_.erase(fd);
  if (position != last) {
    entries_[static_cast<size_t>(position)] = entries_[static_cast<size_t>(last)];
    tokens_[static_cast<size_t>(position)] = tokens_[static_cast<size_t>(last)];
    index_of_fd_.set(static_cast<int>(entries_[static_cast<size_t>(position)].fd), position);
  }
}

int64_t PollPoller::timeout_granularity_ns() {
#if HAMMER_LINUX_APIS
  return 1;
#else
  return 1'000'000;
#endif
}

int PollPoller::wait(PollEvent* out, int capacity, int64_t timeout_ns) {
  if (capacity <= 0) return -EINVAL;
#if HAMMER_LINUX_APIS
  timespec timeout{};
  if (timeout_ns > 0) {
    timeout.tv_sec = static_cast<time_t>(timeout_ns / 1'000'000'000);
    timeout.tv_nsec = static_cast<long>(timeout_ns % 1'000'000'000);
  }
  const int ready = ppoll(entries_.data(), static_cast<nfds_t>(count_),
                          timeout_ns < 0 ? nullptr : &timeout, nullptr);
  const int error = ready < 0 ? errno : 0;
#else
  // Whole milliseconds, rounded up: waking early would make the caller spin, waking late is
  // what the timeout contract allows (and dispatch lag then measures).
  int timeout_ms = -1;
  if (timeout_ns >= 0) {
    const int64_t ms = (timeout_ns + 999'999) / 1'000'000;
    timeout_ms = ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
  }
  const int ready = poll_sockets(entries_.data(), static_cast<size_t>(count_), timeout_ms);
  const int error = ready < 0 ? last_socket_error() : 0;
#endif
  if (ready < 0) return error == EINTR ? 0 : -error;
  if (ready == 0) return 0;
  int reported = 0;
  int found = 0;
  if (scan_start_ >= count_) scan_start_ = 0;
  for (int32_t step = 0; step < count_ && found < ready; ++step) {
    int32_t position = scan_start_ + step;
    if (position >= count_) position -= count_;
    const pollfd& entry = entries_[static_cast<size_t>(position)];
    if (entry.revents == 0) continue;
    ++found;
    if (reported == capacity) {
      scan_start_ = position;  // first ready fd not reported: start there next time
      return reported;
    }
    out[reported++] = PollEvent{tokens_[static_cast<size_t>(position)],
                                (entry.revents & POLLIN) != 0, (entry.revents & POLLOUT) != 0,
                                (entry.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0};
  }
  return reported;
}

}  // namespace hammer
