// SPDX-License-Identifier: MIT
// wake_cost: what one timed sleep and wake-up costs on this host, the floor under an open-loop
// generator's CPU per request (each request needs a wake-up for its slot and one for its
// response, unless they fall together). bench/engine.sh compiles and runs it on the
// generator's CPU (shielded like the generator) and prints its line in the table's header.
//
//   c++ -O2 -o wake_cost bench/wake_cost.cc && ./wake_cost [SLEEPS [SLEEP_NS]]
//
// Sleeps SLEEPS times (default 5000) for SLEEP_NS (default 100000) in epoll_pwait2 with 1 ns
// timer slack, as hammer's workers do, and prints the CPU the thread was charged per sleep
// (sum_exec_runtime from /proc/self/schedstat, what /usr/bin/time adds up) and the oversleep
// percentiles. Linux only; not part of the build (bench/engine.sh compiles it on the spot).
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

long long now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
}

long long runtime_ns() {
  long long runtime = 0;
  if (FILE* file = std::fopen("/proc/self/schedstat", "r")) {
    if (std::fscanf(file, "%lld", &runtime) != 1) runtime = 0;
    std::fclose(file);
  }
  return runtime;
}

}  // namespace

int main(int argc, char** argv) {
  const long sleeps = argc > 1 ? std::atol(argv[1]) : 5000;
  const long long sleep_ns = argc > 2 ? std::atoll(argv[2]) : 100'000;
  if (sleeps <= 0 || sleeps > 1'000'000 || sleep_ns <= 0 || sleep_ns >= 1'000'000'000) {
    std::fprintf(stderr, "usage: wake_cost [SLEEPS 1..1000000 [SLEEP_NS 1..999999999]]\n");
    return 1;
  }
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  const int epoll = epoll_create1(EPOLL_CLOEXEC);
  if (epoll < 0) {
    std::perror("wake_cost: epoll_create1");
    return 1;
  }
  std::vector<long long> oversleep(static_cast<size_t>(sleeps));
  const long long runtime_before = runtime_ns();
  for (long i = 0; i < sleeps; ++i) {
    epoll_event event{};
    const timespec timeout{0, static_cast<long>(sleep_ns)};
    const long long asked = now_ns() + sleep_ns;
    epoll_pwait2(epoll, &event, 1, &timeout, nullptr);
    oversleep[static_cast<size_t>(i)] = now_ns() - asked;
  }
  const double cpu_us = static_cast<double>(runtime_ns() - runtime_before) / 1e3 / sleeps;
  std::sort(oversleep.begin(), oversleep.end());
  auto at = [&](double q) {
    return static_cast<double>(oversleep[static_cast<size_t>(q * (sleeps - 1))]) / 1e3;
  };
  std::printf("%.1f us CPU per %lld us sleep and wake-up; oversleep p50 %.1f us, p99 %.1f us\n",
              cpu_us, sleep_ns / 1000, at(0.5), at(0.99));
  close(epoll);
  return 0;
}
