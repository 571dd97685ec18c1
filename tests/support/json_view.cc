// SPDX-License-Identifier: MIT
#include "support/json_view.h"

#include "json/json_value.h"

namespace hammer::test {
namespace {

// The e2e tests' view (numbers as doubles, members by name) of what hammer's reader read. A
// map cannot hold a key twice; the reader has already refused a document that does.
JsonValue converted(const hammer::JsonValue& strict) {
  JsonValue out;
  switch (strict.kind) {
    case hammer::JsonValue::Kind::null:
      out.kind = JsonValue::Kind::null;
      break;
    case hammer::JsonValue::Kind::boolean:
      out.kind = JsonValue::Kind::boolean;
      out.boolean = strict.boolean;
      break;
    case hammer::JsonValue::Kind::number:
      out.kind = JsonValue::Kind::number;
      out.number = strict.as_double().value_or(0);
      out.text = strict.text;
      break;
    case hammer::JsonValue::Kind::string:
      out.kind = JsonValue::Kind::string;
      out.text = strict.text;
      break;
    case hammer::JsonValue::Kind::array:
      out.kind = JsonValue::Kind::array;
      for (const hammer::JsonValue& item : strict.items) out.items.push_back(converted(item));
      break;
    case hammer::JsonValue::Kind::object:
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
  auto strict = hammer::parse_json(text);
  if (!strict) {
    *error = strict.error();
    return std::nullopt;
  }
  return converted(*strict);
}

}  // namespace hammer::test
