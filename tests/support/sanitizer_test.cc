// SPDX-License-Identifier: MIT
// CI must not trust a "sanitizer build" that is not one. When the build asked for a sanitizer
// (HAMMER_EXPECT_SANITIZER), this asserts the compiler instrumented the code and the runtime
// is really in the process; in an ordinary build it asserts the opposite.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>

#ifndef HAMMER_EXPECT_SANITIZER
#define HAMMER_EXPECT_SANITIZER ""
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAMMER_HAS_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define HAMMER_HAS_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HAMMER_HAS_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define HAMMER_HAS_TSAN 1
#endif

namespace {

bool runtime_symbol_present(const char* name) { return dlsym(RTLD_DEFAULT, name) != nullptr; }

#ifdef HAMMER_HAS_ASAN
constexpr bool kCompiledWithAsan = true;
#else
constexpr bool kCompiledWithAsan = false;
#endif
#ifdef HAMMER_HAS_TSAN
constexpr bool kCompiledWithTsan = true;
#else
constexpr bool kCompiledWithTsan = false;
#endif

TEST(SanitizerTest, RequestedSanitizerIsCompiledInAndItsRuntimeLinked) {
  const char* expected = HAMMER_EXPECT_SANITIZER;
  if (std::strcmp(expected, "address") == 0 || std::strcmp(expected, "fuzzer") == 0) {
    EXPECT_TRUE(kCompiledWithAsan);
    EXPECT_TRUE(runtime_symbol_present("__asan_init"));
    EXPECT_TRUE(runtime_symbol_present("__ubsan_handle_add_overflow") ||
                runtime_symbol_present("__ubsan_handle_add_overflow_abort"));
  } else if (std::strcmp(expected, "thread") == 0) {
    EXPECT_TRUE(kCompiledWithTsan);
    EXPECT_TRUE(runtime_symbol_present("__tsan_init"));
  } else {
    EXPECT_FALSE(kCompiledWithAsan);
    EXPECT_FALSE(kCompiledWithTsan);
    EXPECT_FALSE(runtime_symbol_present("__asan_init"));
  }
}

#ifdef HAMMER_HAS_ASAN
// ASan turns a heap overflow into a report and an abort; prove the instrumentation is live.
TEST(SanitizerTest, AddressSanitizerCatchesHeapOverflow) {
  EXPECT_DEATH(
      {
        // Through memset, which ASan intercepts, with an index the compiler cannot see: a
        // plain store would be refused by -Warray-bounds or caught first by UBSan.
        volatile int past_the_end = 8;
        char* bytes = new char[8];
        std::memset(bytes + past_the_end, 1, 1);
        delete[] bytes;
      },
      "heap-buffer-overflow");
}
#endif

}  // namespace
