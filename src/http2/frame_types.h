// SPDX-License-Identifier: MIT
#pragma once
// HTTP/2 wire vocabulary (RFC 9113 §4, §6, §7): frame types, flags, error codes and settings.
#include <cstdint>
#include <string_view>

namespace hammer::http2 {

inline constexpr size_t kFrameHeaderBytes = 9;
inline constexpr uint32_t kDefaultMaxFrameSize = 16384;     // and the smallest allowed (§4.2)
inline constexpr uint32_t kLargestMaxFrameSize = 16777215;  // 2^24 - 1
inline constexpr uint32_t kMaxWindowSize = 2147483647;      // 2^31 - 1 (§6.9.1)
inline constexpr uint32_t kDefaultInitialWindowSize = 65535;
inline constexpr uint32_t kStreamIdMask = 0x7fffffff;       // the reserved bit is ignored

/// The client connection preface (§3.4), sent before the first SETTINGS frame.
inline constexpr std::string_view kClientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

enum class FrameType : uint8_t {
  data = 0x0,
  headers = 0x1,
  priority = 0x2,
  rst_stream = 0x3,
  settings = 0x4,
  push_promise = 0x5,
  ping = 0x6,
  goaway = 0x7,
  window_update = 0x8,
  continuation = 0x9,
};

namespace frame_flags {
inline constexpr uint8_t kEndStream = 0x01;   // DATA, HEADERS
inline constexpr uint8_t kAck = 0x01;         // SETTINGS, PING
inline constexpr uint8_t kEndHeaders = 0x04;  // HEADERS, CONTINUATION
inline constexpr uint8_t kPadded = 0x08;      // DATA, HEADERS
inline constexpr uint8_t kPriority = 0x20;    // HEADERS
}  // namespace frame_flags

/// RFC 9113 §7. Codes a peer sends are kept as raw uint32_t (unknown ones are legal).
enum class ErrorCode : uint32_t {
  no_error = 0x0,
  protocol_error = 0x1,
  internal_error = 0x2,
  flow_control_error = 0x3,
  settings_timeout = 0x4,
  stream_closed = 0x5,
  frame_size_error = 0x6,
  refused_stream = 0x7,
  cancel = 0x8,
  compression_error = 0x9,
  connect_error = 0xa,
  enhance_your_calm = 0xb,
  inadequate_security = 0xc,
  http_1_1_required = 0xd,
};

/// RFC 9113 §6.5.2. Unknown identifiers are ignored on receipt.
enum class SettingId : uint16_t {
  header_table_size = 0x1,
  enable_push = 0x2,
  max_concurrent_streams = 0x3,
  initial_window_size = 0x4,
  max_frame_size = 0x5,
  max_header_list_size = 0x6,
};
inline constexpr int kKnownSettings = 7;  // identifiers 1..6 index an array of 7

struct Setting {
  SettingId id;
  uint32_t value;
};

}  // namespace hammer::http2
