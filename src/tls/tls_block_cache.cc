// SPDX-License-Identifier: MIT
// Each block carries a 16-byte header before the caller's bytes: its size, and whether it is
// a small one (then it is kTlsSmallBlockBytes long whatever was asked, so any small block can
// serve any small request). A freed small block goes onto the freeing thread's list (OpenSSL
// frees a record's bookkeeping on the thread that made it; a block freed elsewhere simply
// joins that thread's list); the list is a singly linked stack through the blocks themselves.
#include "tls/tls_block_cache.h"

#include <openssl/crypto.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace hammer {
namespace {

struct alignas(16) Header {
  size_t bytes;  // what the caller asked for (small blocks: kTlsSmallBlockBytes of room)
  bool small;
};
static_assert(sizeof(Header) == 16);

struct FreeBlock {
  FreeBlock* next;
};

std::atomic<int64_t> g_system_allocations{0};

// Trivially destructible, so reading it costs no initialization check and it stays readable
// until the thread is gone, also from other thread-exit code that frees OpenSSL memory late.
struct ThreadCache {
  FreeBlock* head;
  int count;
  bool gone;  // the thread is ending: the releaser below has freed the list
  int64_t system_allocations;
};
thread_local ThreadCache t_cache{};

// Frees the thread's cached blocks when the thread ends (constructed, so armed, when its list
// first gets a block), so nothing is left for a leak checker; blocks freed after it go to free().
struct CacheReleaser {
  bool armed = false;
  ~CacheReleaser() {
    ThreadCache& cache = t_cache;
    cache.gone = true;
    while (cache.head != nullptr) {
      FreeBlock* next = cache.head->next;
      std::free(reinterpret_cast<Header*>(cache.head) - 1);
      cache.head = next;
    }
    cache.count = 0;
    g_system_allocations.fetch_add(cache.system_allocations, std::memory_order_relaxed);
    cache.system_allocations = 0;
  }
};
thread_local CacheReleaser t_releaser;

Header* header_of(void* block) { return static_cast<Header*>(block) - 1; }

void* from_system(size_t room, size_t bytes, bool small) {
  auto* header = static_cast<Header*>(std::malloc(sizeof(Header) + room));
  if (header == nullptr) return nullptr;
  ++t_cache.system_allocations;
  header->bytes = bytes;
  header->small = small;
  return header + 1;
}

}  // namespace

void* tls_block_malloc(size_t bytes, const char*, int) {
  if (bytes > kTlsSmallBlockBytes) return from_system(bytes, bytes, false);
  ThreadCache& cache = t_cache;
  if (cache.head == nullptr) return from_system(kTlsSmallBlockBytes, bytes, true);
  FreeBlock* block = cache.head;
  cache.head = block->next;
  --cache.count;
  header_of(block)->bytes = bytes;
  return block;
}

void tls_block_free(void* block, const char*, int) {
  if (block == nullptr) return;
  Header* header = header_of(block);
  ThreadCache& cache = t_cache;
  if (!header->small || cache.gone || cache.count >= kTlsBlocksPerThread) {
    std::free(header);
    return;
  }
  if (cache.count == 0) t_releaser.armed = true;  // its destructor frees the list at thread exit
  auto* free_block = static_cast<FreeBlock*>(block);
  free_block->next = cache.head;
  cache.head = free_block;
  ++cache.count;
}

void* tls_block_realloc(void* block, size_t bytes, const char* file, int line) {
  if (block == nullptr) return tls_block_malloc(bytes, file, line);
  Header* header = header_of(block);
  if (header->small && bytes <= kTlsSmallBlockBytes) {
    header->bytes = bytes;
    return block;
  }
  void* moved = tls_block_malloc(bytes, file, line);
  if (moved == nullptr) return nullptr;  // as realloc: the old block stays valid
  std::memcpy(moved, block, header->bytes < bytes ? header->bytes : bytes);
  tls_block_free(block, file, line);
  return moved;
}

bool install_tls_block_cache() {
  return CRYPTO_set_mem_functions(tls_block_malloc, tls_block_realloc, tls_block_free) == 1;
}

int64_t tls_block_system_allocations() {
  return g_system_allocations.load(std::memory_order_relaxed) + t_cache.system_allocations;
}

}  // namespace hammer
