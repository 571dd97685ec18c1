// SPDX-License-Identifier: MIT
// `http2` read back (document/http2_section.cc): the member as docs/json.md lays it out (and
// as report/http2_report.cc writes it; report/http2_report_test.cc writes and reads it whole)
// into Http2Summary, field for field; null or absent is an HTTP/1.1 run; a wrong shape is
// refused, naming the member.
#include <gtest/gtest.h>

#include <string>

#include "document/document_sections.h"
#include "json/json_value.h"
#include "stats/histogram_v2.h"

namespace hammer {
namespace {

Histogram first_bytes() {
  Histogram histogram;
  for (int64_t i = 1; i <= 250; ++i) histogram.record(i * 40'000);
  return histogram;
}

// A whole `http2` member, every field a different figure.
std::string member(const std::string& protocol = "\"h2c\"",
                   const std::string& server_max_streams = "100",
                   const std::string& first_session_error = "\"GOAWAY sent: PROTOCOL_ERROR\"",
                   const std::string& writes = ", \"writes\": 22") {
  return "{\"http2\": {\"protocol\": " + protocol +
         ", \"streams\": 10, \"server_max_streams\": " + server_max_streams +
         ", \"sessions\": 20, \"goaways\": 3, \"goaway_errors\": 1, \"resets_received\": "
         "{\"no_error\": 1, \"protocol_error\": 2, \"internal_error\": 3, "
         "\"flow_control_error\": 4, \"settings_timeout\": 5, \"stream_closed\": 6, "
         "\"frame_size_error\": 7, \"refused_stream\": 8, \"cancel\": 9, "
         "\"compression_error\": 10, \"connect_error\": 11, \"enhance_your_calm\": 12, "
         "\"inadequate_security\": 13, \"http_1_1_required\": 14, \"other\": 15}, "
         "\"resets_sent\": 16, \"refused\": 17, \"session_errors\": 18, \"pings_answered\": 19, "
         "\"frame_overhead_bytes\": 20480, \"data_bytes\": 1048576" + writes +
         ", \"setup_failures\": 21, "
         "\"first_setup_error\": \"ALPN chose http/1.1\", \"first_session_error\": " +
         first_session_error + ", \"first_byte\": {\"count\": 250, \"hdr\": \"" +
         encode_v2_base64(first_bytes()) + "\"}}}";
}

struct Read {
  RunResult result;
  std::string error;
};

Read read(const std::string& text) {
  auto root = parse_json(text);
  EXPECT_TRUE(root.has_value()) << (root ? "" : root.error()) << "\n" << text;
  Read out;
  if (!root) return out;
  DocumentReader reader(*root);
  read_http2_section(reader, out.result);
  out.error = reader.error();
  return out;
}

TEST(Http2SectionTest, EveryFieldReadsBack) {
  const Read got = read(member());
  ASSERT_EQ(got.error, "");
  const Http2Summary& http2 = got.result.http2;
  EXPECT_TRUE(http2.used);
  EXPECT_TRUE(http2.cleartext);
  EXPECT_EQ(http2.streams, 10);
  EXPECT_EQ(http2.server_max_streams, 100);
  EXPECT_EQ(http2.sessions, 20);
  EXPECT_EQ(http2.goaways, 3);
  EXPECT_EQ(http2.goaway_errors, 1);
  for (int code = 0; code < kHttp2ResetBuckets; ++code) {
    EXPECT_EQ(http2.resets_received[code], code + 1) << code;  // in code order, "other" last
  }
  EXPECT_EQ(http2.resets_received_total(), 120);
  EXPECT_EQ(http2.resets_sent, 16);
  EXPECT_EQ(http2.refused, 17);
  EXPECT_EQ(http2.session_errors, 18);
  EXPECT_EQ(http2.pings_answered, 19);
  EXPECT_EQ(http2.frame_overhead_bytes, 20'480);
  EXPECT_EQ(http2.data_bytes, 1'048'576);
  EXPECT_EQ(http2.writes, 22);
  EXPECT_EQ(http2.setup_failures, 21);
  EXPECT_EQ(http2.first_setup_error, "ALPN chose http/1.1");
  EXPECT_EQ(http2.first_session_error, "GOAWAY sent: PROTOCOL_ERROR");
  const Histogram expected = first_bytes();
  EXPECT_EQ(http2.first_byte.total_count(), 250);
  EXPECT_EQ(http2.first_byte.max(), expected.max());
  EXPECT_EQ(http2.first_byte.value_at_percentile(99), expected.value_at_percentile(99));
}

// `writes` came later: a document without it (or with null) reads as not known, -1, which the
// writer gives back as null rather than a count of none.
TEST(Http2SectionTest, AnOlderDocumentsMissingWritesAreNotKnown) {
  for (const std::string& writes : {std::string(), std::string(", \"writes\": null")}) {
    const Read got = read(member("\"h2c\"", "100", "null", writes));
    ASSERT_EQ(got.error, "") << writes;
    EXPECT_EQ(got.result.http2.writes, -1) << writes;
    EXPECT_EQ(got.result.http2.data_bytes, 1'048'576) << writes;
  }
}

TEST(Http2SectionTest, NullsAreNoLimitAndNoError) {
  const Read got = read(member("\"h2\"", "null", "null"));
  ASSERT_EQ(got.error, "");
  EXPECT_TRUE(got.result.http2.used);
  EXPECT_FALSE(got.result.http2.cleartext);
  EXPECT_EQ(got.result.http2.server_max_streams, 0);
  EXPECT_EQ(got.result.http2.first_session_error, "");
  EXPECT_EQ(got.result.http2.first_setup_error, "ALPN chose http/1.1");
}

TEST(Http2SectionTest, NullOrAbsentIsAnHttp1Run) {
  for (const char* text : {"{\"http2\": null}", "{}"}) {
    const Read got = read(text);
    EXPECT_EQ(got.error, "") << text;
    EXPECT_FALSE(got.result.http2.used) << text;
    EXPECT_EQ(got.result.http2.first_byte.total_count(), 0) << text;
  }
}

TEST(Http2SectionTest, AWrongShapeIsRefusedByName) {
  EXPECT_EQ(read("{\"http2\": 2}").error, "http2: expected an object or null");
  EXPECT_EQ(read(member("\"h3\"")).error, "http2.protocol: expected \"h2\" or \"h2c\"");
  EXPECT_EQ(read(member("\"h2\"", "\"100\"")).error,
            "http2.server_max_streams: expected an integer");
  EXPECT_EQ(read(member("\"h2\"", "100", "7")).error,
            "http2.first_session_error: expected a string or null");
  std::string no_cancel = member();
  no_cancel.replace(no_cancel.find("\"cancel\": 9"), 11, "\"canceled\": 9");
  EXPECT_EQ(read(no_cancel).error, "http2.resets_received.cancel: expected an integer");
  std::string no_hdr = member();
  no_hdr.replace(no_hdr.find("\"hdr\""), 5, "\"HDR\"");
  EXPECT_EQ(read(no_hdr).error, "http2.first_byte.hdr: expected an HdrHistogram V2 string");
}

}  // namespace
}  // namespace hammer
