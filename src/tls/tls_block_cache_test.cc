// SPDX-License-Identifier: MIT
// The block cache's functions called directly (this binary's tls_alloc_test.cc installs its own
// counting hooks as OpenSSL's allocator, so the cache is not installed here).
#include "tls/tls_block_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

namespace hammer {
namespace {

TEST(TlsBlockCacheTest, AFreedSmallBlockServesTheNextSmallRequestWithoutMalloc) {
  void* first = tls_block_malloc(40, __FILE__, __LINE__);
  ASSERT_NE(first, nullptr);
  std::memset(first, 0xAB, 40);
  tls_block_free(first, __FILE__, __LINE__);
  const int64_t before = tls_block_system_allocations();
  for (int i = 0; i < 1000; ++i) {  // the record layer's pattern: one block in, one out
    void* block = tls_block_malloc(static_cast<size_t>(1 + i % 64), __FILE__, __LINE__);
    EXPECT_EQ(block, first);
    tls_block_free(block, __FILE__, __LINE__);
  }
  EXPECT_EQ(tls_block_system_allocations(), before);
}

TEST(TlsBlockCacheTest, LargeBlocksGoToMallocEachTime) {
  const int64_t before = tls_block_system_allocations();
  for (int i = 0; i < 10; ++i) {
    void* block = tls_block_malloc(kTlsSmallBlockBytes + 1, __FILE__, __LINE__);
    ASSERT_NE(block, nullptr);
    std::memset(block, 1, kTlsSmallBlockBytes + 1);
    tls_block_free(block, __FILE__, __LINE__);
  }
  EXPECT_EQ(tls_block_system_allocations(), before + 10);
}

TEST(TlsBlockCacheTest, ReallocKeepsTheBytesAcrossSizes) {
  auto* block = static_cast<char*>(tls_block_realloc(nullptr, 10, __FILE__, __LINE__));
  ASSERT_NE(block, nullptr);
  std::memcpy(block, "0123456789", 10);
  block = static_cast<char*>(tls_block_realloc(block, 60, __FILE__, __LINE__));  // stays small
  EXPECT_EQ(std::memcmp(block, "0123456789", 10), 0);
  block = static_cast<char*>(tls_block_realloc(block, 5000, __FILE__, __LINE__));  // moves
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(std::memcmp(block, "0123456789", 10), 0);
  std::memset(block + 10, 7, 4990);
  block = static_cast<char*>(tls_block_realloc(block, 3, __FILE__, __LINE__));  // small again
  EXPECT_EQ(std::memcmp(block, "012", 3), 0);
  tls_block_free(block, __FILE__, __LINE__);
  tls_block_free(nullptr, __FILE__, __LINE__);
}

TEST(TlsBlockCacheTest, AThreadKeepsAtMostItsShareAndFreesItAtExit) {
  std::thread worker([] {
    std::vector<void*> blocks;
    for (int i = 0; i < kTlsBlocksPerThread + 50; ++i) {
      blocks.push_back(tls_block_malloc(32, __FILE__, __LINE__));
    }
    for (void* block : blocks) tls_block_free(block, __FILE__, __LINE__);  // 50 to free()
    // The cached ones come back without malloc; the thread's end frees them (a leak
    // checker sees none).
    const int64_t before = tls_block_system_allocations();
    for (int i = 0; i < kTlsBlocksPerThread; ++i) blocks[i] = tls_block_malloc(8, __FILE__, __LINE__);
    EXPECT_EQ(tls_block_system_allocations(), before);
    for (int i = 0; i < kTlsBlocksPerThread; ++i) tls_block_free(blocks[i], __FILE__, __LINE__);
  });
  worker.join();
}

}  // namespace
}  // namespace hammer
