// SPDX-License-Identifier: MIT
#pragma once
// Flow-control accounting (RFC 9113 §5.2, §6.9): pure arithmetic, no I/O, one object per
// window. A connection has one of each direction and every stream has its own pair; DATA
// counts against both the stream's and the connection's window (its whole payload, padding
// included).
//
// SendWindow is the peer's allowance for our DATA: it shrinks as we send, grows on the peer's
// WINDOW_UPDATE and moves by the difference when the peer changes SETTINGS_INITIAL_WINDOW_SIZE
// (stream windows only; that may leave it negative, §6.9.2). Growing past 2^31 - 1 is a
// FLOW_CONTROL_ERROR: on the connection a connection error, on a stream a stream error.
//
// ReceiveWindow is our allowance for the peer's DATA. hammer consumes a body as it arrives, so
// received bytes are free again at once; a WINDOW_UPDATE is due when half the target window
// has been used, which keeps large bodies flowing without one update per frame. DATA beyond
// what we allowed is a FLOW_CONTROL_ERROR.
#include <cstdint>

#include "http2/frame_types.h"

namespace hammer::http2 {

enum class FlowError : uint8_t {
  none,
  window_overflow,  // a WINDOW_UPDATE or SETTINGS change would exceed 2^31 - 1
  window_exceeded,  // the peer sent more DATA than the window allowed
};

inline ErrorCode error_code(FlowError error) {
  return error == FlowError::none ? ErrorCode::no_error : ErrorCode::flow_control_error;
}

class SendWindow {
 public:
  explicit SendWindow(int64_t initial = kDefaultInitialWindowSize) : window_(initial) {}

  /// Octets of DATA that may be sent now (0 when the window is used up or negative).
  int64_t available() const { return window_ > 0 ? window_ : 0; }
  int64_t window() const { return window_; }

  /// Records `bytes` of DATA sent; bytes must be at most available().
  void consume(int64_t bytes);

  /// A WINDOW_UPDATE of `increment` (1..2^31-1; the parser rejects 0).
  FlowError on_window_update(uint32_t increment);

  /// The peer changed SETTINGS_INITIAL_WINDOW_SIZE from `old_initial` to `new_initial`.
  FlowError on_initial_window_change(uint32_t old_initial, uint32_t new_initial);

 private:
  int64_t window_;
};

class ReceiveWindow {
 public:
  /// `initial` is what the peer starts with (65535 for the connection, our
  /// SETTINGS_INITIAL_WINDOW_SIZE for a stream); `target` is the size we keep it topped up to,
  /// which may be larger (the connection's window grows only by WINDOW_UPDATE).
  ReceiveWindow(uint32_t initial, uint32_t target);

  /// The peer sent a DATA frame whose payload (padding included) is `payload_bytes`.
  FlowError on_data(uint32_t payload_bytes);

  /// The increment to send in a WINDOW_UPDATE now, or 0 when none is due; call
  /// on_update_sent() after writing it.
  uint32_t update_due() const;
  void on_update_sent(uint32_t increment) { window_ += increment; }

  int64_t window() const { return window_; }
  uint32_t target() const { return target_; }

 private:
  int64_t window_;
  uint32_t target_;
};

/// How much DATA a stream may send now: the least of what it has, both windows and the peer's
/// SETTINGS_MAX_FRAME_SIZE (one frame).
int64_t sendable_bytes(int64_t pending_bytes, const SendWindow& connection,
                       const SendWindow& stream, uint32_t peer_max_frame_size);

}  // namespace hammer::http2
