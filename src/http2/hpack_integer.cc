// SPDX-License-Identifier: MIT
#include "http2/hpack_integer.h"

namespace hammer::http2 {

HpackError decode_integer(const uint8_t* data, size_t size, size_t* pos, int prefix_bits,
                          uint64_t* value) {
  if (*pos >= size) return HpackError::truncated;
  const uint64_t prefix_max = (uint64_t{1} << prefix_bits) - 1;
  uint64_t result = data[*pos] & prefix_max;
  ++*pos;
  if (result < prefix_max) {
    *value = result;
    return HpackError::none;
  }
  // Continuation octets: 7 bits each, least significant first. Five of them already carry 35
  // bits; a sixth (or a value past kMaxHpackInteger) is an attack or garbage, not a header.
  for (int shift = 0;; shift += 7) {
    if (*pos >= size) return HpackError::truncated;
    if (shift > 28) return HpackError::integer_overflow;
    const uint8_t octet = data[*pos];
    ++*pos;
    result += uint64_t{octet & 0x7fu} << shift;
    if (result > kMaxHpackInteger) return HpackError::integer_overflow;
    if ((octet & 0x80u) == 0) break;
  }
  *value = result;
  return HpackError::none;
}

void encode_integer(std::string& out, uint64_t value, int prefix_bits, uint8_t first_bits) {
  const uint64_t prefix_max = (uint64_t{1} << prefix_bits) - 1;
  if (value < prefix_max) {
    out.push_back(static_cast<char>(first_bits | value));
    return;
  }
  out.push_back(static_cast<char>(first_bits | prefix_max));
  value -= prefix_max;
  while (value >= 128) {
    out.push_back(static_cast<char>(0x80u | (value & 0x7fu)));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

}  // namespace hammer::http2
