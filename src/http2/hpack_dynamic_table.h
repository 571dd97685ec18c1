// SPDX-License-Identifier: MIT
#pragma once
// The HPACK dynamic table (RFC 7541 §2.3.2, §4): newest entry first, sized by the RFC's rule
// (name + value + 32 octets per entry), entries evicted oldest first. All memory is taken at
// construction from `capacity_bytes` (our SETTINGS_HEADER_TABLE_SIZE, the most the peer may
// ever make the table): entry text lives in one byte arena of twice that size, appended at the
// end and compacted when the end is reached, so no insert allocates and a hostile peer cannot
// make the table grow past what we advertised.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "http2/hpack_static_table.h"

namespace hammer::http2 {

inline constexpr size_t kHpackEntryOverhead = 32;

class HpackDynamicTable {
 public:
  explicit HpackDynamicTable(size_t capacity_bytes);

  /// Sets the table's maximum size (from a dynamic table size update, already checked against
  /// capacity_bytes()); evicts until the entries fit.
  void set_max_size(size_t max_size);

  /// Adds an entry, evicting as needed; an entry larger than max_size() empties the table and
  /// is not added (§4.4). The views must not point into the table (the decoder copies an
  /// indexed name into its own scratch first), so eviction can never pull text from under them.
  void insert(std::string_view name, std::string_view value);

  /// Entry `index` counted from 1 (the newest); index must be in 1..entries().
  HeaderField entry(size_t index) const;

  size_t entries() const { return count_; }
  size_t size() const { return size_; }  // the RFC's size: sum of name + value + 32
  size_t max_size() const { return max_size_; }
  size_t capacity_bytes() const { return capacity_; }

 private:
  struct Slot {
    uint32_t offset;  // into arena_
    uint32_t name_bytes;
    uint32_t value_bytes;
  };

  void evict_oldest();
  void compact();
  const Slot& slot(size_t index) const;  // 1 = newest

  size_t capacity_;
  size_t max_size_;
  size_t size_ = 0;
  std::unique_ptr<char[]> arena_;
  size_t arena_bytes_;
  size_t arena_end_ = 0;  // where the next entry's text goes
  std::unique_ptr<Slot[]> slots_;  // ring; newest at (head_ + count_ - 1) % slot_capacity_
  size_t slot_capacity_;
  size_t head_ = 0;  // oldest
  size_t count_ = 0;
};

}  // namespace hammer::http2
