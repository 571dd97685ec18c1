// SPDX-License-Identifier: MIT
// Which engine a run gets for each --engine: on Linux what was asked for (io_uring may fall
// back to epoll, with the reason); in a macOS, Windows or HAMMER_PORTABLE build always poll,
// with a note naming the Linux-only engine that was asked for.
#include "net/io_engine.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "platform/platform.h"
#if !defined(_WIN32)
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace hammer {
namespace {

TEST(ResolveEngineTest, PollIsAlwaysPollWithoutANote) {
  EngineFallback fallback;
  EXPECT_EQ(resolve_engine(EngineKind::poll, &fallback), EngineKind::poll);
  EXPECT_FALSE(fallback.happened);
}

TEST(ResolveEngineTest, EpollIsLinuxOnlyAndFallsBackToPollWithANoteElsewhere) {
  EngineFallback fallback;
  const EngineKind got = resolve_engine(EngineKind::epoll, &fallback);
  if (HAMMER_LINUX_APIS) {
    EXPECT_EQ(got, EngineKind::epoll);
    EXPECT_FALSE(fallback.happened);
  } else {
    EXPECT_EQ(got, EngineKind::poll);
    EXPECT_TRUE(fallback.happened);
    EXPECT_TRUE(fallback.linux_only);
    EXPECT_EQ(fallback.wanted, EngineKind::epoll);
    EXPECT_EQ(fallback.used, EngineKind::poll);
  }
}

TEST(ResolveEngineTest, IoUringOrTheAutomaticChoiceNeverEndsOnAnEngineThatWasNotBuilt) {
  for (const EngineKind wanted : {EngineKind::io_uring, EngineKind::automatic}) {
    EngineFallback fallback;
    const EngineKind got = resolve_engine(wanted, &fallback);
    if (HAMMER_LINUX_APIS) {
      EXPECT_TRUE(got == EngineKind::io_uring || got == EngineKind::epoll);
      EXPECT_EQ(fallback.happened, got == EngineKind::epoll);
      EXPECT_FALSE(fallback.linux_only);
    } else {
      EXPECT_EQ(got, EngineKind::poll);
      // Asked by name: noted; the automatic choice is simply this build's engine.
      EXPECT_EQ(fallback.happened, wanted == EngineKind::io_uring);
      EXPECT_EQ(fallback.linux_only, wanted == EngineKind::io_uring);
    }
    // Whatever was resolved can be built.
    std::string error;
    auto engine = create_io_engine(got, 4, 64, -1, &error);
    ASSERT_NE(engine, nullptr) << error;
    EXPECT_EQ(engine->kind(), got);
  }
}

TEST(IoEventBatchTest, GrowsWithTheConnectionsBetweenItsBounds) {
  EXPECT_EQ(io_event_batch_for(0), 16);
  EXPECT_EQ(io_event_batch_for(1), 16);
  EXPECT_EQ(io_event_batch_for(2), 16);
  EXPECT_EQ(io_event_batch_for(3), 32);
  EXPECT_EQ(io_event_batch_for(10), 64);
  EXPECT_EQ(io_event_batch_for(50), kMaxIoEventBatch);  // bench/engine.sh's -c 50: unchanged
  EXPECT_EQ(io_event_batch_for(10'000), kMaxIoEventBatch);
  for (int64_t connections = 1; connections <= 64; ++connections) {
    EXPECT_GE(io_event_batch_for(connections),
              std::min<int64_t>(connections * 4 + 1, kMaxIoEventBatch));
  }
}

#if !defined(_WIN32)
// 40 sockets ready at once and a batch of 16 (a one-connection worker's): every one of them is
// reported, over successive waits, never more than the batch per wait. The readiness engines
// are built for one connection (their own batch is then 16; they watch any number of fds);
// io_uring's table is by connection index, so it is built for 40 and handed 16 slots.
TEST(IoEventBatchTest, MoreReadySocketsThanTheBatchAreAllReportedOverSeveralWaits) {
  std::vector<EngineKind> kinds{EngineKind::poll};
  if (HAMMER_LINUX_APIS) {
    kinds.push_back(EngineKind::epoll);
    EngineFallback fallback;
    if (resolve_engine(EngineKind::io_uring, &fallback) == EngineKind::io_uring) {
      kinds.push_back(EngineKind::io_uring);
    }
  }
  constexpr int kSockets = 40;
  for (const EngineKind kind : kinds) {
    std::string error;
    auto engine =
        create_io_engine(kind, kind == EngineKind::io_uring ? kSockets : 1, 1024, -1, &error);
    ASSERT_NE(engine, nullptr) << error;
    const int batch = io_event_batch_for(1);
    std::vector<int> ends;
    for (int i = 0; i < kSockets; ++i) {
      int pair[2];
      ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair), 0);
      const uint64_t token = make_io_token(static_cast<uint32_t>(i), 1);
      ASSERT_TRUE(engine->add(pair[0], token, false));
      engine->start_receiving(pair[0], token);
      ASSERT_EQ(::write(pair[1], "x", 1), 1);
      ends.push_back(pair[0]);
      ends.push_back(pair[1]);
    }
    std::set<uint32_t> seen;
    std::vector<IoEvent> events(static_cast<size_t>(batch));
    for (int round = 0; round < 100 && seen.size() < kSockets; ++round) {
      const int count = engine->wait(events.data(), batch, 100'000'000);
      ASSERT_GE(count, 0);
      EXPECT_LE(count, batch);
      for (int i = 0; i < count; ++i) {
        const uint32_t index = io_token_index(events[static_cast<size_t>(i)].token);
        if (!engine->completes_io()) {  // readiness: take the byte, or it stays ready
          char byte = 0;
          EXPECT_EQ(::read(ends[static_cast<size_t>(index) * 2], &byte, 1), 1);
        }
        seen.insert(index);
      }
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(kSockets)) << "engine " << static_cast<int>(kind);
    for (int i = 0; i < kSockets; ++i) {
      engine->remove(ends[static_cast<size_t>(i) * 2], make_io_token(static_cast<uint32_t>(i), 1));
    }
    engine->wait(nullptr, 0, 0);
    for (int fd : ends) ::close(fd);
  }
}
#endif

}  // namespace
}  // namespace hammer
