// SPDX-License-Identifier: MIT
// Prefix integers (RFC 7541 §5.1, Appendix C.1) and the Huffman code (§5.2, Appendix B).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "http2/hpack_huffman.h"
#include "http2/hpack_integer.h"
#include "http2/hpack_testing.h"

namespace hammer::http2 {
namespace {

using testing::hex;

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

TEST(HpackIntegerTest, AppendixC1ExamplesEncode) {
  std::string out;
  encode_integer(out, 10, 5, 0x00);
  EXPECT_EQ(out, hex("0a"));
  out.clear();
  encode_integer(out, 1337, 5, 0x00);
  EXPECT_EQ(out, hex("1f9a0a"));
  out.clear();
  encode_integer(out, 42, 8, 0x00);
  EXPECT_EQ(out, hex("2a"));
}

TEST(HpackIntegerTest, AppendixC1ExamplesDecodeAndAdvance) {
  const std::string data = hex("ea 1f9a0a ff");  // 10 under flag bits, 1337, then junk
  size_t pos = 0;
  uint64_t value = 0;
  EXPECT_EQ(decode_integer(bytes(data), data.size(), &pos, 5, &value), HpackError::none);
  EXPECT_EQ(value, 10u);
  EXPECT_EQ(pos, 1u);
  EXPECT_EQ(decode_integer(bytes(data), data.size(), &pos, 5, &value), HpackError::none);
  EXPECT_EQ(value, 1337u);
  EXPECT_EQ(pos, 4u);
}

TEST(HpackIntegerTest, RoundTripsAtEveryPrefixAroundTheBoundaries) {
  for (int prefix = 1; prefix <= 8; ++prefix) {
    for (const uint64_t value : {uint64_t{0}, uint64_t{1}, (uint64_t{1} << prefix) - 2,
                                 (uint64_t{1} << prefix) - 1, uint64_t{1} << prefix,
                                 uint64_t{127} + ((uint64_t{1} << prefix) - 1), uint64_t{16384},
                                 kMaxHpackInteger}) {
      std::string out;
      encode_integer(out, value, prefix, 0x00);
      size_t pos = 0;
      uint64_t decoded = 0;
      ASSERT_EQ(decode_integer(bytes(out), out.size(), &pos, prefix, &decoded), HpackError::none);
      EXPECT_EQ(decoded, value) << "prefix " << prefix;
      EXPECT_EQ(pos, out.size());
    }
  }
}

TEST(HpackIntegerTest, TruncatedContinuationIsTruncated) {
  for (const char* text : {"", "1f", "1f9a", "1fff80"}) {
    const std::string data = hex(text);
    size_t pos = 0;
    uint64_t value = 0;
    EXPECT_EQ(decode_integer(bytes(data), data.size(), &pos, 5, &value), HpackError::truncated)
        << text;
  }
}

TEST(HpackIntegerTest, OverlongOrHugeIntegersOverflow) {
  // 31 + 0x61 + ... is 2^32, one past the bound; six continuation octets are never needed.
  for (const char* text : {"1f e1ffffff0f", "1f ffffffffff0f", "1f 808080808000"}) {
    const std::string data = hex(text);
    size_t pos = 0;
    uint64_t value = 0;
    EXPECT_EQ(decode_integer(bytes(data), data.size(), &pos, 5, &value),
              HpackError::integer_overflow)
        << text;
  }
}

TEST(HpackHuffmanTest, CodeIsCompleteAndMatchesAppendixBRows) {
  // A complete prefix code has a Kraft sum of exactly 1: any wrong length breaks it.
  uint64_t kraft = 0;  // in units of 2^-30
  for (int symbol = 0; symbol < kHuffmanSymbols; ++symbol) {
    kraft += uint64_t{1} << (30 - huffman_code(symbol).length);
  }
  EXPECT_EQ(kraft, uint64_t{1} << 30);
  struct Row {
    int symbol;
    uint32_t bits;
    int length;
  };
  for (const Row row : {Row{0, 0x1ff8, 13}, Row{1, 0x7fffd8, 23}, Row{9, 0xffffea, 24},
                        Row{10, 0x3ffffffc, 30}, Row{' ', 0x14, 6}, Row{'0', 0x0, 5},
                        Row{'a', 0x3, 5}, Row{'z', 0x7b, 7}, Row{'X', 0xfc, 8},
                        Row{'~', 0x1ffd, 13}, Row{kHuffmanEos, 0x3fffffff, 30}}) {
    EXPECT_EQ(huffman_code(row.symbol).bits, row.bits) << row.symbol;
    EXPECT_EQ(huffman_code(row.symbol).length, row.length) << row.symbol;
  }
}

TEST(HpackHuffmanTest, EveryOctetRoundTrips) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  std::string encoded;
  huffman_encode(encoded, all);
  EXPECT_EQ(encoded.size(), huffman_encoded_size(all));
  std::string decoded(all.size(), '\0');
  size_t size = 0;
  ASSERT_EQ(huffman_decode(bytes(encoded), encoded.size(),
                           reinterpret_cast<uint8_t*>(decoded.data()), decoded.size(), &size),
            HpackError::none);
  EXPECT_EQ(size, all.size());
  EXPECT_EQ(decoded, all);
}

TEST(HpackHuffmanTest, AppendixC4StringDecodes) {
  const std::string encoded = hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff");
  uint8_t out[64];
  size_t size = 0;
  ASSERT_EQ(huffman_decode(bytes(encoded), encoded.size(), out, sizeof out, &size),
            HpackError::none);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), size), "www.example.com");
}

