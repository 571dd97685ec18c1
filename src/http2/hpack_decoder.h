// SPDX-License-Identifier: MIT
#pragma once
// HpackDecoder: one connection's HPACK decoding context (RFC 7541): the dynamic table plus a
// scratch area for decoded literals, all allocated at construction from the two limits hammer
// advertises in its SETTINGS. A header block (HEADERS + CONTINUATION, assembled by the frame
// parser) is decoded whole; each field goes to a HeaderSink as views that are valid only
// during the call. A block whose fields add up to more than max_header_list_size (RFC 9113
// §6.5.2's measure: name + value + 32 per field) stops with header_list_too_large: an HPACK
// bomb costs a typed error, never memory.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "http2/hpack_dynamic_table.h"
#include "http2/hpack_error.h"

namespace hammer::http2 {

inline constexpr size_t kDefaultHeaderTableSize = 4096;     // RFC 9113 §6.5.2 initial value
inline constexpr size_t kDefaultMaxHeaderListBytes = 65536;  // hammer's advertised bound

class HeaderSink {
 public:
  virtual ~HeaderSink() = default;
  virtual void on_header(std::string_view name, std::string_view value) = 0;
};

class HpackDecoder {
 public:
  /// `header_table_size` is our SETTINGS_HEADER_TABLE_SIZE: the most the peer's dynamic table
  /// size updates may ask for. `max_header_list_bytes` is our SETTINGS_MAX_HEADER_LIST_SIZE.
  explicit HpackDecoder(size_t header_table_size = kDefaultHeaderTableSize,
                        size_t max_header_list_bytes = kDefaultMaxHeaderListBytes);

  /// A new connection: the dynamic table emptied and back to its constructed size.
  void reset();
  /// Decodes one complete header block. After an error the context is unusable (the peer and
  /// we no longer agree on the table): the connection must end with COMPRESSION_ERROR.
  HpackError decode(const uint8_t* block, size_t size, HeaderSink& sink);

  /// Lowers (or restores, up to the constructed size) our SETTINGS_HEADER_TABLE_SIZE once the
  /// peer has acknowledged it. If the table may now be larger than allowed, the next block
  /// must begin with a size update within the new limit (§4.2).
  void set_header_table_size_limit(size_t limit);

  const HpackDynamicTable& table() const { return table_; }
  size_t header_table_size_limit() const { return limit_; }
  /// The RFC 9113 header list size of the last block decoded (or of the part before an error).
  size_t last_header_list_bytes() const { return list_bytes_; }

 private:
  HpackError read_string(const uint8_t* block, size_t size, size_t* pos, size_t scratch_at,
                         std::string_view* text);
  HpackError field(std::string_view name, std::string_view value, HeaderSink& sink);
  HpackError name_by_index(uint64_t index, std::string_view* name);

  HpackDynamicTable table_;
  size_t limit_;
  bool update_required_ = false;
  size_t max_list_bytes_;
  size_t list_bytes_ = 0;
  std::unique_ptr<uint8_t[]> scratch_;  // name then value of the field being decoded
};

}  // namespace hammer::http2
