// SPDX-License-Identifier: MIT
#include "http2/frame_writer.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace hammer::http2 {
namespace {

void put_u32(uint8_t* out, uint32_t value) {
  out[0] = static_cast<uint8_t>(value >> 24);
  out[1] = static_cast<uint8_t>(value >> 16);
  out[2] = static_cast<uint8_t>(value >> 8);
  out[3] = static_cast<uint8_t>(value);
}

}  // namespace

size_t write_frame_header(uint8_t* out, uint32_t length, FrameType type, uint8_t flags,
                          uint32_t stream_id) {
  assert(length <= kLargestMaxFrameSize);
  out[0] = static_cast<uint8_t>(length >> 16);
  out[1] = static_cast<uint8_t>(length >> 8);
  out[2] = static_cast<uint8_t>(length);
  out[3] = static_cast<uint8_t>(type);
  out[4] = flags;
  put_u32(out + 5, stream_id & kStreamIdMask);
  return kFrameHeaderBytes;
}

size_t write_settings(uint8_t* out, std::span<const Setting> settings) {
  size_t at = write_frame_header(out, static_cast<uint32_t>(6 * settings.size()),
                                 FrameType::settings, 0, 0);
  for (const Setting& setting : settings) {
    const auto id = static_cast<uint16_t>(setting.id);
    out[at] = static_cast<uint8_t>(id >> 8);
    out[at + 1] = static_cast<uint8_t>(id);
    put_u32(out + at + 2, setting.value);
    at += 6;
  }
  return at;
}

size_t write_settings_ack(uint8_t* out) {
  return write_frame_header(out, 0, FrameType::settings, frame_flags::kAck, 0);
}

size_t headers_frames_bytes(size_t block_bytes, uint32_t max_frame_size) {
  const size_t frames = block_bytes == 0 ? 1 : (block_bytes + max_frame_size - 1) / max_frame_size;
  return frames * kFrameHeaderBytes + block_bytes;
}

size_t write_headers(uint8_t* out, uint32_t stream_id, std::span<const uint8_t> block,
                     bool end_stream, uint32_t max_frame_size) {
  size_t at = 0;
  size_t sent = 0;
  bool first = true;
  do {
    const size_t piece = std::min(block.size() - sent, size_t{max_frame_size});
    const bool last = sent + piece == block.size();
    uint8_t flags = last ? frame_flags::kEndHeaders : 0;
    if (first && end_stream) flags |= frame_flags::kEndStream;  // END_STREAM rides on HEADERS
    at += write_frame_header(out + at, static_cast<uint32_t>(piece),
                             first ? FrameType::headers : FrameType::continuation, flags,
                             stream_id);
    if (piece > 0) std::memcpy(out + at, block.data() + sent, piece);
    at += piece;
    sent += piece;
    first = false;
  } while (sent < block.size());
  return at;
}

size_t write_data_header(uint8_t* out, uint32_t stream_id, uint32_t length, bool end_stream) {
  return write_frame_header(out, length, FrameType::data,
                            end_stream ? frame_flags::kEndStream : 0, stream_id);
}

size_t write_window_update(uint8_t* out, uint32_t stream_id, uint32_t increment) {
  assert(increment >= 1 && increment <= kMaxWindowSize);
  const size_t at = write_frame_header(out, 4, FrameType::window_update, 0, stream_id);
  put_u32(out + at, increment & kMaxWindowSize);
  return kWindowUpdateFrameBytes;
}

size_t write_ping(uint8_t* out, const std::array<uint8_t, 8>& data, bool ack) {
  const size_t at = write_frame_header(out, 8, FrameType::ping, ack ? frame_flags::kAck : 0, 0);
  std::memcpy(out + at, data.data(), data.size());
  return kPingFrameBytes;
}

size_t write_rst_stream(uint8_t* out, uint32_t stream_id, ErrorCode code) {
  const size_t at = write_frame_header(out, 4, FrameType::rst_stream, 0, stream_id);
  put_u32(out + at, static_cast<uint32_t>(code));
  return kRstStreamFrameBytes;
}

size_t write_goaway(uint8_t* out, uint32_t last_stream_id, ErrorCode code) {
  const size_t at = write_frame_header(out, 8, FrameType::goaway, 0, 0);
  put_u32(out + at, last_stream_id & kStreamIdMask);
  put_u32(out + at + 4, static_cast<uint32_t>(code));
  return kGoawayFrameBytes;
}

}  // namespace hammer::http2
