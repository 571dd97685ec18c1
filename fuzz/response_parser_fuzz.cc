// SPDX-License-Identifier: MIT
// libFuzzer target for ResponseParser: bytes straight from the fuzzer, no files. The first byte
// chooses how the rest is sliced (and whether the request was HEAD), so resumption at every
// offset is fuzzed along with the grammar; pipelined responses are followed with start() as a
// connection would. The input is then parsed a second time in one piece, and the two runs must
// agree exactly — the parser's central promise is that slicing never changes the answer. Each
// piece is copied to its own exact-size heap block, so an over-read of any piece, not only the
// last, is an ASan report.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include "http/response_parser.h"

namespace {

using hammer::ParseError;
using hammer::ParseStatus;
using hammer::ResponseParser;

// Enough to compare two runs without storing every response.
struct Summary {
  int64_t responses = 0;
  uint64_t checksum = 0;  // of every response's fields, wrapping
  ParseError error = ParseError::none;
  int64_t error_offset = -1;
  bool operator==(const Summary&) const = default;
};

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "response_parser_fuzz: invariant broken: %s\n", what);
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) broken(what);
}

void add_response(Summary& summary, const ResponseParser& parser, int64_t wire_bytes) {
  const hammer::ResponseInfo& info = parser.info();
  check(info.status >= 200 && info.status <= 599, "final status in 200..599");
  check(info.body_bytes >= 0 && info.header_bytes > 0, "byte counts are positive");
  check(info.header_bytes + info.body_bytes <= wire_bytes, "head + body fit in the bytes fed");
  check(info.http_minor >= 0 && info.http_minor <= 9, "minor version is one digit");
  ++summary.responses;
  for (const int64_t field : {int64_t{info.status}, info.body_bytes, info.header_bytes, wire_bytes,
                              int64_t{info.keep_alive}}) {
    summary.checksum = summary.checksum * 1'000'003u + static_cast<uint64_t>(field);
  }
}

/// Parses `data` in pieces of `piece_bytes` (the last may be shorter), then signals EOF.
Summary parse(const uint8_t* data, size_t size, size_t piece_bytes, bool head) {
  Summary summary;
  ResponseParser parser;
  parser.start(head);
  int64_t wire = 0;
  for (size_t offset = 0; offset < size; offset += piece_bytes) {
    const size_t length = std::min(piece_bytes, size - offset);
    std::unique_ptr<char[]> piece(new char[length]);
    std::memcpy(piece.get(), data + offset, length);
    std::string_view view(piece.get(), length);
    size_t used = 0;
    // Each round consumes at least one byte or leaves the loop, so it ends within `length`.
    while (!view.empty()) {
      size_t consumed = 0;
      const ParseStatus status = parser.feed(view, &consumed);
      check(consumed <= view.size(), "consumed <= size");
      if (status == ParseStatus::error) {
        check(parser.error() != ParseError::none, "an error has a kind");
        check(!hammer::describe(parser.error()).empty(), "an error has a phrase");
        size_t again = 1;
        check(parser.feed(view, &again) == ParseStatus::error && again == 0, "errors are sticky");
        summary.error = parser.error();
        summary.error_offset = static_cast<int64_t>(offset + used + consumed);
        return summary;
      }
      wire += static_cast<int64_t>(consumed);
      used += consumed;
      view.remove_prefix(consumed);
      if (status == ParseStatus::need_more) {
        check(view.empty(), "need_more consumes everything");
        break;
      }
      check(consumed > 0, "a response needs bytes");
      add_response(summary, parser, wire);
      wire = 0;
      parser.start(head);
    }
  }
  if (parser.in_progress()) {
    const ParseStatus status = parser.finish_on_eof();
    check(status != ParseStatus::need_more, "finish_on_eof decides");
    if (status == ParseStatus::complete) {
      check(!parser.info().keep_alive, "a body delimited by close cannot keep the connection");
      add_response(summary, parser, wire);
    } else {
      summary.error = parser.error();
      summary.error_offset = static_cast<int64_t>(size);
    }
  }
  return summary;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool head = (data[0] & 1) != 0;
  const size_t piece_bytes = (data[0] >> 1) + 1;  // 1..128
  const Summary sliced = parse(data + 1, size - 1, piece_bytes, head);
  const Summary whole = parse(data + 1, size - 1, size, head);
  check(sliced == whole, "slicing changes the result");
  return 0;
}
