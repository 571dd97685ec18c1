// SPDX-License-Identifier: MIT
// One typed suite over both backends: the worker is written against their shared contract,
// so each case must hold for EpollPoller and PollPoller alike. Sockets are socketpairs;
// timing assertions are one-sided or generous (design.md §6).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <set>
#include <thread>

#include "net/epoll_poller.h"
#include "net/poll_poller.h"
#include "net/wakeup.h"
#include "time/clock.h"

namespace hammer {
namespace {

constexpr int kMaxFds = 4096;
constexpr int64_t kLongWaitNs = 5 * kNanosPerSecond;  // bounds a test that would otherwise hang

// A connected pair of non-blocking stream sockets, closed on scope exit.
struct SocketPair {
  int local = -1;
  int peer = -1;
  SocketPair() {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds), 0);
    local = fds[0];
    peer = fds[1];
  }
  SocketPair(const SocketPair&) = delete;
  SocketPair& operator=(const SocketPair&) = delete;
  ~SocketPair() {
    if (local >= 0) close(local);
    if (peer >= 0) close(peer);
  }
  void close_peer() {
    close(peer);
    peer = -1;
  }
};

template <class P>
class PollerTest : public ::testing::Test {
 protected:
  PollerTest() : poller_(make()) {}

  static P make() {
    auto created = P::create(kMaxFds);
    EXPECT_TRUE(created.has_value());
    return std::move(created).value();
  }

  // Waits once; returns the events.
  std::vector<PollEvent> wait_events(int64_t timeout_ns, int capacity = 16) {
    std::array<PollEvent, 16> events{};
    const int count = poller_.wait(events.data(), capacity, timeout_ns);
    EXPECT_GE(count, 0);
    return {events.begin(), events.begin() + std::max(count, 0)};
  }

  P poller_;
};

#if HAMMER_LINUX_APIS
using Backends = ::testing::Types<EpollPoller, PollPoller>;
#else
using Backends = ::testing::Types<PollPoller>;  // macOS and the portable build have no epoll
#endif

class BackendNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, PollPoller> ? "Poll" : "Epoll";
  }
};

TYPED_TEST_SUITE(PollerTest, Backends, BackendNames);

TYPED_TEST(PollerTest, SocketBecomesReadableAfterPeerWritesAndStaysSoUntilRead) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 42));
  EXPECT_TRUE(this->wait_events(0).empty());
  ASSERT_EQ(write(pair.peer, "hi", 2), 2);
  for (int round = 0; round < 2; ++round) {  // level-triggered: reported again, unread
    auto events = this->wait_events(kLongWaitNs);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].token, 42u);
    EXPECT_TRUE(events[0].readable);
    EXPECT_FALSE(events[0].writable);
    EXPECT_FALSE(events[0].hangup_or_error);
  }
  char buffer[8];
  EXPECT_EQ(read(pair.local, buffer, sizeof buffer), 2);
  EXPECT_TRUE(this->wait_events(0).empty());
}

TYPED_TEST(PollerTest, WriteInterestReportsAWritableSocket) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollWrite, 7));
  auto events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 7u);
  EXPECT_TRUE(events[0].writable);
  EXPECT_FALSE(events[0].readable);
}

TYPED_TEST(PollerTest, ModifySwitchesInterestAndToken) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 1));
  EXPECT_TRUE(this->wait_events(0).empty());  // nothing to read, write not asked for
  ASSERT_TRUE(this->poller_.modify(pair.local, kPollWrite, 2));
  auto events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 2u);
  EXPECT_TRUE(events[0].writable);
  ASSERT_EQ(write(pair.peer, "x", 1), 1);
  ASSERT_TRUE(this->poller_.modify(pair.local, kPollRead | kPollWrite, 3));
  events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 3u);
  EXPECT_TRUE(events[0].readable);
  EXPECT_TRUE(events[0].writable);
  ASSERT_TRUE(this->poller_.modify(pair.local, 0, 4));  // hang-ups only
  EXPECT_TRUE(this->wait_events(0).empty());
}

