// SPDX-License-Identifier: MIT
#include "json/json_value.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

#include "core/escaped.h"
#include "core/utf8.h"

namespace hammer {
namespace {

// Deeper than any document hammer writes (about 6), shallow enough that a hostile file of
// nothing but '[' stops long before the stack does.
constexpr int kMaxDepth = 64;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Expected<JsonValue, std::string> document() {
    JsonValue root;
    skip_space();
    if (value(root, 0)) {
      skip_space();
      if (!at_end()) fail("text after the document, found " + describe_here());
    }
    if (error_.empty()) return root;
    return unexpected(error_ + " at " + where(error_pos_));
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\n' || peek() == '\r' || peek() == '\t')) {
      ++pos_;
    }
  }
  // Skips whitespace; true, and past it, when the next byte is `c`.
  bool skip_space_then(char c) {
    skip_space();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

  // The first failure wins: it is where the document stopped being JSON.
  bool fail(const std::string& why) { return fail_at(pos_, why); }
  bool fail_at(size_t at, const std::string& why) {
    if (error_.empty()) {
      error_ = why;
      error_pos_ = at;
    }
    return false;
  }

  // "line 3, column 7" (both from 1, columns in bytes): a saved run is pretty-printed, so a
  // byte offset alone would leave the reader counting lines by hand. A text of one line (a
  // --requests line, which its caller numbers) is "column 7".
  std::string where(size_t at) const {
    if (text_.find('\n') == std::string_view::npos) return "column " + std::to_string(at + 1);
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(at - line_start + 1);
  }

  std::string describe_here() const {
    if (at_end()) return "end of input";
    const auto c = static_cast<unsigned char>(peek());
    char buffer[16];
    if (c < 0x20 || c >= 0x7f) {
      std::snprintf(buffer, sizeof buffer, "byte 0x%02X", c);
    } else {
      std::snprintf(buffer, sizeof buffer, "'%c'", c);
    }
    return buffer;
  }

  bool literal(std::string_view word) {
    for (char expected : word) {
      if (peek() != expected) {
        return fail("expected '" + std::string(word) + "', found " + describe_here());
      }
      ++pos_;
    }
    return true;
  }

  bool value(JsonValue& out, int depth) {
    // `depth` arrays and objects are open around this value; it would open one more.
    if ((peek() == '{' || peek() == '[') && depth >= kMaxDepth) {
      return fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    switch (peek()) {
      case '{': return object(out, depth);
      case '[': return array(out, depth);
      case '"': out.kind = JsonValue::Kind::string; return string(out.text);
      case 't': out.kind = JsonValue::Kind::boolean; out.boolean = true; return literal("true");
      case 'f': out.kind = JsonValue::Kind::boolean; return literal("false");
      case 'n': out.kind = JsonValue::Kind::null; return literal("null");
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return number(out);
        return fail("expected a value, found " + describe_here());
    }
  }

  bool digits() {
    const size_t start = pos_;
    while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    return pos_ > start;
  }

  bool number(JsonValue& out) {
    const size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (peek() >= '0' && peek() <= '9') return fail_at(pos_ - 1, "leading zero in a number");
    } else if (!digits()) {
      return fail("expected a digit after '-', found " + describe_here());
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return fail("expected a digit after '.', found " + describe_here());
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return fail("expected a digit in the exponent, found " + describe_here());
    }
    out.kind = JsonValue::Kind::number;
    out.text = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool hex4(unsigned& code) {
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = hex_digit(peek());
      if (at_end() || digit < 0) {
        return fail("expected 4 hex digits after \\u, found " + describe_here());
      }
      ++pos_;
      code = code * 16 + static_cast<unsigned>(digit);
    }
    return true;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // A \u escape, the backslash already read. A surrogate must come as a high-low pair: alone
  // it is no character, and decoding it would write bytes that are not UTF-8.
  bool unicode_escape(std::string& out) {
    const size_t escape_start = pos_ - 2;
    unsigned code = 0;
    if (!hex4(code)) return false;
    if (code >= 0xD800 && code <= 0xDBFF) {
      unsigned low = 0;
      if (text_.substr(pos_, 2) != "\\u") {
        return fail_at(escape_start, "lone surrogate in \\u escape");
      }
      pos_ += 2;
      if (!hex4(low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) {
        return fail_at(escape_start, "lone surrogate in \\u escape");
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    } else if (code >= 0xDC00 && code <= 0xDFFF) {
      return fail_at(escape_start, "lone surrogate in \\u escape");
    }
    append_utf8(out, code);
    return true;
  }

  // The UTF-8 sequence whose lead byte (>= 0x80) is at pos_ - 1: RFC 8259 section 8.1 wants
  // UTF-8, and this reader's strings are handed on as UTF-8 (core/utf8.h: overlong forms,
  // surrogates and code points past U+10FFFF are not UTF-8 either).
  bool utf8_sequence(std::string& out) {
    const size_t start = pos_ - 1;
    const size_t length = utf8_sequence_length(text_, start);
    if (length == 0) return fail_at(start, "invalid UTF-8 in a string");
    out.append(text_.substr(start, length));
    pos_ = start + length;
    return true;
  }

  bool string(std::string& out) {
    const size_t start = pos_;
    ++pos_;  // opening quote
    while (!at_end()) {
      const auto c = static_cast<unsigned char>(text_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "control character 0x%02X in a string (escape it)",
                      c);
        return fail_at(pos_ - 1, buffer);
      }
      if (c >= 0x80) {
        if (!utf8_sequence(out)) return false;
        continue;
      }
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        continue;
      }
      if (at_end()) break;
      switch (text_[pos_++]) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u':
          if (!unicode_escape(out)) return false;
          break;
        default: {
          const auto after = static_cast<unsigned char>(text_[pos_ - 1]);
          pos_ -= 2;  // point at the backslash
          if (after > 0x20 && after < 0x7f) {
            return fail("unknown escape \\" + std::string(1, static_cast<char>(after)));
          }
          char buffer[48];  // a raw byte would not be one printable line
          std::snprintf(buffer, sizeof buffer, "unknown escape: '\\' then byte 0x%02X", after);
          return fail(buffer);
        }
      }
    }
    return fail_at(start, "unterminated string");
  }

  bool array(JsonValue& out, int depth) {
    out.kind = JsonValue::Kind::array;
    ++pos_;
    if (skip_space_then(']')) return true;
    for (;;) {
      skip_space();
      if (peek() == ']') return fail("trailing comma before ']'");
      out.items.emplace_back();
      if (!value(out.items.back(), depth + 1)) return false;
      if (skip_space_then(']')) return true;
      if (peek() != ',') return fail("expected ',' or ']' in an array, found " + describe_here());
      ++pos_;
    }
  }

  bool object(JsonValue& out, int depth) {
    out.kind = JsonValue::Kind::object;
    ++pos_;
    if (skip_space_then('}')) return true;
    // A set, not a scan of the members: a hostile object of a million keys must not take
    // a million squared steps.
    std::unordered_set<std::string> keys;
    for (;;) {
      skip_space();
      if (peek() == '}') return fail("trailing comma before '}'");
      if (peek() != '"') return fail("expected a key in double quotes, found " + describe_here());
      const size_t key_start = pos_;
      std::string key;
      if (!string(key)) return false;
      // RFC 8259 leaves a repeated name's meaning open ("unpredictable"): keeping either
      // member silently would be a guess about what the file meant, so it is bad input.
      if (!keys.insert(key).second) {
        // escaped: a key holding "\n" (escaped in the file) must not split the line
        return fail_at(key_start, "duplicate key \"" + escaped(key) + "\"");
      }
      if (!skip_space_then(':')) {
        return fail("expected ':' after the key, found " + describe_here());
      }
      skip_space();
      out.members.push_back(JsonMember{std::move(key), JsonValue{}});
      if (!value(out.members.back().value, depth + 1)) return false;
      if (skip_space_then('}')) return true;
      if (peek() != ',') return fail("expected ',' or '}' in an object, found " + describe_here());
      ++pos_;
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
  size_t error_pos_ = 0;
};

}  // namespace

std::string_view json_kind_name(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::string: return "a string";
    case JsonValue::Kind::number: return "a number";
    case JsonValue::Kind::boolean: return "a boolean";
    case JsonValue::Kind::null: return "null";
    case JsonValue::Kind::array: return "an array";
    case JsonValue::Kind::object: return "an object";
  }
  return "a value";
}

const JsonValue* JsonValue::find(std::string_view name) const {
  if (kind != Kind::object) return nullptr;
  for (const auto& [key, member] : members) {
    if (key == name) return &member;
  }
  return nullptr;
}

const JsonValue* JsonValue::at(std::initializer_list<std::string_view> path) const {
  const JsonValue* node = this;
  for (std::string_view step : path) {
    node = node->find(step);
    if (node == nullptr) return nullptr;
  }
  return node;
}

std::optional<int64_t> JsonValue::as_int() const {
  if (kind != Kind::number || text.find_first_of(".eE") != std::string::npos) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> JsonValue::as_double() const {
  if (kind != Kind::number) return std::nullopt;
  return std::strtod(text.c_str(), nullptr);
}

Expected<JsonValue, std::string> parse_json(std::string_view text) {
  return Reader(text).document();
}

}  // namespace hammer
