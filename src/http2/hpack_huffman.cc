// SPDX-License-Identifier: MIT
// Decoding uses the canonical code's order: left-aligned in 32 bits, every code of length L
// is below limit[L] (one past the last code of length L, left-aligned) and every longer code
// is at or above it, so a symbol's length is the first L whose limit exceeds the next 32 bits.
// The common octets have 5 to 8 bit codes: those (every code up to 9 bits) are one look-up in
// a table built from the same limits; a longer code is found by the comparisons, and its
// symbol is then its offset within its length's run of codes.
#include "http2/hpack_huffman.h"

#include <array>

namespace hammer::http2 {
namespace {

constexpr int kMinCodeLength = 5;
constexpr int kMaxCodeLength = 30;

// Code length in bits of each symbol 0..256, transcribed from RFC 7541 Appendix B.
constexpr std::array<uint8_t, kHuffmanSymbols> kCodeLengths = {
    // 0..31: control octets
    13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
    28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    // 32..63: ' ' ! " # $ % & ' ( ) * + , - . / 0..9 : ; < = > ?
    6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
    5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
    // 64..95: @ A..Z [ \ ] ^ _
    13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
    // 96..127: ` a..z { | } ~ DEL
    15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
    6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
    // 128..255
    20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
    24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
    22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
    21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
    26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
    19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
    20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
    26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
    // 256: EOS
    30,
};

struct CanonicalCode {
  std::array<uint32_t, kHuffmanSymbols> codes{};
  std::array<uint32_t, kMaxCodeLength + 1> first_code{};   // smallest code of each length
  std::array<uint16_t, kMaxCodeLength + 1> count{};        // symbols of each length
  std::array<uint16_t, kMaxCodeLength + 1> first_rank{};   // rank of first_code in `sorted`
  std::array<uint16_t, kHuffmanSymbols> sorted{};          // symbols by (length, value)
  std::array<uint64_t, kMaxCodeLength + 1> limit{};        // see the top of the file
};

constexpr CanonicalCode build_code() {
  CanonicalCode code;
  for (int symbol = 0; symbol < kHuffmanSymbols; ++symbol) ++code.count[kCodeLengths[symbol]];
  uint32_t next = 0;
  uint16_t rank = 0;
  for (int length = 1; length <= kMaxCodeLength; ++length) {
    next <<= 1;
    code.first_code[length] = next;
    code.first_rank[length] = rank;
    for (int symbol = 0; symbol < kHuffmanSymbols; ++symbol) {
      if (kCodeLengths[symbol] != length) continue;
      code.codes[symbol] = next++;
      code.sorted[rank++] = static_cast<uint16_t>(symbol);
    }
    code.limit[length] = uint64_t{next} << (32 - length);
  }
  return code;
}

constexpr CanonicalCode kCode = build_code();

// Every code of up to kTableBits bits, by the kTableBits that begin with it: its symbol and
// length; length 0 where the code is longer (then the limit search finds it).
constexpr int kTableBits = 9;
struct ShortCode {
  uint16_t symbol = 0;
  uint8_t length = 0;
};

constexpr std::array<ShortCode, 1u << kTableBits> build_short_codes() {
  std::array<ShortCode, 1u << kTableBits> table{};
  for (uint32_t prefix = 0; prefix < (1u << kTableBits); ++prefix) {
    const uint32_t bits = prefix << (32 - kTableBits);
    int length = kMinCodeLength;
    while (bits >= kCode.limit[length]) ++length;
    if (length > kTableBits) continue;
    const uint32_t code = bits >> (32 - length);
    table[prefix] = {kCode.sorted[kCode.first_rank[length] + (code - kCode.first_code[length])],
                     static_cast<uint8_t>(length)};
  }
  return table;
}

constexpr std::array<ShortCode, 1u << kTableBits> kShortCodes = build_short_codes();

}  // namespace

HuffmanCode huffman_code(int symbol) {
  return {kCode.codes[symbol], kCodeLengths[symbol]};
}

HpackError huffman_decode(const uint8_t* encoded, size_t size, uint8_t* out, size_t out_capacity,
                          size_t* out_size) {
  // Bits wait left-aligned in a 64-bit buffer, refilled an octet at a time; `have` of them
  // are the string's. A symbol takes one table look-up when its code fits kTableBits (every
  // common octet's does), the limit search from there when it is longer.
  uint64_t buffer = 0;
  int have = 0;
  size_t next = 0;
  size_t written = 0;
  for (;;) {
    while (have <= 56 && next < size) {
      buffer |= uint64_t{encoded[next++]} << (56 - have);
      have += 8;
    }
    if (have == 0) break;
    // The next 32 bits, with ones past the end (so a code cut off by the end reads as the EOS
    // prefix and is judged as padding below).
    auto bits = static_cast<uint32_t>(buffer >> 32);
    if (have < 32) bits |= ~uint32_t{0} >> have;
    const ShortCode short_code = kShortCodes[bits >> (32 - kTableBits)];
    int length = short_code.length;
    int symbol = short_code.symbol;
    if (length == 0) {
      length = kTableBits + 1;
      while (bits >= kCode.limit[length]) ++length;  // limit[30] is 2^32: the loop ends there
      const uint32_t code = bits >> (32 - length);
      symbol = kCode.sorted[kCode.first_rank[length] + (code - kCode.first_code[length])];
    }
    if (length > have) {
      // Padding: under 8 bits, all ones (the most significant bits of EOS).
      if (have > 7 || (bits >> (32 - have)) != (uint32_t{1} << have) - 1) {
        return HpackError::huffman_bad_padding;
      }
      break;
    }
    if (symbol == kHuffmanEos) return HpackError::huffman_eos;
    if (written == out_capacity) return HpackError::string_too_long;
    out[written++] = static_cast<uint8_t>(symbol);
    buffer <<= length;
    have -= length;
  }
  *out_size = written;
  return HpackError::none;
}

size_t huffman_encoded_size(std::string_view text) {
  uint64_t bits = 0;
  for (const char c : text) bits += kCodeLengths[static_cast<uint8_t>(c)];
  return static_cast<size_t>((bits + 7) / 8);
}

void huffman_encode(std::string& out, std::string_view text) {
  uint64_t pending = 0;  // right-aligned bits not yet written
  int pending_bits = 0;
  for (const char c : text) {
    const auto symbol = static_cast<uint8_t>(c);
    pending = (pending << kCodeLengths[symbol]) | kCode.codes[symbol];
    pending_bits += kCodeLengths[symbol];
    while (pending_bits >= 8) {
      pending_bits -= 8;
      out.push_back(static_cast<char>((pending >> pending_bits) & 0xffu));
    }
  }
  if (pending_bits > 0) {
    const int pad = 8 - pending_bits;
    out.push_back(static_cast<char>(((pending << pad) | ((1u << pad) - 1)) & 0xffu));
  }
}

}  // namespace hammer::http2
