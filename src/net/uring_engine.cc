// SPDX-License-Identifier: MIT
#include "net/uring_engine.h"

#if defined(HAMMER_HAVE_URING)
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "net/receive_stamps.h"

namespace hammer {
namespace {

constexpr uint16_t kBufferGroup = 0;

uint32_t power_of_two_at_least(int64_t value) {
  uint32_t power = 1;
  while (power < value && power < (1u << 30)) power <<= 1;
  return power;
}

}  // namespace

std::unique_ptr<UringEngine> UringEngine::create(int64_t connections, int wakeup_fd,
                                                 int* error_number) {
  std::unique_ptr<UringEngine> engine(new UringEngine());
  engine->connections_ = static_cast<uint32_t>(connections);
  engine->wakeup_fd_ = wakeup_fd;
  // Per pass at most a send or a re-arm per connection, plus cancels: the queue grows with
  // the connections; next_sqe() submits early if it ever fills.
  const uint32_t entries = std::clamp<uint32_t>(power_of_two_at_least(connections * 2 + 8), 32,
                                                4096);
  // COOP_TASKRUN: a completion that arrives while the worker runs (a response from the server's
  // CPU) is not pushed at it with an inter-processor interrupt and a signal-like detour on its
  // way back to user space; the kernel only raises IORING_SQ_TASKRUN, and the worker's next
  // wait() enters to collect it (liburing's submit enters when the flag is up). A sleeping
  // worker is still woken. The IPIs cost ~20% of the worker's CPU at 50k req/s on a VM (perf:
  // get_signal, reschedule IPIs). Linux 5.19; older kernels get the plain ring.
  // DEFER_TASKRUN (6.1) runs completions only when the worker enters the ring, and wakes a
  // waiter lazily (see the header): what lets a worker sleep to its next slot while responses
  // arrive. It needs SINGLE_ISSUER, hence R_DISABLED: the worker's thread enables the ring.
  constexpr unsigned kBaseFlags =
      IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
  io_uring_params params{};
  params.flags = kBaseFlags | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
                 IORING_SETUP_R_DISABLED;
  int result = io_uring_queue_init_params(entries, &engine->ring_, &params);
  engine->defers_completions_ = result >= 0;
  if (result == -EINVAL) {  // before 6.1: completions run at once, every one wakes the worker
    params = io_uring_params{};
    params.flags = kBaseFlags;
    result = io_uring_queue_init_params(entries, &engine->ring_, &params);
  }
  if (result == -EINVAL) {  // before 5.19: no COOP_TASKRUN either
    params = io_uring_params{};
    params.flags = IORING_SETUP_SUBMIT_ALL;
    result = io_uring_queue_init_params(entries, &engine->ring_, &params);
  }
  engine->enabled_ = !engine->defers_completions_;
  if (result < 0) {
    *error_number = -result;
    return nullptr;
  }
  engine->ring_open_ = true;
  if ((params.features & IORING_FEAT_EXT_ARG) == 0) {  // 5.11: the timeout must be in the enter
    *error_number = ENOSYS;
    return nullptr;
  }

  // Two receive buffers per connection, at least 4 (16 KiB) and at most 256 (1 MiB) a worker.
  // Every buffer in the ring is written in turn, so each counts in RSS: with one connection a
  // worker (-t 1024 -c 1024), a floor of 16 cost 64 KiB a thread, 64 MB in all, a floor of 8
  // 32 MB. A response larger than the ring only re-arms the receive once the batch's buffers
  // are back (one more SQE, no extra system call: it goes with the next wait's submit).
  engine->buffer_count_ = std::clamp<uint32_t>(power_of_two_at_least(connections * 2),
                                               kMinBuffers, kMaxBuffers);
  engine->buffers_ = ZeroedArray<char>(size_t{engine->buffer_count_} * kBufferBytes);
  engine->recycle_ = ZeroedArray<uint16_t>(engine->buffer_count_);
  engine->buffer_ring_bytes_ = engine->buffer_count_ * sizeof(io_uring_buf);
  void* ring_memory = mmap(nullptr, engine->buffer_ring_bytes_, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ring_memory == MAP_FAILED) {
    *error_number = errno;
    return nullptr;
  }
  engine->buffer_ring_ = static_cast<io_uring_buf_ring*>(ring_memory);
  io_uring_buf_ring_init(engine->buffer_ring_);
  io_uring_buf_reg registration{};
  registration.ring_addr = reinterpret_cast<uint64_t>(ring_memory);
  registration.ring_entries = engine->buffer_count_;
  registration.bgid = kBufferGroup;
  result = io_uring_register_buf_ring(&engine->ring_, &registration, 0);
  if (result < 0) {
    *error_number = -result;
    return nullptr;
  }
  engine->buffer_ring_registered_ = true;
  const int mask = io_uring_buf_ring_mask(engine->buffer_count_);
  for (uint32_t id = 0; id < engine->buffer_count_; ++id) {
    io_uring_buf_ring_add(engine->buffer_ring_, engine->buffers_.data() + size_t{id} * kBufferBytes,
                          kBufferBytes, static_cast<unsigned short>(id), mask,
                          static_cast<int>(id));
  }
  io_uring_buf_ring_advance(engine->buffer_ring_, static_cast<int>(engine->buffer_count_));

  engine->send_message_ = ZeroedArray<msghdr>(engine->connections_);
  engine->send_parts_ = ZeroedArray<iovec>(size_t{engine->connections_} * 2);
  engine->watched_fd_ = ZeroedArray<int32_t>(engine->connections_);
  engine->watched_generation_ = ZeroedArray<uint32_t>(engine->connections_);
  engine->receive_message_.msg_controllen = kReceiveStampControlBytes;
  if (wakeup_fd >= 0) engine->arm_wakeup();
  return engine;
}

UringEngine::~UringEngine() {
  if (buffer_ring_registered_) io_uring_unregister_buf_ring(&ring_, kBufferGroup);
  if (buffer_ring_ != nullptr) munmap(buffer_ring_, buffer_ring_bytes_);
  if (ring_open_) io_uring_queue_exit(&ring_);
}

int UringEngine::probe() {
  int error_number = 0;
  auto engine = create(1, -1, &error_number);
  if (!engine) return error_number != 0 ? error_number : EINVAL;
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) != 0) return errno;
  const uint64_t token = make_io_token(0, 1);
  engine->add(pair[0], token, false);
  engine->start_receiving(pair[0], token);
  int verdict = EINVAL;
  if (::write(pair[1], "x", 1) == 1) {
    IoEvent event{};
    // A second is plenty for a byte between two local sockets; a kernel that refuses
    // multishot receive answers at once with an error instead.
    const int count = engine->wait(&event, 1, 1'000'000'000);
    if (count == 1 && event.kind == IoEventKind::received && event.result == 1 &&
        event.data != nullptr && event.data[0] == 'x') {
      verdict = 0;
    } else if (count == 1 && event.result < 0) {
      verdict = -event.result;
    } else if (count < 0) {
      verdict = -count;
    }
  }
  engine->remove(pair[0], token);
  engine->wait(nullptr, 0, 0);  // submit the cancel before the socket goes
  ::close(pair[0]);
  ::close(pair[1]);
  return verdict;
}

