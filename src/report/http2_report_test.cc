// SPDX-License-Identifier: MIT
// The report's HTTP/2 section (report/http2_report.h): its text lines, the JSON `http2`
// member, and that member read back by `hammer report` (document/http2_section.cc) into the
// very summary it was written from.
#include "report/http2_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "document/run_document.h"
#include "json/json_value.h"
#include "report/json_report.h"
#include "report/report_test_support.h"
#include "report/text_report.h"
#include "run/http2_code_names.h"

namespace hammer {
namespace {

using testing::open_loop_run;

constexpr int kRefusedStream = 7;  // RFC 9113 §7: REFUSED_STREAM
constexpr int kCancel = 8;
constexpr int kOther = kHttp2KnownErrorCodes;

// An h2c run of 20 sessions, 10 streams each allowed 100, whose streams ended in every way
// the text names, and 1000 first bytes of 10 us .. 10 ms.
Http2Summary filled_summary() {
  Http2Summary http2;
  http2.used = true;
  http2.cleartext = true;
  http2.streams = 10;
  http2.server_max_streams = 100;
  http2.sessions = 20;
  http2.goaways = 3;
  http2.goaway_errors = 1;
  http2.resets_received[kRefusedStream] = 4;
  http2.resets_received[kCancel] = 2;
  http2.resets_received[kOther] = 1;
  http2.resets_sent = 5;
  http2.refused = 6;
  http2.session_errors = 2;
  http2.pings_answered = 9;
  http2.frame_overhead_bytes = 102'400;
  http2.data_bytes = 1'945'600;
  http2.writes = 4'321;
  http2.setup_failures = 1;
  http2.first_setup_error = "ALPN chose http/1.1";
  http2.first_session_error = "a header block the decoder refused (COMPRESSION_ERROR)";
  for (int64_t i = 1; i <= 1000; ++i) http2.first_byte.record(i * 10'000);
  return http2;
}

TEST(Http2ReportTest, AFilledSummaryHasItsLines) {
  const Http2Summary http2 = filled_summary();
  const std::vector<std::string> lines = http2_lines(http2);
  const std::vector<std::string> expected = {
      "HTTP/2         h2c, 10 streams per connection (server allows 100); 20 sessions",
      "HTTP/2 ends    3 GOAWAY (1 with an error); 7 RST_STREAM received: 4 REFUSED_STREAM, "
      "2 CANCEL,",
      "               1 other; 5 RST_STREAM sent; 6 streams refused",
      "HTTP/2 frames  100.00KB frame overhead, 1.86MB data: overhead 5.00% of the bytes received",
      "First byte     p50 5.00ms, p99 9.90ms, max 10.00ms (from each stream's send, uncorrected)",
      "HTTP/2 setup   1 connection did not speak HTTP/2: ALPN chose http/1.1",
      "HTTP/2 errors  2 sessions ended by a connection error, the first: a header block the "
      "decoder refused (COMPRESSION_ERROR)",
  };
  EXPECT_EQ(lines, expected);
  for (const std::string& line : lines) {
    if (line.rfind("HTTP/2 errors", 0) == 0) continue;  // the error's own words are not cut
    EXPECT_LE(line.size(), 96u) << line;
  }

  // In the text report right after the TLS lines (none here), before the dispatch lag.
  testing::FabricatedRun run = open_loop_run();
  run.result.http2 = http2;
  std::string text;
  append_http2_text(run.input(), text);
  EXPECT_EQ(text.rfind(expected.front() + "\n", 0), 0u) << text;
  const std::string report = render_text_report(run.input());
  const size_t at = report.find(expected.front());
  ASSERT_NE(at, std::string::npos) << report;
  EXPECT_LT(at, report.find("Dispatch lag")) << report;
}

TEST(Http2ReportTest, AServerThatAllowsFewerStreamsLowersThem) {
  Http2Summary http2;
  http2.used = true;
  http2.streams = 100;
  http2.server_max_streams = 10;
  http2.sessions = 1;
  const std::vector<std::string> lines = http2_lines(http2);
  const std::vector<std::string> expected = {
      "HTTP/2         h2, 100 streams per connection — the server lowered --streams to 10; "
      "1 session",
      "HTTP/2 ends    0 GOAWAY; no RST_STREAM received; 0 RST_STREAM sent; 0 streams refused",
  };
  EXPECT_EQ(lines, expected);

  // A server that sent no SETTINGS_MAX_CONCURRENT_STREAMS (0) allows any number: not named.
  http2.server_max_streams = 0;
  EXPECT_EQ(http2_lines(http2).front(), "HTTP/2         h2, 100 streams per connection; 1 session");
  http2.server_max_streams = 100;  // as many as asked: allowed, nothing lowered
  EXPECT_EQ(http2_lines(http2).front(),
            "HTTP/2         h2, 100 streams per connection (server allows 100); 1 session");
}

// -H Connection: close is left out of every header block: the report says so (it was
// silent, and the user believed the connections closed). HTTP/1.1 sends it and says nothing.
TEST(Http2ReportTest, ConnectionSpecificFieldsLeftOutAreNoted) {
  testing::FabricatedRun run = open_loop_run();
  run.config.headers = {"Connection: close", "X-Trace: 1"};
  const std::string note =
      "note: not sent over HTTP/2: Connection is connection-specific, which HTTP/2 forbids in a "
      "request (RFC 9113 8.2.2); a stream ends on its own and the connection stays open";
  EXPECT_EQ(render_text_report(run.input()).find(note), std::string::npos);
  run.config.http2 = true;
  run.result.http2 = filled_summary();
  EXPECT_NE(render_text_report(run.input()).find(note), std::string::npos)
      << render_text_report(run.input());
}

TEST(Http2ReportTest, AnHttp1RunSaysNothingAndWritesNull) {
  const testing::FabricatedRun run = open_loop_run();
  EXPECT_TRUE(http2_lines(run.result.http2).empty());
  std::string text;
  append_http2_text(run.input(), text);
  EXPECT_EQ(text, "");
  EXPECT_EQ(render_text_report(run.input()).find("HTTP/2"), std::string::npos);
  auto parsed = parse_json(render_json_report(run.input()));
  ASSERT_TRUE(parsed.has_value()) << parsed.error();
  const JsonValue* http2 = parsed->find("http2");
  ASSERT_NE(http2, nullptr);
  EXPECT_TRUE(http2->is_null());
}

TEST(Http2ReportTest, TheJsonMemberHasItsShape) {
  testing::FabricatedRun run = open_loop_run();
  run.result.http2 = filled_summary();
  const std::string text = render_json_report(run.input());
  auto parsed = parse_json(text);
  ASSERT_TRUE(parsed.has_value()) << parsed.error();
  const JsonValue* http2 = parsed->find("http2");
  ASSERT_NE(http2, nullptr);
  ASSERT_TRUE(http2->is_object());
  // Right after `tls`, as the text's lines follow the TLS ones.
  const auto& members = parsed->members;
  for (size_t i = 0; i + 1 < members.size(); ++i) {
    if (members[i].key == "tls") {
      EXPECT_EQ(members[i + 1].key, "http2");
    }
  }
  const std::vector<std::string> keys = {
      "protocol",       "streams",        "server_max_streams", "sessions",
      "goaways",        "goaway_errors",  "resets_received",    "resets_sent",
      "refused",        "session_errors", "pings_answered",     "frame_overhead_bytes",
      "data_bytes",     "writes",         "setup_failures",     "first_setup_error",
      "first_session_error", "first_byte"};
  std::vector<std::string> written;
  for (const JsonMember& member : http2->members) written.push_back(member.key);
  EXPECT_EQ(written, keys);
  EXPECT_EQ(http2->find("protocol")->text, "h2c");
  EXPECT_EQ(http2->find("streams")->as_int(), 10);
  EXPECT_EQ(http2->find("server_max_streams")->as_int(), 100);
  EXPECT_EQ(http2->find("sessions")->as_int(), 20);
  EXPECT_EQ(http2->find("goaways")->as_int(), 3);
  EXPECT_EQ(http2->find("goaway_errors")->as_int(), 1);
  EXPECT_EQ(http2->find("resets_sent")->as_int(), 5);
  EXPECT_EQ(http2->find("refused")->as_int(), 6);
  EXPECT_EQ(http2->find("session_errors")->as_int(), 2);
  EXPECT_EQ(http2->find("pings_answered")->as_int(), 9);
  EXPECT_EQ(http2->find("frame_overhead_bytes")->as_int(), 102'400);
  EXPECT_EQ(http2->find("data_bytes")->as_int(), 1'945'600);
  EXPECT_EQ(http2->find("writes")->as_int(), 4'321);
  EXPECT_EQ(http2->find("setup_failures")->as_int(), 1);
  EXPECT_EQ(http2->find("first_setup_error")->text, "ALPN chose http/1.1");
  // Every code is a key, zero or not, lower-case, in code order.
  const JsonValue* resets = http2->find("resets_received");
  ASSERT_NE(resets, nullptr);
  ASSERT_EQ(resets->members.size(), static_cast<size_t>(kHttp2ResetBuckets));
  EXPECT_EQ(resets->members.front().key, "no_error");
  EXPECT_EQ(resets->members[kRefusedStream].key, "refused_stream");
  EXPECT_EQ(resets->members[13].key, "http_1_1_required");
  EXPECT_EQ(resets->members.back().key, "other");
  EXPECT_EQ(resets->find("refused_stream")->as_int(), 4);
  EXPECT_EQ(resets->find("cancel")->as_int(), 2);
  EXPECT_EQ(resets->find("other")->as_int(), 1);
  EXPECT_EQ(resets->find("no_error")->as_int(), 0);
  // The histogram object, as tls writes handshake_time.
  const JsonValue* first_byte = http2->find("first_byte");
  ASSERT_NE(first_byte, nullptr);
  EXPECT_EQ(first_byte->find("count")->as_int(), 1000);
  EXPECT_EQ(first_byte->find("max_ns")->as_int(), run.result.http2.first_byte.max());
  ASSERT_NE(first_byte->at({"percentiles_ns", "99"}), nullptr);
  EXPECT_EQ(first_byte->find("hdr")->text.rfind("HISTF", 0), 0u);

  // No SETTINGS limit and no errors: nulls, not 0 or "".
  run.result.http2.server_max_streams = 0;
  run.result.http2.first_setup_error.clear();
  run.result.http2.first_session_error.clear();
  auto bare = parse_json(render_json_report(run.input()));
  ASSERT_TRUE(bare.has_value()) << bare.error();
  for (const char* name : {"server_max_streams", "first_setup_error", "first_session_error"}) {
    ASSERT_NE(bare->at({"http2", name}), nullptr) << name;
    EXPECT_TRUE(bare->at({"http2", name})->is_null()) << name;
  }
}

// `hammer report run.json`: the saved member reads back into the summary it was written from,
// and the text it prints again is the text the run printed.
TEST(Http2ReportTest, ASavedRunReadsBackAndPrintsTheSameLines) {
  testing::FabricatedRun run = open_loop_run();
  run.result.http2 = filled_summary();
  auto document = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(document.has_value()) << document.error();
  const Http2Summary& read = document->result.http2;
  const Http2Summary& wrote = run.result.http2;
  EXPECT_TRUE(read.used);
  EXPECT_EQ(read.cleartext, wrote.cleartext);
  EXPECT_EQ(read.streams, wrote.streams);
  EXPECT_EQ(read.server_max_streams, wrote.server_max_streams);
  EXPECT_EQ(read.sessions, wrote.sessions);
  EXPECT_EQ(read.goaways, wrote.goaways);
  EXPECT_EQ(read.goaway_errors, wrote.goaway_errors);
  EXPECT_EQ(read.resets_received, wrote.resets_received);
  EXPECT_EQ(read.resets_sent, wrote.resets_sent);
  EXPECT_EQ(read.refused, wrote.refused);
  EXPECT_EQ(read.session_errors, wrote.session_errors);
  EXPECT_EQ(read.pings_answered, wrote.pings_answered);
  EXPECT_EQ(read.frame_overhead_bytes, wrote.frame_overhead_bytes);
  EXPECT_EQ(read.data_bytes, wrote.data_bytes);
  EXPECT_EQ(read.writes, wrote.writes);
  EXPECT_EQ(read.setup_failures, wrote.setup_failures);
  EXPECT_EQ(read.first_setup_error, wrote.first_setup_error);
  EXPECT_EQ(read.first_session_error, wrote.first_session_error);
  EXPECT_EQ(read.first_byte.total_count(), 1000);
  EXPECT_EQ(read.first_byte.max(), wrote.first_byte.max());
  EXPECT_EQ(read.first_byte.value_at_percentile(50), wrote.first_byte.value_at_percentile(50));
  EXPECT_EQ(http2_lines(read), http2_lines(wrote));
  const std::vector<Verdict> none;
  std::string again;
  append_http2_text(ReportInput{document->config, document->result, none, {}}, again);
  std::string written;
  append_http2_text(run.input(), written);
  EXPECT_EQ(again, written);

  // An h2 run with no limit and no errors keeps its nulls as 0 and "".
  run.result.http2.cleartext = false;
  run.result.http2.server_max_streams = 0;
  run.result.http2.first_setup_error.clear();
  run.result.http2.first_session_error.clear();
  auto bare = read_run_document(render_json_report(run.input()));
  ASSERT_TRUE(bare.has_value()) << bare.error();
  EXPECT_TRUE(bare->result.http2.used);
  EXPECT_FALSE(bare->result.http2.cleartext);
  EXPECT_EQ(bare->result.http2.server_max_streams, 0);
  EXPECT_EQ(bare->result.http2.first_setup_error, "");
  EXPECT_EQ(bare->result.http2.first_session_error, "");

  // An HTTP/1.1 run's `"http2": null` reads as no HTTP/2.
  auto plain = read_run_document(render_json_report(open_loop_run().input()));
  ASSERT_TRUE(plain.has_value()) << plain.error();
  EXPECT_FALSE(plain->result.http2.used);
}

}  // namespace
}  // namespace hammer
