// SPDX-License-Identifier: MIT
#include "http2/frame_error.h"

namespace hammer::http2 {

ErrorCode error_code(FrameError error) {
  switch (error) {
    case FrameError::none: return ErrorCode::no_error;
    case FrameError::frame_too_large:
    case FrameError::bad_frame_length:
    case FrameError::settings_ack_with_payload: return ErrorCode::frame_size_error;
    case FrameError::zero_window_increment:
    case FrameError::stream_id_required:
    case FrameError::stream_id_forbidden:
    case FrameError::bad_padding:
    case FrameError::bad_enable_push:
    case FrameError::bad_max_frame_size:
    case FrameError::push_promise_received:
    case FrameError::continuation_expected:
    case FrameError::unexpected_continuation:
    case FrameError::self_dependency: return ErrorCode::protocol_error;
    case FrameError::bad_initial_window_size: return ErrorCode::flow_control_error;
    case FrameError::header_block_too_large:
    case FrameError::continuation_flood: return ErrorCode::enhance_your_calm;
  }
  return ErrorCode::internal_error;
}

std::string_view describe(FrameError error) {
  switch (error) {
    case FrameError::none: return "no error";
    case FrameError::frame_too_large: return "frame larger than SETTINGS_MAX_FRAME_SIZE";
    case FrameError::bad_frame_length: return "frame of the wrong length";
    case FrameError::stream_id_required: return "stream frame on stream 0";
    case FrameError::stream_id_forbidden: return "connection frame on a stream";
    case FrameError::bad_padding: return "padding longer than the frame";
    case FrameError::zero_window_increment: return "WINDOW_UPDATE of zero";
    case FrameError::settings_ack_with_payload: return "SETTINGS ACK with a payload";
    case FrameError::bad_enable_push: return "SETTINGS_ENABLE_PUSH from a server";
    case FrameError::bad_initial_window_size: return "SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1";
    case FrameError::bad_max_frame_size: return "SETTINGS_MAX_FRAME_SIZE out of range";
    case FrameError::push_promise_received: return "PUSH_PROMISE with push disabled";
    case FrameError::continuation_expected: return "frame inside a header block";
    case FrameError::unexpected_continuation: return "CONTINUATION without HEADERS";
    case FrameError::header_block_too_large: return "header block too large";
    case FrameError::continuation_flood: return "CONTINUATION flood";
    case FrameError::self_dependency: return "stream depends on itself";
  }
  return "unknown frame error";
}

}  // namespace hammer::http2
