// SPDX-License-Identifier: MIT
// TlsClient against an in-process OpenSSL server on memory BIOs (tls_testing.h), with a CA and
// certificates made at test time: handshakes of both versions, data both ways split at every
// byte, ALPN, resumption, client certificates and large transfers. Each kind of failure, with
// its reason, is tls_failure_test.cc's.
#include "tls/tls_client.h"

#include <gtest/gtest.h>

#include <string>

#include "tls/tls_context.h"
#include "tls/tls_testing.h"

namespace hammer {
namespace {

using namespace test;  // tls_testing.h


// A pattern that shows a dropped, doubled or reordered byte at any offset.
std::string pattern(size_t bytes, unsigned seed) {
  std::string text(bytes, '\0');
  uint32_t state = seed * 2654435761u + 1;
  for (char& c : text) {
    state = state * 1103515245u + 12345u;
    c = static_cast<char>(state >> 24);
  }
  return text;
}

TEST(TlsClientTest, HandshakesWithTls13ByDefault) {
  const TlsContext context = make_context(trusting_test_ca());
  TestServerContext server_context;
  TestServer server(server_context);
  TlsClient client(context);
  ASSERT_EQ(client.start("localhost"), TlsState::handshaking);
  EXPECT_GT(client.ciphertext_pending(), 0u);  // the ClientHello
  Link link{client, server};
  link.settle();
  ASSERT_EQ(client.state(), TlsState::established) << client.failure().reason;
  EXPECT_EQ(client.session().version, TlsVersion::tls1_3);
  EXPECT_EQ(client.session().cipher.substr(0, 4), "TLS_");  // a TLS 1.3 suite
  EXPECT_EQ(client.session().alpn, "http/1.1");
  EXPECT_FALSE(client.session().resumed);
  EXPECT_EQ(server.server_name(), "localhost");
}

TEST(TlsClientTest, HandshakesWithTls12WhenTheServerStopsThere) {
  Connected c(server_versions(TLS1_2_VERSION, TLS1_2_VERSION));
  ASSERT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;
  EXPECT_EQ(c.client.session().version, TlsVersion::tls1_2);
  EXPECT_EQ(c.client.session().cipher.substr(0, 5), "ECDHE");  // a forward-secret 1.2 suite
}

TEST(TlsClientTest, AnIpAddressIsVerifiedAgainstTheSanAndNotSentAsSni) {
  Connected c(TestServerOptions{}, trusting_test_ca(), "127.0.0.1");
  ASSERT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;
  EXPECT_EQ(c.server.server_name(), "");  // RFC 6066: no literal addresses in SNI
}

// Both versions, both directions, every record split at every byte: the client is given one
// byte at a time and must neither lose nor repeat one.
TEST(TlsClientTest, DataFlowsBothWaysFedOneByteAtATime) {
  for (const int version : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    SCOPED_TRACE(version == TLS1_3_VERSION ? "TLS 1.3" : "TLS 1.2");
    Connected c(server_versions(version, version), trusting_test_ca(), "localhost", 1);
    ASSERT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;

    const std::string request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";
    c.link.client_send(request);
    EXPECT_EQ(c.server.received(), request);

    // Three records of different sizes, fed one byte at a time.
    const std::string response = pattern(1000, 1) + pattern(17, 2) + pattern(5000, 3);
    c.server.send(response.substr(0, 1000));
    c.server.send(response.substr(1000, 17));
    c.server.send(response.substr(1017));
    c.link.settle();
    EXPECT_EQ(c.link.received.size(), response.size());
    EXPECT_TRUE(c.link.received == response);
    EXPECT_EQ(c.client.state(), TlsState::established);
  }
}

TEST(TlsClientTest, TheCopyingFeedTakesWhatFitsAndTheRestLater) {
  Connected c;
  ASSERT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;

  const std::string response = pattern(100'000, 4);
  c.server.send(response);
  std::string ciphertext(c.server.pending(), '\0');
  ciphertext.resize(c.server.take(ciphertext.data(), ciphertext.size()));
  ASSERT_GT(ciphertext.size(), TlsClient::kRingBytes);  // more than the ring holds at once

  std::string_view rest = ciphertext;
  std::string plaintext;
  char buffer[8192];
  while (!rest.empty()) {
    const size_t taken = c.client.put_ciphertext(rest);
    rest.remove_prefix(taken);
    for (;;) {
      const TlsTransfer transfer = c.client.read(buffer);
      if (transfer.io != TlsIo::done) {
        EXPECT_EQ(transfer.io, TlsIo::want_input);
        break;
      }
      plaintext.append(buffer, transfer.bytes);
    }
  }
  EXPECT_TRUE(plaintext == response) << plaintext.size();
}

TEST(TlsClientTest, AMegabyteFlowsEachWay) {
  Connected c;
  ASSERT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;

  const std::string upload = pattern(1 << 20, 5);
  c.link.client_send(upload);
  EXPECT_EQ(c.server.received().size(), upload.size());
  EXPECT_TRUE(c.server.received() == upload);

  const std::string download = pattern(1 << 20, 6);
  c.server.send(download);
  c.link.settle();
  EXPECT_EQ(c.link.received.size(), download.size());
  EXPECT_TRUE(c.link.received == download);
}

// A write larger than the outgoing ring returns after the records that fit; the rest waits
// until the ring is sent, and is then taken with the same bytes offered again.
TEST(TlsClientTest, AWriteLargerThanTheRingIsTakenInPieces) {
  Connected c;
  ASSERT_EQ(c.client.state(), TlsState::established);

  const std::string upload = pattern(200'000, 7);
  const TlsTransfer first = c.client.write(upload);
  ASSERT_EQ(first.io, TlsIo::done);
  EXPECT_LT(first.bytes, upload.size());
  EXPECT_GT(first.bytes, 0u);
  const TlsTransfer blocked = c.client.write(std::string_view(upload).substr(first.bytes));
  EXPECT_EQ(blocked.io, TlsIo::want_output);
  EXPECT_EQ(blocked.bytes, 0u);
  c.link.settle();
  c.link.client_send(std::string_view(upload).substr(first.bytes));
  EXPECT_TRUE(c.server.received() == upload) << c.server.received().size();
}

TEST(TlsClientTest, AlpnOffersTheListInOrderAndReportsTheServersChoice) {
  TestServerOptions h2_first;
  h2_first.alpn = {"h2", "http/1.1"};
  TestServerContext server_context(h2_first);
  {
    Connected c(server_context, trusting_test_ca(), "localhost", {"h2", "http/1.1"});
    ASSERT_EQ(c.client.state(), TlsState::established);
    EXPECT_EQ(c.client.session().alpn, "h2");
  }
  {
    Connected c(server_context);  // http/1.1 alone
    ASSERT_EQ(c.client.state(), TlsState::established);
    EXPECT_EQ(c.client.session().alpn, "http/1.1");
  }
  {
    TestServerOptions no_alpn;
    no_alpn.alpn = {};
    Connected c(no_alpn);
    ASSERT_EQ(c.client.state(), TlsState::established);
    EXPECT_EQ(c.client.session().alpn, "");
  }
}

// A connection that ends and reconnects offers its last session: resumed on the second
// handshake, for TLS 1.3 tickets, TLS 1.2 tickets and TLS 1.2 session IDs; never with
// --tls-resume off.
TEST(TlsClientTest, ASecondConnectionResumesTheFirstsSession) {
  struct Case {
    const char* name;
    int version;
    bool tickets;
  };
  for (const Case& each : {Case{"TLS 1.3 ticket", TLS1_3_VERSION, true},
                           Case{"TLS 1.2 ticket", TLS1_2_VERSION, true},
                           Case{"TLS 1.2 session ID", TLS1_2_VERSION, false}}) {
    for (const bool resume : {true, false}) {
      SCOPED_TRACE(std::string(each.name) + (resume ? ", resume on" : ", resume off"));
      TlsConfig config = trusting_test_ca();
      config.resume = resume;
      const TlsContext context = make_context(config);
      TestServerOptions options = server_versions(each.version, each.version);
      options.tickets = each.tickets;
      TestServerContext server_context(options);
      TlsClient client(context);
      int resumed = 0;
      for (int connection = 0; connection < 3; ++connection) {
        NextConnection again(client, server_context);
        ASSERT_EQ(client.state(), TlsState::established) << client.failure().reason;
        // A request and an answer: TLS 1.3 tickets arrive after the handshake, read with it.
        again.link.client_send("ping");
        again.server.send("pong");
        again.link.settle();
        EXPECT_EQ(again.link.received, "pong");
        EXPECT_EQ(client.session().resumed, again.server.resumed());
        if (client.session().resumed) ++resumed;
        client.close();
        again.link.settle();
      }
      EXPECT_EQ(resumed, resume ? 2 : 0);
      EXPECT_EQ(client.has_session_to_resume(), resume);
    }
  }
}

// A server that ends connections without close_notify (NextConnection: close, then a bare TCP
// close) is still resumed: only a fatal error spoils a session.
TEST(TlsClientTest, AnEndWithoutCloseNotifyKeepsTheSessionButAFatalErrorDropsIt) {
  for (const int version : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    SCOPED_TRACE(version == TLS1_3_VERSION ? "TLS 1.3" : "TLS 1.2");
    const TlsContext context = make_context(trusting_test_ca());
    TestServerOptions options = server_versions(version, version);
    options.tickets = version == TLS1_3_VERSION;  // 1.2 by session ID: the server's cache
    TestServerContext server_context(options);
    TlsClient client(context);
    {
      NextConnection first(client, server_context);
      first.link.client_send("GET");
      first.server.send("answer");
      first.link.settle();
      client.peer_closed();
      char buffer[16];
      EXPECT_EQ(client.read(buffer).io, TlsIo::failed);
      EXPECT_EQ(client.failure().kind, TlsError::closed_without_close_notify);
    }
    {
      NextConnection second(client, server_context);
      ASSERT_EQ(client.state(), TlsState::established);
      EXPECT_TRUE(client.session().resumed);
      // Now a fatal alert: the session must not be offered again.
      second.link.client_send("GET");
      second.server.send("answer");
      second.link.settle();
      ASSERT_EQ(client.write(std::string_view("x")).io, TlsIo::done);
      second.link.deliver_corrupted();
      second.link.settle();
      EXPECT_EQ(client.failure().kind, TlsError::alert_received);
    }
    {
      NextConnection third(client, server_context);
      ASSERT_EQ(client.state(), TlsState::established);
      EXPECT_FALSE(client.session().resumed);
    }
  }
}

TEST(TlsClientTest, AClientCertificateIsPresentedWhenTheServerRequiresOne) {
  TestServerOptions options;
  options.require_client_certificate = true;
  TestServerContext server_context(options);
  TlsConfig config = trusting_test_ca();
  config.cert_file = TestPki::get().client_cert;
  config.key_file = TestPki::get().client_key;
  {
    Connected c(server_context, config);
    c.link.client_send("ping");
    EXPECT_EQ(c.client.state(), TlsState::established) << c.client.failure().reason;
    EXPECT_EQ(c.server.received(), "ping") << c.server.failed();
    X509* presented = SSL_get0_peer_certificate(c.server.native());
    EXPECT_NE(presented, nullptr);
  }
  {
    // Without one, a TLS 1.3 server says so in an alert after the client thinks it is done.
    Connected c(server_context);
    EXPECT_EQ(c.client.state(), TlsState::failed);
    EXPECT_EQ(c.client.failure().kind, TlsError::alert_received);
    EXPECT_EQ(c.client.failure().reason, "alert received: certificate required");
    EXPECT_EQ(c.client.failure().alert, 116);  // RFC 8446 §6: certificate_required
    EXPECT_TRUE(refuses_client_certificate(c.client.failure()));
  }
}

}  // namespace
}  // namespace hammer
