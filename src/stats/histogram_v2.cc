// SPDX-License-Identifier: MIT
// HdrHistogram's V2 encoding, as Java's AbstractHistogram.encodeIntoCompressedByteBuffer and
// HdrHistogram_c's hdr_log_encode write it:
//
//   compressed:  int32 cookie 0x1c849314 | int32 length | zlib stream of `length` bytes
//   payload:     int32 cookie 0x1c849313 | int32 counts length in bytes
//                int32 normalizing index offset | int32 significant figures
//                int64 lowest discernible value | int64 highest trackable value
//                double integer-to-double ratio (1.0)        -- 40 bytes, all big-endian
//                counts, slot 0 up to the last non-zero one, each a ZigZag LEB128 varint;
//                a run of n > 1 zero slots is the single varint -n.
//
// The cookies' second-lowest nibble is a word size: V2 writers set it to 1 (0x...13, 0x...14,
// which is why every such string starts "HISTF"), and readers ignore it (cookie & ~0xf0).
// The varint is LEB128 with one twist: after eight 7-bit groups the ninth byte carries a full
// 8 bits, so a 64-bit value never needs a tenth byte.
//
// Decoding faces untrusted text (other tools' logs, and a fuzzer later): every length is checked
// against what the input actually holds before use, the histogram's geometry is validated before
// anything is allocated, and inflation is bounded by the declared payload length, so a small
// input cannot make us inflate more than the geometry's counts could ever need.
#include "stats/histogram_v2.h"

#include <zlib.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>

#include "stats/base64.h"

