// SPDX-License-Identifier: MIT
// Prefix integers (RFC 7541 §5.1, Appendix C.1) and the Huffman code (§5.2, Appendix B).
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace hammer::http2
