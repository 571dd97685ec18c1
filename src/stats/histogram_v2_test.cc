// SPDX-License-Identifier: MIT
#include "stats/histogram_v2.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <bit>
#include <random>
#include <string>
#include <vector>

#include "stats/base64.h"
#include "stats/histogram_testing.h"

namespace hammer {
namespace {

using testing::same_counts;

constexpr int64_t k60s = 60'000'000'000;

// ---- byte helpers for crafting encodings by hand --------------------------------------------

void put32(std::string* out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out->push_back(static_cast<char>(v >> s));
}
void put64(std::string* out, uint64_t v) {
  for (int s = 56; s >= 0; s -= 8) out->push_back(static_cast<char>(v >> s));
}

std::string payload_header(uint32_t counts_bytes, int32_t figures, int64_t lowest, int64_t highest,
                           uint32_t cookie = 0x1c849313) {
  std::string out;
  put32(&out, cookie);
  put32(&out, counts_bytes);
  put32(&out, 0);
  put32(&out, static_cast<uint32_t>(figures));
  put64(&out, static_cast<uint64_t>(lowest));
  put64(&out, static_cast<uint64_t>(highest));
  put64(&out, std::bit_cast<uint64_t>(1.0));
  return out;
}

std::string deflate_bytes(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size()));
  std::string out(size, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                      reinterpret_cast<const Bytef*>(bytes.data()),
                      static_cast<uLong>(bytes.size()), 9),
            Z_OK);
  out.resize(size);
  return out;
}

// The compressed envelope around `payload`, base64-encoded.
std::string wrap(const std::string& payload, uint32_t cookie = 0x1c849314) {
  std::string compressed = deflate_bytes(payload);
  std::string out;
  put32(&out, cookie);
  put32(&out, static_cast<uint32_t>(compressed.size()));
  return base64_encode(out + compressed);
}

// A V2 payload with hand-written varint counts for geometry (lowest, highest, figures).
std::string wrap_counts(const std::string& counts, int32_t figures = 3, int64_t lowest = 1,
                        int64_t highest = k60s) {
  return wrap(payload_header(static_cast<uint32_t>(counts.size()), figures, lowest, highest) +
              counts);
}

std::string inflate_payload(const std::string& base64) {
  std::string raw = *base64_decode(base64);
  std::string out(1 << 20, '\0');
  uLongf size = out.size();
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                       reinterpret_cast<const Bytef*>(raw.data() + 8),
                       static_cast<uLong>(raw.size() - 8)),
            Z_OK);
  out.resize(size);
  return out;
}

std::string decode_error(const std::string& text) {
  Expected<Histogram, std::string> result = decode_v2_base64(text);
  return result.has_value() ? std::string("(decoded)") : result.error();
}

// ---- encoding -------------------------------------------------------------------------------

TEST(HistogramV2Test, EncodingStartsWithHistfAndTheV2Header) {
  Histogram histogram;
  histogram.record(1);
  histogram.record(3);
  histogram.record(10);
  std::string text = encode_v2_base64(histogram);
  EXPECT_EQ(text.rfind("HISTF", 0), 0u) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos);

  std::string raw = *base64_decode(text);
  EXPECT_EQ(raw.substr(0, 4), std::string("\x1c\x84\x93\x14", 4));
  std::string payload = inflate_payload(text);
  // Slots 0..10: 0 1 0 1 0 0 0 0 0 0 1 -> a lone zero is 0, a run of six zeros is -6 (zigzag 11).
  std::string counts("\x00\x02\x00\x02\x0b\x02", 6);
  EXPECT_EQ(payload, payload_header(6, 3, 1, k60s) + counts);
}

TEST(HistogramV2Test, EmptyHistogramHasNoCounts) {
  std::string payload = inflate_payload(encode_v2_base64(Histogram()));
  EXPECT_EQ(payload, payload_header(0, 3, 1, k60s));
}

