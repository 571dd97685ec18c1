// SPDX-License-Identifier: MIT
// https:// against a real server: Debian's nginx (nginx-light, scripts/deps.sh) serving TLS
// 1.2 and 1.3 with a leaf certificate for 127.0.0.1 and localhost (subjectAltName, not CN)
// signed by a CA that `openssl` makes at test time. The checks are counts and words inside one
// run (exact totals, handshake kinds, one-line errors), never speed. Run under each engine
// (HAMMER_ENGINE=io_uring, epoll) like the rest of the suite.
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>

#include "e2e/e2e.h"
#include "e2e/nginx_tls_suite.h"
#include "support/nginx_tls.h"
#include "support/openssl_server.h"

namespace hammer::test {
namespace {

class TlsTest : public NginxTlsSuite<TlsTest> {
 public:
  static TlsServerOptions server_options() { return {}; }

 protected:
  static std::string text_at(const JsonValue& report, const std::string& path) {
    const JsonValue* value = report.find(path);
    EXPECT_NE(value, nullptr) << "missing " << path;
    return value == nullptr ? std::string() : value->text;
  }

};

// The one line of a run that cannot start, and its exit status.
void expect_refused(const Finished& run, const std::string& line) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err, "hammer: " + line + "\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST_F(TlsTest, ClosedLoopCountsAreExactWithOneFullHandshakePerConnection) {
  const Finished run = run_hammer({"-c", "4", "-t", "2", "-d", "1", "--json", "--cacert",
                                   server().ca(), server().url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  const double completed = number_at(report, "requests.completed");
  EXPECT_GT(completed, 0);
  EXPECT_EQ(completed, number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "status.2xx"), completed);
  EXPECT_EQ(number_at(report, "tls.handshakes.full"), 4);
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), 0);
  EXPECT_EQ(number_at(report, "tls.handshakes.failed"), 0);
  EXPECT_EQ(number_at(report, "tls.handshake_time.count"), 4);
  EXPECT_EQ(number_at(report, "connect.count"), 4);
  EXPECT_EQ(text_at(report, "tls.version"), "1.3");
  EXPECT_EQ(text_at(report, "tls.alpn"), "http/1.1");
  EXPECT_FALSE(text_at(report, "tls.cipher").empty());
  const JsonValue* verify = report.find("tls.verify");
  ASSERT_NE(verify, nullptr);
  EXPECT_EQ(verify->kind, JsonValue::Kind::boolean);
  EXPECT_TRUE(verify->boolean);
}

TEST_F(TlsTest, OpenLoopSendsEverySlotAndAnswersEachOne) {
  const Finished run = run_hammer({"-c", "4", "-t", "1", "-r", "200", "-d", "2", "--json",
                                   "--cacert", server().ca(), server().url("/", "localhost")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 400);
  EXPECT_EQ(number_at(report, "requests.sent") + number_at(report, "requests.unsent"), 400);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "latency.corrected.count"), number_at(report, "requests.completed"));
}

TEST_F(TlsTest, PipelinedAndRequestsFileRunsAnswerEveryRequest) {
  const Finished pipelined = run_hammer({"-c", "2", "-t", "1", "-p", "8", "-d", "1", "--json",
                                         "--cacert", server().ca(), server().url()});
  ASSERT_EQ(pipelined.exit_code, 0) << pipelined.err;
  JsonValue report = parse_report(pipelined);
  expect_no_errors_over_tls(report);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));

  char pattern[] = "/tmp/hammer-tls-requests-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string file = std::string(pattern) + "/requests.jsonl";
  std::ofstream(file) << "{\"path\": \"/\"}\n{\"method\": \"POST\", \"path\": \"/\", "
                         "\"body\": \"abc\"}\n";
  const Finished lines = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--requests",
                                     file, "--cacert", server().ca(), server().url()});
  std::remove(file.c_str());
  rmdir(pattern);
  ASSERT_EQ(lines.exit_code, 0) << lines.err;
  report = parse_report(lines);
  expect_no_errors_over_tls(report);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));
}

TEST_F(TlsTest, ReconnectsAfterConnectionCloseResumeTheirSessions) {
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert",
                                   server().ca(), server().url("/close")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  const double completed = number_at(report, "requests.completed");
  EXPECT_EQ(completed, number_at(report, "requests.sent"));
  const double full = number_at(report, "tls.handshakes.full");
  const double resumed = number_at(report, "tls.handshakes.resumed");
  EXPECT_EQ(full, 2);  // each connection's first; every reconnect offers its last session
  EXPECT_GT(resumed, 0);
  // One handshake per request, and perhaps one more begun as the run ended.
  EXPECT_GE(full + resumed, completed);
  EXPECT_LE(full + resumed, completed + 2);
}

