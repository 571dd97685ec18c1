// SPDX-License-Identifier: MIT
// Base64 for the V2 histogram text form. Small and strict on purpose: decode_v2_base64 faces
// untrusted input, so every character is checked and nothing is read past the input.
#include "stats/base64.h"

#include <array>

namespace hammer {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr int8_t kInvalid = -1;
constexpr int8_t kSkip = -2;

constexpr std::array<int8_t, 256> make_decode_table() {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  for (size_t i = 0; i < kAlphabet.size(); ++i) {
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  }
  for (char c : {' ', '\t', '\r', '\n'}) table[static_cast<unsigned char>(c)] = kSkip;
  return table;
}

constexpr std::array<int8_t, 256> kDecodeTable = make_decode_table();

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                     static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                     static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 2]));
    out.push_back(kAlphabet[(group >> 18) & 63]);
    out.push_back(kAlphabet[(group >> 12) & 63]);
    out.push_back(kAlphabet[(group >> 6) & 63]);
    out.push_back(kAlphabet[group & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) group |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out.push_back(kAlphabet[(group >> 18) & 63]);
    out.push_back(kAlphabet[(group >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(group >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3 + 3);
  uint32_t group = 0;
  int sextets = 0;    // sextets in the current group of four
  int padding = 0;    // '=' seen; only whitespace and more '=' may follow
  for (char c : text) {
    int8_t code = kDecodeTable[static_cast<unsigned char>(c)];
    if (code == kSkip) continue;
    if (c == '=') {
      ++padding;
      if (padding > 2) return std::nullopt;
      continue;
    }
    if (code == kInvalid || padding > 0) return std::nullopt;
    group = (group << 6) | static_cast<uint32_t>(code);
    if (++sextets == 4) {
      out.push_back(static_cast<char>((group >> 16) & 0xff));
      out.push_back(static_cast<char>((group >> 8) & 0xff));
      out.push_back(static_cast<char>(group & 0xff));
      group = 0;
      sextets = 0;
    }
  }
  // A final partial group: 2 sextets make one byte, 3 make two; 1 cannot come from bytes.
  if (sextets == 1) return std::nullopt;
  if (sextets == 0 && padding > 0) return std::nullopt;
  if (sextets > 0 && padding > 0 && sextets + padding != 4) return std::nullopt;
  if (sextets == 2) {
    out.push_back(static_cast<char>((group >> 4) & 0xff));
  } else if (sextets == 3) {
    out.push_back(static_cast<char>((group >> 10) & 0xff));
    out.push_back(static_cast<char>((group >> 2) & 0xff));
  }
  return out;
}

}  // namespace hammer
