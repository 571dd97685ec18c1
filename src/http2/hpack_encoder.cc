// SPDX-License-Identifier: MIT
#include "http2/hpack_encoder.h"

#include "http2/hpack_huffman.h"
#include "http2/hpack_integer.h"

namespace hammer::http2 {
namespace {

void encode_string(std::string& out, std::string_view text, HpackEncodeOptions options) {
  if (options.huffman) {
    const size_t encoded = huffman_encoded_size(text);
    if (encoded < text.size()) {
      encode_integer(out, encoded, 7, 0x80);
      huffman_encode(out, text);
      return;
    }
  }
  encode_integer(out, text.size(), 7, 0x00);
  out.append(text);
}

}  // namespace

void hpack_encode_field(std::string& out, std::string_view name, std::string_view value,
                        HpackEncodeOptions options) {
  if (const int index = static_find_field(name, value); index != 0) {
    encode_integer(out, static_cast<uint64_t>(index), 7, 0x80);
    return;
  }
  // Literal header field without indexing (§6.2.2): 0000 then a 4-bit name index, 0 = new name.
  if (const int index = static_find_name(name); index != 0) {
    encode_integer(out, static_cast<uint64_t>(index), 4, 0x00);
  } else {
    out.push_back(0x00);
    encode_string(out, name, options);
  }
  encode_string(out, value, options);
}

std::string hpack_encode_block(std::span<const HeaderField> fields, HpackEncodeOptions options) {
  std::string out;
  for (const HeaderField& field : fields) hpack_encode_field(out, field.name, field.value, options);
  return out;
}

void hpack_encode_table_size_update(std::string& out, size_t max_size) {
  encode_integer(out, max_size, 5, 0x20);
}

}  // namespace hammer::http2
