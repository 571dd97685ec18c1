// SPDX-License-Identifier: MIT
#include "http2/client_preface.h"

#include <gtest/gtest.h>

#include "http2/frame_testing.h"

namespace hammer::http2 {
namespace {

TEST(ClientPrefaceTest, DefaultsAreThePrefaceSettingsAndAConnectionWindowUpdate) {
  const std::string bytes = client_preface({});
  ASSERT_EQ(bytes.substr(0, kClientPreface.size()), kClientPreface);
  const testing::Outcome outcome = testing::run(bytes.substr(kClientPreface.size()), {});
  EXPECT_EQ(outcome.error, FrameError::none);
  EXPECT_EQ(outcome.events,
            (std::vector<std::string>{"settings s0 L18 2=0 4=1048576 6=65536",
                                      "window_update s0 L4 +16711681"}));
}

TEST(ClientPrefaceTest, RfcInitialValuesAreNotRepeated) {
  ClientSettings settings;
  settings.initial_window_size = kDefaultInitialWindowSize;
  settings.connection_window = kDefaultInitialWindowSize;
  settings.header_table_size = 0;
  settings.max_frame_size = 1 << 20;
  const std::string bytes = client_preface(settings);
  const testing::Outcome outcome = testing::run(bytes.substr(kClientPreface.size()), {});
  EXPECT_EQ(outcome.events,
            (std::vector<std::string>{"settings s0 L24 1=0 2=0 5=1048576 6=65536"}));
}

}  // namespace
}  // namespace hammer::http2
