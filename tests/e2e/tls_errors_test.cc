// SPDX-License-Identifier: MIT
// The one-line errors of issue 25 a new user meets first, each with its exit status: a
// self-signed server without --cacert, a certificate for another name, an expired one, and an
// http:// URL to a TLS port (the reverse, an https:// URL to a plain port, is tls_test.cc's).
// Run under each engine (HAMMER_ENGINE=io_uring, epoll) like the rest of the suite.
#include <unistd.h>

#include <string>

#include "e2e/e2e.h"
#include "e2e/nginx_tls_suite.h"
#include "support/nginx_tls.h"
#include "support/openssl_server.h"

namespace hammer::test {
namespace {

class TlsErrorsTest : public NginxTlsSuite<TlsErrorsTest> {
 public:
  static TlsServerOptions server_options() { return {.client_certificates = true}; }
};

void expect_refused(const Finished& run, const std::string& line) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err, "hammer: " + line + "\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST_F(TlsErrorsTest, ASelfSignedServerWithoutCacertIsOneLine) {
  const std::string where = "127.0.0.1:" + std::to_string(server().self_signed_port());
  expect_refused(run_hammer({"-c", "2", "-d", "1", "https://" + where + "/"}),
                 "cannot connect to " + where +
                     ": TLS handshake failed: certificate verify failed: self-signed certificate"
                     " (trust its CA with --cacert FILE, or skip verification with -k)");
}

// A certificate the trusted CA signed, for elsewhere.example only: reached by a name or by
// an address it does not hold.
TEST_F(TlsErrorsTest, ACertificateForAnotherNameIsOneLine) {
  const OpensslServer elsewhere(server().certificates(), {},
                                server().certificates().elsewhere_cert(),
                                server().certificates().elsewhere_key());
  ASSERT_TRUE(elsewhere.ready());
  const std::string port = std::to_string(elsewhere.port());
  expect_refused(run_hammer({"-c", "1", "-d", "1", "--cacert", server().ca(),
                             "https://localhost:" + port + "/"}),
                 "cannot connect to localhost:" + port +
                     ": TLS handshake failed: certificate verify failed: hostname mismatch (the "
                     "certificate is not for 'localhost')");
  expect_refused(run_hammer({"-c", "1", "-d", "1", "--cacert", server().ca(),
                             "https://127.0.0.1:" + port + "/"}),
                 "cannot connect to 127.0.0.1:" + port +
                     ": TLS handshake failed: certificate verify failed: IP address mismatch "
                     "(the certificate is not for '127.0.0.1')");
}

// A certificate the trusted CA signed for the right names, no longer valid; -k runs anyway.
TEST_F(TlsErrorsTest, AnExpiredCertificateIsOneLineAndInsecureRuns) {
  const OpensslServer expired(server().certificates(), {},
                              server().certificates().expired_cert(),
                              server().certificates().expired_key());
  ASSERT_TRUE(expired.ready());
  const std::string where = "127.0.0.1:" + std::to_string(expired.port());
  expect_refused(
      run_hammer({"-c", "1", "-d", "1", "--cacert", server().ca(), "https://" + where + "/"}),
      "cannot connect to " + where +
          ": TLS handshake failed: certificate verify failed: certificate has expired");
  const Finished insecure = run_hammer({"-c", "1", "-t", "1", "-d", "0.5", "--json", "-k",
                                        "https://" + where + "/"});
  ASSERT_EQ(insecure.exit_code, 0) << insecure.err;
  const JsonValue report = parse_report(insecure);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  EXPECT_EQ(number_at(report, "errors.tls"), 0);
}

// nginx answers plain HTTP on its TLS port with 400 ("The plain HTTP request was sent to
// HTTPS port"): a run of error statuses, which hammer says did not work, naming the https://
// URL to try.
TEST_F(TlsErrorsTest, AnHttpUrlToATlsPortIsARunOf400s) {
  const std::string url = "http://127.0.0.1:" + std::to_string(server().tls_port()) + "/";
  const Finished json = run_hammer({"-c", "1", "-t", "1", "-d", "0.5", "--json", url});
  EXPECT_EQ(json.exit_code, 2) << json.err;
  const JsonValue report = parse_report(json);
  const double completed = number_at(report, "requests.completed");
  EXPECT_GT(completed, 0);
  EXPECT_EQ(number_at(report, "status.4xx"), completed);
  const Finished text = run_hammer({"-c", "1", "-t", "1", "-d", "0.5", url});
  EXPECT_EQ(text.exit_code, 2) << text.err;
  EXPECT_NE(text.out.find("\nthe run did not work: the server answered "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("\nnote: every answer was 400 Bad Request: if 127.0.0.1:" +
                          std::to_string(server().tls_port()) +
                          " serves TLS, the URL is https://127.0.0.1:" +
                          std::to_string(server().tls_port()) + "/\n"),
            std::string::npos)
      << text.out;
}

}  // namespace
}  // namespace hammer::test
