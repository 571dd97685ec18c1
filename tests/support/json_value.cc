// SPDX-License-Identifier: MIT
#include "support/json_value.h"

#include <cstdlib>

#include "support/strict_json.h"

namespace hammer::test {
namespace {

// The e2e tests' view (numbers as doubles, members by name) of what the strict reader read.
JsonValue converted(const testing::JsonValue& strict) {
  JsonValue out;
  switch (strict.type) {
    case testing::JsonValue::Type::null:
      out.kind = JsonValue::Kind::null;
      break;
    case testing::JsonValue::Type::boolean:
      out.kind = JsonValue::Kind::boolean;
      out.boolean = strict.boolean;
      break;
    case testing::JsonValue::Type::number:
      out.kind = JsonValue::Kind::number;
      out.number = std::strtod(strict.text.c_str(), nullptr);
      out.text = strict.text;
      break;
    case testing::JsonValue::Type::string:
      out.kind = JsonValue::Kind::string;
      out.text = strict.text;
      break;
    case testing::JsonValue::Type::array:
      out.kind = JsonValue::Kind::array;
      for (const testing::JsonValue& item : strict.items) out.items.push_back(converted(item));
      break;
    case testing::JsonValue::Type::object:
      out.kind = JsonValue::Kind::object;
      for (const auto& [key, member] : strict.members) out.members[key] = converted(member);
      break;
  }
  return out;
}

}  // namespace

const JsonValue* JsonValue::find(std::string_view path) const {
  const JsonValue* node = this;
  while (!path.empty()) {
    // Keys like "99.9" contain dots: try the longest key that matches first.
    if (node->kind != Kind::object) return nullptr;
    const JsonValue* next = nullptr;
    size_t used = 0;
    for (size_t end = path.size(); end > 0; --end) {
      if (end != path.size() && path[end] != '.') continue;
      auto it = node->members.find(std::string(path.substr(0, end)));
      if (it != node->members.end()) {
        next = &it->second;
        used = end;
        break;
      }
    }
    if (!next) return nullptr;
    node = next;
    path.remove_prefix(used);
    if (!path.empty()) path.remove_prefix(1);
  }
  return node;
}

std::optional<JsonValue> parse_json(std::string_view text, std::string* error) {
  testing::JsonParser parser;
  auto strict = parser.parse(text);
  if (!strict) {
    *error = parser.error();
    return std::nullopt;
  }
  return converted(*strict);
}

}  // namespace hammer::test