TEST_F(TlsTest, NoKeepaliveWithResumeOffMakesFullHandshakesOnly) {
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--no-keepalive",
                                   "--tls-resume", "off", "--cacert", server().ca(),
                                   server().url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  EXPECT_GT(number_at(report, "requests.completed"), 1);
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), 0);
  EXPECT_GE(number_at(report, "tls.handshakes.full"), number_at(report, "requests.completed"));
}

TEST_F(TlsTest, TheTextReportShowsTheTlsLinesAndTheHandshakeApartFromConnect) {
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "-k", server().url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\nTLS            1.3 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(", ALPN http/1.1; 2 handshakes: 2 full, 0 resumed\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\nHandshake      p50 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nConnect        p50 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nTLS            certificates not verified (-k)"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(", parse 0, tls 0\n"), std::string::npos) << run.out;
}

TEST_F(TlsTest, AnUnknownCaWithoutCacertIsOneLineAndExit2AndInsecureRuns) {
  const std::string where = "127.0.0.1:" + std::to_string(server().tls_port());
  expect_refused(run_hammer({"-c", "2", "-d", "1", server().url()}),
                 "cannot connect to " + where +
                     ": TLS handshake failed: certificate verify failed: unable to get local "
                     "issuer certificate (trust its CA with --cacert FILE, or skip "
                     "verification with -k)");
  const std::string self = "https://127.0.0.1:" + std::to_string(server().self_signed_port()) + "/";
  expect_refused(run_hammer({"-c", "2", "-d", "1", "--cacert", server().ca(), self}),
                 "cannot connect to 127.0.0.1:" + std::to_string(server().self_signed_port()) +
                     ": TLS handshake failed: certificate verify failed: self-signed certificate"
                     " (trust its CA with --cacert FILE, or skip verification with -k)");
  const Finished insecure = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "-k", self});
  ASSERT_EQ(insecure.exit_code, 0) << insecure.err;
  const JsonValue report = parse_report(insecure);
  expect_no_errors_over_tls(report);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  const JsonValue* verify = report.find("tls.verify");
  ASSERT_NE(verify, nullptr);
  EXPECT_FALSE(verify->boolean);
}

TEST_F(TlsTest, AWrongHostNameFailsWithHostnameMismatch) {
  expect_refused(run_hammer({"-c", "1", "-d", "1", "--cacert", server().ca(), "-H",
                             "Host: wrong.example", server().url()}),
                 "cannot connect to 127.0.0.1:" + std::to_string(server().tls_port()) +
                     ": TLS handshake failed: certificate verify failed: hostname mismatch (the "
                     "certificate is not for 'wrong.example')");
}

TEST_F(TlsTest, APlainHttpPortGivenHttpsFailsInOneLine) {
  const std::string where = "127.0.0.1:" + std::to_string(server().plain_port());
  expect_refused(run_hammer({"-c", "1", "-d", "1", "https://" + where + "/"}),
                 "cannot connect to " + where +
                     ": TLS handshake failed: wrong version number (is the server speaking TLS "
                     "on this port?)");
}

TEST_F(TlsTest, VersionBoundsChooseTheVersionOrFailInOneLine) {
  const Finished capped = run_hammer({"-c", "1", "-t", "1", "-d", "1", "--json", "--tls-max",
                                      "1.2", "--cacert", server().ca(), server().url()});
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  const JsonValue report = parse_report(capped);
  expect_no_errors_over_tls(report);
  EXPECT_EQ(text_at(report, "tls.version"), "1.2");

  const Finished refused =
      run_hammer({"-c", "1", "-d", "1", "--tls-min", "1.3", "--cacert", server().ca(),
                  "https://127.0.0.1:" + std::to_string(server().old_tls_port()) + "/"});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_EQ(refused.err.find("hammer: cannot connect to 127.0.0.1:" +
                             std::to_string(server().old_tls_port()) + ": TLS handshake failed: "),
            0u)
      << refused.err;
  EXPECT_EQ(refused.err.find('\n'), refused.err.size() - 1) << refused.err;
}

