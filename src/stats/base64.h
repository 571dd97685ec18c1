// SPDX-License-Identifier: MIT
#pragma once
// Standard base64 (RFC 4648 alphabet, '=' padding, no line breaks): the text form of
// HdrHistogram's compressed V2 encoding.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hammer {

std::string base64_encode(std::string_view bytes);

/// Decodes standard base64. Padding is optional; ASCII whitespace is skipped (log files wrap
/// lines). nullopt on any other character outside the alphabet, on data after padding, or on
/// a length that cannot come from whole bytes.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace hammer
