// SPDX-License-Identifier: MIT
#pragma once
// Character classes of RFC 9110 §5.6, as 256-entry tables: the parser's inner loops test one
// byte per lookup, and request validation uses the same definitions so what hammer sends is
// what it would accept.
#include <array>
#include <string_view>

namespace hammer::http_chars {

constexpr std::array<bool, 256> make_token_table() {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) table[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) table[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) table[c] = true;
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) table[static_cast<unsigned char>(c)] = true;
  return table;
}

// field-vchar, SP, HTAB: what may appear in a field value, a reason phrase or an extension.
constexpr std::array<bool, 256> make_value_table() {
  std::array<bool, 256> table{};
  table['\t'] = true;
  for (int c = 0x20; c <= 0x7e; ++c) table[c] = true;
  for (int c = 0x80; c <= 0xff; ++c) table[c] = true;
  return table;
}

/// tchar: the bytes of a header name or a method.
inline constexpr std::array<bool, 256> kTokenChar = make_token_table();
/// The bytes of a header value (obs-text included, CR, LF and other controls excluded).
inline constexpr std::array<bool, 256> kValueChar = make_value_table();

constexpr unsigned char lower(unsigned char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + ('a' - 'A')) : c;
}

constexpr bool is_space(unsigned char c) { return c == ' ' || c == '\t'; }

/// Header names (and "chunked") compare case-insensitively, ASCII only (RFC 9110 section 5.1).
constexpr bool names_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (lower(static_cast<unsigned char>(a[k])) != lower(static_cast<unsigned char>(b[k]))) {
      return false;
    }
  }
  return true;
}

}  // namespace hammer::http_chars
