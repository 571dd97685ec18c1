// SPDX-License-Identifier: MIT
// --tls-min, --tls-max and the cipher suite against `openssl s_server`, each server held to
// one TLS version (and, for the cipher cases, one suite): the negotiated version and suite
// are the report's, and bounds that leave no common version are a `tls` failure in one line
// with exit 2. Run under each engine (HAMMER_ENGINE=io_uring, epoll) like the rest of the
// suite.
#include <unistd.h>

#include <string>

#include "e2e/e2e.h"
#include "support/nginx_tls.h"
#include "support/openssl_server.h"

namespace hammer::test {
namespace {

class TlsVersionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (access(kOpenssl, X_OK) != 0) return;
    certificates_ = new TlsCertificates();
  }
  static void TearDownTestSuite() {
    delete certificates_;
    certificates_ = nullptr;
  }
  void SetUp() override {
    if (certificates_ == nullptr) GTEST_SKIP() << kOpenssl << " is not installed";
    ASSERT_TRUE(certificates_->ready()) << "openssl did not make the certificates";
  }
  static const TlsCertificates& certificates() { return *certificates_; }

  // A short run against `server` with `flags`: its JSON report, after checking that every
  // request was answered and nothing failed.
  static JsonValue answered_run(const OpensslServer& server, std::vector<std::string> flags) {
    std::vector<std::string> args = {"-c", "1", "-t", "1", "-d", "0.5", "--json", "--cacert",
                                      certificates().ca()};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(server.url());
    const Finished run = run_hammer(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const JsonValue report = parse_report(run);
    EXPECT_GT(number_at(report, "requests.completed"), 0);
    EXPECT_EQ(number_at(report, "status.2xx"), number_at(report, "requests.completed"));
    expect_no_errors_over_tls(report);
    EXPECT_EQ(number_at(report, "tls.handshakes.failed"), 0);
    return report;
  }

  static std::string text_at(const JsonValue& report, const std::string& path) {
    const JsonValue* value = report.find(path);
    EXPECT_NE(value, nullptr) << "missing " << path;
    return value == nullptr ? std::string() : value->text;
  }

  // The one line of a run whose bounds leave no version in common with the server.
  static void expect_version_refused(const OpensslServer& server,
                                     const std::vector<std::string>& flags) {
    std::vector<std::string> args = {"-c", "1", "-d", "1", "--cacert", certificates().ca()};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(server.url());
    const Finished run = run_hammer(args);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_EQ(run.err, "hammer: cannot connect to " + server.where() +
                           ": TLS handshake failed: protocol version: the server accepts none "
                           "of the versions offered (alert protocol version)\n");
    EXPECT_TRUE(run.out.empty()) << run.out;
  }

  static TlsCertificates* certificates_;
};
TlsCertificates* TlsVersionTest::certificates_ = nullptr;

TEST_F(TlsVersionTest, ATls12OnlyServerIsSpokenTo12AndRefusesTlsMin13) {
  const OpensslServer server(certificates(), {"-tls1_2"});
  ASSERT_TRUE(server.ready());
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{}, {"--tls-max", "1.2"}, {"--tls-min", "1.2", "--tls-max", "1.2"}}) {
    const JsonValue report = answered_run(server, flags);
    EXPECT_EQ(text_at(report, "tls.version"), "1.2");
    // -www closes after each answer: every reconnect after the first offers its session.
    EXPECT_EQ(number_at(report, "tls.handshakes.full"), 1);
    EXPECT_GT(number_at(report, "tls.handshakes.resumed"), 0);
  }
  expect_version_refused(server, {"--tls-min", "1.3"});
}

TEST_F(TlsVersionTest, ATls13OnlyServerIsSpokenTo13AndRefusesTlsMax12) {
  const OpensslServer server(certificates(), {"-tls1_3"});
  ASSERT_TRUE(server.ready());
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{}, {"--tls-min", "1.3"}, {"--tls-min", "1.3", "--tls-max", "1.3"}}) {
    EXPECT_EQ(text_at(answered_run(server, flags), "tls.version"), "1.3");
  }
  expect_version_refused(server, {"--tls-max", "1.2"});
}

// A server held to one suite: the report names the one negotiated, in the text and the JSON.
TEST_F(TlsVersionTest, TheReportNamesTheOneCipherSuiteTheServerAllows) {
  const OpensslServer tls12(certificates(),
                            {"-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"});
  ASSERT_TRUE(tls12.ready());
  EXPECT_EQ(text_at(answered_run(tls12, {}), "tls.cipher"), "ECDHE-ECDSA-AES128-GCM-SHA256");
  const Finished text = run_hammer({"-c", "1", "-t", "1", "-d", "0.3", "--cacert",
                                    certificates().ca(), tls12.url()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\nTLS            1.2 ECDHE-ECDSA-AES128-GCM-SHA256, ALPN none; "),
            std::string::npos)
      << text.out;

  const OpensslServer tls13(certificates(),
                            {"-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"});
  ASSERT_TRUE(tls13.ready());
  const JsonValue report = answered_run(tls13, {});
  EXPECT_EQ(text_at(report, "tls.version"), "1.3");
  EXPECT_EQ(text_at(report, "tls.cipher"), "TLS_CHACHA20_POLY1305_SHA256");
}

}  // namespace
}  // namespace hammer::test
