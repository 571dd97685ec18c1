// SPDX-License-Identifier: MIT
// libFuzzer target for http2::HpackDecoder. Input: one byte choosing the table size (0..8160
// in steps of 32), one choosing the header list bound, then header blocks, each prefixed by
// a one-octet length, decoded in order on one decoder as a connection's would be. Checks: the
// list bound and table size always hold, the table's RFC size equals the sum of its entries,
// and each decoded list, re-encoded by our encoder, decodes to the same fields on a fresh
// decoder (encoder and decoder agree).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "http2/hpack_decoder.h"
#include "http2/hpack_encoder.h"

namespace {

using namespace hammer::http2;

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "hpack_decoder_fuzz: invariant broken: %s\n", what);
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) broken(what);
}

class KeepingSink : public HeaderSink {
 public:
  void on_header(std::string_view name, std::string_view value) override {
    fields.emplace_back(std::string(name), std::string(value));
  }
  std::vector<std::pair<std::string, std::string>> fields;
};

void check_table(const HpackDynamicTable& table) {
  size_t sum = 0;
  for (size_t i = 1; i <= table.entries(); ++i) {
    const HeaderField entry = table.entry(i);
    sum += entry.name.size() + entry.value.size() + kHpackEntryOverhead;
  }
  check(sum == table.size(), "table size is the sum of its entries");
  check(table.size() <= table.max_size(), "table within its size");
  check(table.max_size() <= table.capacity_bytes(), "size within our setting");
}

void check_round_trip(const KeepingSink& sink, size_t list_bytes) {
  std::vector<HeaderField> fields;
  for (const auto& [name, value] : sink.fields) fields.push_back({name, value});
  for (const bool huffman : {false, true}) {
    const std::string block = hpack_encode_block(fields, {.huffman = huffman});
    HpackDecoder fresh(4096, list_bytes);
    KeepingSink again;
    const HpackError error =
        fresh.decode(reinterpret_cast<const uint8_t*>(block.data()), block.size(), again);
    check(error == HpackError::none, "our encoding decodes");
    check(again.fields == sink.fields, "our encoding decodes to the same fields");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t table_bytes = size_t{data[0]} * 32;
  const size_t list_bytes = (size_t{data[1]} + 1) * 64;
  HpackDecoder decoder(table_bytes, list_bytes);
  size_t pos = 2;
  while (pos < size) {
    const size_t length = std::min<size_t>(data[pos], size - pos - 1);
    ++pos;
    KeepingSink sink;
    const HpackError error = decoder.decode(data + pos, length, sink);
    pos += length;
    size_t list = 0;
    for (const auto& [name, value] : sink.fields) list += name.size() + value.size() + 32;
    check(list <= list_bytes, "header list within its bound");
    check(list == decoder.last_header_list_bytes() || error != HpackError::none,
          "list size is what was delivered");
    check_table(decoder.table());
    if (error != HpackError::none) {
      check(!describe(error).empty(), "an error has a phrase");
      return 0;  // the context is unusable after an error, as on a connection
    }
    check_round_trip(sink, list_bytes);
  }
  return 0;
}
