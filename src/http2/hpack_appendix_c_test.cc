// SPDX-License-Identifier: MIT
// Every example of RFC 7541 Appendix C (C.2 to C.6): each block decodes to the printed header
// list and leaves the dynamic table exactly as printed (entries newest first, and its size).
// The request and response sequences run on one decoder each, as the RFC's do, so a wrong
// eviction or index in an early block shows up in a later one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http2/hpack_decoder.h"
#include "http2/hpack_testing.h"

namespace hammer::http2 {
namespace {

using testing::Fields;
using testing::hex;
using testing::table_of;

struct Step {
  const char* block;
  Fields headers;
  Fields table;  // after the block, newest first
  size_t table_size;
};

void run_sequence(HpackDecoder& decoder, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("block " + std::to_string(i + 1));
    Fields fields;
    ASSERT_EQ(testing::decode(decoder, hex(steps[i].block), &fields), HpackError::none);
    EXPECT_EQ(fields, steps[i].headers);
    EXPECT_EQ(table_of(decoder), steps[i].table);
    EXPECT_EQ(decoder.table().size(), steps[i].table_size);
  }
}

TEST(HpackAppendixCTest, C2_1LiteralWithIndexing) {
  HpackDecoder decoder;
  run_sequence(decoder, {{"400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
                          {{"custom-key", "custom-header"}},
                          {{"custom-key", "custom-header"}},
                          55}});
}

TEST(HpackAppendixCTest, C2_2LiteralWithoutIndexing) {
  HpackDecoder decoder;
  run_sequence(decoder,
               {{"040c 2f73 616d 706c 652f 7061 7468", {{":path", "/sample/path"}}, {}, 0}});
}

TEST(HpackAppendixCTest, C2_3LiteralNeverIndexed) {
  HpackDecoder decoder;
  run_sequence(decoder,
               {{"1008 7061 7373 776f 7264 0673 6563 7265 74", {{"password", "secret"}}, {}, 0}});
}

TEST(HpackAppendixCTest, C2_4IndexedField) {
  HpackDecoder decoder;
  run_sequence(decoder, {{"82", {{":method", "GET"}}, {}, 0}});
}

const Fields kRequest1 = {
    {":method", "GET"}, {":scheme", "http"}, {":path", "/"}, {":authority", "www.example.com"}};
const Fields kRequest2 = {{":method", "GET"},
                          {":scheme", "http"},
                          {":path", "/"},
                          {":authority", "www.example.com"},
                          {"cache-control", "no-cache"}};
const Fields kRequest3 = {{":method", "GET"},
                          {":scheme", "https"},
                          {":path", "/index.html"},
                          {":authority", "www.example.com"},
                          {"custom-key", "custom-value"}};
const Fields kTable1 = {{":authority", "www.example.com"}};
const Fields kTable2 = {{"cache-control", "no-cache"}, {":authority", "www.example.com"}};
const Fields kTable3 = {{"custom-key", "custom-value"},
                        {"cache-control", "no-cache"},
                        {":authority", "www.example.com"}};

TEST(HpackAppendixCTest, C3RequestsWithoutHuffman) {
  HpackDecoder decoder;
  run_sequence(decoder,
               {{"8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", kRequest1, kTable1, 57},
                {"8286 84be 5808 6e6f 2d63 6163 6865", kRequest2, kTable2, 110},
                {"8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
                 kRequest3, kTable3, 164}});
}

TEST(HpackAppendixCTest, C4RequestsWithHuffman) {
  HpackDecoder decoder;
  run_sequence(decoder,
               {{"8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", kRequest1, kTable1, 57},
                {"8286 84be 5886 a8eb 1064 9cbf", kRequest2, kTable2, 110},
                {"8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", kRequest3,
                 kTable3, 164}});
}

const char kDate1[] = "Mon, 21 Oct 2013 20:13:21 GMT";
const char kDate2[] = "Mon, 21 Oct 2013 20:13:22 GMT";
const char kLocation[] = "https://www.example.com";
const char kCookie[] = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

const Fields kResponse1 = {
    {":status", "302"}, {"cache-control", "private"}, {"date", kDate1}, {"location", kLocation}};
const Fields kResponse2 = {
    {":status", "307"}, {"cache-control", "private"}, {"date", kDate1}, {"location", kLocation}};
const Fields kResponse3 = {{":status", "200"},
                           {"cache-control", "private"},
                           {"date", kDate2},
                           {"location", kLocation},
                           {"content-encoding", "gzip"},
                           {"set-cookie", kCookie}};
const Fields kResponseTable1 = {{"location", kLocation},
                                {"date", kDate1},
                                {"cache-control", "private"},
                                {":status", "302"}};
const Fields kResponseTable2 = {{":status", "307"},
                                {"location", kLocation},
                                {"date", kDate1},
                                {"cache-control", "private"}};
const Fields kResponseTable3 = {
    {"set-cookie", kCookie}, {"content-encoding", "gzip"}, {"date", kDate2}};

// C.5 and C.6 run with a 256-octet table, so the third response evicts.
TEST(HpackAppendixCTest, C5ResponsesWithoutHuffman) {
  HpackDecoder decoder(256);
  run_sequence(
      decoder,
      {{"4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032"
        "303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63"
        "6f6d",
        kResponse1, kResponseTable1, 222},
       {"4803 3330 37c1 c0bf", kResponse2, kResponseTable2, 222},
       {"88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0"
        "5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851"
        "5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
        kResponse3, kResponseTable3, 215}});
}

TEST(HpackAppendixCTest, C6ResponsesWithHuffman) {
  HpackDecoder decoder(256);
  run_sequence(
      decoder,
      {{"4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b"
        "ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
        kResponse1, kResponseTable1, 222},
       {"4883 640e ffc1 c0bf", kResponse2, kResponseTable2, 222},
       {"88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad"
        "94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160"
        "65c0 03ed 4ee5 b106 3d50 07",
        kResponse3, kResponseTable3, 215}});
}

}  // namespace
}  // namespace hammer::http2
