// SPDX-License-Identifier: MIT
#pragma once
// The client side of HPACK, as little as a load generator needs: a request's header block is
// encoded once at setup and sent unchanged on every stream, so the encoder keeps no dynamic
// table (it never indexes, so the peer's SETTINGS_HEADER_TABLE_SIZE cannot desynchronise us).
// A field that matches a static entry exactly is one indexed octet (:method GET, :scheme https,
// :path /); a static name is referenced by index; everything else is a literal without
// indexing. Huffman coding is used for a string when asked for and only where it is shorter.
#include <span>
#include <string>
#include <string_view>

#include "http2/hpack_static_table.h"

namespace hammer::http2 {

struct HpackEncodeOptions {
  bool huffman = true;
};

/// Appends one field's representation.
void hpack_encode_field(std::string& out, std::string_view name, std::string_view value,
                        HpackEncodeOptions options = {});

/// A whole header block for `fields`, in order (pseudo-headers first is the caller's rule).
std::string hpack_encode_block(std::span<const HeaderField> fields,
                               HpackEncodeOptions options = {});

/// Appends a dynamic table size update (§6.3): what an encoder must send at the start of its
/// next block after the peer lowers SETTINGS_HEADER_TABLE_SIZE.
void hpack_encode_table_size_update(std::string& out, size_t max_size);

}  // namespace hammer::http2
