// SPDX-License-Identifier: MIT
#pragma once
// Helpers for the frame tests: build frames as bytes, and run a FrameParser over input cut
// into given pieces, each copied to its own exact-size heap block so ASan sees any over-read,
// summarising every event as one line of text so runs can be compared.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "http2/frame_parser.h"

namespace hammer::http2::testing {

inline std::string frame_bytes(uint8_t type, uint8_t flags, uint32_t stream,
                               const std::string& payload) {
  std::string out;
  const size_t length = payload.size();
  out.push_back(static_cast<char>(length >> 16));
  out.push_back(static_cast<char>(length >> 8));
  out.push_back(static_cast<char>(length));
  out.push_back(static_cast<char>(type));
  out.push_back(static_cast<char>(flags));
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(stream >> shift));
  return out + payload;
}

inline std::string u32(uint32_t value) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
  return out;
}

inline std::string setting(uint16_t id, uint32_t value) {
  return std::string{static_cast<char>(id >> 8), static_cast<char>(id)} + u32(value);
}

inline std::string to_hex(std::span<const uint8_t> bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

inline std::string summarise(const Frame& f) {
  const std::string s = std::string(" s") + std::to_string(f.stream_id) + " L" +
                        std::to_string(f.payload_bytes);
  switch (f.kind) {
    case FrameKind::data:
      return std::string("data") + s + " n" + std::to_string(f.data_bytes) +
             (f.end_stream ? " end" : "");
    case FrameKind::headers:
      return std::string("headers") + s + " " + to_hex(f.header_block) +
             (f.end_stream ? " end" : "");
    case FrameKind::priority:
      return std::string("priority") + s + " dep" + std::to_string(f.dependency);
    case FrameKind::rst_stream:
      return std::string("rst") + s + " code" + std::to_string(f.error_code);
    case FrameKind::settings: {
      std::string out = std::string("settings") + s;
      for (int id = 1; id < kKnownSettings; ++id) {
        if (f.settings.has(static_cast<SettingId>(id))) {
          out += ' ';
          out += std::to_string(id);
          out += '=';
          out += std::to_string(f.settings.get(static_cast<SettingId>(id)));
        }
      }
      return out;
    }
    case FrameKind::settings_ack: return std::string("settings_ack") + s;
    case FrameKind::ping:
      return std::string((f.flags & frame_flags::kAck) ? "ping_ack" : "ping") + s + " " +
             to_hex(f.ping_data);
    case FrameKind::goaway:
      return std::string("goaway last") + std::to_string(f.last_stream_id) + " code" +
             std::to_string(f.error_code) + " debug" + std::to_string(f.debug_bytes);
    case FrameKind::window_update:
      return std::string("window_update") + s + " +" + std::to_string(f.window_increment);
    case FrameKind::stream_error:
      return std::string("stream_error") + s + " code" + std::to_string(f.error_code) + " why" +
             std::to_string(static_cast<int>(f.stream_error));
  }
  return "?";
}

struct Outcome {
  std::vector<std::string> events;
  FrameError error = FrameError::none;
  size_t error_offset = 0;  // bytes consumed before the error, counted from the start
  int64_t ignored = 0;
  bool operator==(const Outcome&) const = default;
};

/// Parses `bytes` in pieces that end at each of `cuts` (ascending) and at the end.
inline Outcome run(const std::string& bytes, const std::vector<size_t>& cuts,
                   size_t max_header_block_bytes = kDefaultMaxHeaderBlockBytes) {
  FrameParser parser(max_header_block_bytes);
  Outcome outcome;
  size_t start = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(bytes.size());
  for (const size_t end : ends) {
    const size_t length = end - start;
    std::unique_ptr<uint8_t[]> piece(new uint8_t[length == 0 ? 1 : length]);
    std::copy(bytes.data() + start, bytes.data() + end, piece.get());
    size_t offset = 0;
    while (offset < length || length == 0) {
      size_t consumed = 0;
      const FrameStatus status = parser.feed(piece.get() + offset, length - offset, &consumed);
      offset += consumed;
      if (status == FrameStatus::error) {
        outcome.error = parser.error();
        outcome.error_offset = start + offset;
        outcome.ignored = parser.ignored_frames();
        return outcome;
      }
      if (status == FrameStatus::need_more) break;
      outcome.events.push_back(summarise(parser.frame()));
    }
    start = end;
  }
  outcome.ignored = parser.ignored_frames();
  return outcome;
}

}  // namespace hammer::http2::testing
