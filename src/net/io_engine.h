// SPDX-License-Identifier: MIT
#pragma once
// IoEngine: how a worker waits for and performs socket I/O, chosen at run time
// (--engine io_uring|epoll|poll, or HAMMER_ENGINE). Two families speak one interface:
//  - readiness engines (epoll, poll): wait() reports sockets that are ready; the worker then
//    reads into its own buffer and writes with send(2) itself.
//  - the completion engine (io_uring): the worker queues operations — a multishot receive per
//    connection into a ring of provided buffers, sends straight from the request bytes — and
//    wait() submits every queued operation in the same io_uring_enter that waits, then reports
//    completions: bytes received (pointing into a provided buffer), bytes sent, a connect
//    that finished.
// One virtual call per operation or wait; the per-request work (parse, record) is the
// worker's either way. Tokens carry a connection index and a generation, so a completion for a
// socket the worker already closed (and perhaps replaced) is recognised and dropped.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/config.h"

namespace hammer {

/// index (bits 0..31) | generation (bits 32..55); bits 56..63 are the engine's own.
inline uint64_t make_io_token(uint32_t index, uint32_t generation) {
  return static_cast<uint64_t>(index) | (static_cast<uint64_t>(generation & 0xFFFFFFu) << 32);
}
inline uint32_t io_token_index(uint64_t token) { return static_cast<uint32_t>(token); }
inline uint32_t io_token_generation(uint64_t token) {
  return static_cast<uint32_t>(token >> 32) & 0xFFFFFFu;
}
/// The worker's wake-up eventfd (Ctrl-C): never a connection.
inline constexpr uint64_t kWakeupIoToken = 0x00FF'FFFF'FFFF'FFFFull;

enum class IoEventKind : uint8_t {
  ready,      // readiness engines: see readable / writable / hangup_or_error
  connected,  // completion engine: a pending connect finished (result: revents or -errno)
  received,   // completion engine: result bytes at data (> 0), 0 end of stream, or -errno
  sent,       // completion engine: result bytes sent, or -errno
};

struct IoEvent {
  uint64_t token;
  IoEventKind kind;
  bool readable;
  bool writable;
  bool hangup_or_error;
  int32_t result;
  const char* data;  // received: valid until the next wait()
  /// received: the kernel's receive stamp (net/receive_stamps.h) in nanoseconds since the
  /// epoch, for a socket that asked for stamps; 0 when none came.
  int64_t received_wall_ns;
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  virtual EngineKind kind() const = 0;
  /// True for the completion engine: the worker calls send() and gets `received` events;
  /// false: the worker reads and writes itself on `ready` events.
  virtual bool completes_io() const = 0;

  /// Starts watching `fd` (a fresh socket). `connecting`: a non-blocking connect is in
  /// progress; report when it finishes. False if the engine refused (errno says why).
  virtual bool add(int fd, uint64_t token, bool connecting) = 0;
  /// The connect finished: from now on report incoming bytes (and hang-ups).
  virtual void start_receiving(int fd, uint64_t token) = 0;
  /// Readiness engines: also report writability (a partial write is pending).
  virtual void want_write(int fd, uint64_t token, bool wanted) = 0;
  /// Completion engine: queue one send of `first` then `second` (a request's head and its
  /// body: one submission, so they leave in the same segments a single write would give, and
  /// a server never sees the head alone); either may be empty. The bytes must stay valid
  /// until its `sent` event, whose count is of both. The send completes whole (or fails): no
  /// short count to resume. One send in flight per connection. `prompt`: more bytes wait
  /// behind this send on the socket (a pipelined request), so its `sent` event should end the
  /// next wait() at once; otherwise the engine may let the event ride along with the next one
  /// (the response), saving a wake-up per request.
  virtual void send(int fd, uint64_t token, std::string_view first, std::string_view second,
                    bool prompt) = 0;
  /// Completion engine: a request was queued behind a send still in flight (pipelining): the
  /// next wait() should end at the first completion, as for a prompt send.
  virtual void hurry() {}
  /// Stops watching `fd` and cancels what is pending on it; call before close(fd).
  virtual void remove(int fd, uint64_t token) = 0;

  /// Submits what was queued, waits up to `timeout_ns` (0: don't block; < 0: forever) and
  /// writes at most `capacity` events. Returns how many, 0 on timeout or EINTR, or -errno.
  virtual int wait(IoEvent* out, int capacity, int64_t timeout_ns) = 0;

  /// Whether wait_for_time() sleeps through the sockets' traffic (else it is wait()).
  virtual bool sleeps_through_traffic() const { return false; }
  /// As wait(), but only the timeout (> 0), the wake-up fd or a send that must be heard at
  /// once (prompt, hurry) end the sleep: bytes that arrive meanwhile wait in their sockets
  /// and are reported when it ends, each with its kernel receive stamp (issue 27: an
  /// open-loop worker wakes for its slots, not for each response). The caller uses it only
  /// while nothing waits on a socket's news (a free connection for the next slot, no connect
  /// or handshake under way).
  virtual int wait_for_time(IoEvent* out, int capacity, int64_t timeout_ns) {
    return wait(out, capacity, timeout_ns);
  }

  /// The unit wait()'s timeout is rounded up to: 1 ns (io_uring, epoll_pwait2, ppoll), 1 ms
  /// (poll on macOS and the portable build, WSAPoll on Windows). Read once per run, not per wait.
  virtual int64_t timeout_granularity_ns() const = 0;
};

/// io_uring when it works here (probed once per process: ring, provided-buffer ring,
/// multishot receive), else epoll with `fallback` filled in. Never fails.
EngineKind resolve_engine(EngineKind wanted, EngineFallback* fallback);

/// The most events one wait() hands over, for a worker with many connections.
inline constexpr int kMaxIoEventBatch = 256;
/// The event batch for a worker with `connections` sockets: room for about four events a
/// connection per wait (a send's completion, a receive or two, a close) plus the wake-up, as
/// a power of two, 16..kMaxIoEventBatch. Events past the batch wait for the next wait(), none
/// is lost. -c 50 a worker and up keep the full batch; a one-connection worker (-t 1024
/// -c 1024) holds 16 (its arrays are written at setup, so their size is RSS per thread).
int io_event_batch_for(int64_t connections);

/// The engine for one worker: `kind` as resolved (never automatic), with room for
/// `connections` sockets; `fd_limit` sizes poll's tables; `wakeup_fd` is reported with
/// kWakeupIoToken. The error names what failed.
std::unique_ptr<IoEngine> create_io_engine(EngineKind kind, int64_t connections, int64_t fd_limit,
                                           int wakeup_fd, std::string* error);

}  // namespace hammer
