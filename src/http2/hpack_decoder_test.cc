// SPDX-License-Identifier: MIT
// HpackDecoder on malformed and hostile blocks: each is a typed error, never a crash or growth.
// The happy paths are RFC 7541 Appendix C (hpack_appendix_c_test.cc).
#include "http2/hpack_decoder.h"

#include <gtest/gtest.h>

#include <string>

#include "http2/hpack_encoder.h"
#include "http2/hpack_testing.h"

namespace hammer::http2 {
namespace {

using testing::Fields;
using testing::hex;

HpackError decode_hex(HpackDecoder& decoder, const char* text, Fields* fields = nullptr) {
  Fields ignored;
  return testing::decode(decoder, hex(text), fields ? fields : &ignored);
}

TEST(HpackDecoderTest, TruncatedRepresentationsAreTruncated) {
  for (const char* text : {"ff", "40", "400a 6375", "4001 61", "4001 6101", "04", "040c 2f73"}) {
    HpackDecoder decoder;
    EXPECT_EQ(decode_hex(decoder, text), HpackError::truncated) << text;
  }
}

TEST(HpackDecoderTest, IntegerOverflowInAnIndex) {
  HpackDecoder decoder;
  EXPECT_EQ(decode_hex(decoder, "ff ffffffffff0f"), HpackError::integer_overflow);
}

TEST(HpackDecoderTest, IndexZeroAndPastTheTablesAreOutOfRange) {
  for (const char* text : {"80", "be", "ff 00", "7e 00", "0f 2f 00"}) {
    HpackDecoder decoder;  // empty dynamic table: 62 and above do not exist
    EXPECT_EQ(decode_hex(decoder, text), HpackError::index_out_of_range) << text;
  }
  HpackDecoder decoder;
  ASSERT_EQ(decode_hex(decoder, "4001 6101 62"), HpackError::none);  // a: b is index 62
  Fields fields;
  EXPECT_EQ(decode_hex(decoder, "be", &fields), HpackError::none);
  EXPECT_EQ(fields, (Fields{{"a", "b"}}));
  EXPECT_EQ(decode_hex(decoder, "bf"), HpackError::index_out_of_range);
}

TEST(HpackDecoderTest, BadHuffmanInALiteralIsReported) {
  HpackDecoder padding;
  EXPECT_EQ(decode_hex(padding, "0001 61 81 18"), HpackError::huffman_bad_padding);
  HpackDecoder eos;
  EXPECT_EQ(decode_hex(eos, "0001 61 84 ffffffff"), HpackError::huffman_eos);
}

TEST(HpackDecoderTest, SizeUpdateWithinTheLimitShrinksTheTable) {
  HpackDecoder decoder;
  ASSERT_EQ(decode_hex(decoder, "4001 6101 62 4001 6301 64"), HpackError::none);
  EXPECT_EQ(decoder.table().entries(), 2u);
  // 34 octets hold one entry: the older (a: b) goes.
  ASSERT_EQ(decode_hex(decoder, "3f03 82"), HpackError::none);
  EXPECT_EQ(decoder.table().max_size(), 34u);
  EXPECT_EQ(testing::table_of(decoder), (Fields{{"c", "d"}}));
  // Two updates at the start of a block are allowed (§4.2): to 0 and back to 4096.
  ASSERT_EQ(decode_hex(decoder, "20 3fe11f 82"), HpackError::none);
  EXPECT_EQ(decoder.table().entries(), 0u);
  EXPECT_EQ(decoder.table().max_size(), 4096u);
}

TEST(HpackDecoderTest, SizeUpdateAboveOurSettingIsAnError) {
  HpackDecoder decoder(4096);
  EXPECT_EQ(decode_hex(decoder, "3fe21f"), HpackError::table_size_update_above_limit);  // 4097
}

TEST(HpackDecoderTest, SizeUpdateAfterAFieldIsAnError) {
  HpackDecoder decoder;
  EXPECT_EQ(decode_hex(decoder, "82 20"), HpackError::table_size_update_not_at_start);
}

TEST(HpackDecoderTest, LoweredLimitMustBeAcknowledgedByTheNextBlock) {
  HpackDecoder decoder;
  decoder.set_header_table_size_limit(100);
  EXPECT_EQ(decode_hex(decoder, "82"), HpackError::table_size_update_missing);
  HpackDecoder again;
  again.set_header_table_size_limit(100);
  EXPECT_EQ(decode_hex(again, "3f45 82"), HpackError::none);  // update to 100
  EXPECT_EQ(again.table().max_size(), 100u);
  EXPECT_EQ(decode_hex(again, "82"), HpackError::none);
}

TEST(HpackDecoderTest, HeaderListOverTheBoundIsABombNotMemory) {
  // Each indexed reference to one 1000-octet entry adds 1000 + 32 octets to the list; a block
  // of such one-octet references would decode to megabytes. The bound stops it.
  HpackDecoder decoder(4096, 16384);
  std::string block;
  hpack_encode_table_size_update(block, 4096);
  block += hex("40 01 78");  // literal with indexing, name "x"
  block += hex("7f e9 06");  // value length 127 + 873 = 1000, not Huffman
  block += std::string(1000, 'v');
  for (int i = 0; i < 100; ++i) block += hex("be");
  Fields fields;
  EXPECT_EQ(testing::decode(decoder, block, &fields), HpackError::header_list_too_large);
  EXPECT_EQ(fields.size(), 15u);  // 15 * 1033 fits in 16384, the 16th does not
  EXPECT_LE(decoder.last_header_list_bytes(), 16384u + 1033u);
}

TEST(HpackDecoderTest, OneLiteralLargerThanTheBoundIsTooLarge) {
  HpackDecoder decoder(4096, 64);
  std::string block = hex("00 01 61 7f 22");  // value length 127 + 34 = 161
  block += std::string(161, 'v');
  Fields fields;
  EXPECT_EQ(testing::decode(decoder, block, &fields), HpackError::header_list_too_large);
  EXPECT_TRUE(fields.empty());
}

TEST(HpackDecoderTest, EntryLargerThanTheTableEmptiesIt) {
  HpackDecoder decoder(64);
  ASSERT_EQ(decode_hex(decoder, "4001 6101 62"), HpackError::none);
  std::string block = hex("40 01 61 28") + std::string(40, 'v');  // 1 + 40 + 32 > 64
  Fields fields;
  ASSERT_EQ(testing::decode(decoder, block, &fields), HpackError::none);
  EXPECT_EQ(fields.size(), 1u);
  EXPECT_EQ(decoder.table().entries(), 0u);
  EXPECT_EQ(decoder.table().size(), 0u);
}

TEST(HpackDecoderTest, IndexedNameSurvivesEvictionOfItsOwnEntry) {
  // A 70-octet table holds one entry of name "aaaa..." (36 + 32); a new literal naming it by
  // index 62 evicts it while being inserted: the new entry must still carry the right name.
  HpackDecoder decoder(70);
  ASSERT_EQ(decode_hex(decoder, "40 04 6e616d65 00"), HpackError::none);  // name: "" (36)
  Fields fields;
  ASSERT_EQ(decode_hex(decoder, "7e 02 7676", &fields), HpackError::none);  // name[62]: vv
  EXPECT_EQ(fields, (Fields{{"name", "vv"}}));
  EXPECT_EQ(testing::table_of(decoder), (Fields{{"name", "vv"}}));
}

TEST(HpackDecoderTest, ManyInsertsKeepTheTableWithinItsSize) {
  // Exercises arena compaction: thousands of entries through a small table, each checked.
  HpackDecoder decoder(200);
  for (int i = 0; i < 5000; ++i) {
    const std::string value = std::to_string(i);
    std::string block = hex("40 01 6b");
    block.push_back(static_cast<char>(value.size()));
    block += value;
    Fields fields;
    ASSERT_EQ(testing::decode(decoder, block, &fields), HpackError::none);
    ASSERT_LE(decoder.table().size(), 200u);
    ASSERT_EQ(decoder.table().entry(1).value, value);
    if (i > 0) {
      ASSERT_EQ(decoder.table().entry(2).value, std::to_string(i - 1));
    }
  }
}

}  // namespace
}  // namespace hammer::http2
