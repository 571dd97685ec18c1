// SPDX-License-Identifier: MIT
// JsonWriter's separators and string escaping. Numbers go through std::to_chars: integers are
// exact, doubles come out in the shortest form that reads back to the same double, independent
// of the C locale (printf's "%g" would write "1,5" under a German locale).
#include "report/json_writer.h"

#include <cassert>
#include <charconv>
#include <cmath>

#include "core/utf8.h"

namespace hammer {
void JsonWriter::append_quoted(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xf]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

void JsonWriter::new_line(size_t depth) {
  if (indent_ <= 0) return;
  out_.push_back('\n');
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) {
    assert(!wrote_root_ && "a JSON document holds exactly one root value");
    wrote_root_ = true;
    return;
  }
  Frame& frame = stack_.back();
  assert(!frame.is_object && "a value inside an object needs key() first");
  if (frame.count > 0) out_.push_back(',');
  new_line(stack_.size());
  ++frame.count;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Frame& frame = stack_.back();
  if (frame.count > 0) out_.push_back(',');
  new_line(stack_.size());
  ++frame.count;
  append_quoted(out_, name);
  out_.push_back(':');
  if (indent_ > 0) out_.push_back(' ');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::open(bool is_object, char bracket) {
  before_value();
  out_.push_back(bracket);
  stack_.push_back(Frame{is_object, 0});
  return *this;
}

JsonWriter& JsonWriter::close(bool is_object, char bracket) {
  assert(!stack_.empty() && stack_.back().is_object == is_object && !after_key_);
  (void)is_object;
  const bool had_members = stack_.back().count > 0;
  stack_.pop_back();
  if (had_members) new_line(stack_.size());
  out_.push_back(bracket);
  return *this;
}

JsonWriter& JsonWriter::begin_object() { return open(true, '{'); }
JsonWriter& JsonWriter::end_object() { return close(true, '}'); }
JsonWriter& JsonWriter::begin_array() { return open(false, '['); }
JsonWriter& JsonWriter::end_array() { return close(false, ']'); }

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  append_quoted(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

namespace {

template <std::integral Integer>
void append_integer(std::string& out, Integer number) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number);
  assert(ec == std::errc());
  out.append(buffer, end);
}

}  // namespace

JsonWriter& JsonWriter::write_signed(int64_t number) {
  before_value();
  append_integer(out_, number);
  return *this;
}

JsonWriter& JsonWriter::write_unsigned(uint64_t number) {
  before_value();
  append_integer(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  if (!std::isfinite(number)) return null();
  before_value();
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number);
  assert(ec == std::errc());
  out_.append(buffer, end);
  return *this;
}

}  // namespace hammer
