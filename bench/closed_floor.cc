// SPDX-License-Identifier: MIT
// closed_floor: a bare closed-loop HTTP/1.1 client, to tell what the kernel's TCP costs per
// request on this host from what a generator adds (hammer's and wrk's alike). bench/engine.sh
// compiles and runs it beside wrk and hammer and prints its ratio to wrk: a generator near the
// bare client's figure has no CPU of its own left to cut.
//
//   c++ -O2 -o closed_floor bench/closed_floor.cc -luring && ./closed_floor PORT [CONNS [SECONDS]]
//
// It does little beyond what the kernel must: C connections to 127.0.0.1:PORT, one GET / each
// at a time, sent from bytes built once, answered into a provided-buffer ring by one multishot
// receive per connection, with every send and receive of a pass submitted by the io_uring_enter
// that waits (the cheapest way Linux offers to move these bytes). It parses nothing: the
// response length is learned from one request before the clock starts, and a response is
// complete when that many bytes arrived. Prints requests and the process's CPU (user + system,
// getrusage) per request. Linux only; not part of the build.
#include <arpa/inet.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bare_client.h"

namespace {

constexpr unsigned kBufferBytes = 4096;
constexpr unsigned kBuffers = 256;

double now_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: closed_floor PORT [CONNECTIONS [SECONDS]]\n");
    return 1;
  }
  const int port = std::atoi(argv[1]);
  const int connections = argc > 2 ? std::atoi(argv[2]) : 50;
  const double seconds = argc > 3 ? std::atof(argv[3]) : 5;
  if (port <= 0 || port > 65535 || connections <= 0 || connections > 1000 || seconds <= 0 ||
      seconds > 600) {
    std::fprintf(stderr, "closed_floor: PORT 1..65535, CONNECTIONS 1..1000, SECONDS 0..600\n");
    return 1;
  }
  std::vector<int> fds;
  for (int i = 0; i < connections; ++i) {
    fds.push_back(bare_client::connect_to("closed_floor", port));
  }
  const size_t length = bare_client::response_length("closed_floor", fds[0]);

  io_uring ring{};
  io_uring_params params{};
  params.flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
  if (io_uring_queue_init_params(1024, &ring, &params) != 0) {
    std::fprintf(stderr, "closed_floor: io_uring_queue_init failed\n");
    return 2;
  }
  // The provided-buffer ring, registered by hand (liburing 2.3 has no io_uring_setup_buf_ring).
  void* ring_memory = mmap(nullptr, kBuffers * sizeof(io_uring_buf), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ring_memory == MAP_FAILED) {
    std::perror("closed_floor: mmap");
    return 2;
  }
  auto* buffers = static_cast<io_uring_buf_ring*>(ring_memory);
  io_uring_buf_ring_init(buffers);
  io_uring_buf_reg registration{};
  registration.ring_addr = reinterpret_cast<uint64_t>(ring_memory);
  registration.ring_entries = kBuffers;
  registration.bgid = 0;
  if (const int result = io_uring_register_buf_ring(&ring, &registration, 0); result < 0) {
    std::fprintf(stderr, "closed_floor: io_uring_register_buf_ring: %s\n", std::strerror(-result));
    return 2;
  }
  std::vector<char> memory(size_t{kBuffers} * kBufferBytes);
  const int mask = io_uring_buf_ring_mask(kBuffers);
  for (unsigned id = 0; id < kBuffers; ++id) {
    io_uring_buf_ring_add(buffers, memory.data() + size_t{id} * kBufferBytes, kBufferBytes,
                          static_cast<unsigned short>(id), mask, static_cast<int>(id));
  }
  io_uring_buf_ring_advance(buffers, kBuffers);

  auto arm_receive = [&](int index) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    io_uring_prep_recv_multishot(sqe, fds[static_cast<size_t>(index)], nullptr, 0, 0);
    sqe->flags |= IOSQE_BUFFER_SELECT;
    sqe->buf_group = 0;
    io_uring_sqe_set_data64(sqe, static_cast<uint64_t>(index) << 1);
  };
  auto send_request = [&](int index) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    io_uring_prep_send(sqe, fds[static_cast<size_t>(index)], bare_client::kRequest,
                       bare_client::kRequestBytes, MSG_NOSIGNAL);
    sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
    io_uring_sqe_set_data64(sqe, (static_cast<uint64_t>(index) << 1) | 1);
  };

  std::vector<size_t> received(static_cast<size_t>(connections), 0);
  long long requests = 0;
  const double cpu_before = bare_client::cpu_s();
  const double start = now_s();
  for (int i = 0; i < connections; ++i) {
    arm_receive(i);
    send_request(i);
  }
  while (now_s() - start < seconds) {
    io_uring_submit_and_wait(&ring, 1);
    unsigned head = 0;
    unsigned seen = 0;
    unsigned recycled = 0;
    io_uring_cqe* cqe = nullptr;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      const auto index = static_cast<int>(cqe->user_data >> 1);
      if ((cqe->user_data & 1) != 0) {  // only a failed send posts
        std::fprintf(stderr, "closed_floor: send: %s\n", std::strerror(-cqe->res));
        return 2;
      }
      if ((cqe->flags & IORING_CQE_F_BUFFER) != 0) {
        const auto id = static_cast<unsigned short>(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
        io_uring_buf_ring_add(buffers, memory.data() + size_t{id} * kBufferBytes, kBufferBytes,
                              id, mask, static_cast<int>(recycled++));
      }
      if (cqe->res <= 0 && cqe->res != -ENOBUFS) {
        std::fprintf(stderr, "closed_floor: the server closed or failed a connection\n");
        return 2;
      }
      size_t& got = received[static_cast<size_t>(index)];
      if (cqe->res > 0) got += static_cast<size_t>(cqe->res);
      while (got >= length) {
        got -= length;
        ++requests;
        send_request(index);
      }
      if ((cqe->flags & IORING_CQE_F_MORE) == 0) arm_receive(index);
    }
    io_uring_cq_advance(&ring, seen);
    io_uring_buf_ring_advance(buffers, static_cast<int>(recycled));
  }
  const double cpu = bare_client::cpu_s() - cpu_before;
  std::printf("%lld requests, %.2f s CPU, %.2f us per request\n", requests, cpu,
              requests > 0 ? cpu * 1e6 / static_cast<double>(requests) : 0.0);
  return 0;
}
