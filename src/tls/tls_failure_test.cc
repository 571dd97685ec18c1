// SPDX-License-Identifier: MIT
// How a TlsClient fails, against the in-process OpenSSL server of tls_testing.h: each kind
// (verification, host name, version, alert, an end with or without close_notify, a plain-HTTP
// answer, the caller's timeout, a refused renegotiation) with the reason tls_failure.cc words.
#include "tls/tls_failure.h"

#include <gtest/gtest.h>

#include <string>

#include "tls/tls_client.h"
#include "tls/tls_context.h"
#include "tls/tls_testing.h"

namespace hammer {
namespace {

using namespace test;  // tls_testing.h

// How the connection's handshake ended: failed, of `kind`, for `reason` in tls_failure.cc's words.
void expect_failure(const Connected& c, TlsError kind, std::string_view reason) {
  EXPECT_EQ(c.client.failure().kind, kind) << c.client.failure().reason;
  EXPECT_EQ(c.client.failure().reason, reason);
}

TEST(TlsClientFailureTest, AnUntrustedChainFailsVerificationWithOpenSslsReason) {
  Connected c(TestServerOptions{}, TlsConfig{});  // the system's store: not our CA
  EXPECT_EQ(c.client.state(), TlsState::failed);
  EXPECT_EQ(c.client.failure().kind, TlsError::verify_failed);
  EXPECT_EQ(c.client.failure().reason,
            "certificate verify failed: self-signed certificate in certificate chain (trust its "
            "CA with --cacert FILE, or skip verification with -k)");
  EXPECT_FALSE(c.server.handshake_done());
}

TEST(TlsClientFailureTest, ASelfSignedLeafFailsVerification) {
  TestServerOptions options;
  options.chain = TestPki::get().self_signed;
  options.key = TestPki::get().self_signed_key;
  Connected c(options);
  expect_failure(c, TlsError::verify_failed,
                 "certificate verify failed: self-signed certificate (trust its CA with --cacert "
                 "FILE, or skip verification with -k)");
}

TEST(TlsClientFailureTest, AnExpiredCertificateFailsVerification) {
  TestServerOptions options;
  options.chain = TestPki::get().expired_chain;
  Connected c(options);
  expect_failure(c, TlsError::verify_failed, "certificate verify failed: certificate has expired");
}

TEST(TlsClientFailureTest, InsecureSkipsVerification) {
  TlsConfig config;
  config.insecure = true;
  Connected c(TestServerOptions{}, config, "example.com");  // neither trusted nor its name
  EXPECT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;
  EXPECT_EQ(c.server.server_name(), "example.com");
}

TEST(TlsClientFailureTest, AnotherHostNameIsAMismatch) {
  Connected c(TestServerOptions{}, trusting_test_ca(), "example.com");
  expect_failure(c, TlsError::hostname_mismatch,
                 "certificate verify failed: hostname mismatch (the certificate is not for "
                 "'example.com')");
}

TEST(TlsClientFailureTest, AnotherIpAddressIsAMismatch) {
  Connected c(TestServerOptions{}, trusting_test_ca(), "127.0.0.2");
  expect_failure(c, TlsError::hostname_mismatch,
                 "certificate verify failed: IP address mismatch (the certificate is not for "
                 "'127.0.0.2')");
}

TEST(TlsClientFailureTest, AMinimumAboveTheServersVersionIsRefused) {
  TlsConfig config = trusting_test_ca();
  config.min_version = TlsVersion::tls1_3;
  Connected c(server_versions(TLS1_2_VERSION, TLS1_2_VERSION), config);
  EXPECT_EQ(c.client.failure().kind, TlsError::protocol_version) << c.client.failure().reason;
  EXPECT_EQ(c.client.failure().reason.substr(0, 18), "protocol version: ");
}

TEST(TlsClientFailureTest, AMaximumBelowTheServersVersionIsRefused) {
  TlsConfig config = trusting_test_ca();
  config.max_version = TlsVersion::tls1_2;
  Connected c(server_versions(TLS1_3_VERSION, TLS1_3_VERSION), config);
  expect_failure(c, TlsError::protocol_version,
                 "protocol version: the server accepts none of the versions offered (alert "
                 "protocol version)");
}

// A record the server cannot decrypt makes it send a fatal alert, which the client reads
// mid-stream as alert_received with the alert's name.
TEST(TlsClientFailureTest, AnAlertMidStreamIsReceivedWithItsName) {
  for (const int version : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    SCOPED_TRACE(version == TLS1_3_VERSION ? "TLS 1.3" : "TLS 1.2");
    Connected c(server_versions(version, version));
    ASSERT_EQ(c.client.state(), TlsState::established);

    ASSERT_EQ(c.client.write(std::string_view("request")).io, TlsIo::done);
    EXPECT_FALSE(c.link.deliver_corrupted());  // the tag no longer matches
    c.link.settle();
    EXPECT_EQ(c.client.state(), TlsState::failed);
    EXPECT_EQ(c.client.failure().kind, TlsError::alert_received);
    EXPECT_EQ(c.client.failure().reason, "alert received: bad record mac");
  }
}

// A TLS 1.2 server's HelloRequest: the client refuses (a no_renegotiation warning), OpenSSL's
// server answers the refusal with a fatal handshake_failure, and the client's failure says why.
TEST(TlsClientFailureTest, ARefusedRenegotiationNamesItselfInTheFailureThatFollows) {
  Connected c(server_versions(TLS1_2_VERSION, TLS1_2_VERSION));
  ASSERT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;

  ASSERT_EQ(SSL_renegotiate(c.server.native()), 1);
  SSL_do_handshake(c.server.native());  // sends the HelloRequest
  c.server.send("answer");
  c.link.settle();
  EXPECT_EQ(c.link.received, "answer");  // what came before the refusal was read in full
  EXPECT_FALSE(c.server.failed().empty());
  EXPECT_EQ(c.client.state(), TlsState::failed);
  EXPECT_EQ(c.client.failure().kind, TlsError::alert_received);
  EXPECT_EQ(c.client.failure().reason,
            "alert received: handshake failure (after the server asked to renegotiate, which "
            "hammer refuses)");
}

// The alerts about the client's certificate, and only those, read as a refusal of it.
TEST(TlsClientFailureTest, OnlyCertificateAlertsRefuseTheClientCertificate) {
  const auto failure = [](TlsError kind, int alert) {
    TlsFailure made;  // members one by one: GCC 12 -Wrestrict misfires on {kind, "", alert}
    made.kind = kind;
    made.alert = alert;
    return made;
  };
  for (const int alert : {42, 43, 44, 45, 46, 48, 116}) {
    EXPECT_TRUE(refuses_client_certificate(failure(TlsError::alert_received, alert))) << alert;
  }
  for (const int alert : {20, 40, 47, 70, 80, 120}) {  // bad_record_mac ... no_application_protocol
    EXPECT_FALSE(refuses_client_certificate(failure(TlsError::alert_received, alert))) << alert;
  }
  EXPECT_FALSE(refuses_client_certificate(failure(TlsError::verify_failed, 48)));
  EXPECT_FALSE(refuses_client_certificate(TlsFailure{}));
}

TEST(TlsClientFailureTest, AnEndWithoutCloseNotifyIsClassifiedAndOneWithItIsClean) {
  for (const bool polite : {true, false}) {
    SCOPED_TRACE(polite ? "close_notify" : "no close_notify");
    Connected c;
    c.server.send("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    if (polite) c.server.send_close_notify();
    c.link.settle();
    EXPECT_EQ(c.link.received, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    c.client.peer_closed();  // the socket's recv returned 0
    char buffer[64];
    const TlsTransfer transfer = c.client.read(buffer);
    if (polite) {
      EXPECT_EQ(transfer.io, TlsIo::closed);
      EXPECT_EQ(c.client.state(), TlsState::closed);
      EXPECT_FALSE(c.client.failure());
    } else {
      EXPECT_EQ(transfer.io, TlsIo::failed);
      EXPECT_EQ(c.client.failure().kind, TlsError::closed_without_close_notify);
      EXPECT_EQ(c.client.failure().reason, "connection closed without close_notify");
    }
  }
}

TEST(TlsClientFailureTest, AnEndDuringTheHandshakeFailsIt) {
  const TlsContext context = make_context(trusting_test_ca());
  TlsClient client(context);
  client.start("localhost");
  client.ciphertext_sent(client.ciphertext_pending());
  client.peer_closed();
  EXPECT_EQ(client.handshake(), TlsState::failed);
  EXPECT_EQ(client.failure().kind, TlsError::closed_without_close_notify);
}

TEST(TlsClientFailureTest, APlainHttpAnswerIsNotTls) {
  const TlsContext context = make_context(trusting_test_ca());
  TlsClient client(context);
  client.start("localhost");
  client.ciphertext_sent(client.ciphertext_pending());
  const std::string_view answer = "HTTP/1.1 400 Bad Request\r\n\r\n";
  client.put_ciphertext(answer);
  EXPECT_EQ(client.handshake(), TlsState::failed);
  EXPECT_EQ(client.failure().kind, TlsError::other);
  EXPECT_EQ(client.failure().reason,
            "wrong version number (is the server speaking TLS on this port?)");
}

TEST(TlsClientFailureTest, AHandshakeTimeoutIsTheCallersAndSaysSo) {
  const TlsContext context = make_context(trusting_test_ca());
  TlsClient client(context);
  client.start("localhost");
  client.fail_handshake_timeout(300'000'000);
  EXPECT_EQ(client.state(), TlsState::failed);
  EXPECT_EQ(client.failure().kind, TlsError::handshake_timeout);
  EXPECT_EQ(client.failure().reason,
            "handshake timeout: the handshake did not finish within --timeout 300ms");
  EXPECT_EQ(tls_error_name(client.failure().kind), "handshake_timeout");
  // The next start() is a fresh connection.
  TestServerContext server_context;
  NextConnection fresh(client, server_context);
  EXPECT_EQ(client.state(), TlsState::established);
  EXPECT_FALSE(client.failure());
}

}  // namespace
}  // namespace hammer