TYPED_TEST(PollerTest, RemoveStopsEvents) {
  SocketPair pair;
  SocketPair other;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollWrite, 1));
  ASSERT_TRUE(this->poller_.add(other.local, kPollWrite, 2));
  this->poller_.remove(pair.local);
  this->poller_.remove(pair.local);  // twice: no-op
  auto events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 2u);
  this->poller_.remove(other.local);
  EXPECT_TRUE(this->wait_events(0).empty());
  // Removed fds can be added again.
  ASSERT_TRUE(this->poller_.add(pair.local, kPollWrite, 3));
  events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 3u);
}

TYPED_TEST(PollerTest, RejectsBadRegistrations) {
  SocketPair pair;
  EXPECT_FALSE(this->poller_.add(-1, kPollRead, 1));
  EXPECT_FALSE(this->poller_.modify(pair.local, kPollRead, 1));  // not registered
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 1));
  EXPECT_FALSE(this->poller_.add(pair.local, kPollRead, 1));  // already registered
  EXPECT_FALSE(TypeParam::create(0).has_value());
}

TYPED_TEST(PollerTest, HangupIsReportedWhenThePeerCloses) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 5));
  pair.close_peer();
  auto events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 5u);
  EXPECT_TRUE(events[0].hangup_or_error);
  EXPECT_TRUE(events[0].readable);  // read() returns 0: end of stream
}

TYPED_TEST(PollerTest, HangupIsReportedEvenWithoutInterest) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, 0, 6));
  pair.close_peer();
  auto events = this->wait_events(kLongWaitNs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(events[0].hangup_or_error);
}

TYPED_TEST(PollerTest, ManyReadyFdsAreAllReportedAcrossSmallBatches) {
  std::vector<SocketPair> pairs(8);
  for (uint64_t i = 0; i < pairs.size(); ++i) {
    ASSERT_TRUE(this->poller_.add(pairs[i].local, kPollWrite, i));
  }
  std::set<uint64_t> seen;
  for (int round = 0; round < 3; ++round) {  // 3 batches of 3 cover 8 fds, if fair
    auto events = this->wait_events(kLongWaitNs, 3);
    EXPECT_EQ(events.size(), 3u);
    for (const auto& event : events) seen.insert(event.token);
  }
  EXPECT_EQ(seen.size(), pairs.size());
}

TYPED_TEST(PollerTest, ZeroTimeoutReturnsAtOnce) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 1));
  const int64_t begin = monotonic_now_ns();
  EXPECT_TRUE(this->wait_events(0).empty());
  EXPECT_LT(monotonic_now_ns() - begin, kNanosPerSecond);
}

TYPED_TEST(PollerTest, TimeoutIsHonoured) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 1));
  const int64_t begin = monotonic_now_ns();
  EXPECT_TRUE(this->wait_events(2 * kNanosPerMilli).empty());
  const int64_t elapsed = monotonic_now_ns() - begin;
  EXPECT_GE(elapsed, 2 * kNanosPerMilli);
  EXPECT_LT(elapsed, kNanosPerSecond);
}

TYPED_TEST(PollerTest, SubMillisecondTimeoutIsNotRoundedToAMillisecond) {
  SocketPair pair;
  ASSERT_TRUE(this->poller_.add(pair.local, kPollRead, 1));
  // Best of five, so a busy machine descheduling one attempt does not fail the test.
  int64_t best = INT64_MAX;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const int64_t begin = monotonic_now_ns();
    EXPECT_TRUE(this->wait_events(200 * kNanosPerMicro).empty());
    const int64_t elapsed = monotonic_now_ns() - begin;
    EXPECT_GE(elapsed, 200 * kNanosPerMicro);
    best = std::min(best, elapsed);
  }
  EXPECT_LT(best, 5 * kNanosPerMilli);
}

