// SPDX-License-Identifier: MIT
// libFuzzer target for http2::FrameParser. The first byte chooses how the rest is sliced; the
// input is parsed sliced and then whole, and the two runs must agree exactly, down to the
// offset of an error (the parser's promise: slicing never changes the answer). Every complete
// header block is also run through an HpackDecoder, as a connection would, so the fuzzer
// reaches HPACK through real framing too. Each piece is copied to its own exact-size heap
// block, so an over-read of any piece is an ASan report.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "http2/frame_parser.h"
#include "http2/hpack_decoder.h"

namespace {

using namespace hammer::http2;

constexpr size_t kBlockBytes = 4096;

struct Summary {
  int64_t events = 0;
  uint64_t checksum = 0;
  FrameError error = FrameError::none;
  int64_t error_offset = -1;
  HpackError hpack = HpackError::none;
  bool operator==(const Summary&) const = default;
};

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "frame_parser_fuzz: invariant broken: %s\n", what);
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) broken(what);
}

class CountingSink : public HeaderSink {
 public:
  void on_header(std::string_view name, std::string_view value) override {
    bytes += name.size() + value.size() + 32;
  }
  size_t bytes = 0;
};

void add(Summary& summary, const Frame& frame, HpackDecoder& decoder) {
  check(frame.data_bytes <= frame.payload_bytes, "data within payload");
  check(frame.header_block.size() <= kBlockBytes, "block within its buffer");
  check(frame.stream_id <= kStreamIdMask, "stream id is 31 bits");
  if (frame.kind == FrameKind::stream_error) {
    check(frame.stream_id != 0, "a stream error names a stream");
    check(frame.stream_error != FrameError::none, "a stream error has a kind");
  }
  ++summary.events;
  for (const uint64_t field :
       {uint64_t(frame.kind), uint64_t(frame.stream_id), uint64_t(frame.payload_bytes),
        uint64_t(frame.data_bytes), uint64_t(frame.header_block.size()),
        uint64_t(frame.error_code), uint64_t(frame.window_increment),
        uint64_t(frame.settings.present), uint64_t(frame.end_stream)}) {
    summary.checksum = summary.checksum * 1'000'003u + field;
  }
  if (frame.kind == FrameKind::headers && summary.hpack == HpackError::none) {
    CountingSink sink;
    summary.hpack = decoder.decode(frame.header_block.data(), frame.header_block.size(), sink);
    check(sink.bytes <= 8192, "header list within its bound");
    check(decoder.table().size() <= decoder.table().max_size(), "table within its size");
  }
}

Summary parse(const uint8_t* data, size_t size, size_t piece_bytes) {
  Summary summary;
  FrameParser parser(kBlockBytes);
  HpackDecoder decoder(1024, 8192);
  for (size_t offset = 0; offset < size; offset += piece_bytes) {
    const size_t length = std::min(piece_bytes, size - offset);
    std::unique_ptr<uint8_t[]> piece(new uint8_t[length]);
    std::memcpy(piece.get(), data + offset, length);
    size_t used = 0;
    while (used < length) {
      size_t consumed = 0;
      const FrameStatus status = parser.feed(piece.get() + used, length - used, &consumed);
      check(consumed <= length - used, "consumed <= size");
      used += consumed;
      if (status == FrameStatus::error) {
        check(parser.error() != FrameError::none, "an error has a kind");
        check(error_code(parser.error()) != ErrorCode::no_error, "an error has a code");
        check(!describe(parser.error()).empty(), "an error has a phrase");
        size_t again = 1;
        check(parser.feed(piece.get(), length, &again) == FrameStatus::error && again == 0,
              "errors are sticky");
        summary.error = parser.error();
        summary.error_offset = static_cast<int64_t>(offset + used);
        return summary;
      }
      if (status == FrameStatus::need_more) {
        check(used == length, "need_more consumes everything");
        break;
      }
      add(summary, parser.frame(), decoder);
    }
  }
  return summary;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t piece_bytes = data[0] + 1;  // 1..256
  const Summary sliced = parse(data + 1, size - 1, piece_bytes);
  const Summary whole = parse(data + 1, size - 1, size);
  check(sliced == whole, "slicing changes the result");
  return 0;
}
