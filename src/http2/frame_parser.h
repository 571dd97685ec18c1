// SPDX-License-Identifier: MIT
#pragma once
// FrameParser: the receiving half of RFC 9113 framing for a client. A byte-driven state machine
// fed whatever chunks the transport produced (down to one byte) that returns one typed Frame
// at a time; slicing never changes what it returns or where an error is found. It validates
// every frame against §4 and §6 before the caller sees it: a connection error stops the parser
// for good (the caller sends GOAWAY with error_code(error())), a stream error is itself a
// Frame of kind stream_error (the caller sends RST_STREAM) and parsing goes on.
//
// Memory is fixed at construction: a 9-octet header, an 8-octet buffer for fixed fields and a
// header block buffer of `max_header_block_bytes` into which HEADERS and its CONTINUATIONs are
// assembled (padding and priority removed) so HPACK sees one block. DATA payload is counted,
// not kept: a load generator needs its size (flow control, byte counts), not its content.
// Unknown frame types are skipped (§4.1, §5.5); PUSH_PROMISE is a connection error because
// hammer advertises SETTINGS_ENABLE_PUSH 0.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "http2/frame_error.h"
#include "http2/frame_types.h"

namespace hammer::http2 {

inline constexpr size_t kDefaultMaxHeaderBlockBytes = 65536;
/// CONTINUATION frames allowed in one header block. A server splits a block by its frame size
/// (a 64 KiB block is 4 frames at 16 KiB); thousands of tiny or empty ones only burn our CPU
/// while the buffer bound never trips (the "CONTINUATION flood").
inline constexpr int kMaxContinuationFrames = 64;

enum class FrameStatus : uint8_t { need_more, frame, error };

enum class FrameKind : uint8_t {
  data,
  headers,  // a complete header block (HEADERS up to the CONTINUATION with END_HEADERS)
  priority,
  rst_stream,
  settings,
  settings_ack,
  ping,
  goaway,
  window_update,
  stream_error,  // the frame on stream_id broke a rule; reset that stream with error_code()
};

/// The parameters one SETTINGS frame carried (the last value wins when one repeats).
struct SettingsValues {
  uint8_t present = 0;  // bit 1 << id for each known identifier seen
  std::array<uint32_t, kKnownSettings> values{};

  bool has(SettingId id) const { return (present >> static_cast<int>(id)) & 1u; }
  uint32_t get(SettingId id) const { return values[static_cast<size_t>(id)]; }
};

struct Frame {
  FrameKind kind = FrameKind::data;
  uint32_t stream_id = 0;
  uint8_t flags = 0;             // of the frame that completed this event
  uint32_t payload_bytes = 0;    // on the wire; for headers, HEADERS + every CONTINUATION
  bool end_stream = false;       // data, headers
  uint32_t data_bytes = 0;       // data: payload less the pad length octet and padding
  std::span<const uint8_t> header_block;  // headers: valid until the next feed()
  SettingsValues settings;       // settings
  std::array<uint8_t, 8> ping_data{};     // ping: opaque data; flags & kAck for an ACK
  uint32_t error_code = 0;       // rst_stream, goaway: as sent (unknown codes are legal)
  uint32_t last_stream_id = 0;   // goaway
  uint32_t debug_bytes = 0;      // goaway: additional debug data, counted and skipped
  uint32_t window_increment = 0; // window_update
  uint32_t dependency = 0;       // priority
  FrameError stream_error = FrameError::none;  // stream_error
};

class FrameParser {
 public:
  explicit FrameParser(size_t max_header_block_bytes = kDefaultMaxHeaderBlockBytes);
  /// A new connection: back to the first octet of a frame, no error, the buffer kept.
  void reset();

  /// Our SETTINGS_MAX_FRAME_SIZE, once the peer has acknowledged it (16384 until then).
  void set_max_frame_size(uint32_t bytes) { max_frame_size_ = bytes; }

  /// Consumes bytes up to the end of the next frame that yields a Frame (returns frame), or
  /// all of them (need_more), or up to the byte that broke a rule (error, sticky).
  FrameStatus feed(const uint8_t* data, size_t size, size_t* consumed);

  const Frame& frame() const { return frame_; }
  FrameError error() const { return error_; }
  /// Frames of unknown type skipped so far.
  int64_t ignored_frames() const { return ignored_frames_; }
  /// True inside a header block (HEADERS seen, END_HEADERS not yet).
  bool in_header_block() const { return in_block_; }

 private:
  enum class Stage : uint8_t { header, prefix, body, padding, finish };
  enum class Body : uint8_t { skip, block, settings };

  void begin_frame();
  void end_prefix();
  void apply_setting();
  bool finish_frame();  // true when the frame yields an event
  bool fail(FrameError error);

  Stage stage_ = Stage::header;
  Body body_ = Body::skip;
  FrameError error_ = FrameError::none;
  FrameError pending_stream_error_ = FrameError::none;
  std::array<uint8_t, kFrameHeaderBytes> header_{};
  size_t header_have_ = 0;
  uint32_t length_ = 0;
  uint8_t type_ = 0;
  uint8_t flags_ = 0;
  uint32_t stream_id_ = 0;
  std::array<uint8_t, 8> fixed_{};
  size_t fixed_need_ = 0;
  size_t fixed_have_ = 0;
  uint32_t body_remaining_ = 0;
  uint32_t settings_remaining_ = 0;
  uint32_t pad_remaining_ = 0;
  uint32_t max_frame_size_ = kDefaultMaxFrameSize;
  Frame frame_;

  std::unique_ptr<uint8_t[]> block_;
  size_t block_capacity_;
  size_t block_size_ = 0;
  bool in_block_ = false;
  uint32_t block_stream_ = 0;
  bool block_end_stream_ = false;
  uint32_t block_payload_bytes_ = 0;
  int block_continuations_ = 0;
  int64_t ignored_frames_ = 0;
};

}  // namespace hammer::http2
