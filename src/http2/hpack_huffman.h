// SPDX-License-Identifier: MIT
#pragma once
// The HPACK Huffman code (RFC 7541 §5.2, Appendix B). The code is canonical: Appendix B's
// table is fully determined by each symbol's code length, so only the 257 lengths are kept
// (hpack_huffman.cc) and the codes are derived from them at compile time; the tests check the
// derived codes against rows of Appendix B and that the code is complete (Kraft sum of 1).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http2/hpack_error.h"

namespace hammer::http2 {

inline constexpr int kHuffmanSymbols = 257;  // 256 octets and EOS
inline constexpr int kHuffmanEos = 256;

struct HuffmanCode {
  uint32_t bits = 0;  // right-aligned
  uint8_t length = 0;
};

/// Appendix B's code for `symbol` (0..256).
HuffmanCode huffman_code(int symbol);

/// Decodes `encoded` into out[0..*out_size), writing at most `out_capacity` octets. Returns
/// none, huffman_bad_padding, huffman_eos or string_too_long. Allocates nothing.
HpackError huffman_decode(const uint8_t* encoded, size_t size, uint8_t* out, size_t out_capacity,
                          size_t* out_size);

/// Octets `text` takes Huffman-encoded (padding included).
size_t huffman_encoded_size(std::string_view text);

/// Appends `text` Huffman-encoded, padded with the EOS prefix.
void huffman_encode(std::string& out, std::string_view text);

}  // namespace hammer::http2
