// SPDX-License-Identifier: MIT
// The io_uring engine's wait: a send's own completion ends a wait only when more bytes wait
// behind it (prompt, or hurry()); a quiet send's `sent` event rides along with the next event,
// or comes at the timeout, so a request costs one wake-up (its response), not two. Judged on
// counts and on bounds that a busy machine cannot break: a wait never ends before its timeout
// without an event, and "at once" is anything well under a 5 s timeout.
#include "net/uring_engine.h"

#include <gtest/gtest.h>

#if defined(HAMMER_HAVE_URING)
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

namespace hammer {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kLongNs = 5'000'000'000;

class UringWaitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const int why = UringEngine::probe(); why != 0) {
      GTEST_SKIP() << "io_uring unavailable here: " << std::strerror(why);
    }
    int error_number = 0;
    engine_ = UringEngine::create(1, -1, &error_number);
    ASSERT_NE(engine_, nullptr) << std::strerror(error_number);
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair_), 0);
    ASSERT_TRUE(engine_->add(pair_[0], token_, false));
    engine_->start_receiving(pair_[0], token_);
  }
  void TearDown() override {
    if (engine_ && pair_[0] >= 0) {
      engine_->remove(pair_[0], token_);
      engine_->wait(events_, 8, 0);
    }
    for (int fd : pair_) {
      if (fd >= 0) ::close(fd);
    }
  }
  // Waits; returns the events' count and the seconds the wait took.
  int timed_wait(int64_t timeout_ns, double* seconds) {
    const auto start = Clock::now();
    const int count = engine_->wait(events_, 8, timeout_ns);
    *seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return count;
  }
  int count_of(int count, IoEventKind kind) const {
    int n = 0;
    for (int i = 0; i < count; ++i) n += events_[i].kind == kind ? 1 : 0;
    return n;
  }

  std::unique_ptr<UringEngine> engine_;
  int pair_[2] = {-1, -1};
  const uint64_t token_ = make_io_token(0, 1);
  IoEvent events_[8] = {};
};

TEST_F(UringWaitTest, AQuietSendAloneWaitsForTheTimeoutAndIsThenReportedWhole) {
  engine_->send(pair_[0], token_, "hello", {}, /*prompt=*/false);
  double seconds = 0;
  const int count = timed_wait(300'000'000, &seconds);
  ASSERT_EQ(count, 1);
  EXPECT_EQ(events_[0].kind, IoEventKind::sent);
  EXPECT_EQ(events_[0].result, 5);
  EXPECT_GE(seconds, 0.29);  // nothing else happened: it did not end the wait itself
  char got[8] = {};
  EXPECT_EQ(::read(pair_[1], got, sizeof got), 5);
  EXPECT_EQ(std::string(got, 5), "hello");
}

// A head and its body go in one submission: the peer finds both in its first read, the
// `sent` count covers both, and nothing follows (epoll's one sendmsg gives the same).
TEST_F(UringWaitTest, AHeadAndItsBodyLeaveInOneSend) {
  const std::string head = "POST / HTTP/1.1\r\nContent-Length: 19\r\n\r\n";
  const std::string body = "{\"hello\": \"world\"}";
  engine_->send(pair_[0], token_, head, body, /*prompt=*/true);
  double seconds = 0;
  ASSERT_EQ(timed_wait(kLongNs, &seconds), 1);
  EXPECT_EQ(events_[0].kind, IoEventKind::sent);
  EXPECT_EQ(events_[0].result, static_cast<int32_t>(head.size() + body.size()));
  char got[256] = {};
  EXPECT_EQ(::read(pair_[1], got, sizeof got), static_cast<ssize_t>(head.size() + body.size()));
  EXPECT_EQ(std::string(got, head.size() + body.size()), head + body);
  EXPECT_EQ(::read(pair_[1], got, sizeof got), -1);  // nothing more: one send, no second
}

