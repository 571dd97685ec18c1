// SPDX-License-Identifier: MIT
// system.h for Windows.
#include "platform/system.h"

#if HAMMER_WINDOWS
#include <windows.h>
#include <io.h>
#include <timeapi.h>

#include <cstdio>

namespace hammer {
namespace {

void (*g_on_interrupt)() = nullptr;

// Windows calls this on a thread of its own, so it may do more than a signal handler; it does
// only what the POSIX one does. TRUE: handled. Other events (the console closing, log-off,
// shutdown) go to the default handler: Windows ends the process right after any handler
// returns for them, so there is no report to save.
BOOL WINAPI handle_console_event(DWORD event) {
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT) return FALSE;
  if (g_on_interrupt != nullptr) g_on_interrupt();
  return TRUE;
}

// Read once before main(), so that the clock's hot path is one QueryPerformanceCounter call
// and a division, with no lazy initialisation to check.
int64_t query_frequency() {
  LARGE_INTEGER frequency{};
  QueryPerformanceFrequency(&frequency);
  return frequency.QuadPart > 0 ? frequency.QuadPart : 1;
}
const int64_t g_counter_frequency = query_frequency();

int64_t filetime_ns(const FILETIME& time) {
  ULARGE_INTEGER value{};
  value.LowPart = time.dwLowDateTime;
  value.HighPart = time.dwHighDateTime;
  return static_cast<int64_t>(value.QuadPart) * 100;  // 100 ns units
}

}  // namespace

void install_interrupt_handler(void (*on_interrupt)()) {
  g_on_interrupt = on_interrupt;
  SetConsoleCtrlHandler(handle_console_event, TRUE);
}

void restore_interrupt_handler() {
  SetConsoleCtrlHandler(handle_console_event, FALSE);
  g_on_interrupt = nullptr;
}

void ignore_broken_pipe_signal() {}

bool stderr_is_terminal() {
  if (_isatty(_fileno(stderr)) == 0) return false;
  HANDLE console = GetStdHandle(STD_ERROR_HANDLE);
  DWORD mode = 0;
  if (console == INVALID_HANDLE_VALUE || !GetConsoleMode(console, &mode)) return false;
  return SetConsoleMode(console, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

int64_t process_cpu_ns() {
  FILETIME created{}, exited{}, kernel{}, user{};
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return -1;
  return filetime_ns(kernel) + filetime_ns(user);
}

int64_t thread_cpu_ns() {
  FILETIME created{}, exited{}, kernel{}, user{};
  if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return -1;
  return filetime_ns(kernel) + filetime_ns(user);
}

int64_t host_steal_ns() { return -1; }  // Windows does not say

int64_t online_cpu_count() {
  const DWORD count = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  return count > 0 ? count : 1;
}

int64_t usable_cpu_count() {
  DWORD_PTR process_mask = 0;
  DWORD_PTR system_mask = 0;
  if (!GetProcessAffinityMask(GetCurrentProcess(), &process_mask, &system_mask)) return 0;
  int64_t count = 0;
  for (; process_mask != 0; process_mask &= process_mask - 1) ++count;
  return count;
}

int64_t available_cpu_count() {
  const int64_t usable = usable_cpu_count();
  return usable > 0 ? usable : online_cpu_count();
}

FineTimerScope::FineTimerScope() {
  TIMECAPS caps{};
  if (timeGetDevCaps(&caps, sizeof caps) == MMSYSERR_NOERROR &&
      timeBeginPeriod(caps.wPeriodMin) == TIMERR_NOERROR) {
    period_ms_ = caps.wPeriodMin;
  }
}

FineTimerScope::~FineTimerScope() {
  if (period_ms_ != 0) timeEndPeriod(period_ms_);
}

int64_t windows_monotonic_now_ns() {
  LARGE_INTEGER counter{};
  QueryPerformanceCounter(&counter);
  const int64_t ticks = counter.QuadPart;
  // Whole seconds and the remainder apart, so ticks * 1e9 cannot overflow.
  return ticks / g_counter_frequency * 1'000'000'000 +
         ticks % g_counter_frequency * 1'000'000'000 / g_counter_frequency;
}

}  // namespace hammer
#endif