TYPED_TEST(PollerTest, WakeupWakesABlockedWaitFromAnotherThread) {
  auto wakeup = Wakeup::create();
  ASSERT_TRUE(wakeup.has_value()) << wakeup.error();
  ASSERT_TRUE(this->poller_.add(wakeup->fd(), kPollRead, 99));
  EXPECT_TRUE(this->wait_events(0).empty());
  const int64_t begin = monotonic_now_ns();
  std::thread notifier([&] {
    // The wait is usually blocked by now; if not, the eventfd is already readable when it
    // starts, and the assertions hold all the same.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    wakeup->notify();
  });
  // Forever: only the notification can end it, or a signal (wait() returns no event on
  // EINTR, by contract), after which the wait is taken up again, as the worker's loop does.
  auto events = this->wait_events(-1);
  while (events.empty() && monotonic_now_ns() - begin < kLongWaitNs) {
    events = this->wait_events(-1);
  }
  notifier.join();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].token, 99u);
  EXPECT_TRUE(events[0].readable);
  EXPECT_LT(monotonic_now_ns() - begin, kLongWaitNs);
  wakeup->notify();  // coalesces with nothing pending; drain consumes all
  wakeup->notify();
  wakeup->drain();
  EXPECT_TRUE(this->wait_events(0).empty());
}

Wakeup* g_signal_wakeup = nullptr;

extern "C" void notify_from_signal(int) { g_signal_wakeup->notify(); }

TEST(WakeupTest, NotifyFromASignalHandlerWakesThePollerAndKeepsErrno) {
  auto wakeup = Wakeup::create();
  ASSERT_TRUE(wakeup.has_value()) << wakeup.error();
  auto poller = PollPoller::create(16);  // the backend every platform has
  ASSERT_TRUE(poller.has_value()) << poller.error();
  ASSERT_TRUE(poller->add(wakeup->fd(), kPollRead, 1));
  g_signal_wakeup = &*wakeup;
  struct sigaction action {};
  struct sigaction previous {};
  action.sa_handler = notify_from_signal;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  errno = EBADF;
  raise(SIGUSR1);
  EXPECT_EQ(errno, EBADF);
  PollEvent event{};
  EXPECT_EQ(poller->wait(&event, 1, kLongWaitNs), 1);
  EXPECT_EQ(event.token, 1u);
  sigaction(SIGUSR1, &previous, nullptr);
  g_signal_wakeup = nullptr;
}

#if HAMMER_LINUX_APIS
TEST(EpollPollerTest, MillisecondFallbackRoundsSubMillisecondTimeoutsUp) {
  auto poller = EpollPoller::create(16);
  ASSERT_TRUE(poller.has_value()) << poller.error();
  poller->use_millisecond_timeouts_for_testing();
  SocketPair pair;
  ASSERT_TRUE(poller->add(pair.local, kPollRead, 1));
  PollEvent event{};
  const int64_t begin = monotonic_now_ns();
  EXPECT_EQ(poller->wait(&event, 1, 200 * kNanosPerMicro), 0);  // 1 ms, not 0 ms (a spin)
  const int64_t elapsed = monotonic_now_ns() - begin;
  EXPECT_GE(elapsed, 900 * kNanosPerMicro);
  EXPECT_LT(elapsed, kNanosPerSecond);
  ASSERT_EQ(write(pair.peer, "x", 1), 1);
  EXPECT_EQ(poller->wait(&event, 1, -1), 1);
  EXPECT_TRUE(event.readable);
}
#endif

TEST(PollPollerTest, RejectsDescriptorsBeyondMaxFdsAndKeepsOthersAfterRemoval) {
  auto poller = PollPoller::create(64);
  ASSERT_TRUE(poller.has_value()) << poller.error();
  EXPECT_FALSE(poller->add(64, kPollRead, 1));
  // Removing from the middle moves the last entry: its token must follow it.
  std::vector<SocketPair> pairs(3);
  for (uint64_t i = 0; i < 3; ++i) ASSERT_TRUE(poller->add(pairs[i].local, kPollWrite, 10 + i));
  poller->remove(pairs[0].local);
  std::array<PollEvent, 4> events{};
  ASSERT_EQ(poller->wait(events.data(), 4, kLongWaitNs), 2);
  std::set<uint64_t> tokens{events[0].token, events[1].token};
  EXPECT_EQ(tokens, (std::set<uint64_t>{11, 12}));
  ASSERT_TRUE(poller->modify(pairs[2].local, kPollWrite, 22));
  poller->remove(pairs[1].local);
  ASSERT_EQ(poller->wait(events.data(), 4, kLongWaitNs), 1);
  EXPECT_EQ(events[0].token, 22u);
}

}  // namespace
}  // namespace hammer
