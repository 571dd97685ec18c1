// SPDX-License-Identifier: MIT
// libFuzzer target for hammer's one JSON reader (json/json_value.h), which reads what users
// hand hammer: the lines of a --requests file and saved documents for `hammer merge` and
// `hammer report`. parse_json must return a value or an error — never crash, hang or throw.
// Checked on every input:
// - an error is one line of printable text (the CLI prints it after "hammer: ... "; a newline
//   or a control byte from the input would forge a second line or drive the terminal) that
//   ends with where: " at column N" or " at line L, column C";
// - a value read holds only valid UTF-8 in its strings and keys (RFC 8259 section 8.1; the
//   reader promises it), nests at most 64 arrays and objects deep, and has no key twice in one
//   object.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "core/utf8.h"
#include "json/json_value.h"

namespace {

[[noreturn]] void broken(const char* what, std::string_view detail) {
  std::fprintf(stderr, "json_fuzz: invariant broken: %s: %.*s\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

bool valid_utf8(std::string_view text) {
  for (size_t i = 0, length = 0; i < text.size(); i += length) {
    length = hammer::utf8_sequence_length(text, i);
    if (length == 0) return false;
  }
  return true;
}

void check_value(const hammer::JsonValue& value, int depth) {
  using Kind = hammer::JsonValue::Kind;
  if (value.kind == Kind::array || value.kind == Kind::object) {
    if (depth >= 64) broken("nested deeper than 64", std::to_string(depth));
  }
  if (value.kind == Kind::string && !valid_utf8(value.text)) broken("string not UTF-8", value.text);
  for (const hammer::JsonValue& item : value.items) check_value(item, depth + 1);
  std::set<std::string_view> keys;
  for (const hammer::JsonMember& member : value.members) {
    if (!valid_utf8(member.key)) broken("key not UTF-8", member.key);
    if (!keys.insert(member.key).second) broken("key twice", member.key);
    check_value(member.value, depth + 1);
  }
}

bool ends_with_where(std::string_view error) {
  const size_t at = error.rfind(" at ");
  if (at == std::string_view::npos) return false;
  std::string_view where = error.substr(at + 4);
  if (where.starts_with("line ")) {
    where.remove_prefix(5);
    while (!where.empty() && where.front() >= '0' && where.front() <= '9') where.remove_prefix(1);
    if (!where.starts_with(", ")) return false;
    where.remove_prefix(2);
  }
  if (!where.starts_with("column ")) return false;
  where.remove_prefix(7);
  if (where.empty()) return false;
  for (char c : where) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = hammer::parse_json(text);
  if (!parsed) {
    const std::string& error = parsed.error();
    for (char ch : error) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f) broken("error not one printable line", error);
    }
    if (!ends_with_where(error)) broken("error does not say where", error);
    return 0;
  }
  check_value(*parsed, 0);
  return 0;
}
