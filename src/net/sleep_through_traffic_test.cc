// SPDX-License-Identifier: MIT
// wait_for_time (issue 27): an open-loop worker sleeps to its next slot while responses
// arrive, and finds them, each with the kernel's time of arrival, when it wakes. For every
// engine this machine has: bytes that arrive do not end the sleep, the timeout does; the
// wake-up fd (Ctrl-C) ends it at once; a send that must be heard at once ends it (io_uring).
// Judged on bounds a busy machine cannot break: a sleep never ends early without cause, and
// "at once" is anything well under a 5 s timeout.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <thread>

#include "net/io_engine.h"
#include "net/loopback_pair_test_support.h"
#include "net/receive_stamps.h"
#include "net/uring_engine.h"
#include "net/wakeup.h"
#include "platform/platform.h"

namespace hammer {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr int64_t kSleepNs = 300'000'000;
constexpr int64_t kLongNs = 5'000'000'000;

int64_t wall_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

class SleepThroughTrafficTest : public ::testing::TestWithParam<EngineKind> {
 protected:
  void SetUp() override {
#if defined(HAMMER_HAVE_URING)
    if (GetParam() == EngineKind::io_uring && UringEngine::probe() != 0) {
      GTEST_SKIP() << "io_uring unavailable here";
    }
#else
    if (GetParam() == EngineKind::io_uring) GTEST_SKIP() << "built without io_uring";
#endif
    if (GetParam() == EngineKind::epoll && !HAMMER_LINUX_APIS) GTEST_SKIP() << "no epoll here";
    auto wakeup = Wakeup::create();
    ASSERT_TRUE(wakeup.has_value()) << wakeup.error();
    wakeup_.emplace(std::move(*wakeup));
    std::string error;
    engine_ = create_io_engine(GetParam(), 1, 1024, wakeup_->fd(), &error);
    ASSERT_NE(engine_, nullptr) << error;
    if (!engine_->sleeps_through_traffic()) GTEST_SKIP() << "this engine wakes for traffic here";
    ASSERT_TRUE(hold_receive_stamps_on());  // as the worker does
    pair_.emplace();
    client_ = pair_->client;
    server_ = pair_->server;
    ASSERT_TRUE(enable_receive_stamps(client_));
    ASSERT_TRUE(engine_->add(client_, token_, false));
    engine_->start_receiving(client_, token_);
  }
  void TearDown() override {
    if (engine_ && client_ >= 0) {
      engine_->remove(client_, token_);
      engine_->wait(events_, 8, 0);
    }
  }
  int timed_sleep(int64_t timeout_ns, double* seconds) {
    const auto start = SteadyClock::now();
    const int count = engine_->wait_for_time(events_, 8, timeout_ns);
    *seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    return count;
  }
  // The bytes an event says arrived, and their stamp: io_uring read them itself; for a
  // readiness engine the worker reads (as worker_io.cc does).
  std::string bytes_of(const IoEvent& event, int64_t* stamp) {
    if (event.kind == IoEventKind::received) {
      *stamp = event.received_wall_ns;
      return std::string(event.data, static_cast<size_t>(event.result));
    }
    char buffer[64];
    size_t got = 0;
    int error_number = 0;
    if (read_some_stamped(client_, buffer, sizeof buffer, &got, &error_number, stamp) != Io::done) {
      return {};
    }
    return std::string(buffer, got);
  }

  std::optional<LoopbackPair> pair_;
  std::optional<Wakeup> wakeup_;
  std::unique_ptr<IoEngine> engine_;
  int client_ = -1;
  int server_ = -1;
  const uint64_t token_ = make_io_token(0, 1);
  IoEvent events_[8] = {};
};

TEST_P(SleepThroughTrafficTest, BytesThatArriveWaitForTheTimeoutAndKeepTheirArrivalTime) {
  const int64_t written_at = wall_ns();
  ASSERT_EQ(::write(server_, "HTTP/1.1", 8), 8);
  double seconds = 0;
  const int count = timed_sleep(kSleepNs, &seconds);
  EXPECT_GE(seconds, 0.29) << "the response ended the sleep: a wake-up per response";
  ASSERT_EQ(count, 1);
  EXPECT_EQ(events_[0].token, token_);
  int64_t stamp = 0;
  EXPECT_EQ(bytes_of(events_[0], &stamp), "HTTP/1.1");
  // Stamped on arrival, right after the write, not at the wake-up 300 ms later.
  EXPECT_GE(stamp, written_at);
  EXPECT_LT(stamp, written_at + kSleepNs / 2);
}

TEST_P(SleepThroughTrafficTest, TheWakeupFdEndsTheSleepAtOnce) {
  std::thread poke([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    wakeup_->notify();
  });
  double seconds = 0;
  const int count = timed_sleep(kLongNs, &seconds);
  poke.join();
  EXPECT_LT(seconds, 2.5) << "Ctrl-C waited for the next slot";
  bool woke = false;
  for (int i = 0; i < count; ++i) woke = woke || events_[i].token == kWakeupIoToken;
  EXPECT_TRUE(woke);
}

TEST_P(SleepThroughTrafficTest, ASendThatMustBeHeardEndsTheSleep) {
  if (!engine_->completes_io()) GTEST_SKIP() << "a readiness engine's worker writes itself";
  engine_->send(client_, token_, "GET / HTTP/1.1\r\n\r\n", {}, /*prompt=*/true);
  double seconds = 0;
  const int count = timed_sleep(kLongNs, &seconds);
  EXPECT_LT(seconds, 2.5);
  ASSERT_GE(count, 1);
  EXPECT_EQ(events_[0].kind, IoEventKind::sent);
}

INSTANTIATE_TEST_SUITE_P(Engines, SleepThroughTrafficTest,
                         ::testing::Values(EngineKind::io_uring, EngineKind::epoll,
                                           EngineKind::poll),
                         [](const auto& test) { return std::string(engine_name(test.param)); });

}  // namespace
}  // namespace hammer
