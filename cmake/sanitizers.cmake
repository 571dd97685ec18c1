# Sanitizer builds must really be sanitizer builds: if the runtime cannot be linked, configure
# fails here instead of quietly producing an ordinary binary that CI would then trust.
include(CheckCXXSourceCompiles)

set(HAMMER_SANITIZER_FLAGS "")
if(HAMMER_SANITIZE STREQUAL "address")
  set(HAMMER_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
elseif(HAMMER_SANITIZE STREQUAL "thread")
  set(HAMMER_SANITIZER_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
elseif(HAMMER_SANITIZE STREQUAL "fuzzer")
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "HAMMER_SANITIZE=fuzzer needs clang (libFuzzer); got ${CMAKE_CXX_COMPILER_ID}")
  endif()
  # Libraries get coverage instrumentation; only fuzz targets link libFuzzer's main.
  set(HAMMER_SANITIZER_FLAGS -fsanitize=fuzzer-no-link,address,undefined
      -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
elseif(NOT HAMMER_SANITIZE STREQUAL "")
  message(FATAL_ERROR "HAMMER_SANITIZE='${HAMMER_SANITIZE}': expected '', address, thread or fuzzer")
endif()

if(HAMMER_SANITIZER_FLAGS)
  set(CMAKE_REQUIRED_FLAGS "${HAMMER_SANITIZER_FLAGS}")
  string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${CMAKE_REQUIRED_FLAGS}")
  set(CMAKE_REQUIRED_LINK_OPTIONS ${HAMMER_SANITIZER_FLAGS})
  check_cxx_source_compiles("int main() { return 0; }" HAMMER_SANITIZER_LINKS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT HAMMER_SANITIZER_LINKS)
    message(FATAL_ERROR "HAMMER_SANITIZE=${HAMMER_SANITIZE}: the compiler cannot link the "
                        "sanitizer runtime (${HAMMER_SANITIZER_FLAGS}). Install it "
                        "(e.g. libclang-rt-14-dev for clang) rather than build without it.")
  endif()
  add_compile_options(${HAMMER_SANITIZER_FLAGS})
  add_link_options(${HAMMER_SANITIZER_FLAGS})
  add_compile_definitions(HAMMER_EXPECT_SANITIZER="${HAMMER_SANITIZE}")
endif()
