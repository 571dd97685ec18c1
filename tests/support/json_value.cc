// SPDX-License-Identifier: MIT
#include "support/json_value.h"

#include <cstdlib>

namespace hammer::test {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool document(JsonValue* out, std::string* error) {
    if (!value(out, 0)) {
      *error = error_ + " at byte " + std::to_string(pos_);
      return false;
    }
    skip_space();
    if (pos_ != text_.size()) {
      *error = "trailing bytes at " + std::to_string(pos_) + " (more than one document?)";
      return false;
    }
    return true;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool fail(const char* why) {
    error_ = why;
    return false;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("bad literal");
    pos_ += word.size();
    return true;
  }

  bool value(JsonValue* out, int depth) {
    if (depth > 64) return fail("nested too deep");
    skip_space();
    if (pos_ >= text_.size()) return fail("unexpected end");
    const char c = text_[pos_];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') {
      out->kind = JsonValue::Kind::string;
      return string(&out->text);
    }
    if (c == 't') {
      out->kind = JsonValue::Kind::boolean;
      out->boolean = true;
      return literal("true");
    }
    if (c == 'f') {
      out->kind = JsonValue::Kind::boolean;
      return literal("false");
    }
    if (c == 'n') {
      out->kind = JsonValue::Kind::null;
      return literal("null");
    }
    return number(out);
  }

  bool number(JsonValue* out) {
    const size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') return fail("bad value");
    while (pos_ < text_.size() && std::string_view("0123456789.eE+-").find(text_[pos_]) !=
                                      std::string_view::npos) {
      ++pos_;
    }
    const std::string digits(text_.substr(start, pos_ - start));
    char* end = nullptr;
    out->kind = JsonValue::Kind::number;
    out->number = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) return fail("bad number");
    return true;
  }

  bool string(std::string* out) {
    ++pos_;  // opening quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char escaped = text_[pos_++];
      switch (escaped) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return fail("short \\u escape");
          const unsigned code = static_cast<unsigned>(
              std::strtoul(std::string(text_.substr(pos_, 4)).c_str(), nullptr, 16));
          pos_ += 4;
          if (code < 0x80) {
            out->push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out->push_back(static_cast<char>(0xC0 | (code >> 6)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          } else {
            out->push_back(static_cast<char>(0xE0 | (code >> 12)));
            out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          }
          break;
        }
        default: return fail("bad escape");
      }
    }
    return fail("unterminated string");
  }

  bool array(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::array;
    ++pos_;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      out->items.emplace_back();
      if (!value(&out->items.back(), depth + 1)) return false;
      skip_space();
      if (pos_ >= text_.size()) return fail("unterminated array");
      if (text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      if (text_[pos_++] != ',') return fail("expected , in array");
    }
  }

  bool object(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::object;
    ++pos_;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') return fail("expected a key");
      std::string key;
      if (!string(&key)) return false;
      skip_space();
      if (pos_ >= text_.size() || text_[pos_++] != ':') return fail("expected :");
      if (out->members.count(key)) return fail("duplicate key");
      if (!value(&out->members[key], depth + 1)) return false;
      skip_space();
      if (pos_ >= text_.size()) return fail("unterminated object");
      if (text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      if (text_[pos_++] != ',') return fail("expected , in object");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

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
  JsonValue root;
  Reader reader(text);
  if (!reader.document(&root, error)) return std::nullopt;
  return root;
}

}  // namespace hammer::test
