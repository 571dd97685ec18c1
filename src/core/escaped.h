// SPDX-License-Identifier: MIT
#pragma once
// A value from the input quoted in an error message: \r, \n, \t and other control bytes
// escaped, so a hostile value cannot split hammer's one-line errors or drive the terminal.
// One rule for the flags, the --requests file and the JSON reader.
#include <string>
#include <string_view>

namespace hammer {

inline std::string escaped(std::string_view value) {
  std::string out;
  for (char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\r') {
      out += "\\r";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

/// 'value', escaped.
inline std::string quoted(std::string_view value) {
  std::string out = "'";  // appended in steps: GCC 12's -Wrestrict misfires on "'" + string
  out += escaped(value);
  out += '\'';
  return out;
}

}  // namespace hammer
