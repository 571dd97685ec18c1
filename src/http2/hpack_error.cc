// SPDX-License-Identifier: MIT
#include "http2/hpack_error.h"

namespace hammer::http2 {

std::string_view describe(HpackError error) {
  switch (error) {
    case HpackError::none: return "no error";
    case HpackError::truncated: return "truncated header block";
    case HpackError::integer_overflow: return "integer overflow";
    case HpackError::index_out_of_range: return "index out of range";
    case HpackError::huffman_bad_padding: return "bad huffman padding";
    case HpackError::huffman_eos: return "huffman EOS in string";
    case HpackError::string_too_long: return "string literal too long";
    case HpackError::table_size_update_above_limit: return "table size update above limit";
    case HpackError::table_size_update_not_at_start: return "table size update not at block start";
    case HpackError::table_size_update_missing: return "table size update missing";
    case HpackError::header_list_too_large: return "header list too large";
  }
  return "unknown hpack error";
}

}  // namespace hammer::http2
