// SPDX-License-Identifier: MIT
#include "http2/request_block.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "http2/hpack_testing.h"

namespace hammer::http2 {
namespace {

using testing::Fields;
using testing::hex;

Fields decoded(const std::string& block) {
  HpackDecoder decoder;
  Fields fields;
  EXPECT_EQ(testing::decode(decoder, block, &fields), HpackError::none);
  return fields;
}

TEST(RequestBlockTest, GetIsPseudoHeadersWithStaticIndexes) {
  RequestSpec spec;
  spec.host_header = "127.0.0.1:8080";
  const std::string block = encode_request_block(spec, false, {.huffman = false});
  // :method GET (2), :scheme http (6), :authority by name index (1), :path / (4).
  EXPECT_EQ(block.substr(0, 2), hex("82 86"));
  EXPECT_EQ(block.substr(2, 2), hex("01 0e"));
  EXPECT_EQ(block.substr(block.size() - 1), hex("84"));
  EXPECT_EQ(decoded(block), (Fields{{":method", "GET"},
                                    {":scheme", "http"},
                                    {":authority", "127.0.0.1:8080"},
                                    {":path", "/"}}));
}

TEST(RequestBlockTest, UserFieldsAreLowerCasedAndConnectionFieldsDropped) {
  RequestSpec spec;
  spec.method = "POST";
  spec.path = "/api?x=1";
  spec.host_header = "example.test";
  spec.headers = {"Host: override.test", "X-Trace: ABC", "Connection: keep-alive",
                  "Keep-Alive: 5", "TE: gzip", "te: trailers", "Transfer-Encoding: chunked",
                  "Upgrade: h2c", "Content-Type: application/json"};
  spec.body = "{}";
  EXPECT_EQ(decoded(encode_request_block(spec, true)),
            (Fields{{":method", "POST"},
                    {":scheme", "https"},
                    {":authority", "override.test"},
                    {":path", "/api?x=1"},
                    {"x-trace", "ABC"},
                    {"te", "trailers"},
                    {"content-type", "application/json"},
                    {"content-length", "2"}}));
}

// The report names what was left out, as the user spelt it, each name once.
TEST(RequestBlockTest, TheFieldsLeftOutAreNamedOnceAsGiven) {
  EXPECT_EQ(connection_specific_names({"Connection: close", "X-Trace: 1", "TE: trailers",
                                       "TE: gzip", "connection: keep-alive", "Upgrade: h2c"}),
            (std::vector<std::string>{"Connection", "TE", "Upgrade"}));
  EXPECT_TRUE(connection_specific_names({"Accept: */*", "te: trailers"}).empty());
}

TEST(RequestBlockTest, ContentLengthAsTheHttp1PathAddsIt) {
  const RequestSpec put{.method = "PUT", .host_header = "h"};
  EXPECT_EQ(decoded(encode_request_block(put, false)).back(),
            (std::pair<std::string, std::string>{"content-length", "0"}));
  RequestSpec given = put;
  given.headers = {"Content-Length: 0"};
  const Fields fields = decoded(encode_request_block(given, false));
  EXPECT_EQ(std::count_if(fields.begin(), fields.end(),
                          [](const auto& f) { return f.first == "content-length"; }),
            1);
  const RequestSpec get{.host_header = "h"};
  EXPECT_EQ(decoded(encode_request_block(get, false)).size(), 4u);
}

}  // namespace
}  // namespace hammer::http2
