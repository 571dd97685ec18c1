// SPDX-License-Identifier: MIT
#pragma once
// ZeroedArray<T>: a fixed-size array of zero-initialised trivially copyable T whose memory
// costs only what is written to. Large arrays come straight from mmap(2): the kernel hands out
// zero pages lazily, so a 216 KB histogram whose values fall in a few buckets keeps a few pages
// resident, not all of them (std::make_unique<T[]>(n) writes every byte, making every page
// resident at once). That is what keeps RSS per worker thread small with -t 1024 (histograms,
// the timer wheel's slot heads, the timeline's slab). Small arrays use calloc.
// Allocation happens in the constructor and in copies only; element access is a plain index.
// Windows has no mmap: there every size is calloc'ed (large blocks come from VirtualAlloc inside
// the heap, zero pages on demand as well, but that is the C runtime's choice, not a promise).
#if !defined(_WIN32)
#include <sys/mman.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace hammer {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>, "ZeroedArray holds plain values");

 public:
  /// Arrays of at least this many bytes are mapped (four pages: the timeline row and the lag
  /// histogram, ~20 KB each per worker, stay lazy too); smaller ones are calloc'ed. Windows
  /// has no lazily zeroed anonymous mapping here: everything is calloc'ed there.
#if defined(_WIN32)
  static constexpr size_t kMapThresholdBytes = SIZE_MAX;
#else
  static constexpr size_t kMapThresholdBytes = 16 * 1024;
#endif

  ZeroedArray() = default;
  explicit ZeroedArray(size_t count) : size_(count) { data_ = allocate(count); }
  ZeroedArray(const ZeroedArray& other) : size_(other.size_) {
    data_ = allocate(size_);
    if (size_ > 0) std::memcpy(data_, other.data_, bytes());
  }
  ZeroedArray& operator=(const ZeroedArray& other) {
    if (this != &other) *this = ZeroedArray(other);
    return *this;
  }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~ZeroedArray() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  T* get() { return data_; }
  const T* get() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  size_t bytes() const { return size_ * sizeof(T); }

  static T* allocate(size_t count) {
    if (count == 0) return nullptr;
    [[maybe_unused]] const size_t length = count * sizeof(T);
    void* memory = nullptr;
#if !defined(_WIN32)
    if (length >= kMapThresholdBytes) {
      memory = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (memory == MAP_FAILED) throw std::bad_alloc();
      return static_cast<T*>(memory);
    }
#endif
    memory = std::calloc(count, sizeof(T));
    if (memory == nullptr) throw std::bad_alloc();
    return static_cast<T*>(memory);
  }

  void release() {
    if (data_ == nullptr) return;
#if !defined(_WIN32)
    const size_t length = bytes();
    if (length >= kMapThresholdBytes) {
      munmap(data_, length);
    } else {
      std::free(data_);
    }
#else
    std::free(data_);
#endif
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace hammer