void UringEngine::enable_on_this_thread() {
  if (enabled_) return;
  enabled_ = true;
  // This thread becomes the ring's one submitter. Failing (never seen), the ring stays
  // disabled and every submit answers EBADFD: the worker reports it as any engine error.
  // Debian 12's liburing 2.3 does not export io_uring_enable_rings(): the bare system call.
  syscall(__NR_io_uring_register, ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
}

io_uring_sqe* UringEngine::next_sqe() {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) {
    enable_on_this_thread();
    io_uring_submit(&ring_);  // the queue is full: hand it to the kernel now
    sqe = io_uring_get_sqe(&ring_);
  }
  return sqe;
}

bool UringEngine::is_current(uint64_t token) const {
  const uint32_t index = io_token_index(token);
  return index < connections_ && watched_fd_[index] != 0 &&
         watched_generation_[index] == io_token_generation(token);
}

bool UringEngine::add(int fd, uint64_t token, bool connecting) {
  const uint32_t index = io_token_index(token);
  if (fd < 0 || index >= connections_) {
    errno = EINVAL;
    return false;
  }
  watched_fd_[index] = fd + 1;
  watched_generation_[index] = io_token_generation(token);
  if (connecting) {
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_poll_add(sqe, fd, POLLOUT);
    io_uring_sqe_set_data64(sqe, user_data(kConnect, token));
  }
  return true;
}

void UringEngine::arm_receive(int fd, uint64_t token) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_recvmsg_multishot(sqe, fd, &receive_message_, 0);
  sqe->flags |= IOSQE_BUFFER_SELECT;
  sqe->buf_group = kBufferGroup;
  io_uring_sqe_set_data64(sqe, user_data(kReceive, token));
}

