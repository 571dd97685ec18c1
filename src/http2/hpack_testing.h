// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the HPACK tests: hex blocks as the RFC prints them, and a sink that keeps
// what the decoder produced.
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "http2/hpack_decoder.h"

namespace hammer::http2::testing {

/// "8286 8441" -> bytes; spaces and newlines are ignored.
inline std::string hex(std::string_view text) {
  std::string out;
  int high = -1;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    const int nibble = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                                                                   : std::tolower(c) - 'a' + 10;
    if (high < 0) {
      high = nibble;
    } else {
      out.push_back(static_cast<char>(high * 16 + nibble));
      high = -1;
    }
  }
  return out;
}

using Fields = std::vector<std::pair<std::string, std::string>>;

class CollectingSink : public HeaderSink {
 public:
  void on_header(std::string_view name, std::string_view value) override {
    fields.emplace_back(std::string(name), std::string(value));
  }
  Fields fields;
};

inline HpackError decode(HpackDecoder& decoder, const std::string& block, Fields* fields) {
  CollectingSink sink;
  const HpackError error =
      decoder.decode(reinterpret_cast<const uint8_t*>(block.data()), block.size(), sink);
  *fields = std::move(sink.fields);
  return error;
}

/// The dynamic table as (name, value) pairs, newest first, as Appendix C prints it.
inline Fields table_of(const HpackDecoder& decoder) {
  Fields out;
  for (size_t i = 1; i <= decoder.table().entries(); ++i) {
    const HeaderField entry = decoder.table().entry(i);
    out.emplace_back(std::string(entry.name), std::string(entry.value));
  }
  return out;
}

}  // namespace hammer::http2::testing
