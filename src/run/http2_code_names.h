// SPDX-License-Identifier: MIT
#pragma once
// The names of Http2Summary::resets_received's buckets (RFC 9113 §7, 0x0 .. 0xd, then any
// other code): as the text report prints them and as the JSON `http2.resets_received` keys
// them (report/http2_report.cc writes them, document/http2_section.cc reads them back).
#include <array>
#include <string_view>

#include "run/http2_summary.h"

namespace hammer {

inline constexpr std::array<std::string_view, kHttp2ResetBuckets> kHttp2ResetNames = {
    "NO_ERROR",          "PROTOCOL_ERROR",    "INTERNAL_ERROR",      "FLOW_CONTROL_ERROR",
    "SETTINGS_TIMEOUT",  "STREAM_CLOSED",     "FRAME_SIZE_ERROR",    "REFUSED_STREAM",
    "CANCEL",            "COMPRESSION_ERROR", "CONNECT_ERROR",       "ENHANCE_YOUR_CALM",
    "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED", "other"};

inline constexpr std::array<std::string_view, kHttp2ResetBuckets> kHttp2ResetKeys = {
    "no_error",          "protocol_error",    "internal_error",      "flow_control_error",
    "settings_timeout",  "stream_closed",     "frame_size_error",    "refused_stream",
    "cancel",            "compression_error", "connect_error",       "enhance_your_calm",
    "inadequate_security", "http_1_1_required", "other"};

}  // namespace hammer
