// SPDX-License-Identifier: MIT
#pragma once
// The e2e tests' view of a JSON document, read by hammer's own strict reader
// (json/json_value.h: RFC 8259 to the letter, duplicate keys refused), so a test that parses
// hammer's output proves it is JSON. What the view adds is for tests only: numbers as doubles
// and members looked up by dotted path ("latency.corrected.percentiles_ns.99").
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hammer::test {

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string text;  // a string's decoded UTF-8, or a number as written
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> members;

  /// Member lookup by dotted path; nullptr when a step is missing or not an object.
  const JsonValue* find(std::string_view path) const;
  bool is_null() const { return kind == Kind::null; }
};

/// Parses exactly one JSON document (surrounding whitespace allowed) with hammer's reader;
/// nullopt on any error, with the reader's one-line reason in *error.
std::optional<JsonValue> parse_json(std::string_view text, std::string* error);

}  // namespace hammer::test
