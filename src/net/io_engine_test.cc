// SPDX-License-Identifier: MIT
// Which engine a run gets for each --engine: on Linux what was asked for (io_uring may fall
// back to epoll, with the reason); in a macOS, Windows or HAMMER_PORTABLE build always poll,
// with a note naming the Linux-only engine that was asked for.
#include "net/io_engine.h"

#include <gtest/gtest.h>

#include "platform/platform.h"

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

}  // namespace
}  // namespace hammer
