// SPDX-License-Identifier: MIT
// The HTTP/2 receive path allocates nothing per frame: once a FrameParser and an HpackDecoder
// exist, a thousand responses' worth of frames, fed in uneven chunks, with every header block
// decoded (Huffman, dynamic table inserts and evictions included) and every reply frame
// written, make zero allocations.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "alloc/alloc_counter.h"
#include "http2/client_preface.h"
#include "http2/client_session.h"
#include "http2/frame_parser.h"
#include "http2/frame_writer.h"
#include "http2/hpack_decoder.h"
#include "http2/hpack_encoder.h"

namespace hammer::test {
namespace {

using namespace hammer::http2;

class CountingSink : public HeaderSink {
 public:
  void on_header(std::string_view name, std::string_view value) override {
    bytes += name.size() + value.size();
  }
  size_t bytes = 0;
};

std::string frame(FrameType type, uint8_t flags, uint32_t stream, const std::string& payload) {
  std::string out(kFrameHeaderBytes, '\0');
  write_frame_header(reinterpret_cast<uint8_t*>(out.data()), static_cast<uint32_t>(payload.size()),
                     type, flags, stream);
  return out + payload;
}

TEST(Http2AllocationTest, ParsingAndDecodingResponsesAllocatesNothing) {
  // Each response: a header block that inserts into the dynamic table (so entries are evicted
  // as the run goes on), split over HEADERS + CONTINUATION, a padded DATA frame, and the
  // control frames a server interleaves.
  std::string wire;
  for (uint32_t i = 0; i < 1000; ++i) {
    const uint32_t stream = 2 * i + 1;
    std::string block;
    hpack_encode_field(block, ":status", "200");
    block += '\x40';  // literal with incremental indexing, new name
    std::string fields;
    hpack_encode_field(fields, "x-request-id", std::to_string(i));
    block += fields.substr(1);  // reuse the name and value strings after the 0x00 octet
    hpack_encode_field(block, "content-type", "text/plain");
    const size_t half = block.size() / 2;
    wire += frame(FrameType::headers, 0, stream, block.substr(0, half));
    wire += frame(FrameType::continuation, frame_flags::kEndHeaders, stream, block.substr(half));
    wire += frame(FrameType::data, frame_flags::kPadded | frame_flags::kEndStream, stream,
                  std::string("\x04") + "body" + std::string(4, '\0'));
    if (i % 10 == 0) wire += frame(FrameType::ping, 0, 0, "12345678");
    if (i % 7 == 0) wire += frame(FrameType::window_update, 0, 0, std::string("\0\0\x10\0", 4));
  }

  FrameParser parser;
  HpackDecoder decoder(256, 16384);  // small, so the run evicts constantly
  CountingSink sink;
  std::array<uint8_t, 64> reply{};
  int64_t headers = 0, data = 0, pings = 0;
  HpackError hpack = HpackError::none;
  FrameError error = FrameError::none;

  start_counting_allocations();
  const auto* bytes = reinterpret_cast<const uint8_t*>(wire.data());
  size_t at = 0;
  size_t chunk = 1;
  while (at < wire.size() && error == FrameError::none) {
    const size_t length = std::min(chunk, wire.size() - at);
    size_t used = 0;
    while (used < length) {
      size_t consumed = 0;
      const FrameStatus status = parser.feed(bytes + at + used, length - used, &consumed);
      used += consumed;
      if (status == FrameStatus::error) {
        error = parser.error();
        break;
      }
      if (status == FrameStatus::need_more) break;
      const Frame& f = parser.frame();
      if (f.kind == FrameKind::headers) {
        ++headers;
        const HpackError e = decoder.decode(f.header_block.data(), f.header_block.size(), sink);
        if (e != HpackError::none) hpack = e;
      } else if (f.kind == FrameKind::data) {
        ++data;
        write_window_update(reply.data(), f.stream_id, f.payload_bytes);
      } else if (f.kind == FrameKind::ping) {
        ++pings;
        write_ping(reply.data(), f.ping_data, true);
      }
    }
    at += length;
    chunk = chunk % 37 + 1;  // uneven chunk sizes, 1..37 octets
  }
  const int64_t allocations = stop_counting_allocations();

  EXPECT_EQ(error, FrameError::none);
  EXPECT_EQ(hpack, HpackError::none);
  EXPECT_EQ(headers, 1000);
  EXPECT_EQ(data, 1000);
  EXPECT_EQ(pings, 100);
  EXPECT_GT(sink.bytes, 0u);
  EXPECT_EQ(allocations, 0);
}

class CountingStreamSink : public StreamSink {
 public:
  void on_first_byte(int32_t) override { ++first_bytes; }
  void on_response(int32_t, int status) override { ok += status == 200 ? 1 : 0; }
  void on_stream_reset(int32_t, uint32_t, bool) override { ++resets; }
  void on_stream_refused(int32_t, bool) override { ++refused; }
  int64_t first_bytes = 0, ok = 0, resets = 0, refused = 0;
};

// The session a --http2 connection carries: over two sockets (start() again), 1,000 streams
// with request bodies opened, their frames taken, their responses (HEADERS, DATA) received in
// uneven chunks with PINGs between: zero allocations once it is built.
TEST(Http2AllocationTest, ASessionsStreamsAllocateNothing) {
  SessionLimits limits;
  limits.max_streams = 10;
  ClientSession session(limits);
  const std::string preface = client_preface(limits.ours);
  const std::vector<uint8_t> block = {0x83, 0x86, 0x84};  // POST http /
  session.expect_block(block.size());
  const std::string settings = frame(FrameType::settings, 0, 0, "");
  std::string responses;
  for (uint32_t i = 0; i < 500; ++i) {
    const uint32_t stream = 2 * i + 1;
    responses += frame(FrameType::headers, frame_flags::kEndHeaders, stream, "\x88");
    responses += frame(FrameType::data, frame_flags::kEndStream, stream, "hello");
    if (i % 10 == 0) responses += frame(FrameType::ping, 0, 0, "12345678");
  }
  CountingStreamSink sink;
  int64_t opened = 0;

  start_counting_allocations();
  for (int socket = 0; socket < 2; ++socket) {
    session.start(preface);
    session.receive(reinterpret_cast<const uint8_t*>(settings.data()), settings.size(), sink);
    const auto* bytes = reinterpret_cast<const uint8_t*>(responses.data());
    size_t at = 0;
    size_t chunk = 1;
    while (at < responses.size() && !session.failed()) {
      while (session.can_open() && opened < 500 * (socket + 1)) {
        session.open_stream(std::span<const uint8_t>(block), "0123456789");
        ++opened;
      }
      session.consume_output(session.pending_output().size());
      const size_t length = std::min(chunk, responses.size() - at);
      session.receive(bytes + at, length, sink);
      at += length;
      chunk = chunk % 53 + 1;
    }
  }
  const int64_t allocations = stop_counting_allocations();

  EXPECT_FALSE(session.failed());
  EXPECT_EQ(opened, 1000);
  EXPECT_EQ(sink.ok, 1000);
  EXPECT_EQ(sink.resets + sink.refused, 0);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace hammer::test
