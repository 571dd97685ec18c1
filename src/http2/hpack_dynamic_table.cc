// SPDX-License-Identifier: MIT
#include "http2/hpack_dynamic_table.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace hammer::http2 {

HpackDynamicTable::HpackDynamicTable(size_t capacity_bytes)
    : capacity_(capacity_bytes),
      max_size_(capacity_bytes),
      arena_(new char[2 * capacity_bytes + 1]),
      arena_bytes_(2 * capacity_bytes + 1),
      // Every entry costs at least 32 octets, so this many slots always suffice.
      slots_(new Slot[capacity_bytes / kHpackEntryOverhead + 1]),
      slot_capacity_(capacity_bytes / kHpackEntryOverhead + 1) {}

void HpackDynamicTable::set_max_size(size_t max_size) {
  assert(max_size <= capacity_);
  max_size_ = max_size;
  while (size_ > max_size_) evict_oldest();
}

const HpackDynamicTable::Slot& HpackDynamicTable::slot(size_t index) const {
  return slots_[(head_ + count_ - index) % slot_capacity_];
}

HeaderField HpackDynamicTable::entry(size_t index) const {
  assert(index >= 1 && index <= count_);
  const Slot& s = slot(index);
  const char* text = arena_.get() + s.offset;
  return {{text, s.name_bytes}, {text + s.name_bytes, s.value_bytes}};
}

void HpackDynamicTable::evict_oldest() {
  assert(count_ > 0);
  const Slot& oldest = slots_[head_];
  size_ -= oldest.name_bytes + oldest.value_bytes + kHpackEntryOverhead;
  head_ = (head_ + 1) % slot_capacity_;
  --count_;
  if (count_ == 0) arena_end_ = 0;
}

void HpackDynamicTable::compact() {
  // Live text is at most max_size_ - 32 * count_ octets; move it to the arena's start, oldest
  // first, so entry text stays contiguous and views stay simple.
  size_t to = 0;
  for (size_t i = 0; i < count_; ++i) {
    Slot& s = slots_[(head_ + i) % slot_capacity_];
    const size_t bytes = s.name_bytes + s.value_bytes;
    if (bytes > 0) std::memmove(arena_.get() + to, arena_.get() + s.offset, bytes);
    s.offset = static_cast<uint32_t>(to);
    to += bytes;
  }
  arena_end_ = to;
}

void HpackDynamicTable::insert(std::string_view name, std::string_view value) {
  const size_t entry_size = name.size() + value.size() + kHpackEntryOverhead;
  while (count_ > 0 && size_ + entry_size > max_size_) evict_oldest();
  if (entry_size > max_size_) return;  // §4.4: the table is now empty, the entry not added
  const size_t text_bytes = name.size() + value.size();
  if (arena_end_ + text_bytes > arena_bytes_) compact();
  char* text = arena_.get() + arena_end_;
  std::copy_n(name.data(), name.size(), text);
  std::copy_n(value.data(), value.size(), text + name.size());
  slots_[(head_ + count_) % slot_capacity_] = {static_cast<uint32_t>(arena_end_),
                                               static_cast<uint32_t>(name.size()),
                                               static_cast<uint32_t>(value.size())};
  arena_end_ += text_bytes;
  ++count_;
  size_ += entry_size;
}

}  // namespace hammer::http2
