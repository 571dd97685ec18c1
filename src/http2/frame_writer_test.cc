// SPDX-License-Identifier: MIT
// The serialisers, checked octet by octet against RFC 9113's layouts and by feeding what they
// write back through FrameParser.
#include "http2/frame_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http2/frame_testing.h"

namespace hammer::http2 {
namespace {

using namespace std::string_literals;

std::string as_string(const uint8_t* out, size_t size) {
  return {reinterpret_cast<const char*>(out), size};
}

TEST(FrameWriterTest, PrefaceIsTheRfcString) {
  EXPECT_EQ(kClientPreface.size(), 24u);
  EXPECT_EQ(kClientPreface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
}

TEST(FrameWriterTest, SettingsLayout) {
  uint8_t out[64];
  const std::vector<Setting> settings = {{SettingId::enable_push, 0},
                                         {SettingId::initial_window_size, 0x01020304}};
  const size_t size = write_settings(out, settings);
  EXPECT_EQ(as_string(out, size), "\0\0\x0c\x04\0\0\0\0\0"
                                  "\0\x02\0\0\0\0"
                                  "\0\x04\x01\x02\x03\x04"s);
  EXPECT_EQ(as_string(out, write_settings_ack(out)), "\0\0\0\x04\x01\0\0\0\0"s);
}

TEST(FrameWriterTest, SmallFramesLayout) {
  uint8_t out[64];
  EXPECT_EQ(as_string(out, write_window_update(out, 3, 0x10000)),
            "\0\0\x04\x08\0\0\0\0\x03\0\x01\0\0"s);
  EXPECT_EQ(as_string(out, write_rst_stream(out, 5, ErrorCode::cancel)),
            "\0\0\x04\x03\0\0\0\0\x05\0\0\0\x08"s);
  EXPECT_EQ(as_string(out, write_goaway(out, 7, ErrorCode::no_error)),
            "\0\0\x08\x07\0\0\0\0\0\0\0\0\x07\0\0\0\0"s);
  EXPECT_EQ(as_string(out, write_ping(out, {1, 2, 3, 4, 5, 6, 7, 8}, true)),
            "\0\0\x08\x06\x01\0\0\0\0\x01\x02\x03\x04\x05\x06\x07\x08"s);
  EXPECT_EQ(as_string(out, write_data_header(out, 1, 300, true)), "\0\x01\x2c\0\x01\0\0\0\x01"s);
}

TEST(FrameWriterTest, WrittenFramesParseBack) {
  std::vector<uint8_t> out(256);
  size_t at = 0;
  const std::vector<Setting> settings = {{SettingId::max_concurrent_streams, 100}};
  at += write_settings(out.data() + at, settings);
  at += write_settings_ack(out.data() + at);
  at += write_window_update(out.data() + at, 0, 1000);
  at += write_ping(out.data() + at, {9, 9, 9, 9, 9, 9, 9, 9}, false);
  at += write_rst_stream(out.data() + at, 3, ErrorCode::refused_stream);
  at += write_goaway(out.data() + at, 9, ErrorCode::enhance_your_calm);
  at += write_data_header(out.data() + at, 1, 2, true);
  out[at++] = 'o';
  out[at++] = 'k';
  const testing::Outcome outcome =
      testing::run(as_string(out.data(), at), {});
  EXPECT_EQ(outcome.error, FrameError::none);
  EXPECT_EQ(outcome.events,
            (std::vector<std::string>{"settings s0 L6 3=100", "settings_ack s0 L0",
                                      "window_update s0 L4 +1000", "ping s0 L8 0909090909090909",
                                      "rst s3 L4 code7", "goaway last9 code11 debug0",
                                      "data s1 L2 n2 end"}));
}

TEST(FrameWriterTest, HeadersSplitIntoContinuationsByMaxFrameSize) {
  std::vector<uint8_t> block(40000);
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<uint8_t>(i * 7);
  const size_t expected = headers_frames_bytes(block.size(), 16384);
  EXPECT_EQ(expected, 3 * kFrameHeaderBytes + 40000);
  std::vector<uint8_t> out(expected);
  ASSERT_EQ(write_headers(out.data(), 5, block, true, 16384), expected);
  // HEADERS (END_STREAM, 16384), CONTINUATION (16384), CONTINUATION (END_HEADERS, 7232).
  EXPECT_EQ(out[3], 0x1);
  EXPECT_EQ(out[4], 0x1);
  EXPECT_EQ(out[9 + 16384 + 3], 0x9);
  EXPECT_EQ(out[9 + 16384 + 4], 0x0);
  EXPECT_EQ(out[2 * (9 + 16384) + 3], 0x9);
  EXPECT_EQ(out[2 * (9 + 16384) + 4], 0x4);
  FrameParser parser(65536);
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(out.data(), out.size(), &consumed), FrameStatus::frame);
  EXPECT_EQ(consumed, out.size());
  const Frame& frame = parser.frame();
  EXPECT_EQ(frame.kind, FrameKind::headers);
  EXPECT_EQ(frame.stream_id, 5u);
  EXPECT_TRUE(frame.end_stream);
  EXPECT_EQ(std::vector<uint8_t>(frame.header_block.begin(), frame.header_block.end()), block);
}

TEST(FrameWriterTest, EmptyAndSingleFrameHeaderBlocks) {
  uint8_t out[64];
  EXPECT_EQ(headers_frames_bytes(0, 16384), kFrameHeaderBytes);
  EXPECT_EQ(as_string(out, write_headers(out, 1, {}, false, 16384)), "\0\0\0\x01\x04\0\0\0\x01"s);
  const uint8_t block[] = {0x82, 0x87};
  EXPECT_EQ(as_string(out, write_headers(out, 3, block, false, 16384)),
            "\0\0\x02\x01\x04\0\0\0\x03\x82\x87"s);
}

}  // namespace
}  // namespace hammer::http2
