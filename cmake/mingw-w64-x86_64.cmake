# Cross-compiles hammer.exe for Windows x86_64 with Debian's MinGW-w64 (posix threads variant,
# package g++-mingw-w64-x86-64-posix; zlib from libz-mingw-w64-dev). Used by the windows-mingw
# preset; scripts/windows-check.sh builds with it and runs the result under wine64.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(HAMMER_MINGW_TRIPLE x86_64-w64-mingw32)

# The -posix variant: std::thread and std::mutex need winpthreads (the -win32 one has no
# std::thread in GCC 12). Its std::latch loses wake-ups (no futex: core/countdown_latch.h).
set(CMAKE_C_COMPILER ${HAMMER_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${HAMMER_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${HAMMER_MINGW_TRIPLE}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${HAMMER_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# One self-contained hammer.exe: zlib, libstdc++, libgcc and winpthreads linked in statically,
# so it runs on a bare Windows (or wine) without MinGW's DLLs next to it.
set(ZLIB_LIBRARY /usr/${HAMMER_MINGW_TRIPLE}/lib/libz.a CACHE FILEPATH "static zlib")
set(ZLIB_INCLUDE_DIR /usr/${HAMMER_MINGW_TRIPLE}/include CACHE PATH "zlib headers")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
