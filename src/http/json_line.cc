// SPDX-License-Identifier: MIT
#include "http/json_line.h"

#include <cstdio>

namespace hammer {

JsonLineValue::JsonLineValue() = default;
JsonLineValue::JsonLineValue(const JsonLineValue&) = default;
JsonLineValue::JsonLineValue(JsonLineValue&&) noexcept = default;
JsonLineValue& JsonLineValue::operator=(const JsonLineValue&) = default;
JsonLineValue& JsonLineValue::operator=(JsonLineValue&&) noexcept = default;
JsonLineValue::~JsonLineValue() = default;

namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Expected<JsonLineValue, std::string> document() {
    JsonLineValue value;
    skip_space();
    if (!parse_value(value, 0)) return unexpected(error_);
    skip_space();
    if (pos_ < text_.size()) {
      fail("unexpected " + describe_here() + " after the value");
      return unexpected(error_);
    }
    return value;
  }

 private:
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = "at column " + std::to_string(pos_ + 1) + ": " + what;
    return false;
  }

  std::string describe_here() const {
    if (pos_ >= text_.size()) return "end of line";
    const auto c = static_cast<unsigned char>(text_[pos_]);
    char buffer[16];
    if (c < 0x20 || c >= 0x7f) {
      std::snprintf(buffer, sizeof buffer, "byte 0x%02X", c);
    } else {
      std::snprintf(buffer, sizeof buffer, "'%c'", c);
    }
    return buffer;
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) {
      return fail("expected a JSON value, found " + describe_here());
    }
    pos_ += word.size();
    return true;
  }

  bool parse_value(JsonLineValue& value, int depth) {
    if (depth > kMaxJsonLineDepth) return fail("nested deeper than 16 levels");
    if (pos_ >= text_.size()) return fail("expected a JSON value, found end of line");
    switch (text_[pos_]) {
      case '{':
        value.kind = JsonLineValue::Kind::object;
        return parse_object(value, depth);
      case '[':
        value.kind = JsonLineValue::Kind::array;
        return parse_array(depth);
      case '"':
        value.kind = JsonLineValue::Kind::string;
        return parse_string(value.text);
      case 't':
        value.kind = JsonLineValue::Kind::boolean;
        return literal("true");
      case 'f':
        value.kind = JsonLineValue::Kind::boolean;
        return literal("false");
      case 'n':
        value.kind = JsonLineValue::Kind::null;
        return literal("null");
      default:
        value.kind = JsonLineValue::Kind::number;
        return parse_number();
    }
  }

  bool parse_object(JsonLineValue& value, int depth) {
    ++pos_;  // '{'
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        return fail("expected a member name in double quotes, found " + describe_here());
      }
      std::string name;
      if (!parse_string(name)) return false;
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':') {
        return fail("expected ':' after the member name, found " + describe_here());
      }
      ++pos_;
      skip_space();
      JsonLineValue member;
      if (!parse_value(member, depth + 1)) return false;
      value.members.emplace_back(std::move(name), std::move(member));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}' in the object, found " + describe_here());
    }
  }

  bool parse_array(int depth) {
    ++pos_;  // '['
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      JsonLineValue element;
      if (!parse_value(element, depth + 1)) return false;
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']' in the array, found " + describe_here());
    }
  }

  bool digits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  bool parse_number() {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '0') {
      ++pos_;
    } else if (!digits()) {
      pos_ = start;
      return fail("expected a JSON value, found " + describe_here());
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) return fail("expected a digit after '.', found " + describe_here());
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) return fail("expected a digit in the exponent, found " + describe_here());
    }
    return true;
  }

  bool hex4(uint32_t& out) {
    out = 0;
    for (int k = 0; k < 4; ++k) {
      if (pos_ >= text_.size()) return fail("expected 4 hex digits after \\u");
      const char c = text_[pos_];
      uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return fail("expected 4 hex digits after \\u, found " + describe_here());
      }
      out = out * 16 + digit;
      ++pos_;
    }
    return true;
  }

  static void append_utf8(uint32_t code, std::string& out) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  bool parse_escape(std::string& out) {
    ++pos_;  // '\\'
    if (pos_ >= text_.size()) return fail("unterminated string");
    const char c = text_[pos_++];
    switch (c) {
      case '"': out += '"'; return true;
      case '\\': out += '\\'; return true;
      case '/': out += '/'; return true;
      case 'b': out += '\b'; return true;
      case 'f': out += '\f'; return true;
      case 'n': out += '\n'; return true;
      case 'r': out += '\r'; return true;
      case 't': out += '\t'; return true;
      case 'u': {
        uint32_t code = 0;
        if (!hex4(code)) return false;
        if (code >= 0xD800 && code <= 0xDBFF) {  // a high surrogate needs its low half
          uint32_t low = 0;
          if (text_.substr(pos_, 2) != "\\u") return fail("unpaired surrogate in \\u escape");
          pos_ += 2;
          if (!hex4(low)) return false;
          if (low < 0xDC00 || low > 0xDFFF) return fail("unpaired surrogate in \\u escape");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
          return fail("unpaired surrogate in \\u escape");
        }
        append_utf8(code, out);
        return true;
      }
      default:
        pos_ -= 2;  // point at the backslash
        return fail("unknown escape \\" + std::string(1, c));
    }
  }

  bool parse_string(std::string& out) {
    ++pos_;  // '"'
    for (;;) {
      if (pos_ >= text_.size()) return fail("unterminated string");
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c == '\\') {
        if (!parse_escape(out)) return false;
        continue;
      }
      if (c < 0x20) return fail("control character in a string (escape it)");
      out += static_cast<char>(c);
      ++pos_;
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::string_view json_kind_name(JsonLineValue::Kind kind) {
  switch (kind) {
    case JsonLineValue::Kind::string: return "a string";
    case JsonLineValue::Kind::number: return "a number";
    case JsonLineValue::Kind::boolean: return "a boolean";
    case JsonLineValue::Kind::null: return "null";
    case JsonLineValue::Kind::array: return "an array";
    case JsonLineValue::Kind::object: return "an object";
  }
  return "a value";
}

Expected<JsonLineValue, std::string> parse_json_line(std::string_view line) {
  return Reader(line).document();
}

}  // namespace hammer
