// SPDX-License-Identifier: MIT
#pragma once
// The HPACK static table (RFC 7541 Appendix A): 61 entries, indices 1..61.
#include <string_view>

namespace hammer::http2 {

inline constexpr int kStaticTableSize = 61;

struct HeaderField {
  std::string_view name;
  std::string_view value;
};

/// Entry `index` (1..61).
const HeaderField& static_entry(int index);

/// The index of an entry with this name and value, or 0.
int static_find_field(std::string_view name, std::string_view value);

/// The lowest index of an entry with this name, or 0.
int static_find_name(std::string_view name);

}  // namespace hammer::http2
