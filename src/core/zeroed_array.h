// SPDX-License-Identifier: MIT
#pragma once
// ZeroedArray<T>: a fixed-size array of zero-initialised trivially copyable T whose memory
// costs only what is written to. Large arrays come straight from mmap(2): the kernel hands out
// zero pages lazily, so a 216 KB histogram whose values fall in a few buckets keeps a few pages
// resident, not all of them (std::make_unique<T[]>(n) writes every byte, making every page
// resident at once). That is what keeps RSS per worker thread small with -t 1024 (histograms,
// the timer wheel's slot heads, the timeline's slab). Small arrays use calloc.
// Allocation happens in the constructor and in copies only; element access is a plain index.
// Copies keep the laziness: a page of the source that is all zero is not written in the copy
// (a memcpy would make every page of the copy resident: a worker's dispatch lag histogram,
// copied into its result at the end of a closed-loop run, used to cost 32 KB a thread).
// Windows has no mmap: there every size is calloc'ed (large blocks come from VirtualAlloc inside
// the heap, zero pages on demand as well, but that is the C runtime's choice, not a promise).
#if !defined(_WIN32)
#include <sys/mman.h>
#endif

#include <algorithm>
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
    copy_pages(other, /*fresh=*/true);
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

  /// Copies `other`'s values into this array of the same size (reusing its memory), leaving
  /// untouched the pages that are zero in both.
  void assign_values(const ZeroedArray& other) {
    if (this != &other && size_ == other.size_) copy_pages(other, /*fresh=*/false);
  }

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

  /// The unit a copy skips when it is all zero: the smallest page size (larger pages only
  /// make the copy less sparse, never wrong).
  static constexpr size_t kChunkBytes = 4096;

  static bool all_zero(const char* bytes, size_t length) {
    // Word by word while whole words remain, then byte by byte: a mapped array starts on a
    // page boundary and every chunk but the last is a whole page.
    size_t i = 0;
    uint64_t any = 0;
    for (; i + sizeof(uint64_t) <= length; i += sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, bytes + i, sizeof word);
      any |= word;
    }
    for (; i < length; ++i) any |= static_cast<unsigned char>(bytes[i]);
    return any == 0;
  }

  // `fresh`: this array was just allocated (all zero), so a zero chunk needs no write at all.
  void copy_pages(const ZeroedArray& other, bool fresh) {
    const size_t length = bytes();
    if (length == 0) return;
    char* to = reinterpret_cast<char*>(data_);
    const char* from = reinterpret_cast<const char*>(other.data_);
    if (length < kMapThresholdBytes) {  // calloc'ed: no pages of its own to spare
      std::memcpy(to, from, length);
      return;
    }
    for (size_t offset = 0; offset < length; offset += kChunkBytes) {
      const size_t chunk = std::min(kChunkBytes, length - offset);
      if (!all_zero(from + offset, chunk)) {
        std::memcpy(to + offset, from + offset, chunk);
      } else if (!fresh && !all_zero(to + offset, chunk)) {
        std::memset(to + offset, 0, chunk);
      }
    }
  }

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
