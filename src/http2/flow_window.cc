// SPDX-License-Identifier: MIT
#include "http2/flow_window.h"

#include <algorithm>
#include <cassert>

namespace hammer::http2 {

void SendWindow::consume(int64_t bytes) {
  assert(bytes >= 0 && bytes <= available());
  window_ -= bytes;
}

FlowError SendWindow::on_window_update(uint32_t increment) {
  if (window_ + int64_t{increment} > int64_t{kMaxWindowSize}) return FlowError::window_overflow;
  window_ += increment;
  return FlowError::none;
}

FlowError SendWindow::on_initial_window_change(uint32_t old_initial, uint32_t new_initial) {
  const int64_t next = window_ + (int64_t{new_initial} - int64_t{old_initial});
  if (next > int64_t{kMaxWindowSize}) return FlowError::window_overflow;
  window_ = next;
  return FlowError::none;
}

ReceiveWindow::ReceiveWindow(uint32_t initial, uint32_t target)
    : window_(initial), target_(std::min(target, kMaxWindowSize)) {}

FlowError ReceiveWindow::on_data(uint32_t payload_bytes) {
  if (int64_t{payload_bytes} > window_) return FlowError::window_exceeded;
  window_ -= payload_bytes;
  return FlowError::none;
}

uint32_t ReceiveWindow::update_due() const {
  const int64_t used = int64_t{target_} - window_;
  if (used <= 0 || used < int64_t{target_} / 2) return 0;
  return static_cast<uint32_t>(used);
}

int64_t sendable_bytes(int64_t pending_bytes, const SendWindow& connection,
                       const SendWindow& stream, uint32_t peer_max_frame_size) {
  return std::max<int64_t>(0, std::min({pending_bytes, connection.available(), stream.available(),
                                        int64_t{peer_max_frame_size}}));
}

}  // namespace hammer::http2
