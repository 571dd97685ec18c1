// SPDX-License-Identifier: MIT
#pragma once
// A small JSON reader for tests: enough to check that hammer's --json output is one valid
// document and to look fields up by path ("latency.corrected.percentiles_ns.99").
#include <map>
#include <memory>
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
  std::string text;
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> members;

  /// Member lookup by dotted path; nullptr when a step is missing or not an object.
  const JsonValue* find(std::string_view path) const;
  bool is_null() const { return kind == Kind::null; }
};

/// Parses exactly one JSON document (surrounding whitespace allowed); nullopt on any error or
/// trailing bytes, with the reason in *error.
std::optional<JsonValue> parse_json(std::string_view text, std::string* error);

}  // namespace hammer::test
