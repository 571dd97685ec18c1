// SPDX-License-Identifier: MIT
// TlsContext::create: each file it reads, and each way one can be wrong, reported by the step
// (so the caller names the flag) with OpenSSL's reason.
#include "tls/tls_context.h"

#include <gtest/gtest.h>
#include <openssl/err.h>

#include "tls/tls_testing.h"

namespace hammer {
namespace {

using test::TestPki;

TlsSetupError error_of(const TlsConfig& config, std::vector<std::string> alpn = {"http/1.1"}) {
  auto context = TlsContext::create(config, std::move(alpn));
  EXPECT_FALSE(context);
  return context ? TlsSetupError{} : context.error();
}

// --cert CERT --key KEY: the error of the pair (files of TestPki, or missing ones).
TlsSetupError error_of_pair(const std::string& cert, const std::string& key) {
  TlsConfig config;
  config.cert_file = cert;
  config.key_file = key;
  return error_of(config);
}

TEST(TlsContextTest, DefaultsVerifyAgainstTheSystemStoreAndResume) {
  auto context = TlsContext::create(TlsConfig{});
  ASSERT_TRUE(context) << context.error().reason;
  EXPECT_TRUE(context->verifies());
  EXPECT_TRUE(context->resumes());
  EXPECT_NE(context->native(), nullptr);
}

TEST(TlsContextTest, TheVersionBoundsAreTheOptions) {
  TlsConfig config;
  config.min_version = TlsVersion::tls1_3;
  config.max_version = TlsVersion::tls1_3;
  auto context = TlsContext::create(config);
  ASSERT_TRUE(context);
  EXPECT_EQ(SSL_CTX_get_min_proto_version(context->native()), TLS1_3_VERSION);
  EXPECT_EQ(SSL_CTX_get_max_proto_version(context->native()), TLS1_3_VERSION);
  EXPECT_EQ(tls_protocol_number(TlsVersion::tls1_2), TLS1_2_VERSION);
}

TEST(TlsContextTest, BuffersAreKeptAndWritesMayBePartial) {
  auto context = TlsContext::create(TlsConfig{});
  ASSERT_TRUE(context);
  const long mode = SSL_CTX_get_mode(context->native());
  EXPECT_EQ(mode & SSL_MODE_RELEASE_BUFFERS, 0);
  EXPECT_NE(mode & SSL_MODE_ENABLE_PARTIAL_WRITE, 0);
  EXPECT_NE(SSL_CTX_get_options(context->native()) & SSL_OP_NO_RENEGOTIATION, 0u);
}

TEST(TlsContextTest, ResumeOffAsksForNoTickets) {
  TlsConfig config;
  config.resume = false;
  auto context = TlsContext::create(config);
  ASSERT_TRUE(context);
  EXPECT_FALSE(context->resumes());
  EXPECT_NE(SSL_CTX_get_options(context->native()) & SSL_OP_NO_TICKET, 0u);
  EXPECT_EQ(SSL_CTX_get_session_cache_mode(context->native()), SSL_SESS_CACHE_OFF);
}

TEST(TlsContextTest, InsecureVerifiesNothing) {
  TlsConfig config;
  config.insecure = true;
  config.ca_file = "/nonexistent/ca.pem";  // not even read
  auto context = TlsContext::create(config);
  ASSERT_TRUE(context);
  EXPECT_FALSE(context->verifies());
  EXPECT_EQ(SSL_CTX_get_verify_mode(context->native()), SSL_VERIFY_NONE);
}

TEST(TlsContextTest, AMissingCaFileIsTheCaFilesError) {
  TlsConfig config;
  config.ca_file = TestPki::get().directory + "/missing.pem";
  const TlsSetupError error = error_of(config);
  EXPECT_EQ(error.step, TlsSetupStep::ca_file);
  EXPECT_FALSE(error.reason.empty());
}

TEST(TlsContextTest, ACaFileWithoutCertificatesIsRefused) {
  TlsConfig config;
  config.ca_file = TestPki::get().server_key;  // a key, not a certificate
  EXPECT_EQ(error_of(config).step, TlsSetupStep::ca_file);
}

TEST(TlsContextTest, AClientCertificateLoadsWithItsKey) {
  TlsConfig config;
  config.cert_file = TestPki::get().client_cert;
  config.key_file = TestPki::get().client_key;
  auto context = TlsContext::create(config);
  ASSERT_TRUE(context) << context.error().reason;
}

TEST(TlsContextTest, EachClientCertificateFileIsNamedWhenWrong) {
  const TestPki& pki = TestPki::get();
  TlsConfig config;
  config.cert_file = pki.directory + "/missing.pem";
  config.key_file = pki.client_key;
  EXPECT_EQ(error_of(config).step, TlsSetupStep::cert_file);

  config.cert_file = pki.client_cert;
  config.key_file = pki.directory + "/missing.key";
  EXPECT_EQ(error_of(config).step, TlsSetupStep::key_file);

  config.key_file = pki.other_key;
  const TlsSetupError mismatch = error_of(config);
  EXPECT_EQ(mismatch.step, TlsSetupStep::key_mismatch) << mismatch.reason;
  EXPECT_EQ(mismatch.reason, "key values mismatch");
}

TEST(TlsContextTest, AKeyGivenAsTheCertificateIsSaidToBeOne) {
  const TestPki& pki = TestPki::get();
  const TlsSetupError error = error_of_pair(pki.client_key, pki.client_key);
  EXPECT_EQ(error.step, TlsSetupStep::cert_file);
  EXPECT_EQ(error.reason, pki.client_key + " holds no PEM certificate (is it the key?)");
  EXPECT_EQ(ERR_peek_error(), 0u);  // the queue is left empty
}

// A key, or an empty file, given as the CA bundle: what it holds, not OpenSSL's "no
// certificate or crl found".
TEST(TlsContextTest, ACaFileWithoutACertificateSaysWhatACaBundleIs) {
  const TestPki& pki = TestPki::get();
  for (const std::string& path : {pki.client_key, std::string("/dev/null")}) {
    TlsConfig config;
    config.ca_file = path;
    const TlsSetupError error = error_of(config);
    EXPECT_EQ(error.step, TlsSetupStep::ca_file);
    EXPECT_EQ(error.reason, path + " holds no PEM certificate (a CA bundle is '-----BEGIN "
                                   "CERTIFICATE-----' blocks)");
    EXPECT_EQ(ERR_peek_error(), 0u);
  }
}

TEST(TlsContextTest, ACertificateGivenAsTheKeyIsSaidToBeOne) {
  const TestPki& pki = TestPki::get();
  const TlsSetupError error = error_of_pair(pki.client_cert, pki.client_cert);
  EXPECT_EQ(error.step, TlsSetupStep::key_file);
  EXPECT_EQ(error.reason, pki.client_cert + " holds no PEM private key (is it the certificate?)");
  EXPECT_EQ(ERR_peek_error(), 0u);
}

TEST(TlsContextTest, AMissingKeyFileKeepsOpenSslsReason) {
  const TestPki& pki = TestPki::get();
  const TlsSetupError error = error_of_pair(pki.client_cert, pki.directory + "/missing.key");
  EXPECT_EQ(error.step, TlsSetupStep::key_file);
  EXPECT_EQ(error.reason.find("holds no"), std::string::npos) << error.reason;
}

TEST(TlsContextTest, AnAlpnNameMustBeOneTo255Bytes) {
  EXPECT_EQ(error_of(TlsConfig{}, {""}).step, TlsSetupStep::alpn);
  EXPECT_EQ(error_of(TlsConfig{}, {std::string(256, 'a')}).step, TlsSetupStep::alpn);
  EXPECT_TRUE(TlsContext::create(TlsConfig{}, {}));  // no ALPN at all
}

TEST(TlsContextTest, TheServersChoiceIsViewedInTheOfferedList) {
  auto context = TlsContext::create(TlsConfig{}, {"h2", "http/1.1"});
  ASSERT_TRUE(context);
  const unsigned char h2[] = {'h', '2'};
  const std::string_view chosen = context->offered_protocol(h2);
  EXPECT_EQ(chosen, "h2");
  const unsigned char other[] = {'x'};
  EXPECT_EQ(context->offered_protocol(other), "");
}

}  // namespace
}  // namespace hammer
