// SPDX-License-Identifier: MIT
// Choosing and building the I/O engine (see io_engine.h).
#include "net/io_engine.h"

#include "platform/platform.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "net/readiness_engine.h"
#include "net/uring_engine.h"

namespace hammer {

EngineKind resolve_engine(EngineKind wanted, EngineFallback* fallback) {
  *fallback = EngineFallback{};
#if !HAMMER_LINUX_APIS
  // macOS, Windows, HAMMER_PORTABLE: poll is the only engine built. Asking for another one by
  // name is not an error (a script shared between machines), but the report says so.
  if (wanted == EngineKind::io_uring || wanted == EngineKind::epoll) {
    fallback->happened = true;
    fallback->linux_only = true;
    fallback->wanted = wanted;
    fallback->used = EngineKind::poll;
  }
  return EngineKind::poll;
#else
  if (wanted == EngineKind::epoll || wanted == EngineKind::poll) return wanted;
#if defined(HAMMER_HAVE_URING)
  // One probe per process: a sweep runs many times and the answer does not change.
  static std::once_flag probed;
  static int probe_error = 0;
  std::call_once(probed, [] { probe_error = UringEngine::probe(); });
  if (probe_error == 0) return EngineKind::io_uring;
  fallback->error_number = probe_error;
#else
  fallback->not_built = true;
#endif
  fallback->happened = true;
  return EngineKind::epoll;
#endif
}

int io_event_batch_for(int64_t connections) {
  const int64_t wanted = std::clamp<int64_t>(connections, 0, kMaxIoEventBatch) * 4 + 8;
  return static_cast<int>(std::clamp<int64_t>(
      static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(wanted))), 16, kMaxIoEventBatch));
}

std::unique_ptr<IoEngine> create_io_engine(EngineKind kind, int64_t connections,
                                           int64_t fd_limit, int wakeup_fd, std::string* error) {
  std::unique_ptr<IoEngine> engine;
  switch (kind) {
    case EngineKind::io_uring: {
#if defined(HAMMER_HAVE_URING)
      int error_number = 0;
      engine = UringEngine::create(connections, wakeup_fd, &error_number);
      if (!engine) {
        *error = std::string("io_uring: ") + std::strerror(error_number);
        return nullptr;
      }
      return engine;
#else
      *error = "io_uring: this hammer was built without liburing";
      return nullptr;
#endif
    }
    case EngineKind::automatic:
    case EngineKind::epoll: {
#if !HAMMER_LINUX_APIS
      *error = "epoll: Linux only; this build has the poll engine alone";
      return nullptr;
#else
      // epoll only uses the figure to size its event batch, which the worker's bounds anyway.
      const int batch = io_event_batch_for(connections);
      auto poller = EpollPoller::create(static_cast<int>(std::min<int64_t>(fd_limit, batch)));
      if (!poller) {
        *error = poller.error();
        return nullptr;
      }
      auto epoll = std::make_unique<EpollEngine>(std::move(*poller), batch);
      epoll->sleep_on(wakeup_fd);
      engine = std::move(epoll);
      break;
#endif
    }
    case EngineKind::poll: {
      // poll(2) indexes its table by fd, so it must cover every fd the process may open.
      auto poller = PollPoller::create(static_cast<int>(std::min<int64_t>(fd_limit, 1 << 20)));
      if (!poller) {
        *error = poller.error();
        return nullptr;
      }
      auto poll = std::make_unique<PollEngine>(std::move(*poller), io_event_batch_for(connections));
      poll->sleep_on(wakeup_fd);
      engine = std::move(poll);
      break;
    }
  }
  if (wakeup_fd >= 0 && !engine->add(wakeup_fd, kWakeupIoToken, false)) {
    *error = std::string("cannot watch the wake-up fd: ") + std::strerror(errno);
    return nullptr;
  }
  return engine;
}

}  // namespace hammer
