// SPDX-License-Identifier: MIT
// A counting replacement for the global operator new. The counter is an atomic because the
// workers allocate (or must not) on their own threads; this is test code, not the hot path.
#include "alloc/alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace hammer::test {
namespace {
std::atomic<bool> g_counting{false};
std::atomic<int64_t> g_allocations{0};

void* counted_allocation(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  void* memory = std::malloc(size == 0 ? 1 : size);
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
}
}  // namespace

void start_counting_allocations() {
  g_allocations = 0;
  g_counting = true;
}

int64_t stop_counting_allocations() {
  g_counting = false;
  return g_allocations.load();
}

}  // namespace hammer::test

void* operator new(std::size_t size) { return hammer::test::counted_allocation(size); }
void* operator new[](std::size_t size) { return hammer::test::counted_allocation(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return hammer::test::counted_allocation(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