void UringEngine::arm_wakeup() {
  if (!defers_completions_) {
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_poll_multishot(sqe, wakeup_fd_, POLLIN);
    io_uring_sqe_set_data64(sqe, user_data(kWakeup, 0));
    return;
  }
  // A sleep through traffic waits for the whole completion queue, so the poll's completion
  // alone would not end it. A timeout that fires does end any wait (the kernel counts fired
  // timeouts apart from completions): the poll is one-shot and linked to a timeout of 1 ns,
  // issued when the wake-up fd turns readable. EPOLLEXCLUSIVE keeps the kernel from
  // deferring the poll's own wake-up until the queue is full (its lazy wake-up).
  static constexpr __kernel_timespec kAtOnce{0, 1};
  if (io_uring_sq_space_left(&ring_) < 2) {  // a link must not be split by a submit
    enable_on_this_thread();
    io_uring_submit(&ring_);
  }
  io_uring_sqe* poll = next_sqe();
  io_uring_prep_poll_add(poll, wakeup_fd_, POLLIN | static_cast<unsigned>(EPOLLEXCLUSIVE));
  io_uring_sqe_set_data64(poll, user_data(kWakeup, 0));
  poll->flags |= IOSQE_IO_LINK;
  io_uring_sqe* timeout = next_sqe();
  io_uring_prep_timeout(timeout, const_cast<__kernel_timespec*>(&kAtOnce), 0, 0);
  io_uring_sqe_set_data64(timeout, user_data(kIgnore, 0));
}

void UringEngine::send(int fd, uint64_t token, std::string_view first, std::string_view second,
                       bool prompt) {
  // Only a small send can be counted on to complete inline, in the enter that submits it. A
  // large one (a body) may stay pending while the server answers early without reading it
  // (a 413, a 401): counted quiet, that answer alone would not end the wait.
  if (prompt || first.size() + second.size() > kQuietSendMaxBytes) {
    prompt_ = true;
  } else {
    ++quiet_sends_;
  }
  io_uring_sqe* sqe = next_sqe();
  const uint32_t index = io_token_index(token);
  if (first.empty() || second.empty() || index >= connections_) {
    const std::string_view only = first.empty() ? second : first;
    io_uring_prep_send(sqe, fd, only.data(), only.size(), MSG_NOSIGNAL | MSG_WAITALL);
  } else {
    // The message and its parts live in this connection's slot until the send completes.
    iovec* parts = send_parts_.data() + size_t{index} * 2;
    parts[0] = iovec{const_cast<char*>(first.data()), first.size()};
    parts[1] = iovec{const_cast<char*>(second.data()), second.size()};
    msghdr& message = send_message_[index];
    message = msghdr{};
    message.msg_iov = parts;
    message.msg_iovlen = 2;
    io_uring_prep_sendmsg(sqe, fd, &message, MSG_NOSIGNAL | MSG_WAITALL);
  }
  io_uring_sqe_set_data64(sqe, user_data(kSend, token));
}

void UringEngine::remove(int, uint64_t token) {
  const uint32_t index = io_token_index(token);
  if (index < connections_) watched_fd_[index] = 0;
  for (const Op op : {kReceive, kSend, kConnect}) {
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_cancel64(sqe, user_data(op, token), 0);
    io_uring_sqe_set_data64(sqe, user_data(kIgnore, 0));
  }
  // Submit now, while `fd` still names this socket: an operation queued for it earlier in this
  // pass (the rest of a partial send) resolves its fd at submission, and once the caller has
  // closed it, a new socket of the same pass may already own that number.
  enable_on_this_thread();
  io_uring_submit(&ring_);
}

void UringEngine::recycle_buffers() {
  if (recycle_count_ == 0) return;
  const int mask = io_uring_buf_ring_mask(buffer_count_);
  for (uint32_t i = 0; i < recycle_count_; ++i) {
    const uint16_t id = recycle_[i];
    io_uring_buf_ring_add(buffer_ring_, buffers_.data() + size_t{id} * kBufferBytes, kBufferBytes,
                          id, mask, static_cast<int>(i));
  }
  io_uring_buf_ring_advance(buffer_ring_, static_cast<int>(recycle_count_));
  recycle_count_ = 0;
}

int UringEngine::wait(IoEvent* out, int capacity, int64_t timeout_ns) {
  return submit_and_collect(out, capacity, timeout_ns, false);
}

int UringEngine::wait_for_time(IoEvent* out, int capacity, int64_t timeout_ns) {
  return submit_and_collect(out, capacity, timeout_ns, defers_completions_ && timeout_ns > 0);
}

