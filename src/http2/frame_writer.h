// SPDX-License-Identifier: MIT
#pragma once
// Serialisers for the frames a client sends (RFC 9113 §6). Each writes into a buffer the
// caller owns and returns the octets written, so sending on the hot path allocates nothing;
// the k*Bytes constants and headers_frames_bytes() say how much room to give. DATA is written
// as its 9-octet header only: the caller places the body after it (or sends it from where it
// already is) rather than copying it here.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "http2/frame_types.h"

namespace hammer::http2 {

inline constexpr size_t kPingFrameBytes = kFrameHeaderBytes + 8;
inline constexpr size_t kWindowUpdateFrameBytes = kFrameHeaderBytes + 4;
inline constexpr size_t kRstStreamFrameBytes = kFrameHeaderBytes + 4;
inline constexpr size_t kGoawayFrameBytes = kFrameHeaderBytes + 8;  // without debug data
inline constexpr size_t kSettingsAckFrameBytes = kFrameHeaderBytes;

/// The 9-octet frame header (§4.1).
size_t write_frame_header(uint8_t* out, uint32_t length, FrameType type, uint8_t flags,
                          uint32_t stream_id);

/// SETTINGS with these parameters, in order; 9 + 6 per parameter octets.
size_t write_settings(uint8_t* out, std::span<const Setting> settings);
size_t write_settings_ack(uint8_t* out);

/// The octets HEADERS plus the CONTINUATIONs carrying a `block_bytes` block take when no frame
/// may exceed `max_frame_size` (the peer's SETTINGS_MAX_FRAME_SIZE).
size_t headers_frames_bytes(size_t block_bytes, uint32_t max_frame_size);

/// HEADERS (END_STREAM when `end_stream`) and as many CONTINUATION frames as `block` needs,
/// END_HEADERS on the last; no padding, no priority.
size_t write_headers(uint8_t* out, uint32_t stream_id, std::span<const uint8_t> block,
                     bool end_stream, uint32_t max_frame_size);

/// The header of a DATA frame of `length` octets (no padding), which must be at most the
/// peer's SETTINGS_MAX_FRAME_SIZE; the payload follows it on the wire.
size_t write_data_header(uint8_t* out, uint32_t stream_id, uint32_t length, bool end_stream);

size_t write_window_update(uint8_t* out, uint32_t stream_id, uint32_t increment);
size_t write_ping(uint8_t* out, const std::array<uint8_t, 8>& data, bool ack);
size_t write_rst_stream(uint8_t* out, uint32_t stream_id, ErrorCode code);
size_t write_goaway(uint8_t* out, uint32_t last_stream_id, ErrorCode code);

}  // namespace hammer::http2
