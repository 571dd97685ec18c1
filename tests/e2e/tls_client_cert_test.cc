// SPDX-License-Identifier: MIT
// Client certificates (mTLS): --cert/--key against nginx with `ssl_verify_client on` and the
// test CA, and against `openssl s_server -Verify`, which ends the handshake itself when no
// certificate comes. Bad pairs are refused before the run in one line naming the flag. Run
// under each engine (HAMMER_ENGINE=io_uring, epoll) like the rest of the suite.
#include <unistd.h>

#include <string>
#include <vector>

#include "e2e/e2e.h"
#include "e2e/nginx_tls_suite.h"
#include "support/nginx_tls.h"
#include "support/openssl_server.h"

namespace hammer::test {
namespace {

class TlsClientCertTest : public NginxTlsSuite<TlsClientCertTest> {
 public:
  static TlsServerOptions server_options() { return {.client_certificates = true}; }

 protected:
  static std::string mtls_url() {
    return "https://127.0.0.1:" + std::to_string(server().mtls_port()) + "/";
  }
  static std::vector<std::string> client_pair() {
    return {"--cert", server().client_cert(), "--key", server().client_key()};
  }

  // hammer -c 1 -t 1 -d 0.5 --cacert CA [flags] URL.
  static Finished short_run(std::vector<std::string> flags, const std::string& url) {
    std::vector<std::string> args = {"-c", "1", "-t", "1", "-d", "0.5", "--cacert", server().ca()};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(url);
    return run_hammer(args);
  }

  // The --json report of `run`, which saw no error and had every request it completed
  // answered with a status of `status_class` ("2xx", "4xx").
  static JsonValue answered_report(const Finished& run, const std::string& status_class) {
    const JsonValue report = parse_report(run);
    expect_no_errors_over_tls(report);
    const double completed = number_at(report, "requests.completed");
    EXPECT_GT(completed, 0);
    EXPECT_EQ(number_at(report, std::string("status.") + status_class), completed);
    return report;
  }
};

TEST_F(TlsClientCertTest, NginxAnswersWhenTheClientCertificateIsPresented) {
  std::vector<std::string> flags = client_pair();
  flags.push_back("--json");
  const Finished run = short_run(flags, mtls_url());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = answered_report(run, "2xx");
  EXPECT_EQ(number_at(report, "tls.handshakes.full"), 1);
  EXPECT_EQ(number_at(report, "tls.handshakes.failed"), 0);
}

// nginx completes the handshake without a certificate (or with one it cannot verify) and
// answers 400 after it: a run of error statuses, which hammer says did not work (exit 2).
TEST_F(TlsClientCertTest, NginxAnswers400WithoutAClientCertificateAndTheRunSaysItDidNotWork) {
  const std::vector<std::vector<std::string>> cases = {
      {}, {"--cert", server().certificates().self_cert(), "--key",
           server().certificates().self_key()}};
  for (const std::vector<std::string>& flags : cases) {
    std::vector<std::string> json = flags;
    json.push_back("--json");
    const Finished run = short_run(json, mtls_url());
    EXPECT_EQ(run.exit_code, 2) << run.err;
    answered_report(run, "4xx");

    const Finished text = short_run(flags, mtls_url());
    EXPECT_EQ(text.exit_code, 2) << text.err;
    EXPECT_NE(text.out.find("\nthe run did not work: the server answered "), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find(" requests with an error status (400 "), std::string::npos)
        << text.out;
  }
}

// s_server -Verify 1 -verify_return_error ends the handshake when the client presents no
// certificate, or one its CA did not sign. Under TLS 1.2 the client is still in its handshake
// then: a `tls` failure, in one line, exit 2. Under TLS 1.3 the client's handshake is complete
// when it sends its Finished (RFC 8446 §4.4.4), so the server's alert (certificate_required,
// RFC 8446 §4.4.2.4) comes with the first read: the request fails as a read error, the
// alert named in the first socket error, and the run says it did not work (exit 2).
TEST_F(TlsClientCertTest, SServerRefusesAMissingCertificateInTheHandshake) {
  const std::vector<std::string> verify = {"-Verify", "1", "-verify_return_error", "-CAfile",
                                           server().ca()};
  std::vector<std::string> tls12 = {"-tls1_2"};
  tls12.insert(tls12.end(), verify.begin(), verify.end());
  const OpensslServer s12(server().certificates(), tls12);
  ASSERT_TRUE(s12.ready());
  const Finished refused = short_run({}, s12.url());
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  // The alert alone read as a cipher problem; the line says what a TLS 1.2 server that
  // wants a client certificate answers (none was given).
  EXPECT_EQ(refused.err, "hammer: cannot connect to " + s12.where() +
                             ": TLS handshake failed: alert received: handshake failure (a TLS "
                             "1.2 server that requires a client certificate ends a handshake "
                             "without one so: if it does, give --cert FILE --key FILE)\n");
  EXPECT_TRUE(refused.out.empty()) << refused.out;
  std::vector<std::string> with_pair = client_pair();
  with_pair.push_back("--json");
  Finished run = short_run(with_pair, s12.url());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  JsonValue report = parse_report(run);
  expect_no_errors_over_tls(report);
  EXPECT_GT(number_at(report, "requests.completed"), 0);

  std::vector<std::string> tls13 = {"-tls1_3"};
  tls13.insert(tls13.end(), verify.begin(), verify.end());
  const OpensslServer s13(server().certificates(), tls13);
  ASSERT_TRUE(s13.ready());
  const Finished late = short_run({"--json"}, s13.url());
  EXPECT_EQ(late.exit_code, 2) << late.err;
  report = parse_report(late);
  EXPECT_EQ(number_at(report, "requests.completed"), 0);
  EXPECT_GT(number_at(report, "requests.sent"), 0);
  EXPECT_EQ(number_at(report, "errors.read"), number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), 0);  // a fatal alert drops the session
  EXPECT_EQ(number_at(report, "tls.client_certificate_refused"),
            number_at(report, "errors.read"));
  const Finished late_text = short_run({}, s13.url());
  EXPECT_NE(late_text.out.find("first socket error: read: TLS: alert received: certificate "
                               "required\n"),
            std::string::npos)
      << late_text.out;
  EXPECT_NE(late_text.out.find(" for want of a client certificate: it asks for one (mTLS); "
                               "give --cert FILE --key FILE\n"),
            std::string::npos)
      << late_text.out;
  run = short_run(with_pair, s13.url());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  report = parse_report(run);
  expect_no_errors_over_tls(report);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
}

// A pair that is not one, or a file that is not what its flag says: refused before the run,
// in one line that names the flag (exit 1, as every bad option).
TEST_F(TlsClientCertTest, ABadCertificateOrKeyFileIsOneLineNamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--cert", server().client_cert(), "--key", server().other_key()},
       "hammer: --key: not the key of --cert: key values mismatch\n"},
      {{"--cert", server().client_key(), "--key", server().client_key()},
       "hammer: --cert: "},
      {{"--cert", server().client_cert(), "--key", server().client_cert()},
       "hammer: --key: "},
      {{"--cert", server().client_cert()}, "hammer: --cert: "},
  };
  for (const auto& [flags, line] : cases) {
    const Finished run = short_run(flags, mtls_url());
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(run.err.rfind(line, 0), 0u) << run.err;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
}

}  // namespace
}  // namespace hammer::test