// A server that ends each connection with a bare TCP close (no close_notify) after its
// answer: after a complete response that is no error (reconnects resume), after a truncated
// one it is (a read error, as for plain HTTP).
TEST_F(TlsTest, ABareCloseAfterACompleteResponseIsNoErrorAndATruncatedOneIs) {
  const std::string script = tls_hostile_server_script();
  for (const std::string mode : {"complete", "truncated"}) {
    ServerProcess bare({python_binary(), script, "--port", "0", "--cert", server().leaf_cert(),
                        "--key", server().leaf_key(), "--mode", mode});
    ASSERT_TRUE(bare.ready()) << mode;
    const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert",
                                     server().ca(),
                                     "https://127.0.0.1:" + std::to_string(bare.port()) + "/"});
    const JsonValue report = parse_report(run);
    EXPECT_EQ(number_at(report, "errors.tls"), 0) << mode;
    EXPECT_EQ(number_at(report, "errors.timeout"), 0) << mode;
    const double sent = number_at(report, "requests.sent");
    EXPECT_GT(sent, 2) << mode;
    EXPECT_GT(number_at(report, "tls.handshakes.resumed"), 0) << mode;
    if (mode == "complete") {
      EXPECT_EQ(run.exit_code, 0) << run.err;
      EXPECT_EQ(number_at(report, "errors.read"), 0);
      EXPECT_EQ(number_at(report, "requests.completed"), sent);
    } else {
      EXPECT_EQ(number_at(report, "requests.completed"), 0);
      EXPECT_EQ(number_at(report, "errors.read"), sent);
    }
  }
}

// Answers cut into one TLS record per byte (62 records) are read whole, however the engine's
// reads split them.
TEST_F(TlsTest, AnAnswerInOneByteRecordsIsReadInFull) {
  ServerProcess drip({python_binary(), tls_hostile_server_script(), "--port", "0", "--cert",
                      server().leaf_cert(), "--key", server().leaf_key(), "--mode",
                      "one-byte-records"});
  ASSERT_TRUE(drip.ready());
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert",
                                   server().ca(),
                                   "https://127.0.0.1:" + std::to_string(drip.port()) + "/"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  const double sent = number_at(report, "requests.sent");
  EXPECT_GT(sent, 2);
  EXPECT_EQ(number_at(report, "requests.completed"), sent);
  EXPECT_EQ(number_at(report, "status.2xx"), sent);
}

// A response broken off mid-body by a close_notify alert, or by a record that cannot be
// decrypted, is a read error for its request (not a clean end, not a handshake failure), the
// run says it did not work, and the first error's reason is in words.
TEST_F(TlsTest, ACloseNotifyOrACorruptRecordMidBodyIsAReadError) {
  for (const std::string mode : {"close-notify-mid-body", "corrupt-record"}) {
    ServerProcess hostile({python_binary(), tls_hostile_server_script(), "--port", "0", "--cert",
                           server().leaf_cert(), "--key", server().leaf_key(), "--mode", mode});
    ASSERT_TRUE(hostile.ready()) << mode;
    const std::string url = "https://127.0.0.1:" + std::to_string(hostile.port()) + "/";
    const Finished run =
        run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert", server().ca(), url});
    EXPECT_EQ(run.exit_code, 2) << mode << run.err;
    const JsonValue report = parse_report(run);
    const double sent = number_at(report, "requests.sent");
    EXPECT_GT(sent, 2) << mode;
    EXPECT_EQ(number_at(report, "requests.completed"), 0) << mode;
    EXPECT_EQ(number_at(report, "errors.read"), sent) << mode;
    EXPECT_EQ(number_at(report, "errors.tls"), 0) << mode;
    EXPECT_EQ(number_at(report, "errors.timeout"), 0) << mode;
    EXPECT_EQ(number_at(report, "tls.handshakes.failed"), 0) << mode;
  }
  ServerProcess corrupt({python_binary(), tls_hostile_server_script(), "--port", "0", "--cert",
                         server().leaf_cert(), "--key", server().leaf_key(), "--mode",
                         "corrupt-record"});
  ASSERT_TRUE(corrupt.ready());
  const Finished text = run_hammer({"-c", "1", "-t", "1", "-d", "0.5", "--cacert", server().ca(),
                                    "https://127.0.0.1:" + std::to_string(corrupt.port()) + "/"});
  EXPECT_NE(text.out.find("note: first socket error: read: TLS: decryption failed or bad record "
                          "mac\n"),
            std::string::npos)
      << text.out;
}

