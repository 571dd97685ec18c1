# Which platform layer a build gets (src/platform/platform.h decides the rest from these):
# - Linux: everything, unless HAMMER_PORTABLE=ON, which builds the macOS code path on Linux
#   (poll backend, self-pipe wake-ups, fcntl, no prctl/epoll/eventfd/timerfd/io_uring), so CI
#   can run the e2e suite on what macOS users get;
# - macOS and other non-Linux POSIX systems: that same portable path;
# - Windows (MSVC or MinGW-w64): Winsock 2 with WSAPoll, and winmm for 1 ms timers.
set(HAMMER_PLATFORM_LIBS "")
if(HAMMER_PORTABLE)
  add_compile_definitions(HAMMER_PORTABLE=1)
endif()
if(WIN32)
  # Windows 10 API level (WSAPoll, GetActiveProcessorCount); no min/max macros from windows.h.
  add_compile_definitions(_WIN32_WINNT=0x0A00 WIN32_LEAN_AND_MEAN NOMINMAX)
  set(HAMMER_PLATFORM_LIBS ws2_32 winmm)
endif()
