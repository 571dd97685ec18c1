// SPDX-License-Identifier: MIT
// --http2 end to end: against nginx (h2 over TLS by ALPN, and h2c with prior knowledge) and
// nghttpd, counts checked against the server's own log; and against tools/h2_hostile_server.py,
// one hostile behaviour per test, each counted by kind in bounded time.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "e2e/e2e.h"
#include "e2e/nginx_tls_suite.h"
#include "support/access_log.h"

namespace hammer::test {
namespace {


void expect_clean(const JsonValue& report) {
  expect_no_errors_over_tls(report);
  EXPECT_EQ(number_at(report, "requests.sent"), number_at(report, "requests.completed"));
  EXPECT_EQ(number_at(report, "status_codes.200"), number_at(report, "requests.completed"));
}

// A --json report of more than `sent_above` requests sent, `per_write` or more to a write.
void expect_requests_per_write(const JsonValue& report, double sent_above, double per_write) {
  const double sent = number_at(report, "requests.sent");
  const double writes = number_at(report, "http2.writes");
  EXPECT_GT(sent, sent_above);
  ASSERT_GT(writes, 0);
  EXPECT_GE(sent / writes, per_write) << sent << " requests in " << writes << " writes";
}

class Http2NginxTest : public NginxTlsSuite<Http2NginxTest> {
 public:
  static TlsServerOptions server_options() { return {.http2 = true}; }
};

TEST_F(Http2NginxTest, AnH2RunOverTlsCountsWhatNginxLogged) {
  const int64_t before = log_line_count(server().h2_log());
  const Finished run = run_hammer({"--http2", "--streams", "10", "-c", "4", "-t", "2", "-d", "1",
                                   "--cacert", server().ca(), "--json",
                                   "https://127.0.0.1:" + std::to_string(server().h2_port()) + "/"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_clean(report);
  const double completed = number_at(report, "requests.completed");
  EXPECT_GT(completed, 100);
  EXPECT_EQ(completed, await_log_lines(server().h2_log(), before + completed) - before) << "nginx logged every stream";
  const JsonValue* alpn = report.find("tls.alpn");
  ASSERT_NE(alpn, nullptr);
  EXPECT_EQ(alpn->text, "h2");
}

// nginx writes each response in a TLS record of its own. The answers one read brought are
// decrypted together (12933c3) and their streams' refills leave in one write after the batch
// of events (57c63e7): with 10 streams a connection, a write carries a couple of requests or
// more. Handed a record at a time and flushing after each, hammer wrote once per request
// (74,556 requests in 74,516 writes with both undone; 2.2-2.6 a write with either, loaded or
// quiet). On epoll, where one read takes every record that has arrived; io_uring's receive
// completions come a segment each, and how many share a batch is timing.
TEST_F(Http2NginxTest, OverTlsTheAnswersOfOneReadAreRefilledInOneWrite) {
  const Finished run = run_hammer({"--http2", "--streams", "10", "-c", "4", "-t", "1", "-d", "1",
                                   "--engine", "epoll", "--cacert", server().ca(), "--json",
                                   "https://127.0.0.1:" + std::to_string(server().h2_port()) + "/"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_clean(report);
  expect_requests_per_write(report, 100, 1.3);
}

// Open loop, slots due within the precision budget leave in one wake-up; on one connection
// their streams leave in one write too (each was a write of its own: 4,008 writes for 4,000
// requests at 2 ms, one connection; now about one per wake-up).
TEST_F(Http2NginxTest, SlotsDueTogetherOpenTheirStreamsInOneWrite) {
  const Finished run = run_hammer({"--http2", "--streams", "8", "-c", "1", "-t", "1", "-r", "2000",
                                   "--dispatch-precision", "2ms", "-d", "1", "--engine", "epoll",
                                   "--json",
                                   "http://127.0.0.1:" + std::to_string(server().h2c_port()) + "/"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_requests_per_write(report, 500, 1.5);
}

TEST_F(Http2NginxTest, AnH2cRunWithPriorKnowledgeCountsWhatNginxLogged) {
  for (const char* engine : {"epoll", "io_uring"}) {
    const int64_t before = log_line_count(server().h2c_log());
    const Finished run =
        run_hammer({"--http2", "--streams", "8", "-c", "3", "-t", "1", "-d", "1", "--engine",
                    engine, "--json",
                    "http://127.0.0.1:" + std::to_string(server().h2c_port()) + "/"});
    ASSERT_EQ(run.exit_code, 0) << engine << ": " << run.err;
    const JsonValue report = parse_report(run);
    expect_clean(report);
    const auto completed = static_cast<int64_t>(number_at(report, "requests.completed"));
    EXPECT_EQ(completed, await_log_lines(server().h2c_log(), before + completed) - before)
        << engine;
  }
}

// Without --http2 on nginx's h2c-only port: HTTP/1.1 requests answered with SETTINGS and
// GOAWAY. Once "first parse error: bad status line", with nothing to say what would work; the
// note names the frames and the flag (a new user's trial).
TEST_F(Http2NginxTest, AnHttp1RunOnAnH2cOnlyPortIsToldToAddHttp2) {
  const Finished run = run_hammer(
      {"-c", "1", "-t", "1", "-d", "0.3", "--json",
       "http://127.0.0.1:" + std::to_string(server().h2c_port()) + "/"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  const JsonValue report = parse_report(run);
  EXPECT_GT(number_at(report, "errors.parse"), 0);
  EXPECT_TRUE(notes_mention(report, "HTTP/2 frames where an HTTP/1.1 status line belongs"))
      << run.out;
  EXPECT_TRUE(notes_mention(report, "add --http2")) << run.out;
}

TEST_F(Http2NginxTest, AnOpenLoopRunOverH2SendsEverySlot) {
  const Finished run = run_hammer({"--http2", "--streams", "4", "-c", "2", "-t", "1", "-r", "400",
                                   "-d", "2", "--json",
                                   "http://127.0.0.1:" + std::to_string(server().h2c_port()) + "/"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_clean(report);
  // Every slot is scheduled and either sent or counted unsent; on a quiet enough run, sent.
  // A machine that froze hammer (why_not_clean) leaves the slots due meanwhile unsent: the
  // run says so, and that is its true reading (one CI run on a loaded machine: 178 of 800).
  EXPECT_EQ(number_at(report, "requests.scheduled"), 800);
  EXPECT_EQ(number_at(report, "requests.sent") + number_at(report, "requests.unsent"), 800);
  const std::string not_clean = why_not_clean(report);
  if (not_clean.empty()) {
    EXPECT_EQ(number_at(report, "requests.completed"), 800);
  } else {
    std::cout << "not a clean run: " << not_clean << "; every slot sent is not judged\n";
  }
}

TEST_F(Http2NginxTest, TheFrameCountsLeaveTheWarmUpOut) {
  // Every answer carries the same body, so a clean run's body bytes per stream are its size.
  const std::string url = "http://127.0.0.1:" + std::to_string(server().h2c_port()) + "/";
  const Finished plain =
      run_hammer({"--http2", "--streams", "4", "-c", "2", "-t", "1", "-d", "1", "--json", url});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const JsonValue plain_report = parse_report(plain);
  expect_clean(plain_report);
  const double body = number_at(plain_report, "http2.data_bytes") /
                      number_at(plain_report, "requests.completed");
  ASSERT_GT(body, 0);
  const Finished warmed = run_hammer({"--http2", "--streams", "4", "-c", "2", "-t", "1", "-d",
                                      "1", "--warmup", "1", "--json", url});
  ASSERT_EQ(warmed.exit_code, 0) << warmed.err;
  const JsonValue report = parse_report(warmed);
  expect_clean(report);
  // The frames are cut by when they arrived, the requests by when they were sent: the two
  // differ by at most the streams open at the warm-up's end (2 connections x 4 streams).
  const double completed = number_at(report, "requests.completed");
  ASSERT_GT(completed, 100);
  EXPECT_NEAR(number_at(report, "http2.data_bytes") / body, completed, 8.0)
      << "the warm-up's " << number_at(report, "warmup.completed") << " streams counted too";
}

// A request body larger than a TLS record over h2: on io_uring the send that took the last
// of the ring completed quietly, its completion waiting for one more event while the server
// waited for the rest of the body (20 KB POSTs: 2 requests in 300 ms, then each stall ended
// by --timeout). nginx answers `return 200` before reading a body and resets the stream:
// every request is still answered, none times out.
TEST_F(Http2NginxTest, APostBodyLargerThanATlsRecordNeverStalls) {
  for (const size_t bytes : {size_t{20'000}, size_t{1'000'000}}) {
    const std::string body = private_directory() + "h2_post_" + std::to_string(bytes) + ".bin";
    std::ofstream(body) << std::string(bytes, 'x');
    const Finished run = run_hammer(
        {"--http2", "-c", "1", "-t", "1", "-n", "300", "--timeout", "2s", "-m", "POST", "--body",
         body, "--cacert", server().ca(), "--json",
         "https://127.0.0.1:" + std::to_string(server().h2_port()) + "/"},
        60);
    ASSERT_EQ(run.exit_code, 0) << bytes << ": " << run.err;
    const JsonValue report = parse_report(run);
    EXPECT_EQ(number_at(report, "requests.completed"), 300) << bytes;
    EXPECT_EQ(number_at(report, "errors.timeout"), 0) << bytes;
    EXPECT_EQ(number_at(report, "errors.tls"), 0) << bytes;
  }
}

TEST_F(Http2NginxTest, AServerThatDoesNotNegotiateH2IsOneLineError) {
  // The TLS port without http2: ALPN cannot choose h2, and hammer does not fall back.
  const Finished tls = run_hammer({"--http2", "-c", "2", "-d", "1", "--cacert", server().ca(),
                                   server().url()});
  EXPECT_NE(tls.exit_code, 0);
  EXPECT_NE(tls.err.find("HTTP/2"), std::string::npos) << tls.err;
  EXPECT_EQ(std::count(tls.err.begin(), tls.err.end(), '\n'), 1) << tls.err;
  // A certificate that does not verify is that, with no word about ALPN: the hint followed
  // every failed handshake of an --http2 run.
  // (The h2 port: on the other, nginx refuses the ALPN before it sends its certificate.)
  EXPECT_NE(tls.err.find("alert received: no application protocol (--http2 offers only h2 by "
                         "ALPN: the server does not speak HTTP/2)"),
            std::string::npos)
      << tls.err;
  const Finished untrusted = run_hammer(
      {"--http2", "-c", "2", "-d", "1",
       "https://127.0.0.1:" + std::to_string(server().h2_port()) + "/"});
  EXPECT_EQ(untrusted.exit_code, 2);
  EXPECT_NE(untrusted.err.find("certificate verify failed"), std::string::npos) << untrusted.err;
  EXPECT_EQ(untrusted.err.find("ALPN"), std::string::npos) << untrusted.err;
  // The plain port answers the preface as HTTP/1.1 does: with a 400.
  const Finished plain = run_hammer(
      {"--http2", "-c", "2", "-d", "1",
       "http://127.0.0.1:" + std::to_string(server().plain_port()) + "/"});
  EXPECT_NE(plain.exit_code, 0);
  EXPECT_NE(plain.err.find("cannot speak HTTP/2 to 127.0.0.1:"), std::string::npos) << plain.err;
  EXPECT_NE(plain.err.find("HTTP/1"), std::string::npos) << plain.err;
}

TEST(Http2NghttpdTest, AnH2cRunAgainstNghttpdIsClean) {
  constexpr const char* kNghttpd = "/usr/sbin/nghttpd";
  if (access(kNghttpd, X_OK) != 0) GTEST_SKIP() << kNghttpd << " is not installed (scripts/deps.sh)";
  const std::string dir = private_directory() + "nghttpd";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/index.html") << "hello\n";
  const int port = unused_port();
  ServerProcess server({"/bin/sh", "-c",
                        "echo listening on 127.0.0.1:" + std::to_string(port) + "; exec " +
                            kNghttpd + " --no-tls -a 127.0.0.1 -d " + dir + " " +
                            std::to_string(port)});
  ASSERT_TRUE(server.ready());
  for (int i = 0; i < 250 && !accepts_connections(port); ++i) usleep(20'000);
  const Finished run = run_hammer({"--http2", "--streams", "10", "-c", "4", "-t", "2", "-d", "1",
                                   "--json",
                                   "http://127.0.0.1:" + std::to_string(port) + "/index.html"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_clean(report);
  EXPECT_GT(number_at(report, "requests.completed"), 100);
}

// Debian's h2o (2.2): h2c with prior knowledge and h2 over TLS (certificates from the TLS
// fixture's CA, verified), its access log counting every stream.
TEST(Http2H2oTest, H2cAndH2RunsCountWhatH2oLogged) {
  constexpr const char* kH2o = "/usr/bin/h2o";
  if (access(kH2o, X_OK) != 0 || access(kOpenssl, X_OK) != 0) {
    GTEST_SKIP() << kH2o << " or " << kOpenssl << " is not installed (scripts/deps.sh)";
  }
  const TlsCertificates certificates;
  ASSERT_TRUE(certificates.ready());
  const std::string dir = certificates.dir();
  std::ofstream(dir + "/index.html") << "hello\n";
  const int plain = unused_port();
  const int tls = unused_port();
  std::ofstream(dir + "/h2o.conf")
      << "listen:\n  host: 127.0.0.1\n  port: " << plain << "\n"
      << "listen:\n  host: 127.0.0.1\n  port: " << tls << "\n  ssl:\n"
      << "    certificate-file: " << certificates.leaf_cert() << "\n"
      << "    key-file: " << certificates.leaf_key() << "\n"
      << "hosts:\n  \"127.0.0.1\":\n    paths:\n      /:\n        file.dir: " << dir << "\n"
      << "access-log: " << dir << "/access.log\nerror-log: " << dir << "/error.log\n"
      << "num-threads: 1\n"
      // Started as root (CI), h2o would switch to nobody, who cannot read the private directory.
      << (getuid() == 0 ? "user: root\n" : "");
  ServerProcess server({"/bin/sh", "-c",
                        "echo listening on 127.0.0.1:" + std::to_string(plain) + "; exec " + kH2o +
                            " -c " + dir + "/h2o.conf"});
  ASSERT_TRUE(server.ready());
  for (int i = 0; i < 250 && !(accepts_connections(plain) && accepts_connections(tls)); ++i) {
    usleep(20'000);
  }
  const std::string log = dir + "/access.log";
  int64_t before = log_line_count(log);
  const Finished h2c = run_hammer({"--http2", "--streams", "10", "-c", "4", "-t", "2", "-d", "1",
                                   "--json",
                                   "http://127.0.0.1:" + std::to_string(plain) + "/index.html"});
  ASSERT_EQ(h2c.exit_code, 0) << h2c.err << h2c.out << read_file(dir + "/error.log");
  const JsonValue h2c_report = parse_report(h2c);
  expect_clean(h2c_report);
  const auto h2c_completed = static_cast<int64_t>(number_at(h2c_report, "requests.completed"));
  EXPECT_EQ(h2c_completed, await_log_lines(log, before + h2c_completed) - before);
  before = log_line_count(log);
  const Finished h2 = run_hammer({"--http2", "--streams", "10", "-c", "4", "-t", "2", "-d", "1",
                                  "--cacert", certificates.ca(), "--json",
                                  "https://127.0.0.1:" + std::to_string(tls) + "/index.html"});
  ASSERT_EQ(h2.exit_code, 0) << h2.err;
  const JsonValue h2_report = parse_report(h2);
  expect_clean(h2_report);
  const auto h2_completed = static_cast<int64_t>(number_at(h2_report, "requests.completed"));
  EXPECT_EQ(h2_completed, await_log_lines(log, before + h2_completed) - before);
  EXPECT_EQ(h2_report.find("http2.protocol")->text, "h2");
}

// One hostile server per test, for the whole test.
class Http2HostileTest : public ::testing::Test {
 protected:
  std::unique_ptr<ServerProcess> start(std::vector<std::string> mode) {
    std::vector<std::string> argv = {python_binary(), h2_hostile_server_script(), "--port", "0",
                                     "--mode"};
    argv.insert(argv.end(), mode.begin(), mode.end());
    auto server = std::make_unique<ServerProcess>(argv);
    EXPECT_TRUE(server->ready());
    return server;
  }
  static JsonValue run_against(const ServerProcess& server, std::vector<std::string> args,
                               int* exit_code = nullptr, std::string* err = nullptr) {
    std::vector<std::string> argv = {"--http2", "--json", "--timeout", "1s"};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(server.url());
    const Finished run = run_hammer(argv, 30);
    if (exit_code != nullptr) *exit_code = run.exit_code;
    if (err != nullptr) *err = run.err;
    return parse_report(run);
  }
};

TEST_F(Http2HostileTest, GoawayMidRunFinishesItsStreamsAndResendsTheRest) {
  const auto server = start({"goaway-after", "--every", "100"});
  const JsonValue report = run_against(*server, {"--streams", "4", "-c", "2", "-t", "1", "-d", "2"});
  EXPECT_GT(number_at(report, "requests.completed"), 300) << "new connections after each GOAWAY";
  EXPECT_EQ(number_at(report, "errors.parse"), 0);
  EXPECT_GE(number_at(report, "http2.goaways"), 2);
}

// Every stream a GOAWAY leaves unprocessed is sent again, however many a connection had open:
// the resend queue had room for one per connection (-p's depth), and the rest failed (27 of
// -n 1000 with --streams 8, as nginx's keepalive_requests did to 7 of 3,000).
TEST_F(Http2HostileTest, AGoawayRefusingManyStreamsSendsEachAgain) {
  const auto server = start({"goaway-after", "--every", "100"});
  const JsonValue report =
      run_against(*server, {"--streams", "8", "-c", "1", "-t", "1", "-n", "1000"});
  EXPECT_EQ(number_at(report, "requests.sent"), 1000);
  EXPECT_EQ(number_at(report, "requests.completed"), 1000);
  EXPECT_EQ(number_at(report, "errors.read"), 0);
  EXPECT_GT(number_at(report, "requests.retried"), 0);
  EXPECT_GE(number_at(report, "http2.goaways"), 2);
}

// A refused stream was never processed (RFC 9113 8.7): a POST goes again too, and more than
// once. Sent once and then failed (POSTs not at all), a healthy nginx's connection recycling
// read as failed requests. REFUSED_STREAM resets are counted as resets too.
TEST_F(Http2HostileTest, RefusedStreamsOfAnyMethodGoAgainAndTheirResetsAreCounted) {
  const std::string body = private_directory() + "h2_refused_body.txt";
  std::ofstream(body) << "x";
  const auto goaway = start({"goaway-after", "--every", "100"});
  const JsonValue posts = run_against(
      *goaway, {"--streams", "8", "-c", "1", "-t", "1", "-n", "1000", "-m", "POST", "--body", body});
  EXPECT_EQ(number_at(posts, "requests.completed"), 1000);
  EXPECT_EQ(number_at(posts, "errors.read"), 0);
  EXPECT_EQ(number_at(posts, "requests.not_retried"), 0);
  EXPECT_GT(number_at(posts, "requests.retried"), 0);
  const auto refusing = start({"rst-every", "--every", "10", "--rst-code", "refused"});
  const JsonValue reset = run_against(*refusing, {"--streams", "4", "-c", "2", "-t", "1", "-d", "1"});
  EXPECT_GT(number_at(reset, "http2.refused"), 0);
  EXPECT_EQ(number_at(reset, "http2.resets_received.refused_stream"), number_at(reset, "http2.refused"));
  EXPECT_EQ(number_at(reset, "errors.read"), 0);
}

TEST_F(Http2HostileTest, EveryTenthStreamResetIsAReadErrorOfItsOwn) {
  const auto server = start({"rst-every", "--every", "10"});
  const JsonValue report = run_against(*server, {"--streams", "4", "-c", "2", "-t", "1", "-d", "1"});
  const double completed = number_at(report, "requests.completed");
  const double reset = number_at(report, "errors.read");
  ASSERT_GT(completed, 100);
  // 1 in 10 streams, whatever the rate: between 5% and 15% of the streams that ended.
  EXPECT_GT(reset / (reset + completed), 0.05);
  EXPECT_LT(reset / (reset + completed), 0.15);
  EXPECT_EQ(number_at(report, "errors.parse"), 0);
  EXPECT_EQ(number_at(report, "http2.resets_received.internal_error"), reset);
}

TEST_F(Http2HostileTest, TheResetsOfTheWarmUpAreItsOwn) {
  const auto server = start({"rst-every", "--every", "10"});
  const JsonValue report = run_against(
      *server, {"--streams", "4", "-c", "2", "-t", "1", "-d", "1", "--warmup", "1"});
  ASSERT_GT(number_at(report, "requests.completed"), 100);
  ASSERT_GT(number_at(report, "warmup.errors.read"), 0);
  // Counted by the stream's phase, as the read errors they are.
  EXPECT_EQ(number_at(report, "http2.resets_received.internal_error"),
            number_at(report, "errors.read"));
}

TEST_F(Http2HostileTest, AServerAllowingOneStreamIsNeverSentTwo) {
  const auto server = start({"max-streams-1"});
  const JsonValue report = run_against(*server, {"--streams", "10", "-c", "2", "-t", "1", "-d", "1"});
  expect_clean(report);
  EXPECT_GT(number_at(report, "requests.completed"), 20);
  EXPECT_EQ(number_at(report, "http2.server_max_streams"), 1);
}

TEST_F(Http2HostileTest, AZeroWindowThatNeverOpensTimesTheBodiesOut) {
  const auto server = start({"zero-window"});
  const std::string body = private_directory() + "h2_body.txt";
  std::ofstream(body) << "0123456789";
  const JsonValue report =
      run_against(*server, {"-m", "POST", "--body", body, "-c", "1", "-t", "1", "-d", "1",
                            "--timeout", "300ms"});
  EXPECT_EQ(number_at(report, "requests.completed"), 0);
  EXPECT_GT(number_at(report, "errors.timeout"), 0);
  EXPECT_EQ(number_at(report, "errors.parse"), 0);
}

TEST_F(Http2HostileTest, AContinuationFloodAndAHugeHeaderBlockAreCountedParseErrors) {
  for (const char* mode : {"continuation-flood", "huge-headers"}) {
    const auto server = start({mode});
    const JsonValue report = run_against(*server, {"-c", "2", "-t", "1", "-d", "1"});
    EXPECT_EQ(number_at(report, "requests.completed"), 0) << mode;
    EXPECT_GT(number_at(report, "errors.parse"), 0) << mode;
    EXPECT_GT(number_at(report, "http2.session_errors"), 0) << mode;
  }
}

TEST_F(Http2HostileTest, APingFloodIsAnsweredOrEndedNeverACrash) {
  const auto server = start({"ping-flood"});
  int exit_code = -1;
  const JsonValue report =
      run_against(*server, {"--streams", "2", "-c", "2", "-t", "1", "-d", "1"}, &exit_code);
  EXPECT_EQ(exit_code, 0);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  EXPECT_GT(number_at(report, "http2.pings_answered") + number_at(report, "http2.session_errors"), 0);
}

// The coordinated-omission truth over HTTP/2 (issue 26): 2,000 req/s against a server that
// stalls 200 ms every 3,000 responses, 10 streams on each of 4 connections. A stall holds all
// 40 streams; the slots due in it wait for one, and the corrected percentiles follow the
// formula as over HTTP/1.1 (open_loop_test.cc), with the same margin (25% plus the run's own
// uncorrected p99: a busy machine's noise, measured in the same run) and one retry.
TEST_F(Http2HostileTest, ThePausingServersCorrectedPercentilesFollowTheFormula) {
  constexpr double kRate = 2000, kSeconds = 6, kPauseMs = 200, kEvery = 3000;
  const double expected_p99 = expected_corrected_ms(0.99, kPauseMs, kEvery, kRate, kSeconds);
  for (int attempt = 1;; ++attempt) {
    const auto server = start({"pause", "--every", "3000", "--pause-ms", "200"});
    const JsonValue report =
        run_against(*server, {"--streams", "10", "-c", "4", "-t", "2", "-r", "2000", "-d", "6",
                              "--timeout", "2s"});
    EXPECT_EQ(number_at(report, "requests.scheduled"), kRate * kSeconds);
    EXPECT_EQ(number_at(report, "errors.timeout"), 0);
    EXPECT_EQ(number_at(report, "errors.read") + number_at(report, "errors.parse"), 0);
    const double corrected_p99 = number_at(report, "latency.corrected.percentiles_ns.99") / 1e6;
    const double corrected_p90 = number_at(report, "latency.corrected.percentiles_ns.90") / 1e6;
    const double uncorrected_p90 = number_at(report, "latency.uncorrected.percentiles_ns.90") / 1e6;
    const double uncorrected_p99 = number_at(report, "latency.uncorrected.percentiles_ns.99") / 1e6;
    const double margin = 0.25 * expected_p99 + uncorrected_p99;
    const bool omission_shown = corrected_p90 > 5 * uncorrected_p90;
    const std::string reading = "corrected p99 " + std::to_string(corrected_p99) +
                                " ms, expected " + std::to_string(expected_p99) + " +- " +
                                std::to_string(margin) + " ms; corrected p90 " +
                                std::to_string(corrected_p90) + " ms, uncorrected " +
                                std::to_string(uncorrected_p90) + " ms";
    if (omission_shown && std::abs(corrected_p99 - expected_p99) <= margin) break;
    if (attempt == 2) {
      ADD_FAILURE() << reading << ", on both attempts";
      break;
    }
    std::cout << "retrying once: " << reading << "\n";
  }
}

TEST_F(Http2HostileTest, AnHttp1AnswerToThePrefaceIsOneLineError) {
  const auto server = start({"h1"});
  const Finished run = run_hammer({"--http2", "-c", "2", "-d", "1", server->url()});
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("the server answered the HTTP/2 preface with HTTP/1.x"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace hammer::test
