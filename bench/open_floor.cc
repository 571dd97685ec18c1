// SPDX-License-Identifier: MIT
// open_floor: a bare open-loop HTTP/1.1 client, the least CPU per request an open-loop
// generator can spend on this host at a given rate while every slot gets a wake-up of its own
// (what a lag p99 under 100 us takes while slots are farther apart than that; closer slots can
// share a wake-up, as hammer's do above about 12k req/s a worker, and then cost less).
// bench/engine.sh compiles and runs it beside hammer at each open-loop rate.
//
//   c++ -O2 -o open_floor bench/open_floor.cc && ./open_floor PORT RATE SECONDS [CONNECTIONS]
//
// It does less than any honest generator can: one sleep and wake-up per slot (an absolute
// clock_nanosleep, timer slack 1 ns), one send, and no wake-up at all for responses. Those are
// read, without waiting, at the next slot and only counted, which is why it can time nothing:
// a generator that reports when each response arrived also wakes for it, or reads the kernel's
// receive timestamp. No parse, no histogram. The response length is learned from one request
// before the clock starts. Prints the requests sent and the process's CPU (user + system,
// getrusage) per request. Linux only; not part of the build.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bare_client.h"

namespace {

long long now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: open_floor PORT RATE SECONDS [CONNECTIONS]\n");
    return 1;
  }
  const int port = std::atoi(argv[1]);
  const double rate = std::atof(argv[2]);
  const double seconds = std::atof(argv[3]);
  const int connections = argc > 4 ? std::atoi(argv[4]) : 50;
  if (port <= 0 || port > 65535 || rate <= 0 || rate > 1e6 || seconds <= 0 || seconds > 600 ||
      connections <= 0 || connections > 1000) {
    std::fprintf(stderr,
                 "open_floor: PORT 1..65535, RATE 0..1e6, SECONDS 0..600, CONNECTIONS 1..1000\n");
    return 1;
  }
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  std::vector<int> fds;
  for (int i = 0; i < connections; ++i) {
    fds.push_back(bare_client::connect_to("open_floor", port));
  }
  const size_t length = bare_client::response_length("open_floor", fds[0]);

  std::vector<size_t> received(static_cast<size_t>(connections), 0);
  std::vector<char> busy(static_cast<size_t>(connections), 0);
  const auto interval_ns = static_cast<long long>(1e9 / rate);
  const auto slots = static_cast<long long>(rate * seconds);
  long long sent = 0;
  long long answered = 0;
  long long no_connection = 0;
  char buffer[4096];
  const double cpu_before = bare_client::cpu_s();
  const long long start = now_ns();
  for (long long slot = 0; slot < slots; ++slot) {
    const long long due = start + slot * interval_ns;
    const timespec wake{static_cast<time_t>(due / 1'000'000'000),
                        static_cast<long>(due % 1'000'000'000)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nullptr);
    for (size_t i = 0; i < fds.size(); ++i) {  // what arrived since the last slot
      if (busy[i] == 0) continue;
      const ssize_t got = recv(fds[i], buffer, sizeof buffer, MSG_DONTWAIT);
      if (got == 0) {
        std::fprintf(stderr, "open_floor: the server closed a connection\n");
        return 2;
      }
      if (got < 0) continue;
      received[i] += static_cast<size_t>(got);
      if (received[i] >= length) {
        received[i] -= length;
        busy[i] = 0;
        ++answered;
      }
    }
    size_t free_connection = 0;
    while (free_connection < fds.size() && busy[free_connection] != 0) ++free_connection;
    if (free_connection == fds.size()) {
      ++no_connection;
      continue;
    }
    if (send(fds[free_connection], bare_client::kRequest, bare_client::kRequestBytes,
             MSG_NOSIGNAL) < 0) {
      std::perror("open_floor: send");
      return 2;
    }
    busy[free_connection] = 1;
    ++sent;
  }
  const double cpu = bare_client::cpu_s() - cpu_before;
  std::printf("%lld requests sent (%lld answered by the last slot, %lld slots without a free "
              "connection), %.2f s CPU, %.2f us per request\n",
              sent, answered, no_connection, cpu,
              sent > 0 ? cpu * 1e6 / static_cast<double>(sent) : 0.0);
  return 0;
}
