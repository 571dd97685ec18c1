// SPDX-License-Identifier: MIT
#pragma once
// ReadinessEngine: the epoll and poll pollers behind the IoEngine interface. Sockets are
// watched level-triggered for reading for their whole life, and for writing only while a
// connect or a partial write is pending. The engine is chosen at run time (--engine); the
// poller is a template argument, not an interface, because the worker calls wait() in its
// hottest loop.
//
// Both pollers are level-triggered: a descriptor stays reported while it is
// readable/writable. The connection code may read once per wake-up and still never miss data;
// edge-triggered would demand draining every socket to EAGAIN on every wake-up, and one
// forgotten drain is a connection that hangs forever (design.md §5).
//
// Sleeping through traffic (wait_for_time, Linux): the sleep is a ppoll on the worker's
// wake-up fd alone, to the timeout; the sockets are then polled without blocking. Two system
// calls where wait() makes one, but one wake-up per slot instead of one per response too (a
// wake-up costs 16-25 us of CPU on a VM; a system call ~1 us). The worker reads with
// read_some_stamped, so each response keeps the time it arrived (net/receive_stamps.h).
#include <memory>
#include <string>

#include "net/epoll_poller.h"
#include "net/io_engine.h"
#include "net/poll_poller.h"
#include "platform/platform.h"

#if HAMMER_LINUX_APIS
#include <poll.h>
#endif

namespace hammer {

template <class Poller, EngineKind Kind>
class ReadinessEngine final : public IoEngine {
 public:
  /// `batch`: the most events one wait() reports (io_event_batch_for()).
  ReadinessEngine(Poller poller, int batch)
      : poller_(std::move(poller)),
        batch_(batch),
        events_(std::make_unique<PollEvent[]>(static_cast<size_t>(batch))) {}

  EngineKind kind() const override { return Kind; }
  bool completes_io() const override { return false; }

  bool add(int fd, uint64_t token, bool connecting) override {
    return poller_.add(fd, connecting ? (kPollRead | kPollWrite) : kPollRead, token);
  }
  void start_receiving(int fd, uint64_t token) override { poller_.modify(fd, kPollRead, token); }
  void want_write(int fd, uint64_t token, bool wanted) override {
    poller_.modify(fd, wanted ? (kPollRead | kPollWrite) : kPollRead, token);
  }
  void send(int, uint64_t, std::string_view, std::string_view, bool) override {}  // the worker writes itself
  void remove(int fd, uint64_t) override { poller_.remove(fd); }

  int wait(IoEvent* out, int capacity, int64_t timeout_ns) override {
    const int count = poller_.wait(events_.get(), capacity < batch_ ? capacity : batch_,
                                   timeout_ns);
    for (int i = 0; i < count; ++i) {
      const PollEvent& event = events_[i];
      out[i] = IoEvent{event.token, IoEventKind::ready, event.readable, event.writable,
                       event.hangup_or_error, 0, nullptr, 0};
    }
    return count;
  }

  /// The worker's wake-up fd (also added as an ordinary watched fd): what wait_for_time
  /// sleeps on. -1 (the default) leaves wait_for_time as wait().
  void sleep_on(int wakeup_fd) { wakeup_fd_ = wakeup_fd; }
  bool sleeps_through_traffic() const override { return HAMMER_LINUX_APIS && wakeup_fd_ >= 0; }
  int wait_for_time(IoEvent* out, int capacity, int64_t timeout_ns) override {
#if HAMMER_LINUX_APIS
    if (wakeup_fd_ >= 0 && timeout_ns > 0) {
      pollfd wakeup{wakeup_fd_, POLLIN, 0};
      timespec timeout{static_cast<time_t>(timeout_ns / 1'000'000'000),
                       static_cast<long>(timeout_ns % 1'000'000'000)};
      ::ppoll(&wakeup, 1, &timeout, nullptr);  // EINTR or the wake-up: the poll below says
      timeout_ns = 0;
    }
#endif
    return wait(out, capacity, timeout_ns);
  }

  int64_t timeout_granularity_ns() const override { return poller_.timeout_granularity_ns(); }
  Poller& poller() { return poller_; }

 private:
  Poller poller_;
  int batch_;
  int wakeup_fd_ = -1;
  std::unique_ptr<PollEvent[]> events_;
};

#if HAMMER_LINUX_APIS
using EpollEngine = ReadinessEngine<EpollPoller, EngineKind::epoll>;
#endif
using PollEngine = ReadinessEngine<PollPoller, EngineKind::poll>;

}  // namespace hammer
