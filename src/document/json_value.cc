// SPDX-License-Identifier: MIT
#include "document/json_value.h"

#include <charconv>
#include <cstdlib>

namespace hammer {
namespace {

constexpr int kMaxDepth = 64;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Expected<JsonValue, std::string> document() {
    JsonValue root;
    skip_space();
    if (!value(root, 0)) return unexpected(error_ + " at byte " + std::to_string(pos_));
    skip_space();
    if (pos_ != text_.size()) {
      return unexpected("text after the document at byte " + std::to_string(pos_));
    }
    return root;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\n' || peek() == '\r' || peek() == '\t')) {
      ++pos_;
    }
  }
  bool fail(const char* why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("bad literal");
    pos_ += word.size();
    return true;
  }

  bool value(JsonValue& out, int depth) {
    if (depth > kMaxDepth) return fail("nested too deep");
    if (at_end()) return fail("unexpected end");
    switch (peek()) {
      case '{': return object(out, depth);
      case '[': return array(out, depth);
      case '"': out.kind = JsonValue::Kind::string; return string(out.text);
      case 't': out.kind = JsonValue::Kind::boolean; out.boolean = true; return literal("true");
      case 'f': out.kind = JsonValue::Kind::boolean; return literal("false");
      case 'n': out.kind = JsonValue::Kind::null; return literal("null");
      default: return number(out);
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
    } else if (!digits()) {
      return fail("bad value");
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return fail("bad number");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return fail("bad number");
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
    if (pos_ + 4 > text_.size()) return fail("short \\u escape");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = hex_digit(text_[pos_++]);
      if (digit < 0) return fail("bad \\u escape");
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

  bool string(std::string& out) {
    ++pos_;  // opening quote
    while (!at_end()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c != '\\') {
        out.push_back(c);
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
        case 'u': {
          unsigned code = 0;
          if (!hex4(code)) return false;
          if (code >= 0xD800 && code <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            unsigned low = 0;
            if (!hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return fail("bad surrogate pair");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xD800 && code <= 0xDFFF) {
            code = 0xFFFD;  // a lone surrogate
          }
          append_utf8(out, code);
          break;
        }
        default: return fail("bad escape");
      }
    }
    return fail("unterminated string");
  }

  bool array(JsonValue& out, int depth) {
    out.kind = JsonValue::Kind::array;
    ++pos_;
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      out.items.emplace_back();
      if (!value(out.items.back(), depth + 1)) return false;
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      if (at_end() || text_[pos_++] != ',') return fail("expected ',' or ']'");
    }
  }

  bool object(JsonValue& out, int depth) {
    out.kind = JsonValue::Kind::object;
    ++pos_;
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      if (peek() != '"') return fail("expected a key");
      std::string key;
      if (!string(key)) return false;
      skip_space();
      if (at_end() || text_[pos_++] != ':') return fail("expected ':'");
      if (out.find(key) != nullptr) return fail("duplicate key");
      skip_space();
      out.members.push_back(JsonMember{std::move(key), JsonValue{}});
      if (!value(out.members.back().value, depth + 1)) return false;
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      if (at_end() || text_[pos_++] != ',') return fail("expected ',' or '}'");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

const JsonValue* JsonValue::find(std::string_view name) const {
  if (kind != Kind::object) return nullptr;
  for (const auto& [key, member] : members) {
    if (key == name) return &member;
  }
  return nullptr;
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
