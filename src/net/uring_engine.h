// SPDX-License-Identifier: MIT
#pragma once
// UringEngine: the completion engine, on io_uring through liburing.
//  - One io_uring_enter per wait(): every operation queued since the last wait (sends,
//    receive re-arms, cancels) is submitted by the same call that waits for completions, with
//    the wait's timeout passed inside the ring (IORING_ENTER_EXT_ARG), so slot wake-ups and
//    deadlines cost no extra system call.
//  - Each connected socket has one multishot receive (recvmsg, for the kernel's receive stamp
//    in each buffer's control bytes: net/receive_stamps.h) into a ring of provided buffers
//    (4 KiB each, a few per connection, at most 256 per worker): no per-connection buffer, no
//    read system call per response. A buffer goes back to the ring at the start of the next wait(),
//    once the worker has parsed what it held. A multishot receive that ends because the ring
//    ran dry (ENOBUFS) is re-armed; one that ends with the stream is reported as such.
//  - Sends go straight from the request bytes the run serialized once, with MSG_WAITALL (the
//    kernel finishes a short send itself). A request with a body is one sendmsg of two parts
//    (head, body): the segments a server sees are those of epoll's one write, never a head
//    alone that it may answer before the body is there. A send's completion (posted during the very
//    io_uring_enter that submits it, on loopback) does not end the wait by itself: wait()
//    asks the kernel for one completion more per such send, so a request costs one wake-up
//    (its response) instead of an extra io_uring_enter for its `sent` event. Sends with more
//    bytes queued behind them on the socket (a body, a pipelined request), and sends over
//    kQuietSendMaxBytes (which may not complete while a server answers early without
//    reading them), end it at once.
//  - A pending connect is a one-shot poll for POLLOUT.
//  - Closing cancels the socket's operations by their user data and submits at once, before
//    close() frees the fd number for reuse (an operation still queued would otherwise resolve
//    that number to the next socket); completions that still arrive carry an old generation
//    and are dropped, their buffers recycled.
//  - Sleeping through traffic (wait_for_time, issue 27): the ring is DEFER_TASKRUN, so a
//    completion is only work queued for the worker until it enters the ring, and the kernel
//    wakes a waiter only once as many completions are queued as it asked for (its lazy
//    wake-up). Asking for the whole completion queue, the worker sleeps to its timeout (the
//    next slot) while responses arrive; the wake-up fd's poll is linked to a 1 ns timeout,
//    and a fired timeout ends any wait, so Ctrl-C still wakes it at once. DEFER_TASKRUN wants
//    one thread to submit (SINGLE_ISSUER): the ring is created disabled at setup, on the
//    main thread, and enabled by the first thread that uses it, the worker's.
// Requires Linux 6.0 (multishot receive); resolve_engine() probes for it and falls back to
// epoll where it is missing, disabled (kernel.io_uring_disabled) or filtered (seccomp).
#include <cstdint>
#include <memory>

#include "core/zeroed_array.h"
#include "net/io_engine.h"

#if defined(HAMMER_HAVE_URING)
#include <liburing.h>

namespace hammer {

class UringEngine final : public IoEngine {
 public:
  static constexpr uint32_t kBufferBytes = 4096;
  /// Receive buffers: two per connection, as a power of two, kMinBuffers..kMaxBuffers a
  /// worker. Every buffer in the ring is written in turn, so each is a page of RSS: the floor
  /// is what a one-connection worker (-t 1024 -c 1024) keeps resident, 16 KiB.
  static constexpr uint32_t kMinBuffers = 4;
  static constexpr uint32_t kMaxBuffers = 256;
  /// Sends up to this size may be quiet (see send()): far below any socket's send buffer.
  static constexpr size_t kQuietSendMaxBytes = 16 * 1024;

  /// Null with *error_number set when the kernel refuses (ring, buffer ring).
  static std::unique_ptr<UringEngine> create(int64_t connections, int wakeup_fd,
                                             int* error_number);
  /// 0 when io_uring with provided-buffer rings and multishot receive works here, else the
  /// errno that says why not (EPERM: disabled or filtered; ENOSYS, EINVAL: too old).
  static int probe();

  UringEngine(const UringEngine&) = delete;
  UringEngine& operator=(const UringEngine&) = delete;
  ~UringEngine() override;

  EngineKind kind() const override { return EngineKind::io_uring; }
  bool completes_io() const override { return true; }
  bool add(int fd, uint64_t token, bool connecting) override;
  void start_receiving(int fd, uint64_t token) override { arm_receive(fd, token); }
  void want_write(int, uint64_t, bool) override {}
  void send(int fd, uint64_t token, std::string_view first, std::string_view second,
            bool prompt) override;
  void hurry() override { prompt_ = true; }
  void remove(int fd, uint64_t token) override;
  int wait(IoEvent* out, int capacity, int64_t timeout_ns) override;
  bool sleeps_through_traffic() const override { return defers_completions_; }
  int wait_for_time(IoEvent* out, int capacity, int64_t timeout_ns) override;
  int64_t timeout_granularity_ns() const override { return 1; }  // __kernel_timespec
  /// The receive buffers in the ring (kMinBuffers..kMaxBuffers).
  uint32_t buffer_count() const { return buffer_count_; }

 private:
  enum Op : uint64_t { kReceive = 1, kSend = 2, kConnect = 3, kWakeup = 4, kIgnore = 5 };
  static uint64_t user_data(Op op, uint64_t token) {
    return (static_cast<uint64_t>(op) << 56) | (token & ((uint64_t{1} << 56) - 1));
  }

  UringEngine() = default;
  io_uring_sqe* next_sqe();
  void arm_receive(int fd, uint64_t token);
  void arm_wakeup();
  bool is_current(uint64_t token) const;
  void recycle_buffers();
  void enable_on_this_thread();
  int submit_and_collect(IoEvent* out, int capacity, int64_t timeout_ns, bool through_traffic);
  /// Reports a received buffer; its payload's length (0: the stream ended), -1 if malformed.
  int report_received(IoEvent* out, int* count, uint64_t token, int32_t res, uint16_t id);

  io_uring ring_{};
  bool ring_open_ = false;
  bool defers_completions_ = false;  // DEFER_TASKRUN: wait_for_time sleeps through traffic
  bool enabled_ = false;             // created disabled; the first thread to use it enables it
  // The multishot recvmsg's template: no address, room for the receive stamp.
  msghdr receive_message_{};
  io_uring_buf_ring* buffer_ring_ = nullptr;
  size_t buffer_ring_bytes_ = 0;
  bool buffer_ring_registered_ = false;
  uint32_t buffer_count_ = 0;
  ZeroedArray<char> buffers_;
  ZeroedArray<uint16_t> recycle_;  // buffer ids handed out by the last wait()
  uint32_t recycle_count_ = 0;
  uint32_t connections_ = 0;
  // By connection index: the two-part send in flight (head and body), which the kernel reads
  // until the send completes; one send in flight per connection keeps each slot unshared.
  ZeroedArray<msghdr> send_message_;
  ZeroedArray<iovec> send_parts_;  // two per connection
  ZeroedArray<int32_t> watched_fd_;        // by connection index: fd + 1 while watched, else 0
  ZeroedArray<uint32_t> watched_generation_;
  int wakeup_fd_ = -1;
  // Sends queued since the last wait() whose completions need not end it by themselves
  // (quiet_sends_), and whether one that must was queued (prompt_).
  uint32_t quiet_sends_ = 0;
  bool prompt_ = false;
};

}  // namespace hammer
#endif
