// SPDX-License-Identifier: MIT
// Level-triggered epoll. The timeout goes through epoll_pwait2, which takes a timespec: with
// epoll_wait's integer milliseconds a worker due to send in 300 us would either spin (0 ms)
// or oversleep by 700 us, the timer floor design.md §3 promises hammer does not have.
#include "net/epoll_poller.h"

#if HAMMER_LINUX_APIS

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>

namespace hammer {
namespace {

// epoll_wait returns at most this many events per call however many fds are registered:
// the rest stay ready (level-triggered) for the next call, and epoll requeues reported
// fds behind the others, so a small batch is fair and keeps the buffer small.
constexpr int kMaxBatch = 1024;

uint32_t epoll_interest(uint32_t interest) {
  uint32_t events = 0;
  if (interest & kPollRead) events |= EPOLLIN;
  if (interest & kPollWrite) events |= EPOLLOUT;
  return events;  // EPOLLHUP and EPOLLERR are always reported
}

}  // namespace

Expected<EpollPoller, std::string> EpollPoller::create(int max_fds) {
  if (max_fds < 1) return unexpected(std::string("epoll poller: max_fds must be >= 1"));
  const int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) return unexpected(std::string("epoll_create1: ") + std::strerror(errno));
  return EpollPoller(epoll_fd, std::min(max_fds, kMaxBatch));
}

EpollPoller::EpollPoller(int epoll_fd, int max_events)
    : epoll_fd_(epoll_fd), events_(static_cast<size_t>(max_events)) {}

EpollPoller::EpollPoller(EpollPoller&& other) noexcept
    : epoll_fd_(other.epoll_fd_),
      events_(std::move(other.events_)),
      precise_timeouts_(other.precise_timeouts_) {
  other.epoll_fd_ = -1;
}

EpollPoller& EpollPoller::operator=(EpollPoller&& other) noexcept {
  if (this != &other) {
    if (epoll_fd_ >= 0) close(epoll_fd_);
    epoll_fd_ = other.epoll_fd_;
    events_ = std::move(other.events_);
    precise_timeouts_ = other.precise_timeouts_;
    other.epoll_fd_ = -1;
  }
  return *this;
}

EpollPoller::~EpollPoller() {
  if (epoll_fd_ >= 0) close(epoll_fd_);
}

bool EpollPoller::add(int fd, uint32_t interest, uint64_t token) {
  if (fd < 0) return false;
  epoll_event event{};
  event.events = epoll_interest(interest);
  event.data.u64 = token;
  return epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) == 0;
}

bool EpollPoller::modify(int fd, uint32_t interest, uint64_t token) {
  if (fd < 0) return false;
  epoll_event event{};
  event.events = epoll_interest(interest);
  event.data.u64 = token;
  return epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &event) == 0;
}

void EpollPoller::remove(int fd) {
  if (fd < 0) return;
  epoll_event unused{};  // kernels before 2.6.9 wanted non-null
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, &unused);
}

int EpollPoller::wait(PollEvent* out, int capacity, int64_t timeout_ns) {
  const int batch = std::min(capacity, static_cast<int>(events_.size()));
  if (batch <= 0) return -EINVAL;
  int ready = -1;
  if (precise_timeouts_) {
    timespec timeout{};
    if (timeout_ns > 0) {
      timeout.tv_sec = static_cast<time_t>(timeout_ns / 1'000'000'000);
      timeout.tv_nsec = static_cast<long>(timeout_ns % 1'000'000'000);
    }
    ready = epoll_pwait2(epoll_fd_, events_.data(), batch, timeout_ns < 0 ? nullptr : &timeout,
                         nullptr);
    // ENOSYS: kernel before 5.11; EPERM: a seccomp filter that does not know the call.
    if (ready < 0 && (errno == ENOSYS || errno == EPERM)) precise_timeouts_ = false;
  }
  if (!precise_timeouts_) {
    int timeout_ms = -1;
    if (timeout_ns >= 0) {
      // Round up: rounding 300 us down to 0 ms would turn a wait into a busy spin.
      const int64_t ms = timeout_ns / 1'000'000 + (timeout_ns % 1'000'000 != 0 ? 1 : 0);
      timeout_ms = static_cast<int>(std::min<int64_t>(ms, INT_MAX));
    }
    ready = epoll_wait(epoll_fd_, events_.data(), batch, timeout_ms);
  }
  if (ready < 0) return errno == EINTR ? 0 : -errno;
  for (int i = 0; i < ready; ++i) {
    const epoll_event& event = events_[static_cast<size_t>(i)];
    out[i] = PollEvent{event.data.u64, (event.events & EPOLLIN) != 0,
                       (event.events & EPOLLOUT) != 0, (event.events & (EPOLLHUP | EPOLLERR)) != 0};
  }
  return ready;
}

}  // namespace hammer
#endif  // HAMMER_LINUX_APIS
