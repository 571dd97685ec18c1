// SPDX-License-Identifier: MIT
// The representations (RFC 7541 §6), told apart by their leading bits:
//   1xxxxxxx indexed field            01xxxxxx literal, incremental indexing
//   001xxxxx dynamic table size update 0000xxxx literal, not indexed  0001xxxx never indexed
// Literal names and values are decoded into scratch_ (the name first, the value after it);
// scratch_ holds max_header_list_bytes, and one field bigger than that is already a list over
// the bound, so running out of scratch is header_list_too_large, not a separate limit.
#include "http2/hpack_decoder.h"

#include <algorithm>

#include "http2/hpack_huffman.h"
#include "http2/hpack_integer.h"
#include "http2/hpack_static_table.h"

namespace hammer::http2 {

HpackDecoder::HpackDecoder(size_t header_table_size, size_t max_header_list_bytes)
    : table_(header_table_size),
      limit_(header_table_size),
      max_list_bytes_(max_header_list_bytes),
      scratch_(new uint8_t[max_header_list_bytes + 1]) {}

void HpackDecoder::reset() {
  table_.set_max_size(0);  // evicts every entry
  table_.set_max_size(table_.capacity_bytes());
  limit_ = table_.capacity_bytes();
  update_required_ = false;
  list_bytes_ = 0;
}

void HpackDecoder::set_header_table_size_limit(size_t limit) {
  limit = std::min(limit, table_.capacity_bytes());
  limit_ = limit;
  if (table_.max_size() > limit_) update_required_ = true;
}

HpackError HpackDecoder::read_string(const uint8_t* block, size_t size, size_t* pos,
                                     size_t scratch_at, std::string_view* text) {
  if (*pos >= size) return HpackError::truncated;
  const bool huffman = (block[*pos] & 0x80u) != 0;
  uint64_t length = 0;
  if (const HpackError error = decode_integer(block, size, pos, 7, &length);
      error != HpackError::none) {
    return error;
  }
  if (length > size - *pos) return HpackError::truncated;
  const size_t room = max_list_bytes_ - std::min(scratch_at, max_list_bytes_);
  uint8_t* out = scratch_.get() + scratch_at;
  size_t out_bytes = 0;
  if (huffman) {
    const HpackError error = huffman_decode(block + *pos, length, out, room, &out_bytes);
    if (error == HpackError::string_too_long) return HpackError::header_list_too_large;
    if (error != HpackError::none) return error;
  } else {
    if (length > room) return HpackError::header_list_too_large;
    std::copy_n(block + *pos, length, out);
    out_bytes = length;
  }
  *pos += length;
  *text = {reinterpret_cast<const char*>(out), out_bytes};
  return HpackError::none;
}

HpackError HpackDecoder::name_by_index(uint64_t index, std::string_view* name) {
  if (index == 0) return HpackError::index_out_of_range;
  std::string_view source;
  if (index <= kStaticTableSize) {
    source = static_entry(static_cast<int>(index)).name;
  } else if (index - kStaticTableSize <= table_.entries()) {
    source = table_.entry(index - kStaticTableSize).name;
  } else {
    return HpackError::index_out_of_range;
  }
  // Copied so that inserting the new entry may evict the one the name came from.
  if (source.size() > max_list_bytes_) return HpackError::header_list_too_large;
  std::copy_n(source.data(), source.size(), scratch_.get());
  *name = {reinterpret_cast<const char*>(scratch_.get()), source.size()};
  return HpackError::none;
}

HpackError HpackDecoder::field(std::string_view name, std::string_view value, HeaderSink& sink) {
  list_bytes_ += name.size() + value.size() + kHpackEntryOverhead;
  if (list_bytes_ > max_list_bytes_) return HpackError::header_list_too_large;
  sink.on_header(name, value);
  return HpackError::none;
}

HpackError HpackDecoder::decode(const uint8_t* block, size_t size, HeaderSink& sink) {
  list_bytes_ = 0;
  size_t pos = 0;
  bool at_start = true;
  while (pos < size) {
    const uint8_t first = block[pos];
    uint64_t number = 0;
    HpackError error = HpackError::none;
    if ((first & 0xe0u) == 0x20u) {  // dynamic table size update
      if (!at_start) return HpackError::table_size_update_not_at_start;
      if ((error = decode_integer(block, size, &pos, 5, &number)) != HpackError::none) {
        return error;
      }
      if (number > limit_) return HpackError::table_size_update_above_limit;
      table_.set_max_size(static_cast<size_t>(number));
      update_required_ = false;
      continue;
    }
    if (update_required_) return HpackError::table_size_update_missing;
    at_start = false;
    if ((first & 0x80u) != 0) {  // indexed field
      if ((error = decode_integer(block, size, &pos, 7, &number)) != HpackError::none) {
        return error;
      }
      if (number == 0) return HpackError::index_out_of_range;
      HeaderField entry;
      if (number <= kStaticTableSize) {
        entry = static_entry(static_cast<int>(number));
      } else if (number - kStaticTableSize <= table_.entries()) {
        entry = table_.entry(number - kStaticTableSize);
      } else {
        return HpackError::index_out_of_range;
      }
      if ((error = field(entry.name, entry.value, sink)) != HpackError::none) return error;
      continue;
    }
    const bool indexing = (first & 0xc0u) == 0x40u;
    const int prefix_bits = indexing ? 6 : 4;
    if ((error = decode_integer(block, size, &pos, prefix_bits, &number)) != HpackError::none) {
      return error;
    }
    std::string_view name;
    if (number == 0) {
      error = read_string(block, size, &pos, 0, &name);
    } else {
      error = name_by_index(number, &name);
    }
    if (error != HpackError::none) return error;
    std::string_view value;
    if ((error = read_string(block, size, &pos, name.size(), &value)) != HpackError::none) {
      return error;
    }
    if ((error = field(name, value, sink)) != HpackError::none) return error;
    if (indexing) table_.insert(name, value);
  }
  if (update_required_) return HpackError::table_size_update_missing;
  return HpackError::none;
}

}  // namespace hammer::http2
