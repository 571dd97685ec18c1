// SPDX-License-Identifier: MIT
// The notes that tell a user what to change: a bare --timeout that may have meant seconds, an
// http:// URL to a TLS port, HTTP/1.1 to an h2-only server, a client certificate the server
// wants or refused, connects that held the start. Each decided on the run's numbers
// (report/report_input.cc), worded once.
#include <gtest/gtest.h>

#include <string>

#include "http/url.h"
#include "report/report_input.h"
#include "report/report_test_support.h"
#include "report/text_report.h"

namespace hammer {
namespace {

using testing::censored_run;
using testing::contains;
using testing::has_line;

TEST(ReportHintTest, ABareTimeoutUnderAHundredThatTimedRequestsOutGetsANote) {
  auto run = censored_run();
  run.config.timeout_ns = 5'000'000;
  run.config.timeout_without_unit = true;
  const std::string note =
      "note: --timeout 5 was read as 5 ms (a bare number is milliseconds; wrk reads seconds): "
      "for 5 seconds write --timeout 5s";
  EXPECT_TRUE(has_line(render_text_report(run.input()), note));
  run.config.timeout_ns = 500'000'000;  // 500 ms is a deliberate timeout
  EXPECT_FALSE(contains(render_text_report(run.input()), "was read as"));
  run.config.timeout_ns = 5'000'000;
  run.config.timeout_without_unit = false;  // --timeout 5ms says what it means
  EXPECT_FALSE(contains(render_text_report(run.input()), "was read as"));
  run.config.timeout_without_unit = true;
  run.result.errors[static_cast<int>(ErrorKind::timeout)] = 0;  // nothing timed out: no note
  EXPECT_FALSE(contains(render_text_report(run.input()), "was read as"));
}

// nghttpd speaks only h2: HTTP/1.1 over TLS gets no ALPN answer and no response. The report
// said "server closed the connection" and nothing about --http2 (a user's trial).
TEST(ReportHintTest, AnHttpsRunWithNoAlpnAndNoAnswerSuggestsHttp2) {
  auto run = testing::closed_loop_run();
  run.config.target = *parse_url("https://127.0.0.1:8443/");
  run.result.tls.used = true;
  run.result.tls.full_handshakes = 4;
  run.result.completed = 0;
  run.result.status_classes = {};
  run.result.errors = {};
  run.result.errors[static_cast<int>(ErrorKind::read)] = 170;
  const std::string note =
      "note: the server chose no protocol by ALPN (hammer offered http/1.1) and answered no "
      "request: if it speaks only HTTP/2, give --http2";
  EXPECT_TRUE(has_line(render_text_report(run.input()), note)) << render_text_report(run.input());
  run.result.tls.alpn = "http/1.1";  // it chose HTTP/1.1: something else is wrong
  EXPECT_FALSE(contains(render_text_report(run.input()), "give --http2"));
}

TEST(ReportHintTest, AnHttpRunThatNeverGotAByteBackNamesTheHttpsUrlToTry) {
  // What a plain request to a TLS port gets from openssl s_server: a close, not one byte.
  auto run = testing::closed_loop_run();
  run.config.target = *parse_url("http://127.0.0.1:8443/api?x=1");
  run.result.completed = 0;
  run.result.bytes_read = 0;
  run.result.status_classes = {};
  run.result.errors = {};
  run.result.errors[static_cast<int>(ErrorKind::read)] = 500;
  const std::string note =
      "note: no connection got a byte back before the server closed it: if 127.0.0.1:8443 "
      "serves TLS, the URL is https://127.0.0.1:8443/api?x=1";
  EXPECT_TRUE(has_line(render_text_report(run.input()), note)) << render_text_report(run.input());
  run.config.target = *parse_url("http://[::1]:8443/api?x=1");  // bracketed, as given
  EXPECT_TRUE(contains(render_text_report(run.input()), "the URL is https://[::1]:8443/api?x=1"));
  run.config.target.scheme = Scheme::https;  // already TLS: the handshake's own errors say why
  EXPECT_FALSE(contains(render_text_report(run.input()), "serves TLS"));
  run.config.target.scheme = Scheme::http;
  run.result.bytes_read = 120;  // something answered: not a TLS port's silence
  EXPECT_FALSE(contains(render_text_report(run.input()), "serves TLS"));
}

// A server that ended connections for the client's certificate: what to give, or to check.
TEST(ReportHintTest, ARefusedClientCertificateSaysWhatToGiveOrCheck) {
  auto run = testing::closed_loop_run();
  run.config.target = *parse_url("https://localhost:8443/");
  run.result.tls.used = true;
  run.result.tls.client_certificate_refused = 700;
  EXPECT_TRUE(has_line(render_text_report(run.input()),
                       "note: the server ended 700 connections for want of a client "
                       "certificate: it asks for one (mTLS); give --cert FILE --key FILE"))
      << render_text_report(run.input());
  run.config.tls.cert_file = "client.pem";
  run.result.tls.client_certificate_refused = 1;
  EXPECT_TRUE(has_line(render_text_report(run.input()),
                       "note: the server refused the client certificate on 1 connection: is "
                       "client.pem one that its CA signed, valid now?"))
      << render_text_report(run.input());
  run.result.tls.client_certificate_refused = 0;
  EXPECT_FALSE(contains(render_text_report(run.input()), "client certificate"));
}

// A server slow to accept or to handshake held the start: said, with the bound each connect had.
TEST(ReportHintTest, ConnectsThatHeldTheStartOverASecondGetANote) {
  auto run = testing::closed_loop_run();
  run.config.timeout_ns = 2'000'000'000;
  run.result.wall_start.connecting_ns = 2'010'000'000;
  EXPECT_TRUE(has_line(render_text_report(run.input()),
                       "note: the connects held the start for 2.01s (each connect, and each TLS "
                       "handshake, may take --timeout 2.00s): the figures begin after them"))
      << render_text_report(run.input());
  run.result.wall_start.connecting_ns = 900'000'000;  // a large fleet of connects: no note
  EXPECT_FALSE(contains(render_text_report(run.input()), "held the start"));
}

// nginx's answer to a plain request on its TLS port: 400 Bad Request, every time.
TEST(ReportHintTest, AnHttpRunAnsweredOnly400NamesTheHttpsUrlToTry) {
  auto run = testing::closed_loop_run();
  run.config.target = *parse_url("http://127.0.0.1:8443/x");
  run.result.status_classes = {};
  run.result.status_classes[3] = run.result.completed;
  run.result.status_codes[400] = run.result.completed;
  const std::string note =
      "note: every answer was 400 Bad Request: if 127.0.0.1:8443 serves TLS, the URL is "
      "https://127.0.0.1:8443/x";
  EXPECT_TRUE(has_line(render_text_report(run.input()), note)) << render_text_report(run.input());
  run.result.status_codes[400] -= 1;  // one answer was something else: not a TLS port
  run.result.status_codes[404] = 1;
  EXPECT_FALSE(contains(render_text_report(run.input()), "serves TLS"));
  run.result.status_codes[400] += 1;
  run.result.status_codes[404] = 0;
  run.config.target.scheme = Scheme::https;
  EXPECT_FALSE(contains(render_text_report(run.input()), "serves TLS"));
}

// More threads than CPUs: open loop, the cost is dispatch lag; closed loop has no schedule
// and prints no dispatch lag, so the note names what it does cost there (a new user's trial).
TEST(ReportHintTest, TheThreadsAboveCpusNoteNamesWhatTheyCostInEachLoop) {
  Config config;
  config.threads = 4;
  config.cpus_available = 2;
  config.rate = 1000;
  EXPECT_NE(threads_above_cpus_note(config).find("counts as hammer's own dispatch lag"),
            std::string::npos);
  config.rate = 0;
  const std::string closed = threads_above_cpus_note(config);
  EXPECT_EQ(closed.find("dispatch lag"), std::string::npos) << closed;
  EXPECT_NE(closed.find("slows the request rate"), std::string::npos) << closed;
}

}  // namespace
}  // namespace hammer