// Servers that go back into the handshake mid-stream (tools/tls_rekey_server.cc). A TLS 1.3
// KeyUpdate asking for the client's own before every answer: every request is answered. A
// TLS 1.2 HelloRequest before every answer: hammer refuses renegotiation (a warning the server
// reads as fatal at the next request), so each connection's first request is answered and its
// second fails as a read error naming the server's alert; nothing hangs (no timeouts).
TEST_F(TlsTest, AKeyUpdateIsFollowedAndARenegotiationRefusedOneRequestAtATime) {
  ServerProcess key_update({HAMMER_TLS_REKEY_SERVER, "--port", "0", "--cert",
                            server().leaf_cert(), "--key", server().leaf_key(), "--mode",
                            "key-update"});
  ASSERT_TRUE(key_update.ready());
  Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert", server().ca(),
                             "https://127.0.0.1:" + std::to_string(key_update.port()) + "/"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  EXPECT_GT(number_at(report, "requests.completed"), 2);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "tls.handshakes.full"), 2);

  ServerProcess renegotiate({HAMMER_TLS_REKEY_SERVER, "--port", "0", "--cert",
                             server().leaf_cert(), "--key", server().leaf_key(), "--mode",
                             "renegotiate"});
  ASSERT_TRUE(renegotiate.ready());
  const std::string url = "https://127.0.0.1:" + std::to_string(renegotiate.port()) + "/";
  run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert", server().ca(), url});
  report = parse_report(run);
  const double completed = number_at(report, "requests.completed");
  const double failed = number_at(report, "errors.read");
  EXPECT_GT(completed, 2);
  EXPECT_EQ(completed + failed, number_at(report, "requests.sent"));
  // One answered and one failed per connection; the last two connections may end mid-pair.
  EXPECT_LE(std::abs(completed - failed), 2) << completed << " answered, " << failed << " failed";
  EXPECT_EQ(number_at(report, "errors.timeout"), 0);
  EXPECT_EQ(number_at(report, "errors.tls"), 0);
  // A connection per answer, never resumed: the fatal alert drops the session.
  EXPECT_GE(number_at(report, "tls.handshakes.full"), completed);
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), 0);
  const Finished text = run_hammer({"-c", "1", "-t", "1", "-d", "0.5", "--cacert", server().ca(),
                                    url});
  EXPECT_NE(text.out.find("note: first socket error: read: TLS: alert received: handshake "
                          "failure (after the server asked to renegotiate, which hammer "
                          "refuses)\n"),
            std::string::npos)
      << text.out;
}

// A request that gets no answer over TLS times out as over plain HTTP: a timeout, not a TLS
// failure, and its connection is replaced (its session resumed).
TEST_F(TlsTest, ARequestWithNoAnswerTimesOut) {
  ServerProcess silent({python_binary(), tls_hostile_server_script(), "--port", "0", "--cert",
                        server().leaf_cert(), "--key", server().leaf_key(), "--mode", "silent"});
  ASSERT_TRUE(silent.ready());
  const Finished run = run_hammer({"-c", "1", "-t", "1", "-d", "1", "--timeout", "200", "--json",
                                   "--cacert", server().ca(),
                                   "https://127.0.0.1:" + std::to_string(silent.port()) + "/"});
  const JsonValue report = parse_report(run);
  EXPECT_EQ(number_at(report, "requests.completed"), 0);
  EXPECT_EQ(number_at(report, "errors.tls"), 0);
  EXPECT_EQ(number_at(report, "errors.read"), 0);
  const double timeouts = number_at(report, "errors.timeout");
  EXPECT_GE(timeouts, 2);  // 200 ms each in a 1 s run, and the last one's wait after it
  EXPECT_EQ(timeouts, number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "tls.handshakes.full"), 1);
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), timeouts - 1);
}

// Servers that never finish a handshake: one that never answers (the handshake's deadline is
// --timeout) and one that closes on the ClientHello. Neither needs nginx.
TEST(TlsHandshakeTest, AHandshakeThatNeverFinishesTimesOutInOneLine) {
  ServerProcess silent({HAMMER_HOSTILE_SERVER, "--port", "0", "--mode", "never-read"});
  ASSERT_TRUE(silent.ready());
  const std::string where = "127.0.0.1:" + std::to_string(silent.port());
  const Finished run =
      run_hammer({"-c", "2", "-d", "1", "--timeout", "300", "-k", "https://" + where + "/"});
  expect_refused(run, "cannot connect to " + where +
                          ": TLS handshake failed: handshake timeout: the handshake did not "
                          "finish within --timeout 300ms");
  EXPECT_LT(run.wall_s, 10);

  ServerProcess closing({HAMMER_HOSTILE_SERVER, "--port", "0", "--mode", "close-silent"});
  ASSERT_TRUE(closing.ready());
  const std::string closed_where = "127.0.0.1:" + std::to_string(closing.port());
  const Finished closed = run_hammer({"-c", "2", "-d", "1", "-k", "https://" + closed_where + "/"});
  EXPECT_EQ(closed.exit_code, 2) << closed.err;
  EXPECT_EQ(closed.err.find("hammer: cannot connect to " + closed_where +
                            ": TLS handshake failed: "),
            0u)
      << closed.err;
  EXPECT_EQ(closed.err.find('\n'), closed.err.size() - 1) << closed.err;
}

