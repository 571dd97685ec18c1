// SPDX-License-Identifier: MIT
#pragma once
// Where a descriptor sits in PollPoller's dense pollfd array, found in O(1) without allocating
// after construction. Two shapes behind one interface:
// - DirectFdIndex: a table indexed by the fd itself. POSIX descriptors are small integers
//   below RLIMIT_NOFILE, so this is one load.
// - HashedFdIndex: open addressing with linear probing and backward-shift deletion (no
//   tombstones, so a long run never degrades). Windows sockets are handles — multiples of 4
//   spread over a wide range — so a table indexed by value would be huge and sparse.
// Both are compiled and tested everywhere; PollPoller picks one per platform.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hammer {

class DirectFdIndex {
 public:
  /// Descriptors 0 .. max_fds - 1.
  explicit DirectFdIndex(int max_fds) : positions_(static_cast<size_t>(max_fds), -1) {}

  bool accepts(int fd) const { return fd >= 0 && static_cast<size_t>(fd) < positions_.size(); }
  /// The position, or -1 when absent (or not acceptable).
  int32_t find(int fd) const { return accepts(fd) ? positions_[static_cast<size_t>(fd)] : -1; }
  /// Records or moves `fd`; false when the fd is not acceptable.
  bool set(int fd, int32_t position) {
    if (!accepts(fd)) return false;
    positions_[static_cast<size_t>(fd)] = position;
    return true;
  }
  void erase(int fd) {
    if (accepts(fd)) positions_[static_cast<size_t>(fd)] = -1;
  }

 private:
  std::vector<int32_t> positions_;
};

class HashedFdIndex {
 public:
  /// Up to `max_fds` descriptors of any non-negative value, in a table at least twice that
  /// size (a power of two), so probes stay short.
  explicit HashedFdIndex(int max_fds) : limit_(max_fds) {
    size_t capacity = 16;
    while (capacity < 2 * static_cast<size_t>(max_fds > 0 ? max_fds : 1)) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
  }

  bool accepts(int fd) const { return fd >= 0 && (size_ < limit_ || find(fd) >= 0); }

  int32_t find(int fd) const {
    if (fd < 0) return -1;
    for (size_t at = home(fd);; at = (at + 1) & mask_) {
      if (slots_[at].fd == fd) return slots_[at].position;
      if (slots_[at].fd < 0) return -1;
    }
  }

  bool set(int fd, int32_t position) {
    if (fd < 0) return false;
    size_t at = home(fd);
    for (; slots_[at].fd >= 0; at = (at + 1) & mask_) {
      if (slots_[at].fd == fd) {
        slots_[at].position = position;
        return true;
      }
    }
    if (size_ >= limit_) return false;
    slots_[at] = Slot{fd, position};
    ++size_;
    return true;
  }

  void erase(int fd) {
    if (fd < 0) return;
    size_t hole = home(fd);
    for (; slots_[hole].fd != fd; hole = (hole + 1) & mask_) {
      if (slots_[hole].fd < 0) return;  // absent
    }
    // Backward shift: pull later entries of the probe run into the hole when their home
    // position does not lie (cyclically) between the hole and themselves.
    for (size_t next = (hole + 1) & mask_; slots_[next].fd >= 0; next = (next + 1) & mask_) {
      const size_t wanted = home(slots_[next].fd);
      const bool stays = hole <= next ? (hole < wanted && wanted <= next)
                                      : (hole < wanted || wanted <= next);
      if (stays) continue;
      slots_[hole] = slots_[next];
      hole = next;
    }
    slots_[hole] = Slot{};
    --size_;
  }

 private:
  struct Slot {
    int fd = -1;
    int32_t position = -1;
  };

  size_t home(int fd) const {
    // Windows handles are multiples of 4: drop those bits, then spread (Fibonacci hashing).
    return static_cast<size_t>((static_cast<uint64_t>(static_cast<uint32_t>(fd) >> 2) *
                                0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int size_ = 0;
  int limit_;
};

}  // namespace hammer
