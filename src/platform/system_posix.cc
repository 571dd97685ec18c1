// SPDX-License-Identifier: MIT
// system.h for macOS, the BSDs and Linux.
#include "platform/system.h"

#if HAMMER_POSIX
#include <sys/resource.h>
#include <unistd.h>
#if HAMMER_LINUX_APIS
#include <sched.h>
#endif

#include <csignal>
#include <cstdio>
#include <ctime>

namespace hammer {
namespace {

void (*g_on_interrupt)() = nullptr;
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

extern "C" void handle_interrupt(int) {
  if (g_on_interrupt != nullptr) g_on_interrupt();
}

}  // namespace

void install_interrupt_handler(void (*on_interrupt)()) {
  g_on_interrupt = on_interrupt;
  struct sigaction action {};
  action.sa_handler = handle_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

void restore_interrupt_handler() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  g_on_interrupt = nullptr;
}

void ignore_broken_pipe_signal() { ::signal(SIGPIPE, SIG_IGN); }

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

int64_t process_cpu_ns() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return -1;
  auto ns = [](const timeval& time) {
    return static_cast<int64_t>(time.tv_sec) * 1'000'000'000 +
           static_cast<int64_t>(time.tv_usec) * 1'000;
  };
  return ns(usage.ru_utime) + ns(usage.ru_stime);
}

int64_t thread_cpu_ns() {
  timespec now{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return -1;
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

int64_t host_steal_ns() {
#if HAMMER_LINUX_APIS
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in USER_HZ ticks.
  std::FILE* file = std::fopen("/proc/stat", "re");
  if (file == nullptr) return -1;
  unsigned long long fields[8] = {};
  const int got = std::fscanf(file, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &fields[0],
                              &fields[1], &fields[2], &fields[3], &fields[4], &fields[5],
                              &fields[6], &fields[7]);
  std::fclose(file);
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  if (got < 8 || ticks_per_second <= 0) return -1;  // a kernel older than 2.6.11: no steal
  return static_cast<int64_t>(fields[7]) * (1'000'000'000 / ticks_per_second);
#else
  return -1;
#endif
}

int64_t online_cpu_count() {
  const long count = ::sysconf(_SC_NPROCESSORS_ONLN);
  return count > 0 ? count : 1;
}

int64_t usable_cpu_count() {
#if HAMMER_LINUX_APIS
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
#else
  return online_cpu_count();  // macOS has no affinity masks: every online CPU is usable
#endif
}

int64_t available_cpu_count() {
  const int64_t usable = usable_cpu_count();
  return usable > 0 ? usable : online_cpu_count();
}

FineTimerScope::FineTimerScope() = default;
FineTimerScope::~FineTimerScope() = default;

}  // namespace hammer
#endif
