// SPDX-License-Identifier: MIT
#pragma once
// Why an HPACK header block could not be decoded (RFC 7541). Every one of these is a
// COMPRESSION_ERROR on the connection (RFC 9113 §4.3): the decoder's table is shared by every
// stream, so after a bad block it can no longer be trusted. The caller decides on the enum;
// the words are for reports.
#include <cstdint>
#include <string_view>

namespace hammer::http2 {

enum class HpackError : uint8_t {
  none,
  truncated,                     // the block ends inside a representation
  integer_overflow,              // a prefix integer longer than any sane value (RFC 7541 §5.1)
  index_out_of_range,            // index 0, or past the static + dynamic tables (§2.3.3)
  huffman_bad_padding,           // padding over 7 bits, or not the EOS prefix (all ones) (§5.2)
  huffman_eos,                   // the EOS symbol inside a string (§5.2)
  string_too_long,               // a literal longer than the decoder's scratch space
  table_size_update_above_limit, // a dynamic table size update over our SETTINGS value (§6.3)
  table_size_update_not_at_start,// an update after the first field of a block (§4.2)
  table_size_update_missing,     // we lowered the limit, the block did not acknowledge it (§4.2)
  header_list_too_large,         // decoded fields over SETTINGS_MAX_HEADER_LIST_SIZE: a bomb
};

/// A short lower-case phrase for reports: "index out of range". Never empty.
std::string_view describe(HpackError error);

}  // namespace hammer::http2
