// SPDX-License-Identifier: MIT
#pragma once
// HdrHistogram's V2 serialization, compressed and base64-encoded ("HISTF..."), the form every
// HdrHistogram implementation (Java, C, Go, JS, Rust) can read and merge.
#include <string>
#include <string_view>

#include "core/expected.h"
#include "stats/histogram.h"

namespace hammer {

/// Encodes `histogram` as compressed V2 (cookie 0x1c849304 around a zlib stream of the
/// 0x1c849303 payload), base64 without line breaks.
std::string encode_v2_base64(const Histogram& histogram);

/// Decodes a base64 compressed V2 string written by any HdrHistogram implementation.
/// The error says what was wrong (bad base64, bad cookie, zlib failure, truncated counts...).
Expected<Histogram, std::string> decode_v2_base64(std::string_view text);

}  // namespace hammer
