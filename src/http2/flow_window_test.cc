// SPDX-License-Identifier: MIT
#include "http2/flow_window.h"

#include <gtest/gtest.h>

namespace hammer::http2 {
namespace {

TEST(SendWindowTest, ShrinksAsDataIsSentAndGrowsOnUpdates) {
  SendWindow window;
  EXPECT_EQ(window.available(), 65535);
  window.consume(65535);
  EXPECT_EQ(window.available(), 0);
  EXPECT_EQ(window.on_window_update(100), FlowError::none);
  EXPECT_EQ(window.available(), 100);
}

TEST(SendWindowTest, UpdatePastTheMaximumIsAFlowControlError) {
  SendWindow window(kMaxWindowSize - 10);
  EXPECT_EQ(window.on_window_update(10), FlowError::none);
  EXPECT_EQ(window.window(), kMaxWindowSize);
  EXPECT_EQ(window.on_window_update(1), FlowError::window_overflow);
  EXPECT_EQ(window.window(), kMaxWindowSize);  // unchanged
  EXPECT_EQ(error_code(FlowError::window_overflow), ErrorCode::flow_control_error);
}

TEST(SendWindowTest, InitialWindowChangeMayLeaveItNegative) {
  SendWindow window(65535);
  window.consume(60000);
  EXPECT_EQ(window.on_initial_window_change(65535, 1000), FlowError::none);
  EXPECT_EQ(window.window(), 1000 - 60000);
  EXPECT_EQ(window.available(), 0);
  EXPECT_EQ(window.on_window_update(60000), FlowError::none);
  EXPECT_EQ(window.available(), 1000);
  // 1000 + (2^31 - 1 - 999) is one past the maximum.
  EXPECT_EQ(window.on_initial_window_change(999, kMaxWindowSize), FlowError::window_overflow);
  EXPECT_EQ(window.on_initial_window_change(1000, kMaxWindowSize), FlowError::none);
}

TEST(ReceiveWindowTest, DataBeyondTheWindowIsAnError) {
  ReceiveWindow window(100, 100);
  EXPECT_EQ(window.on_data(60), FlowError::none);
  EXPECT_EQ(window.on_data(41), FlowError::window_exceeded);
  EXPECT_EQ(window.on_data(40), FlowError::none);
  EXPECT_EQ(window.window(), 0);
}

TEST(ReceiveWindowTest, UpdateIsDueOnceHalfTheTargetIsUsed) {
  ReceiveWindow window(65535, 65535);
  EXPECT_EQ(window.update_due(), 0u);
  ASSERT_EQ(window.on_data(32000), FlowError::none);
  EXPECT_EQ(window.update_due(), 0u);
  ASSERT_EQ(window.on_data(1000), FlowError::none);
  EXPECT_EQ(window.update_due(), 33000u);
  window.on_update_sent(33000);
  EXPECT_EQ(window.update_due(), 0u);
  EXPECT_EQ(window.window(), 65535);
}

TEST(ReceiveWindowTest, ConnectionWindowIsRaisedToItsTargetAtOnce) {
  ReceiveWindow connection(65535, 16 << 20);
  EXPECT_EQ(connection.update_due(), uint32_t{16 << 20} - 65535);
}

TEST(ReceiveWindowTest, ALargeBodyFlowsWithFewUpdates) {
  // 10 MB in 16 KiB frames through a 1 MiB stream window: the window never runs out and an
  // update goes out every ~32 frames, not every frame.
  ReceiveWindow window(1 << 20, 1 << 20);
  int updates = 0;
  for (int64_t sent = 0; sent < 10'000'000; sent += 16384) {
    ASSERT_EQ(window.on_data(16384), FlowError::none);
    if (const uint32_t increment = window.update_due(); increment != 0) {
      window.on_update_sent(increment);
      ++updates;
    }
  }
  EXPECT_GE(updates, 15);
  EXPECT_LE(updates, 25);
}

TEST(FlowWindowTest, SendableIsTheLeastOfDataWindowsAndFrameSize) {
  SendWindow connection(50000);
  SendWindow stream(30000);
  EXPECT_EQ(sendable_bytes(100000, connection, stream, 16384), 16384);
  EXPECT_EQ(sendable_bytes(100000, connection, stream, 65536), 30000);
  EXPECT_EQ(sendable_bytes(10, connection, stream, 16384), 10);
  SendWindow negative(10);
  ASSERT_EQ(negative.on_initial_window_change(100, 0), FlowError::none);
  EXPECT_EQ(sendable_bytes(10, connection, negative, 16384), 0);
}

}  // namespace
}  // namespace hammer::http2