int UringEngine::report_received(IoEvent* out, int* count, uint64_t token, int32_t res,
                                 uint16_t id) {
  char* buffer = buffers_.data() + size_t{id} * kBufferBytes;
  io_uring_recvmsg_out* header = io_uring_recvmsg_validate(buffer, res, &receive_message_);
  if (header == nullptr) return -1;  // shorter than its own header: never seen
  const unsigned length = io_uring_recvmsg_payload_length(header, res, &receive_message_);
  const char* control = reinterpret_cast<const char*>(header + 1) + receive_message_.msg_namelen;
  // No payload: the stream ended (the multishot receive ends with it).
  out[(*count)++] = IoEvent{token,
                            IoEventKind::received,
                            false,
                            false,
                            false,
                            static_cast<int32_t>(length),
                            length > 0 ? static_cast<const char*>(io_uring_recvmsg_payload(
                                             header, &receive_message_))
                                       : nullptr,
                            receive_stamp_in(control, header->controllen)};
  return static_cast<int>(length);
}

int UringEngine::submit_and_collect(IoEvent* out, int capacity, int64_t timeout_ns,
                                    bool through_traffic) {
  enable_on_this_thread();
  recycle_buffers();  // the worker is done with the previous batch's bytes
  int result = 0;
  if (timeout_ns == 0 || io_uring_cq_ready(&ring_) > 0) {
    result = io_uring_submit(&ring_);
  } else {
    io_uring_cqe* cqe = nullptr;
    __kernel_timespec timeout{};
    timeout.tv_sec = timeout_ns / 1'000'000'000;
    timeout.tv_nsec = timeout_ns % 1'000'000'000;
    // One completion more than the quiet sends' own: their `sent` events come with the next
    // real event (or the timeout), not one io_uring_enter each. Any completion counts, so an
    // early one (a cancel, an error) only ends the wait sooner; the timeout bounds it.
    // Through traffic: the whole queue, so only the timeout (or the wake-up fd's poll through
    // its linked timeout, arm_wakeup) ends it, unless a send must be heard at once.
    const unsigned all = ring_.cq.ring_entries;
    const unsigned wanted = prompt_           ? 1
                            : through_traffic ? all
                                              : std::min<unsigned>(quiet_sends_ + 1, all);
    result = io_uring_submit_and_wait_timeout(&ring_, &cqe, wanted,
                                              timeout_ns < 0 ? nullptr : &timeout, nullptr);
  }
  quiet_sends_ = 0;
  prompt_ = false;
  if (result < 0 && result != -ETIME && result != -EINTR && result != -EAGAIN &&
      result != -EBUSY) {
    return result;
  }

  int count = 0;
  unsigned seen = 0;
  unsigned head = 0;
  io_uring_cqe* cqe = nullptr;
  io_uring_for_each_cqe(&ring_, head, cqe) {
    if (count >= capacity) break;  // the rest stay queued for the next wait()
    ++seen;
    const uint64_t data = cqe->user_data;
    const auto op = static_cast<Op>(data >> 56);
    const uint64_t token = data & ((uint64_t{1} << 56) - 1);
    const int32_t res = cqe->res;
    const uint32_t flags = cqe->flags;
    switch (op) {
      case kReceive: {
        const bool current = is_current(token);
        int payload = -1;
        if ((flags & IORING_CQE_F_BUFFER) != 0) {
          const auto id = static_cast<uint16_t>(flags >> IORING_CQE_BUFFER_SHIFT);
          recycle_[recycle_count_++] = id;
          if (current && res > 0) payload = report_received(out, &count, token, res, id);
        } else if (current && res != -ENOBUFS && res != -ECANCELED) {
          out[count++] =
              IoEvent{token, IoEventKind::received, false, false, false, res, nullptr, 0};
        }
        // The multishot receive ended without the stream ending (the buffer ring ran dry):
        // arm it again; it runs once this batch's buffers are back. (An end of stream is a
        // buffer with no payload, reported above as 0.)
        if ((flags & IORING_CQE_F_MORE) == 0 && current && (payload > 0 || res == -ENOBUFS)) {
          arm_receive(watched_fd_[io_token_index(token)] - 1, token);
        }
        break;
      }
      case kSend:
        if (is_current(token)) {
          out[count++] = IoEvent{token, IoEventKind::sent, false, false, false, res, nullptr, 0};
        }
        break;
      case kConnect:
        if (is_current(token)) {
          out[count++] =
              IoEvent{token, IoEventKind::connected, false, false, false, res, nullptr, 0};
        }
        break;
      case kWakeup:
        out[count++] = IoEvent{kWakeupIoToken, IoEventKind::ready, true, false, false, res,
                               nullptr, 0};
        if ((flags & IORING_CQE_F_MORE) == 0) arm_wakeup();
        break;
      case kIgnore:
        break;
    }
  }
  io_uring_cq_advance(&ring_, seen);
  return count;
}

}  // namespace hammer
#endif
