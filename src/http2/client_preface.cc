// SPDX-License-Identifier: MIT
#include "http2/client_preface.h"

#include <vector>

#include "http2/frame_writer.h"

namespace hammer::http2 {

std::string client_preface(const ClientSettings& settings) {
  std::vector<Setting> fields = {{SettingId::enable_push, 0}};
  if (settings.header_table_size != kDefaultHeaderTableSize) {
    fields.push_back({SettingId::header_table_size, settings.header_table_size});
  }
  if (settings.initial_window_size != kDefaultInitialWindowSize) {
    fields.push_back({SettingId::initial_window_size, settings.initial_window_size});
  }
  if (settings.max_frame_size != kDefaultMaxFrameSize) {
    fields.push_back({SettingId::max_frame_size, settings.max_frame_size});
  }
  // No initial value bounds the list (it is unlimited), so ours is always said.
  fields.push_back({SettingId::max_header_list_size, settings.max_header_list_size});

  std::string out(kClientPreface);
  std::vector<uint8_t> frames(kFrameHeaderBytes + 6 * fields.size() + kWindowUpdateFrameBytes);
  size_t at = write_settings(frames.data(), fields);
  if (settings.connection_window > kDefaultInitialWindowSize) {
    at += write_window_update(frames.data() + at, 0,
                              settings.connection_window - kDefaultInitialWindowSize);
  }
  out.append(reinterpret_cast<const char*>(frames.data()), at);
  return out;
}

}  // namespace hammer::http2
