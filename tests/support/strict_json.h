// SPDX-License-Identifier: MIT
#pragma once
// The strict JSON reader of the tests (header-only, so it never enters libhammer): the report
// tests use it directly, the e2e tests through support/json_value.h. It follows RFC 8259 to the letter — no trailing commas, no raw control
// characters in strings, no leading zeros, nothing after the document but whitespace — so a
// test that parses hammer's output proves the output is JSON, not merely JSON-looking.
// Duplicate keys are rejected too: a report that writes a member twice is a bug.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hammer::testing {

struct JsonValue {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  std::string text;  // a string's decoded UTF-8, or a number as written
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  // Defined where JsonValue is complete: a vector of pair<string, JsonValue> cannot be destroyed or
  // copied inside its own class (clang with libstdc++'s constexpr vector in C++20 instantiates
  // them there and fails on the incomplete pair).
  JsonValue();
  JsonValue(const JsonValue&);
  JsonValue(JsonValue&&) noexcept;
  JsonValue& operator=(const JsonValue&);
  JsonValue& operator=(JsonValue&&) noexcept;
  ~JsonValue();

  bool is_null() const { return type == Type::null; }
  bool is_number() const { return type == Type::number; }
  /// A number written without fraction or exponent.
  bool is_integer() const {
    return is_number() && text.find_first_of(".eE") == std::string::npos;
  }
  int64_t as_int() const { return std::stoll(text); }
  double as_double() const { return std::stod(text); }

  /// The member named `name`, or nullptr (also when this is not an object).
  const JsonValue* find(std::string_view name) const {
    for (const auto& [key, member] : members) {
      if (key == name) return &member;
    }
    return nullptr;
  }
  /// Follows a path of member names; nullptr if any step is missing.
  const JsonValue* at(std::initializer_list<std::string_view> path) const {
    const JsonValue* node = this;
    for (std::string_view step : path) {
      if (node == nullptr || node->type != Type::object) return nullptr;
      node = node->find(step);
    }
    return node;
  }
};

inline JsonValue::JsonValue() = default;
inline JsonValue::JsonValue(const JsonValue&) = default;
inline JsonValue::JsonValue(JsonValue&&) noexcept = default;
inline JsonValue& JsonValue::operator=(const JsonValue&) = default;
inline JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
inline JsonValue::~JsonValue() = default;

class JsonParser {
 public:
  /// The parsed document, or nullopt with error() saying where and why.
  std::optional<JsonValue> parse(std::string_view text) {
    text_ = text;
    pos_ = 0;
    error_.clear();
    JsonValue root;
    skip_space();
    if (!parse_value(root, 0)) return std::nullopt;
    skip_space();
    if (pos_ != text_.size()) {
      fail("text after the document");
      return std::nullopt;
    }
    return root;
  }
  const std::string& error() const { return error_; }

 private:
  static constexpr int kMaxDepth = 64;

  bool fail(std::string_view why) {
    if (error_.empty()) error_ = std::string(why) + " at offset " + std::to_string(pos_);
    return false;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      ++pos_;
    }
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("bad literal");
    pos_ += word.size();
    return true;
  }

  bool parse_value(JsonValue& out, int depth) {
    if (depth > kMaxDepth) return fail("too deep");
    switch (peek()) {
      case '{': return parse_object(out, depth);
      case '[': return parse_array(out, depth);
      case '"': out.type = JsonValue::Type::string; return parse_string(out.text);
      case 't': out.type = JsonValue::Type::boolean; out.boolean = true; return literal("true");
      case 'f': out.type = JsonValue::Type::boolean; return literal("false");
      case 'n': out.type = JsonValue::Type::null; return literal("null");
      default: return parse_number(out);
    }
  }

  bool parse_object(JsonValue& out, int depth) {
    out.type = JsonValue::Type::object;
    ++pos_;  // '{'
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      if (peek() != '"') return fail("expected a member name");
      std::string name;
      if (!parse_string(name)) return false;
      if (out.find(name) != nullptr) return fail("duplicate member '" + name + "'");
      skip_space();
      if (peek() != ':') return fail("expected ':'");
      ++pos_;
      skip_space();
      JsonValue member;
      if (!parse_value(member, depth + 1)) return false;
      out.members.emplace_back(std::move(name), std::move(member));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool parse_array(JsonValue& out, int depth) {
    out.type = JsonValue::Type::array;
    ++pos_;  // '['
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      JsonValue item;
      if (!parse_value(item, depth + 1)) return false;
      out.items.push_back(std::move(item));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool digits() {
    const size_t start = pos_;
    while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    return pos_ > start;
  }

  bool parse_number(JsonValue& out) {
    const size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (!digits()) {
      return fail("expected a value");
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return fail("expected digits after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return fail("expected exponent digits");
    }
    out.type = JsonValue::Type::number;
    out.text = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  bool hex4(uint32_t& code) {
    if (pos_ + 4 > text_.size()) return fail("short \\u escape");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      code <<= 4;
      if (c >= '0' && c <= '9') code |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') code |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') code |= static_cast<uint32_t>(c - 'A' + 10);
      else return fail("bad hex digit");
    }
    return true;
  }

  static void append_utf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xe0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else {
      out.push_back(static_cast<char>(0xf0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
    }
  }

  bool parse_string(std::string& out) {
    ++pos_;  // '"'
    while (true) {
      if (at_end()) return fail("unterminated string");
      const auto c = static_cast<unsigned char>(text_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) return fail("raw control character in string");
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        continue;
      }
      if (at_end()) return fail("unterminated escape");
      const char escape = text_[pos_++];
      switch (escape) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          uint32_t code = 0;
          if (!hex4(code)) return false;
          if (code >= 0xd800 && code <= 0xdbff) {
            uint32_t low = 0;
            if (text_.substr(pos_, 2) != "\\u") return fail("lone high surrogate");
            pos_ += 2;
            if (!hex4(low)) return false;
            if (low < 0xdc00 || low > 0xdfff) return fail("bad low surrogate");
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          } else if (code >= 0xdc00 && code <= 0xdfff) {
            return fail("lone low surrogate");
          }
          append_utf8(out, code);
          break;
        }
        default: return fail("bad escape");
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace hammer::testing
