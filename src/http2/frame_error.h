// SPDX-License-Identifier: MIT
#pragma once
// Why the frame parser stopped (a connection error) or refused one frame (a stream error),
// each with the RFC 9113 error code the GOAWAY or RST_STREAM must carry.
#include <cstdint>
#include <string_view>

#include "http2/frame_types.h"

namespace hammer::http2 {

enum class FrameError : uint8_t {
  none,
  frame_too_large,            // length over our SETTINGS_MAX_FRAME_SIZE (§4.2)
  bad_frame_length,           // a fixed-size frame of the wrong size (§6.3-§6.9)
  stream_id_required,         // a stream frame on stream 0
  stream_id_forbidden,        // a connection frame (SETTINGS, PING, GOAWAY) on a stream
  bad_padding,                // pad length not less than the payload (§6.1, §6.2)
  zero_window_increment,      // WINDOW_UPDATE of 0 (§6.9)
  settings_ack_with_payload,  // SETTINGS ACK with a body (§6.5)
  bad_enable_push,            // SETTINGS_ENABLE_PUSH other than 0 from a server (§6.5.2)
  bad_initial_window_size,    // over 2^31 - 1 (§6.5.2)
  bad_max_frame_size,         // outside 2^14 .. 2^24 - 1 (§6.5.2)
  push_promise_received,      // we advertise SETTINGS_ENABLE_PUSH 0 (§6.6, §8.4)
  continuation_expected,      // another frame inside a header block (§6.10)
  unexpected_continuation,    // CONTINUATION with no open header block (§6.10)
  header_block_too_large,     // HEADERS + CONTINUATION beyond our block buffer
  continuation_flood,         // more CONTINUATION frames in one block than any server needs
  self_dependency,            // a stream depending on itself (§5.3.1)
};

/// The RFC 9113 code to send for `error`.
ErrorCode error_code(FrameError error);

/// A short lower-case phrase for reports. Never empty.
std::string_view describe(FrameError error);

}  // namespace hammer::http2