// A sweep of a plain-HTTP service may compare it with an https --control URL: the control's
// runs take the run's TLS flags (--cacert here) and each level's control run completes over
// TLS, with no errors.
TEST_F(TlsTest, AnHttpsControlUrlRunsEachLevelOverTls) {
  const std::string plain = "http://127.0.0.1:" + std::to_string(server().plain_port()) + "/";
  const Finished run = run_hammer({"-c", "1,2", "-d", "0.5", "--json", "--cacert", server().ca(),
                                   "--control", server().url(), plain},
                                  30);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const JsonValue* control = report.find("sweep.control.steps");
  ASSERT_NE(control, nullptr) << run.out;
  ASSERT_EQ(control->items.size(), 2u);
  for (const JsonValue& step : control->items) {
    // Plain HTTP to nginx's TLS port would be answered 400 (or not at all): every control
    // answer counted here came back over TLS.
    EXPECT_GT(number_at(step, "requests.completed"), 0) << run.out;
    EXPECT_EQ(number_at(step, "errors"), 0) << run.out;
    EXPECT_EQ(number_at(step, "non_2xx_3xx"), 0) << run.out;
  }
  const JsonValue* steps = report.find("sweep.steps");
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(steps->items.size(), 2u);
  for (const JsonValue& step : steps->items) {
    EXPECT_GT(number_at(step, "control_per_second"), 0) << run.out;
  }
}

TEST_F(TlsTest, CtrlCEndsAnHttpsRunWithItsReport) {
  const Finished run = run_process({hammer_binary(), "-c", "2", "-t", "1", "-d", "20", "--json",
                                    "--cacert", server().ca(), server().url()},
                                   30, SIGINT, 1.0);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  ASSERT_NO_FATAL_FAILURE(expect_interrupted(report));
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  EXPECT_LT(run.wall_s, 15);
}

// openssl s_server serves one connection at a time: of two, one finishes its handshake and the
// other waits for the first to end, which it never does before the run starts. That handshake
// times out after --timeout, the run then starts with one connection, and says both: how long
// the connects held the start, and the handshake that did not finish, with its bound.
TEST_F(TlsTest, AHandshakeThatHeldTheStartIsSaidWithItsTimeout) {
  const OpensslServer serial(server().certificates(), {});
  ASSERT_TRUE(serial.ready());
  const Finished run = run_hammer({"-c", "2", "-t", "2", "-d", "0.5", "--timeout", "1200ms",
                                   "--cacert", server().ca(), serial.url()},
                                  30);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("1 handshake failed, handshake timeout: the handshake did not finish "
                         "within --timeout 1200ms\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\nnote: the connects held the start for "), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("may take --timeout 1.20s): the figures begin after them\n"),
            std::string::npos)
      << run.out;
}

// openssl s_server serves one connection at a time: of two, one finishes its handshake and
// the other waits for the first to end, so the run waits at its start (up to --timeout for the
// handshake). Ctrl-C then ends it before its measured part: nothing sent, exit 2, said so. The
// connection that was ready used to send its first request before it saw the signal, and a
// report of one request in 0.9 ms, 1,097 req/s, exited 0.
TEST_F(TlsTest, CtrlCWhileAHandshakeWaitsMeasuresNothing) {
  const OpensslServer serial(server().certificates(), {});
  ASSERT_TRUE(serial.ready());
  const Finished run = run_process({hammer_binary(), "-c", "2", "-t", "2", "-d", "5", "--json",
                                    "--timeout", "20s", "--cacert", server().ca(), serial.url()},
                                   30, SIGINT, 1.0);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  const JsonValue report = parse_report(run);
  ASSERT_NO_FATAL_FAILURE(expect_interrupted(report));
  EXPECT_EQ(number_at(report, "requests.sent"), 0);
  EXPECT_EQ(number_at(report, "requests.completed"), 0);
  EXPECT_EQ(number_at(report, "tls.handshakes.full"), 1);
  ASSERT_NO_FATAL_FAILURE(expect_first_verdict(report, "interrupted_before_measuring"));
  EXPECT_LT(run.wall_s, 15) << "waited for the handshake's --timeout";
}

}  // namespace
}  // namespace hammer::test
