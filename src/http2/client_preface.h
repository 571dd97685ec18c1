// SPDX-License-Identifier: MIT
#pragma once
// What a hammer connection sends first (RFC 9113 §3.4): the preface string, one SETTINGS frame
// with the limits the receive side was built with, and a WINDOW_UPDATE that raises the
// connection's receive window from the fixed 65,535 octets to its target (the connection
// window cannot be set by SETTINGS). Built once at setup; every connection sends the same bytes.
#include <cstdint>
#include <string>

#include "http2/frame_parser.h"
#include "http2/hpack_decoder.h"

namespace hammer::http2 {

struct ClientSettings {
  uint32_t header_table_size = kDefaultHeaderTableSize;       // our HpackDecoder's capacity
  uint32_t max_header_list_size = kDefaultMaxHeaderListBytes;  // and its list bound
  uint32_t max_frame_size = kDefaultMaxFrameSize;             // FrameParser::set_max_frame_size
  uint32_t initial_window_size = 1 << 20;   // per stream: a 1 MiB body needs no update
  uint32_t connection_window = 16 << 20;    // sized for many streams in flight
};

/// Preface, SETTINGS (ENABLE_PUSH 0 and every field of `settings` that differs from the
/// RFC's initial value, MAX_HEADER_LIST_SIZE always), and the connection WINDOW_UPDATE when
/// connection_window is above 65,535.
std::string client_preface(const ClientSettings& settings);

}  // namespace hammer::http2