namespace hammer {
namespace {

constexpr uint32_t kV2EncodingCookie = 0x1c849303;
constexpr uint32_t kV2CompressedEncodingCookie = 0x1c849304;
constexpr uint32_t kV1CompressedEncodingCookie = 0x1c849302;
constexpr uint32_t kV0CompressedEncodingCookie = 0x1c849309;
constexpr uint32_t kWordSizeBits = 0x10;  // V2 writers' word-size nibble; readers mask 0xf0
constexpr size_t kCompressedHeaderBytes = 8;
constexpr size_t kPayloadHeaderBytes = 40;
constexpr int64_t kMaxVarintBytes = 9;

uint32_t cookie_base(uint32_t cookie) { return cookie & ~uint32_t{0xf0}; }

void put_be32(std::string* out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

void put_be64(std::string* out, uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

uint32_t get_be32(const unsigned char* bytes) {
  return uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 | uint32_t{bytes[2]} << 8 |
         uint32_t{bytes[3]};
}

uint64_t get_be64(const unsigned char* bytes) {
  return uint64_t{get_be32(bytes)} << 32 | get_be32(bytes + 4);
}

void put_zigzag(std::string* out, int64_t value) {
  uint64_t bits = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if ((bits >> 7) == 0) {
      out->push_back(static_cast<char>(bits));
      return;
    }
    out->push_back(static_cast<char>((bits & 0x7f) | 0x80));
    bits >>= 7;
  }
  out->push_back(static_cast<char>(bits));  // the ninth byte carries 8 bits
}

// Reads one varint at *pos; false when the input ends inside it.
bool get_zigzag(const unsigned char* data, size_t size, size_t* pos, int64_t* value) {
  uint64_t bits = 0;
  bool done = false;
  for (int i = 0; i < 8 && !done; ++i) {
    if (*pos >= size) return false;
    unsigned char byte = data[(*pos)++];
    bits |= uint64_t{byte & 0x7fu} << (7 * i);
    done = (byte & 0x80) == 0;
  }
  if (!done) {
    if (*pos >= size) return false;
    bits |= uint64_t{data[(*pos)++]} << 56;
  }
  *value = static_cast<int64_t>((bits >> 1) ^ (~(bits & 1) + 1));
  return true;
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

// A zlib (or gzip) stream read in exact-size pieces, so nothing is inflated past what the
// caller has decided it may need.
class Inflater {
 public:
  Inflater(const unsigned char* data, size_t size) {
    stream_.next_in = const_cast<unsigned char*>(data);  // zlib's API is not const-correct
    stream_.avail_in = static_cast<uInt>(size);
    open_ = inflateInit2(&stream_, 15 + 32) == Z_OK;  // 15-bit window, zlib or gzip header
  }
  ~Inflater() {
    if (open_) inflateEnd(&stream_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  /// Fills out[0, n); an empty string on success, else why not.
  std::string read(unsigned char* out, size_t n) {
    if (!open_) return "zlib: cannot initialise inflate";
    stream_.next_out = out;
    stream_.avail_out = static_cast<uInt>(n);
    while (stream_.avail_out > 0) {
      int status = inflate(&stream_, Z_NO_FLUSH);
      if (status == Z_STREAM_END) {
        if (stream_.avail_out > 0) return "compressed payload ended early";
        break;
      }
      if (status == Z_BUF_ERROR) return "compressed payload is truncated";
      if (status != Z_OK) {
        return std::string("zlib: ") + (stream_.msg != nullptr ? stream_.msg : "inflate failed");
      }
    }
    return {};
  }

  /// Reads on to the end of the stream so zlib verifies its Adler-32 checksum. A corrupt stream
  /// is an error; a stream that goes on past what we read, or lacks its trailer, is tolerated
  /// (the reference readers never look there).
  std::string verify_checksum() {
    unsigned char scratch[64];
    stream_.next_out = scratch;
    stream_.avail_out = sizeof scratch;
    int status = inflate(&stream_, Z_NO_FLUSH);
    if (status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR) return {};
    return std::string("zlib: ") + (stream_.msg != nullptr ? stream_.msg : "inflate failed");
  }

 private:
  z_stream stream_{};
  bool open_ = false;
};

}  // namespace

std::string encode_v2_base64(const Histogram& histogram) {
  int32_t counts_limit = 0;  // one past the last non-zero slot
  for (int32_t i = histogram.counts_length() - 1; i >= 0; --i) {
    if (histogram.count_at_index(i) != 0) {
      counts_limit = i + 1;
      break;
    }
  }
  std::string counts;
  for (int32_t i = 0; i < counts_limit;) {
    int64_t count = histogram.count_at_index(i++);
    if (count < 0) count = 0;  // no valid state has one; never emit a negative count
    int64_t zeros = 0;
    if (count == 0) {
      zeros = 1;
      while (i < counts_limit && histogram.count_at_index(i) == 0) {
        ++zeros;
        ++i;
      }
    }
    put_zigzag(&counts, zeros > 1 ? -zeros : count);
  }

  std::string payload;
  payload.reserve(kPayloadHeaderBytes + counts.size());
  put_be32(&payload, kV2EncodingCookie | kWordSizeBits);
  put_be32(&payload, static_cast<uint32_t>(counts.size()));
  put_be32(&payload, 0);  // normalizing index offset
  put_be32(&payload, static_cast<uint32_t>(histogram.significant_figures()));
  put_be64(&payload, static_cast<uint64_t>(histogram.lowest_discernible_value()));
  put_be64(&payload, static_cast<uint64_t>(histogram.highest_trackable_value()));
  put_be64(&payload, std::bit_cast<uint64_t>(1.0));  // integer-to-double conversion ratio
  payload += counts;

  uLongf compressed_size = compressBound(static_cast<uLong>(payload.size()));
  std::string compressed(kCompressedHeaderBytes + compressed_size, '\0');
  int status = compress2(reinterpret_cast<Bytef*>(compressed.data() + kCompressedHeaderBytes),
                         &compressed_size, reinterpret_cast<const Bytef*>(payload.data()),
                         static_cast<uLong>(payload.size()), Z_DEFAULT_COMPRESSION);
  if (status != Z_OK) return {};  // only Z_MEM_ERROR is possible with a compressBound buffer
  compressed.resize(kCompressedHeaderBytes + compressed_size);
  std::string header;
  put_be32(&header, kV2CompressedEncodingCookie | kWordSizeBits);
  put_be32(&header, static_cast<uint32_t>(compressed_size));
  compressed.replace(0, kCompressedHeaderBytes, header);
  return base64_encode(compressed);
}

Expected<Histogram, std::string> decode_v2_base64(std::string_view text) {
  std::optional<std::string> decoded = base64_decode(text);
  if (!decoded) return unexpected(std::string("not valid base64"));
  const auto* bytes = reinterpret_cast<const unsigned char*>(decoded->data());
  size_t size = decoded->size();
  if (size < kCompressedHeaderBytes) {
    return unexpected("too short for a compressed histogram header (" + std::to_string(size) +
                      " bytes)");
  }
  uint32_t cookie = get_be32(bytes);
  if (cookie_base(cookie) == kV1CompressedEncodingCookie ||
      cookie_base(cookie) == kV0CompressedEncodingCookie) {
    return unexpected("unsupported encoding (cookie " + hex(cookie) +
                      " is V0/V1); only V2 is supported");
  }
  if (cookie_base(cookie) != kV2CompressedEncodingCookie) {
    return unexpected("not a compressed HdrHistogram: cookie " + hex(cookie));
  }
  auto compressed_length = static_cast<int32_t>(get_be32(bytes + 4));
  if (compressed_length < 0 ||
      static_cast<size_t>(compressed_length) > size - kCompressedHeaderBytes) {
    return unexpected("compressed length " + std::to_string(compressed_length) + " exceeds the " +
                      std::to_string(size - kCompressedHeaderBytes) + " bytes present");
  }

  Inflater inflater(bytes + kCompressedHeaderBytes, static_cast<size_t>(compressed_length));
  unsigned char header[kPayloadHeaderBytes];
  if (std::string why = inflater.read(header, sizeof header); !why.empty()) {
    return unexpected("payload header: " + why);
  }
  uint32_t payload_cookie = get_be32(header);
  if (cookie_base(payload_cookie) != kV2EncodingCookie) {
    return unexpected("payload cookie " + hex(payload_cookie) + " is not V2");
  }
  auto payload_length = static_cast<int32_t>(get_be32(header + 4));
  // header + 8 is the normalizing index offset and header + 32 the conversion ratio: neither
  // affects integer counts, and writers disagree on them (hdr-histogram-js writes 1 and int64 1).
  auto figures = static_cast<int32_t>(get_be32(header + 12));
  auto lowest = static_cast<int64_t>(get_be64(header + 16));
  auto highest = static_cast<int64_t>(get_be64(header + 24));
  int32_t counts_length = Histogram::counts_length_for(lowest, highest, figures);
  if (counts_length == 0) {
    return unexpected("invalid geometry: lowest " + std::to_string(lowest) + ", highest " +
                      std::to_string(highest) + ", significant figures " +
                      std::to_string(figures));
  }
  int64_t max_payload_length = int64_t{counts_length} * kMaxVarintBytes;
  if (payload_length < 0 || payload_length > max_payload_length) {
    return unexpected("counts length " + std::to_string(payload_length) +
                      " bytes is impossible for " + std::to_string(counts_length) + " slots");
  }
  std::string counts(static_cast<size_t>(payload_length), '\0');
  if (std::string why =
          inflater.read(reinterpret_cast<unsigned char*>(counts.data()), counts.size());
      !why.empty()) {
    return unexpected("counts: " + why);
  }
  if (std::string why = inflater.verify_checksum(); !why.empty()) {
    return unexpected("after the counts: " + why);
  }

  Histogram histogram(lowest, highest, figures);
  const auto* data = reinterpret_cast<const unsigned char*>(counts.data());
  size_t pos = 0;
  int64_t index = 0;
  int64_t total = 0;
  while (pos < counts.size()) {
    size_t start = pos;
    int64_t value = 0;
    if (!get_zigzag(data, counts.size(), &pos, &value)) {
      return unexpected("counts truncated: varint cut off at byte " + std::to_string(start));
    }
    if (value < 0) {
      if (value == std::numeric_limits<int64_t>::min() || -value > counts_length - index) {
        return unexpected("zero run at byte " + std::to_string(start) + " passes the " +
                          std::to_string(counts_length) + " slots");
      }
      index += -value;
      continue;
    }
    if (index >= counts_length) {
      return unexpected("counts pass the " + std::to_string(counts_length) + " slots at byte " +
                        std::to_string(start));
    }
    if (value > std::numeric_limits<int64_t>::max() - total) {
      return unexpected(std::string("total count overflows int64"));
    }
    total += value;
    histogram.add_count_at_index(static_cast<int32_t>(index), value);
    ++index;
  }
  return histogram;
}

}  // namespace hammer
