// SPDX-License-Identifier: MIT
#include "http2/hpack_encoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http2/hpack_testing.h"

namespace hammer::http2 {
namespace {

using testing::Fields;
using testing::hex;

TEST(HpackEncoderTest, StaticMatchesAreOneOctet) {
  const std::vector<HeaderField> fields = {
      {":method", "GET"}, {":scheme", "https"}, {":path", "/"}};
  EXPECT_EQ(hpack_encode_block(fields), hex("82 87 84"));
}

TEST(HpackEncoderTest, StaticNamesAreReferencedWithoutIndexing) {
  const std::vector<HeaderField> fields = {{":authority", "www.example.com"}};
  EXPECT_EQ(hpack_encode_block(fields, {.huffman = false}),
            hex("01 0f 7777 772e 6578 616d 706c 652e 636f 6d"));
  // Appendix C.4's Huffman string for the same value.
  EXPECT_EQ(hpack_encode_block(fields), hex("01 8c f1e3 c2e5 f23a 6ba0 ab90 f4ff"));
}

TEST(HpackEncoderTest, NewNamesAreLiteralWithoutIndexing) {
  const std::vector<HeaderField> fields = {{"custom-key", "custom-header"}};
  EXPECT_EQ(hpack_encode_block(fields, {.huffman = false}),
            hex("00 0a 6375 7374 6f6d 2d6b 6579 0d 6375 7374 6f6d 2d68 6561 6465 72"));
}

TEST(HpackEncoderTest, HuffmanOnlyWhereShorter) {
  // Octets above 127 have long codes: the literal is kept raw.
  const std::string binary = "\xff\xfe\xfd";
  const std::vector<HeaderField> fields = {{"x-bin", binary}};
  const std::string block = hpack_encode_block(fields);
  EXPECT_NE(block.find(binary), std::string::npos);
}

TEST(HpackEncoderTest, BlocksDecodeBackToTheFieldsAndLeaveNoTableState) {
  const std::vector<HeaderField> fields = {{":method", "POST"},
                                           {":scheme", "http"},
                                           {":path", "/api/v1/items?id=42"},
                                           {":authority", "127.0.0.1:8080"},
                                           {"user-agent", "hammer"},
                                           {"content-type", "application/json"},
                                           {"x-trace", ""}};
  for (const bool huffman : {false, true}) {
    HpackDecoder decoder;
    Fields decoded;
    ASSERT_EQ(testing::decode(decoder, hpack_encode_block(fields, {.huffman = huffman}), &decoded),
              HpackError::none);
    ASSERT_EQ(decoded.size(), fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      EXPECT_EQ(decoded[i].first, fields[i].name);
      EXPECT_EQ(decoded[i].second, fields[i].value);
    }
    EXPECT_EQ(decoder.table().entries(), 0u);
  }
}

TEST(HpackEncoderTest, TableSizeUpdateIsAcceptedByADecoder) {
  std::string block;
  hpack_encode_table_size_update(block, 0);
  EXPECT_EQ(block, hex("20"));
  block += hex("82");
  HpackDecoder decoder;
  Fields decoded;
  ASSERT_EQ(testing::decode(decoder, block, &decoded), HpackError::none);
  EXPECT_EQ(decoder.table().max_size(), 0u);
}

}  // namespace
}  // namespace hammer::http2
