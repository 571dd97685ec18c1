// SPDX-License-Identifier: MIT
#pragma once
// A strict reader for one line of a JSON Lines file (RFC 8259): the whole value, nothing
// after it but whitespace. It keeps strings (unescaped to UTF-8) and objects (members in file
// order, duplicates kept so the caller can refuse them); numbers, booleans, null and arrays are
// checked and kept as their kind only, since no request member takes one. Start-up only: it
// favours plain code and exact error positions over speed.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"

namespace hammer {

struct JsonLineValue {
  enum class Kind { string, number, boolean, null, array, object };
  Kind kind = Kind::null;
  std::string text;  // the unescaped string, for Kind::string
  std::vector<std::pair<std::string, JsonLineValue>> members;  // Kind::object, in order

  // Defined where JsonLineValue is complete: a vector of pair<string, JsonLineValue> cannot be destroyed or
  // copied inside its own class (clang with libstdc++'s constexpr vector in C++20 instantiates
  // them there and fails on the incomplete pair).
  JsonLineValue();
  JsonLineValue(const JsonLineValue&);
  JsonLineValue(JsonLineValue&&) noexcept;
  JsonLineValue& operator=(const JsonLineValue&);
  JsonLineValue& operator=(JsonLineValue&&) noexcept;
  ~JsonLineValue();
};

/// The kind in words, for messages: "a string", "a number", "an object"...
std::string_view json_kind_name(JsonLineValue::Kind kind);

/// Nesting deeper than this is refused (a line is one flat request).
inline constexpr int kMaxJsonLineDepth = 16;

/// Parses `line` (without its newline). The error reads "at column N: expected ..." (columns
/// count bytes from 1).
Expected<JsonLineValue, std::string> parse_json_line(std::string_view line);

}  // namespace hammer
