// SPDX-License-Identifier: MIT
// FrameParser against a table of inputs, one row per behaviour. Every row runs whole, split
// into two feeds at every offset, and one byte per feed; all must agree with the row and with
// each other, down to the byte where an error was found: slicing never matters.
#include "http2/frame_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http2/frame_testing.h"

namespace hammer::http2 {
namespace {

using namespace std::string_literals;
using testing::frame_bytes;
using testing::Outcome;
using testing::setting;
using testing::u32;

struct Row {
  std::string name;
  std::string bytes;
  std::vector<std::string> events = {};
  FrameError error = FrameError::none;
  size_t error_offset = 0;
};

void PrintTo(const Row& row, std::ostream* out) { *out << row.name; }

constexpr uint8_t kData = 0, kHeaders = 1, kPriority = 2, kRst = 3, kSettings = 4, kPush = 5,
                  kPing = 6, kGoaway = 7, kWindow = 8, kContinuation = 9;
constexpr uint8_t kEndStream = 0x1, kAck = 0x1, kEndHeaders = 0x4, kPadded = 0x8, kPrio = 0x20;

const std::string kPingData = "\x01\x02\x03\x04\x05\x06\x07\x08";
const std::string kPingFrame = frame_bytes(kPing, 0, 0, kPingData);
const std::string kPingEvent = "ping s0 L8 0102030405060708";

std::vector<Row> rows() {
  return {
      // DATA
      {.name = "data", .bytes = frame_bytes(kData, kEndStream, 1, "hello"),
       .events = {"data s1 L5 n5 end"}},
      {.name = "data_empty", .bytes = frame_bytes(kData, 0, 3, ""), .events = {"data s3 L0 n0"}},
      {.name = "data_padded",
       .bytes = frame_bytes(kData, kPadded | kEndStream, 1, "\x03" "abc\0\0\0"s),
       .events = {"data s1 L7 n3 end"}},
      {.name = "data_all_padding", .bytes = frame_bytes(kData, kPadded, 1, "\x03\0\0\0"s),
       .events = {"data s1 L4 n0"}},
      {.name = "data_padding_too_long", .bytes = frame_bytes(kData, kPadded, 1, "\x05" "abc"),
       .error = FrameError::bad_padding, .error_offset = 10},
      {.name = "data_padded_without_pad_length", .bytes = frame_bytes(kData, kPadded, 1, ""),
       .error = FrameError::bad_frame_length, .error_offset = 9},
      {.name = "data_on_stream_zero", .bytes = frame_bytes(kData, 0, 0, "x"),
       .error = FrameError::stream_id_required, .error_offset = 9},
      {.name = "reserved_bit_of_stream_id_is_ignored",
       .bytes = frame_bytes(kData, 0, 0x80000005u, "x"), .events = {"data s5 L1 n1"}},

      // HEADERS and CONTINUATION
      {.name = "headers", .bytes = frame_bytes(kHeaders, kEndHeaders | kEndStream, 1, "\x82\x86"),
       .events = {"headers s1 L2 8286 end"}},
      {.name = "headers_padded_with_priority",
       .bytes = frame_bytes(kHeaders, kEndHeaders | kPadded | kPrio, 3,
                            "\x02"s + u32(1) + "\x10" "\x82\x84" "\0\0"s),
       .events = {"headers s3 L10 8284"}},
      {.name = "headers_padding_too_long",
       .bytes = frame_bytes(kHeaders, kEndHeaders | kPadded, 1, "\x04\x82\x84"),
       .error = FrameError::bad_padding, .error_offset = 10},
      {.name = "headers_priority_without_room",
       .bytes = frame_bytes(kHeaders, kEndHeaders | kPrio, 1, "\x00\x00"s),
       .error = FrameError::bad_frame_length, .error_offset = 9},
      {.name = "headers_then_continuations",
       .bytes = frame_bytes(kHeaders, kEndStream, 1, "\x82") +
                frame_bytes(kContinuation, 0, 1, "\x86") +
                frame_bytes(kContinuation, kEndHeaders, 1, "\x84\x41"),
       .events = {"headers s1 L4 82868441 end"}},
      {.name = "empty_continuation_ends_the_block",
       .bytes = frame_bytes(kHeaders, 0, 1, "\x88") +
                frame_bytes(kContinuation, kEndHeaders, 1, ""),
       .events = {"headers s1 L1 88"}},
      {.name = "data_inside_a_header_block",
       .bytes = frame_bytes(kHeaders, 0, 1, "\x82") + frame_bytes(kData, 0, 1, "x"),
       .error = FrameError::continuation_expected, .error_offset = 19},
      {.name = "continuation_on_another_stream",
       .bytes = frame_bytes(kHeaders, 0, 1, "\x82") +
                frame_bytes(kContinuation, kEndHeaders, 3, ""),
       .error = FrameError::continuation_expected, .error_offset = 19},
      {.name = "unknown_frame_inside_a_header_block",
       .bytes = frame_bytes(kHeaders, 0, 1, "\x82") + frame_bytes(0x42, 0, 0, ""),
       .error = FrameError::continuation_expected, .error_offset = 19},
      {.name = "continuation_without_headers",
       .bytes = frame_bytes(kContinuation, kEndHeaders, 1, "\x82"),
       .error = FrameError::unexpected_continuation, .error_offset = 9},
      {.name = "headers_on_stream_zero", .bytes = frame_bytes(kHeaders, kEndHeaders, 0, "\x82"),
       .error = FrameError::stream_id_required, .error_offset = 9},

      // SETTINGS
      {.name = "settings",
       .bytes = frame_bytes(kSettings, 0, 0, setting(3, 100) + setting(4, 1 << 20) +
                                                 setting(5, 32768) + setting(0x99, 7) +
                                                 setting(3, 50)),
       .events = {"settings s0 L30 3=50 4=1048576 5=32768"}},
      {.name = "settings_empty", .bytes = frame_bytes(kSettings, 0, 0, ""),
       .events = {"settings s0 L0"}},
      {.name = "settings_ack", .bytes = frame_bytes(kSettings, kAck, 0, ""),
       .events = {"settings_ack s0 L0"}},
      {.name = "settings_ack_with_payload", .bytes = frame_bytes(kSettings, kAck, 0, setting(3, 1)),
       .error = FrameError::settings_ack_with_payload, .error_offset = 9},
      {.name = "settings_length_not_multiple_of_6",
       .bytes = frame_bytes(kSettings, 0, 0, setting(3, 1).substr(0, 5)),
       .error = FrameError::bad_frame_length, .error_offset = 9},
      {.name = "settings_on_a_stream", .bytes = frame_bytes(kSettings, 0, 1, ""),
       .error = FrameError::stream_id_forbidden, .error_offset = 9},
      {.name = "settings_enable_push_from_server",
       .bytes = frame_bytes(kSettings, 0, 0, setting(2, 0) + setting(2, 1)),
       .error = FrameError::bad_enable_push, .error_offset = 21},
      {.name = "settings_initial_window_too_large",
       .bytes = frame_bytes(kSettings, 0, 0, setting(4, 0x80000000u)),
       .error = FrameError::bad_initial_window_size, .error_offset = 15},
      {.name = "settings_initial_window_at_max",
       .bytes = frame_bytes(kSettings, 0, 0, setting(4, 0x7fffffffu)),
       .events = {"settings s0 L6 4=2147483647"}},
      {.name = "settings_max_frame_size_too_small",
       .bytes = frame_bytes(kSettings, 0, 0, setting(5, 16383)),
       .error = FrameError::bad_max_frame_size, .error_offset = 15},
      {.name = "settings_max_frame_size_too_large",
       .bytes = frame_bytes(kSettings, 0, 0, setting(5, 16777216)),
       .error = FrameError::bad_max_frame_size, .error_offset = 15},

      // PING, GOAWAY, RST_STREAM
      {.name = "ping", .bytes = kPingFrame, .events = {kPingEvent}},
      {.name = "ping_ack", .bytes = frame_bytes(kPing, kAck, 0, kPingData),
       .events = {"ping_ack s0 L8 0102030405060708"}},
      {.name = "ping_short", .bytes = frame_bytes(kPing, 0, 0, "1234567"),
       .error = FrameError::bad_frame_length, .error_offset = 9},
      {.name = "ping_on_a_stream", .bytes = frame_bytes(kPing, 0, 1, kPingData),
       .error = FrameError::stream_id_forbidden, .error_offset = 9},
      {.name = "goaway_with_debug_data",
       .bytes = frame_bytes(kGoaway, 0, 0, u32(7) + u32(11) + "bye now"),
       .events = {"goaway last7 code11 debug7"}},
      {.name = "goaway_short", .bytes = frame_bytes(kGoaway, 0, 0, u32(7)),
       .error = FrameError::bad_frame_length, .error_offset = 9},
      {.name = "goaway_on_a_stream", .bytes = frame_bytes(kGoaway, 0, 1, u32(7) + u32(0)),
       .error = FrameError::stream_id_forbidden, .error_offset = 9},
      {.name = "rst_stream", .bytes = frame_bytes(kRst, 0, 5, u32(8)),
       .events = {"rst s5 L4 code8"}},
      {.name = "rst_stream_unknown_code_is_kept", .bytes = frame_bytes(kRst, 0, 5, u32(0xabc)),
       .events = {"rst s5 L4 code2748"}},
      {.name = "rst_stream_wrong_length", .bytes = frame_bytes(kRst, 0, 5, "\0\0\0"s),
       .error = FrameError::bad_frame_length, .error_offset = 9},
      {.name = "rst_stream_on_stream_zero", .bytes = frame_bytes(kRst, 0, 0, u32(8)),
       .error = FrameError::stream_id_required, .error_offset = 9},

      // WINDOW_UPDATE
      {.name = "window_update_connection_and_stream",
       .bytes = frame_bytes(kWindow, 0, 0, u32(1000)) +
                frame_bytes(kWindow, 0, 3, u32(0x80000001u)),
       .events = {"window_update s0 L4 +1000", "window_update s3 L4 +1"}},
      {.name = "window_update_zero_on_a_stream_is_a_stream_error",
       .bytes = frame_bytes(kWindow, 0, 3, u32(0)) + kPingFrame,
       .events = {"stream_error s3 L4 code1 why6", kPingEvent}},
      {.name = "window_update_zero_on_the_connection",
       .bytes = frame_bytes(kWindow, 0, 0, u32(0)),
       .error = FrameError::zero_window_increment, .error_offset = 13},
      {.name = "window_update_wrong_length", .bytes = frame_bytes(kWindow, 0, 0, u32(1) + "x"),
       .error = FrameError::bad_frame_length, .error_offset = 9},

      // PRIORITY, PUSH_PROMISE, unknown types, size limit
      {.name = "priority", .bytes = frame_bytes(kPriority, 0, 3, u32(1) + "\x0f"),
       .events = {"priority s3 L5 dep1"}},
      {.name = "priority_on_itself",
       .bytes = frame_bytes(kPriority, 0, 3, u32(3) + "\x0f") + kPingFrame,
       .events = {"stream_error s3 L5 code1 why16", kPingEvent}},
      {.name = "priority_wrong_length_is_a_stream_error",
       .bytes = frame_bytes(kPriority, 0, 3, u32(1)) + kPingFrame,
       .events = {"stream_error s3 L4 code6 why2", kPingEvent}},
      {.name = "priority_on_stream_zero", .bytes = frame_bytes(kPriority, 0, 0, u32(1) + "\x0f"),
       .error = FrameError::stream_id_required, .error_offset = 9},
      {.name = "push_promise", .bytes = frame_bytes(kPush, kEndHeaders, 1, u32(2) + "\x82"),
       .error = FrameError::push_promise_received, .error_offset = 9},
      {.name = "unknown_types_are_skipped",
       .bytes = frame_bytes(0x0a, 0xff, 0, "whatever") + frame_bytes(0xfe, 0, 7, "") + kPingFrame,
       .events = {kPingEvent}},
      {.name = "frame_over_max_frame_size",
       .bytes = frame_bytes(kData, 0, 1, std::string(16385, 'x')),
       .error = FrameError::frame_too_large, .error_offset = 9},
      {.name = "frame_at_max_frame_size",
       .bytes = frame_bytes(kData, 0, 1, std::string(16384, 'x')),
       .events = {"data s1 L16384 n16384"}},

      // A connection's opening, as a server sends it.
      {.name = "server_opening",
       .bytes = frame_bytes(kSettings, 0, 0, setting(3, 128)) +
                frame_bytes(kWindow, 0, 0, u32(1 << 24)) + frame_bytes(kSettings, kAck, 0, "") +
                frame_bytes(kHeaders, kEndHeaders, 1, "\x88") +
                frame_bytes(kData, kEndStream, 1, "ok"),
       .events = {"settings s0 L6 3=128", "window_update s0 L4 +16777216", "settings_ack s0 L0",
                  "headers s1 L1 88", "data s1 L2 n2 end"}},
  };
}

class FrameParserTableTest : public ::testing::TestWithParam<Row> {};

Outcome expected(const Row& row) {
  return {.events = row.events, .error = row.error, .error_offset = row.error_offset};
}

void drop_ignored(Outcome& outcome) { outcome.ignored = 0; }

TEST_P(FrameParserTableTest, WholeInput) {
  const Row& row = GetParam();
  Outcome outcome = testing::run(row.bytes, {});
  drop_ignored(outcome);
  EXPECT_EQ(outcome.events, row.events);
  EXPECT_EQ(outcome.error, row.error);
  EXPECT_EQ(outcome.error_offset, row.error_offset);
}

TEST_P(FrameParserTableTest, SplitAtEveryOffset) {
  const Row& row = GetParam();
  const Outcome whole = testing::run(row.bytes, {});
  // Long rows are split at their first and last few hundred offsets; the middle is DATA.
  for (size_t cut = 0; cut <= row.bytes.size(); ++cut) {
    if (cut > 300 && cut + 300 < row.bytes.size()) continue;
    ASSERT_EQ(testing::run(row.bytes, {cut}), whole) << "cut at " << cut;
  }
}

TEST_P(FrameParserTableTest, OneBytePerFeed) {
  const Row& row = GetParam();
  std::vector<size_t> cuts;
  for (size_t i = 1; i < row.bytes.size(); ++i) cuts.push_back(i);
  Outcome outcome = testing::run(row.bytes, cuts);
  drop_ignored(outcome);
  EXPECT_EQ(outcome, expected(row));
}

INSTANTIATE_TEST_SUITE_P(Rows, FrameParserTableTest, ::testing::ValuesIn(rows()),
                         [](const auto& row_info) { return row_info.param.name; });

TEST(FrameParserTest, UnknownFramesAreCounted) {
  const Outcome outcome =
      testing::run(frame_bytes(0x0a, 0, 0, "x") + frame_bytes(0x0b, 0, 0, "") + kPingFrame, {});
  EXPECT_EQ(outcome.ignored, 2);
  EXPECT_EQ(outcome.events.size(), 1u);
}

TEST(FrameParserTest, HeaderBlockOverTheBufferIsAConnectionError) {
  const std::string bytes = frame_bytes(kHeaders, 0, 1, std::string(60, 'a')) +
                            frame_bytes(kContinuation, 0, 1, std::string(60, 'b'));
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    const Outcome outcome = testing::run(bytes, {cut}, 100);
    ASSERT_EQ(outcome.error, FrameError::header_block_too_large) << cut;
    ASSERT_EQ(outcome.error_offset, 9u + 60 + 9 + 40) << cut;
  }
}

TEST(FrameParserTest, ContinuationFloodIsStoppedEvenWhenTheBlockStaysSmall) {
  std::string allowed = frame_bytes(kHeaders, 0, 1, "\x88");
  for (int i = 0; i < kMaxContinuationFrames - 1; ++i) {
    allowed += frame_bytes(kContinuation, 0, 1, "");
  }
  const Outcome ok = testing::run(allowed + frame_bytes(kContinuation, kEndHeaders, 1, ""), {});
  EXPECT_EQ(ok.error, FrameError::none);
  EXPECT_EQ(ok.events, (std::vector<std::string>{"headers s1 L1 88"}));
  std::string flood = allowed + frame_bytes(kContinuation, 0, 1, "");
  const Outcome stopped = testing::run(flood + frame_bytes(kContinuation, 0, 1, ""), {});
  EXPECT_EQ(stopped.error, FrameError::continuation_flood);
  EXPECT_EQ(stopped.error_offset, flood.size() + 9);
  EXPECT_EQ(error_code(stopped.error), ErrorCode::enhance_your_calm);
}

TEST(FrameParserTest, RaisedMaxFrameSizeAdmitsLargerFrames) {
  FrameParser parser;
  parser.set_max_frame_size(1 << 20);
  const std::string bytes = frame_bytes(kData, 0, 1, std::string(100000, 'x'));
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &consumed),
            FrameStatus::frame);
  EXPECT_EQ(parser.frame().data_bytes, 100000u);
}

TEST(FrameParserTest, ErrorsAreSticky) {
  FrameParser parser;
  const std::string bad = frame_bytes(kPush, 0, 1, u32(2));
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), &consumed),
            FrameStatus::error);
  EXPECT_EQ(error_code(parser.error()), ErrorCode::protocol_error);
  EXPECT_EQ(parser.feed(reinterpret_cast<const uint8_t*>(kPingFrame.data()), kPingFrame.size(),
                        &consumed),
            FrameStatus::error);
  EXPECT_EQ(consumed, 0u);
}

TEST(FrameParserTest, EveryErrorHasACodeAndAPhrase) {
  for (int e = 1; e <= static_cast<int>(FrameError::self_dependency); ++e) {  // the last
    const auto error = static_cast<FrameError>(e);
    EXPECT_NE(error_code(error), ErrorCode::no_error) << e;
    EXPECT_FALSE(describe(error).empty()) << e;
  }
}

}  // namespace
}  // namespace hammer::http2
