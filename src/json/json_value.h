// SPDX-License-Identifier: MIT
#pragma once
// hammer's one JSON reader: the lines of a --requests file, saved documents for `hammer merge`
// and `hammer report`, the run's own document for -o report.html, and the tests, which parse
// hammer's output with it to prove the output is JSON. Start-up only, never the hot path.
// Strict RFC 8259: no trailing commas, leading zeros, raw control characters, lone
// surrogates, bytes that are not UTF-8 or text after the document; a key given twice in one
// object is an error too (the RFC leaves its meaning open). Nesting deeper than 64 levels is
// refused before the stack is at risk; callers bound the size. fuzz/json_fuzz.cc holds it to
// that, and to errors of one printable line that say where.
// Numbers keep their text, so a 64-bit integer (a Unix time in ns) reads back exactly
// instead of through a double.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace hammer {

struct JsonMember;

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  std::string text;  // a string's decoded UTF-8, or a number as written
  std::vector<JsonValue> items;
  std::vector<JsonMember> members;  // in document order

  bool is_null() const { return kind == Kind::null; }
  bool is_number() const { return kind == Kind::number; }
  bool is_string() const { return kind == Kind::string; }
  bool is_object() const { return kind == Kind::object; }
  bool is_array() const { return kind == Kind::array; }
  /// The member `name` of an object; nullptr when absent or when this is not an object.
  const JsonValue* find(std::string_view name) const;
  /// Follows a path of member names (`at({"latency", "corrected"})`); nullptr where a step is
  /// missing or not an object.
  const JsonValue* at(std::initializer_list<std::string_view> path) const;
  /// An integer number written without fraction or exponent, in int64_t range.
  std::optional<int64_t> as_int() const;
  /// Any number.
  std::optional<double> as_double() const;
};

/// The kind in words, for messages: "a string", "a number", "an object"...
std::string_view json_kind_name(JsonValue::Kind kind);

/// One member of an object (a pair would need JsonValue complete where it is not yet).
struct JsonMember {
  std::string key;
  JsonValue value;
};

/// Parses exactly one document (surrounding whitespace allowed); the error is one line that
/// says what and where, lines and columns (bytes) from 1:
/// `duplicate key "requests" at line 12, column 3`; a text of one line names the column alone
/// (`trailing comma before '}' at column 14`: a --requests line has its own line number).
Expected<JsonValue, std::string> parse_json(std::string_view text);

}  // namespace hammer