TEST(HistogramV2Test, RoundTripKeepsCountsTotalsAndExtremes) {
  std::vector<Histogram> cases;
  cases.emplace_back();  // empty
  cases.emplace_back().record(0);
  cases.emplace_back().record(k60s);
  Histogram& latencies = cases.emplace_back();
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> lognormal(14.0, 1.5);
  for (int i = 0; i < 100'000; ++i) latencies.record(static_cast<int64_t>(lognormal(rng)));
  Histogram& big = cases.emplace_back();
  big.record_n(5, int64_t{1} << 62);  // zigzag 2^63: the ninth, eight-bit varint byte
  big.record_n(7, 1);
  cases.emplace_back(1000, k60s, 3).record(999);
  cases.emplace_back(1, 3'600'000'000, 2).record(1'234'567);
  Histogram& widest = cases.emplace_back(1, INT64_MAX, 5);
  widest.record(INT64_MAX);
  widest.record(1);

  for (const Histogram& original : cases) {
    std::string text = encode_v2_base64(original);
    Expected<Histogram, std::string> decoded = decode_v2_base64(text);
    ASSERT_TRUE(decoded.has_value()) << decoded.error();
    EXPECT_TRUE(same_counts(*decoded, original)) << text.substr(0, 60);
    EXPECT_EQ(decoded->value_at_percentile(99.9), original.value_at_percentile(99.9));
    EXPECT_EQ(encode_v2_base64(*decoded), text);
  }
}

// ---- malformed input: a clear error, never a crash ------------------------------------------

TEST(HistogramV2Test, RejectsTextThatIsNotAnEncodedHistogram) {
  EXPECT_EQ(decode_error(""), "too short for a compressed histogram header (0 bytes)");
  EXPECT_EQ(decode_error("not base64!"), "not valid base64");
  EXPECT_EQ(decode_error(base64_encode(std::string("\x12\x34\x56\x78\0\0\0\0", 8))),
            "not a compressed HdrHistogram: cookie 0x12345678");
  EXPECT_EQ(decode_error(wrap(payload_header(0, 3, 1, k60s), 0x1c849312)),
            "unsupported encoding (cookie 0x1c849312 is V0/V1); only V2 is supported");
}

TEST(HistogramV2Test, RejectsBrokenCompressedEnvelopes) {
  std::string good = *base64_decode(encode_v2_base64(Histogram()));
  std::string too_long = good;
  too_long[7] = static_cast<char>(too_long[7] + 1);
  EXPECT_EQ(decode_error(base64_encode(too_long)).rfind("compressed length", 0), 0u);
  std::string garbage = good.substr(0, 8) + std::string(good.size() - 8, '\x55');
  EXPECT_EQ(decode_error(base64_encode(garbage)).rfind("payload header: zlib: ", 0), 0u)
      << decode_error(base64_encode(garbage));
  std::string uncompressed_payload;
  put32(&uncompressed_payload, 0x1c849314);
  put32(&uncompressed_payload, 40);
  uncompressed_payload += payload_header(0, 3, 1, k60s);  // not deflated
  EXPECT_EQ(decode_error(base64_encode(uncompressed_payload)).rfind("payload header: zlib", 0), 0u);
}

TEST(HistogramV2Test, RejectsBadPayloadHeaders) {
  EXPECT_EQ(decode_error(wrap(payload_header(0, 3, 1, k60s, 0x1c849301))),
            "payload cookie 0x1c849301 is not V2");
  EXPECT_EQ(decode_error(wrap(payload_header(0, 9, 1, k60s))),
            "invalid geometry: lowest 1, highest 60000000000, significant figures 9");
  EXPECT_EQ(decode_error(wrap(payload_header(0, 3, 0, k60s))).rfind("invalid geometry", 0), 0u);
  EXPECT_EQ(decode_error(wrap(payload_header(0, 3, 100, 150))).rfind("invalid geometry", 0), 0u);
  EXPECT_EQ(decode_error(wrap(payload_header(0, 3, -1, -1))).rfind("invalid geometry", 0), 0u);
  // (1, 2, 1) has 32 slots, so at most 288 bytes of counts.
  EXPECT_EQ(decode_error(wrap(payload_header(289, 1, 1, 2))),
            "counts length 289 bytes is impossible for 32 slots");
  EXPECT_EQ(decode_error(wrap(payload_header(0x80000000u, 1, 1, 2))).rfind("counts length", 0),
            0u);
  EXPECT_EQ(decode_error(wrap(payload_header(10, 3, 1, k60s) + "\x02\x02")),
            "counts: compressed payload ended early");
}

TEST(HistogramV2Test, RejectsCountsThatDoNotFitTheGeometry) {
  EXPECT_EQ(decode_error(wrap_counts("\x02\x80")), "counts truncated: varint cut off at byte 1");
  EXPECT_EQ(decode_error(wrap_counts(std::string(8, '\xff'))),
            "counts truncated: varint cut off at byte 0");
  // 33 ones into 32 slots.
  EXPECT_EQ(decode_error(wrap_counts(std::string(33, '\x02'), 1, 1, 2)),
            "counts pass the 32 slots at byte 32");
  // A run of 40 zeros (zigzag 79) in 32 slots.
  EXPECT_EQ(decode_error(wrap_counts("\x4f", 1, 1, 2)), "zero run at byte 0 passes the 32 slots");
  // INT64_MIN as a run length: zigzag 2^64 - 1, nine bytes.
  EXPECT_EQ(decode_error(wrap_counts(std::string(9, '\xff'))),
            "zero run at byte 0 passes the 27648 slots");
  // Two counts of INT64_MAX (zigzag 2^64 - 2).
  std::string max_count(9, '\xff');
  max_count[0] = '\xfe';
  EXPECT_EQ(decode_error(wrap_counts(max_count + max_count)), "total count overflows int64");
}

TEST(HistogramV2Test, AcceptsForeignHeaderQuirksAndTrailingBytes) {
  // hdr-histogram-js writes normalizing offset 1 and the ratio as int64 1; neither matters.
  std::string header = payload_header(2, 3, 1, k60s);
  header[11] = 1;
  for (int i = 32; i < 40; ++i) header[static_cast<size_t>(i)] = i == 39 ? 1 : 0;
  Expected<Histogram, std::string> decoded = decode_v2_base64(wrap(header + std::string("\x00\x02", 2)));
  ASSERT_TRUE(decoded.has_value()) << decoded.error();
  EXPECT_EQ(decoded->total_count(), 1);
  EXPECT_EQ(decoded->max(), 1);
  // Bytes after the compressed stream are ignored, as the reference readers do.
  std::string raw = *base64_decode(encode_v2_base64(*decoded)) + "trailing";
  EXPECT_TRUE(decode_v2_base64(base64_encode(raw)).has_value());
}

TEST(HistogramV2Test, EveryTruncationAndBitFlipIsHandled) {
  Histogram histogram;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000; ++i) histogram.record(static_cast<int64_t>(rng() % 50'000'000));
  std::string raw = *base64_decode(encode_v2_base64(histogram));
  for (size_t length = 0; length < raw.size(); ++length) {
    EXPECT_FALSE(decode_v2_base64(base64_encode(raw.substr(0, length))).has_value()) << length;
  }
  int decoded_anyway = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = raw;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      // zlib's Adler-32 catches most flips; whatever gets through must still be well formed.
      Expected<Histogram, std::string> result = decode_v2_base64(base64_encode(flipped));
      if (result.has_value()) {
        ++decoded_anyway;
        EXPECT_GE(result->total_count(), 0);
      } else {
        EXPECT_FALSE(result.error().empty());
      }
    }
  }
  EXPECT_LT(decoded_anyway, static_cast<int>(raw.size()));
}

}  // namespace
}  // namespace hammer