TEST_F(UringWaitTest, AQuietSendRidesAlongWithTheNextEvent) {
  engine_->send(pair_[0], token_, "ping", {}, /*prompt=*/false);
  ASSERT_EQ(::write(pair_[1], "pong", 4), 4);  // the "response", already on its way
  double seconds = 0;
  int count = timed_wait(kLongNs, &seconds);
  if (count == 1) {  // the send's completion and the bytes may land in two batches
    count += engine_->wait(events_ + 1, 7, kLongNs);
  }
  EXPECT_LT(seconds, 4.0);
  ASSERT_EQ(count, 2);
  EXPECT_EQ(count_of(count, IoEventKind::sent), 1);
  EXPECT_EQ(count_of(count, IoEventKind::received), 1);
}

TEST_F(UringWaitTest, APromptSendEndsTheWaitAtOnce) {
  engine_->send(pair_[0], token_, "head", {}, /*prompt=*/true);
  double seconds = 0;
  ASSERT_EQ(timed_wait(kLongNs, &seconds), 1);
  EXPECT_EQ(events_[0].kind, IoEventKind::sent);
  EXPECT_LT(seconds, 4.0);
}

// A large send may stay pending (a server that answers a big body early, unread): it is never
// quiet, so an answer alone ends the wait.
TEST_F(UringWaitTest, ALargeSendIsNeverQuiet) {
  const std::string body(UringEngine::kQuietSendMaxBytes + 1, 'b');
  engine_->send(pair_[0], token_, body, {}, /*prompt=*/false);
  double seconds = 0;
  const int count = timed_wait(kLongNs, &seconds);
  ASSERT_GE(count, 1);
  EXPECT_EQ(events_[0].kind, IoEventKind::sent);
  EXPECT_LT(seconds, 4.0);
}

TEST_F(UringWaitTest, HurryMakesTheNextWaitEndAtTheFirstCompletion) {
  engine_->send(pair_[0], token_, "first", {}, /*prompt=*/false);
  engine_->hurry();  // a pipelined request now waits behind "first"
  double seconds = 0;
  ASSERT_EQ(timed_wait(kLongNs, &seconds), 1);
  EXPECT_EQ(events_[0].kind, IoEventKind::sent);
  EXPECT_LT(seconds, 4.0);
  // Only that wait: the next quiet send waits for company again.
  engine_->send(pair_[0], token_, "second", {}, /*prompt=*/false);
  ASSERT_EQ(timed_wait(200'000'000, &seconds), 1);
  EXPECT_GE(seconds, 0.19);
}

// A one-connection engine has the smallest ring (kMinBuffers); a response many times its size
// still arrives whole and in order: the multishot receive that ran dry (ENOBUFS) is re-armed
// once the batch's buffers are back, and the rest waits in the socket meanwhile.
TEST_F(UringWaitTest, AResponseLargerThanTheBufferRingArrivesWholeAndInOrder) {
  EXPECT_EQ(engine_->buffer_count(), UringEngine::kMinBuffers);
  const size_t ring_bytes = size_t{UringEngine::kMinBuffers} * UringEngine::kBufferBytes;
  std::string sent(ring_bytes * 16 + 123, '\0');
  for (size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  const auto give_up = Clock::now() + std::chrono::seconds(20);
  std::thread writer([&] {
    size_t offset = 0;
    while (offset < sent.size() && Clock::now() < give_up) {
      const ssize_t wrote = ::write(pair_[1], sent.data() + offset, sent.size() - offset);
      if (wrote > 0) {
        offset += static_cast<size_t>(wrote);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // full: the reader drains
      }
    }
  });
  std::string got;
  bool well_formed = true;
  while (well_formed && got.size() < sent.size() && Clock::now() < give_up) {
    const int count = engine_->wait(events_, 8, 100'000'000);
    well_formed = count >= 0;
    for (int i = 0; well_formed && i < count; ++i) {
      const IoEvent& event = events_[i];
      well_formed = event.kind == IoEventKind::received && event.result > 0 && event.data;
      // The bytes are valid until the next wait.
      if (well_formed) got.append(event.data, static_cast<size_t>(event.result));
    }
  }
  writer.join();
  EXPECT_TRUE(well_formed) << "a wait failed or reported something other than bytes";
  ASSERT_EQ(got.size(), sent.size());
  EXPECT_TRUE(got == sent) << "the bytes arrived out of order or changed";
}

}  // namespace
}  // namespace hammer
#endif