HpackError decode_hex(const char* text) {
  const std::string encoded = hex(text);
  uint8_t out[64];
  size_t size = 0;
  return huffman_decode(bytes(encoded), encoded.size(), out, sizeof out, &size);
}

TEST(HpackHuffmanTest, BadPaddingIsRejected) {
  // 'a' is 00011: "00011 000" pads with zeros, not the EOS prefix.
  EXPECT_EQ(decode_hex("18"), HpackError::huffman_bad_padding);
  // 'a' then a full octet of ones: eight bits of padding is more than 7.
  EXPECT_EQ(decode_hex("1f ff"), HpackError::huffman_bad_padding);
  // Correct padding: "00011 111".
  EXPECT_EQ(decode_hex("1f"), HpackError::none);
}

TEST(HpackHuffmanTest, EosInsideAStringIsAnError) {
  // 30 ones (EOS) then two ones of padding.
  EXPECT_EQ(decode_hex("ffffffff"), HpackError::huffman_eos);
}

TEST(HpackHuffmanTest, OutputBoundIsRespected) {
  std::string encoded;
  huffman_encode(encoded, "0000000000");
  uint8_t out[4];
  size_t size = 0;
  EXPECT_EQ(huffman_decode(bytes(encoded), encoded.size(), out, sizeof out, &size),
            HpackError::string_too_long);
}

// A bit-at-a-time decoder straight from the code table, to hold the fast one against: the same
// output or the same error for any input.
HpackError reference_decode(const std::string& in, std::string* out) {
  static const std::vector<std::map<uint32_t, int>> by_length = [] {
    std::vector<std::map<uint32_t, int>> codes(31);
    for (int s = 0; s < kHuffmanSymbols; ++s) codes[huffman_code(s).length][huffman_code(s).bits] = s;
    return codes;
  }();
  const auto bit = [&](size_t i) { return (static_cast<uint8_t>(in[i / 8]) >> (7 - i % 8)) & 1u; };
  const size_t total = in.size() * 8;
  size_t at = 0;
  while (at < total) {
    uint32_t code = 0;
    int symbol = -1;
    int length = 0;
    while (symbol < 0 && at + static_cast<size_t>(length) < total && length < 30) {
      code = (code << 1) | bit(at + static_cast<size_t>(length));
      ++length;
      if (const auto found = by_length[static_cast<size_t>(length)].find(code);
          found != by_length[static_cast<size_t>(length)].end()) {
        symbol = found->second;
      }
    }
    if (symbol < 0) {
      // Cut off by the end: padding, which must be under 8 bits of ones.
      const size_t left = total - at;
      if (left > 7 || code != (uint32_t{1} << left) - 1) return HpackError::huffman_bad_padding;
      return HpackError::none;
    }
    if (symbol == kHuffmanEos) return HpackError::huffman_eos;
    out->push_back(static_cast<char>(symbol));
    at += static_cast<size_t>(length);
  }
  return HpackError::none;
}

TEST(HpackHuffmanTest, TheTableDecoderAgreesWithABitByBitOneOnAnyInput) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  const auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string input;
    if (round % 2 == 0) {
      // A real string's code, sometimes with a cut or a flipped bit.
      std::string text;
      const size_t length = next() % 40;
      for (size_t i = 0; i < length; ++i) text.push_back(static_cast<char>(next() % (round % 4 ? 128 : 256)));
      huffman_encode(input, text);
      if (!input.empty() && next() % 3 == 0) input[next() % input.size()] ^= static_cast<char>(1u << (next() % 8));
      if (!input.empty() && next() % 5 == 0) input.pop_back();
    } else {
      const size_t length = next() % 12;
      for (size_t i = 0; i < length; ++i) input.push_back(static_cast<char>(next()));
    }
    std::string expected;
    const HpackError expected_error = reference_decode(input, &expected);
    uint8_t out[256];
    size_t size = 0;
    const HpackError error = huffman_decode(bytes(input), input.size(), out, sizeof out, &size);
    ASSERT_EQ(error, expected_error) << "input " << hex(input);
    if (error == HpackError::none) {
      ASSERT_EQ(std::string(reinterpret_cast<const char*>(out), size), expected) << hex(input);
    }
  }
}

}  // namespace
}  // namespace hammer::http2
