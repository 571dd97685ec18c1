// SPDX-License-Identifier: MIT
#pragma once
// JsonWriter: a small streaming JSON writer for the --json report. It appends to one string and
// tracks only what it must to place commas, colons and indentation (one frame per open
// container), so a report is written top to bottom with no intermediate tree. Misuse (a value
// where a key is due, unbalanced ends) is a programmer error and asserts in debug builds.
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hammer {

class JsonWriter {
 public:
  /// indent = 0 writes compact JSON on one line; indent > 0 puts each member on its own line,
  /// indented by that many spaces per level.
  explicit JsonWriter(int indent = 0) : indent_(indent) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// The next member's name; must be followed by exactly one value or container.
  JsonWriter& key(std::string_view name);

  /// Strings are escaped: quote, backslash, and every control character (below 0x20, and
  /// 0x7f) as \n, \t, ... or \u00XX. Valid UTF-8 passes through unchanged; each byte that is
  /// not part of a valid UTF-8 sequence becomes \ufffd, so the document stays valid JSON.
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  /// Integers are written exactly (any width, signed or unsigned).
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  JsonWriter& value(T number) {
    if constexpr (std::signed_integral<T>) {
      return write_signed(static_cast<int64_t>(number));
    } else {
      return write_unsigned(static_cast<uint64_t>(number));
    }
  }
  /// Finite doubles in their shortest round-trip form ("0.1", "2000", "1e+21"); NaN and
  /// infinities have no JSON spelling and are written as null.
  JsonWriter& value(double number);
  JsonWriter& null();

  /// key(name) followed by value(v).
  template <class T>
  JsonWriter& member(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  JsonWriter& null_member(std::string_view name) {
    key(name);
    return null();
  }
  /// member(name, v) when the figure exists, null_member(name) when it does not: a figure that
  /// does not exist in a mode is null, never 0 (docs/json.md).
  template <class T>
  JsonWriter& member_or_null(std::string_view name, bool exists, const T& v) {
    return exists ? member(name, v) : null_member(name);
  }

  /// key(name) and the object that `write_members` fills, or null where the object does not
  /// exist in this run (docs/json.md: an absent object is null, never {}).
  template <class WriteMembers>
  JsonWriter& object_or_null(std::string_view name, bool exists, WriteMembers&& write_members) {
    key(name);
    if (!exists) return null();
    begin_object();
    write_members();
    return end_object();
  }

  /// The text so far. A finished document has every container closed (complete() == true).
  const std::string& str() const { return out_; }
  bool complete() const { return stack_.empty() && wrote_root_ && !after_key_; }

  /// Appends `text` to `out` as a quoted, escaped JSON string (used by value(string_view)).
  static void append_quoted(std::string& out, std::string_view text);

 private:
  struct Frame {
    bool is_object = false;
    int64_t count = 0;  // members or elements written so far
  };

  JsonWriter& write_signed(int64_t number);
  JsonWriter& write_unsigned(uint64_t number);
  void before_value();
  void new_line(size_t depth);
  JsonWriter& open(bool is_object, char bracket);
  JsonWriter& close(bool is_object, char bracket);

  int indent_ = 0;
  std::string out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
  bool wrote_root_ = false;
};

}  // namespace hammer
