// SPDX-License-Identifier: MIT
#pragma once
// Test-only helpers for ResponseParser: a buffer that ends at a PROT_NONE page, and a driver
// that feeds pieces the way a connection does and records what came out, so that two ways of
// slicing one input can be compared with ==.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "http/response_parser.h"

namespace hammer::parser_testing {

/// Memory whose last usable byte sits right before an inaccessible page.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(size_t capacity) {
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    usable_ = (std::max<size_t>(capacity, 1) + page - 1) / page * page;
    void* mem = mmap(nullptr, usable_ + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) std::abort();
    base_ = static_cast<char*>(mem);
    if (mprotect(base_ + usable_, page, PROT_NONE) != 0) std::abort();
    mapped_ = usable_ + page;
  }
  ~GuardedBuffer() { munmap(base_, mapped_); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  /// Copies `bytes` so that the last one is the last readable byte; valid until the next call.
  std::string_view place(std::string_view bytes) {
    if (bytes.size() > usable_) std::abort();
    char* dst = base_ + usable_ - bytes.size();
    if (!bytes.empty()) std::memcpy(dst, bytes.data(), bytes.size());
    return {dst, bytes.size()};
  }

 private:
  char* base_ = nullptr;
  size_t usable_ = 0;
  size_t mapped_ = 0;
};

struct Response {
  int status = 0;
  int64_t body_bytes = 0;
  bool keep_alive = false;
  int64_t header_bytes = 0;
  int64_t wire_bytes = 0;  // bytes fed that belonged to this response
  bool operator==(const Response&) const = default;
};

struct Outcome {
  std::vector<Response> responses;
  ParseError error = ParseError::none;
  int64_t error_offset = -1;  // in the whole stream
  bool pending = false;       // a response was still in progress when input ran out
  bool operator==(const Outcome&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const Outcome& outcome) {
  out << "{";
  for (const Response& r : outcome.responses) {
    out << "[" << r.status << " body=" << r.body_bytes << " keep_alive=" << r.keep_alive
        << " head=" << r.header_bytes << " wire=" << r.wire_bytes << "] ";
  }
  return out << "error=" << describe(outcome.error) << "@" << outcome.error_offset
             << " pending=" << outcome.pending << "}";
}

/// Feeds `pieces` in order, as a connection would: after each complete response it calls
/// start() and feeds the rest of the piece again; stops at the first error. Each piece is first
/// copied to the end of `buffer`, so it ends at the guard page. `eof`: the peer closes after the
/// last piece (finish_on_eof() is called if a response is in progress).
inline Outcome run(const std::vector<std::string_view>& pieces, bool head, bool eof,
            GuardedBuffer& buffer) {
  Outcome outcome;
  ResponseParser parser;
  parser.start(head);
  int64_t offset = 0;  // of the current piece in the stream
  int64_t wire = 0;
  const auto record = [&] {
    const ResponseInfo& info = parser.info();
    outcome.responses.push_back({info.status, info.body_bytes, info.keep_alive,
                                 info.header_bytes, wire});
    wire = 0;
    parser.start(head);
  };
  for (std::string_view piece : pieces) {
    std::string_view view = buffer.place(piece);
    int64_t used = 0;
    while (!view.empty()) {
      size_t consumed = 0;
      const ParseStatus status = parser.feed(view, &consumed);
      EXPECT_LE(consumed, view.size());
      if (status == ParseStatus::error) {
        outcome.error = parser.error();
        outcome.error_offset = offset + used + static_cast<int64_t>(consumed);
        return outcome;
      }
      wire += static_cast<int64_t>(consumed);
      used += static_cast<int64_t>(consumed);
      view.remove_prefix(consumed);
      if (status == ParseStatus::need_more) {
        EXPECT_TRUE(view.empty());
        break;
      }
      EXPECT_GT(consumed, 0u) << "a response cannot complete on no bytes";
      record();
    }
    offset += static_cast<int64_t>(piece.size());
  }
  if (eof && parser.in_progress()) {
    if (parser.finish_on_eof() == ParseStatus::complete) {
      record();
    } else {
      outcome.error = parser.error();
      outcome.error_offset = offset;
    }
  } else {
    outcome.pending = parser.in_progress();
  }
  return outcome;
}

}  // namespace hammer::parser_testing
