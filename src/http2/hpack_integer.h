// SPDX-License-Identifier: MIT
#pragma once
// HPACK prefix integers (RFC 7541 §5.1): an N-bit prefix in the first octet, then 7 bits per
// continuation octet. Decoding reads from a whole header block (never a partial one: frames are
// assembled before HPACK sees them), so "not enough bytes" is a truncated block.
#include <cstddef>
#include <cstdint>
#include <string>

#include "http2/hpack_error.h"

namespace hammer::http2 {

/// The largest value decode_integer accepts: larger than any table index, size or string length
/// hammer allows, small enough that the arithmetic cannot overflow.
inline constexpr uint64_t kMaxHpackInteger = (uint64_t{1} << 32) - 1;

/// Decodes the integer whose first octet is data[*pos] with a `prefix_bits`-bit prefix (1..8),
/// advancing *pos past it. Returns none, truncated or integer_overflow.
HpackError decode_integer(const uint8_t* data, size_t size, size_t* pos, int prefix_bits,
                          uint64_t* value);

/// Appends `value` with a `prefix_bits`-bit prefix; `first_bits` are the representation's flag
/// bits above the prefix (e.g. 0x80 for an indexed field).
void encode_integer(std::string& out, uint64_t value, int prefix_bits, uint8_t first_bits);

}  // namespace hammer::http2
