// SPDX-License-Identifier: MIT
#pragma once
// Test support for src/tls/: a CA and certificates made at test time with OpenSSL's X509 API
// (names in the subjectAltName, never the CN: the CN says "not this name" on purpose), an
// in-process OpenSSL server on memory BIOs, and a Link that moves ciphertext between a
// TlsClient and that server in chunks of any size, down to one byte. Test code only.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tls/tls_client.h"
#include "tls/tls_context.h"

namespace hammer::test {

struct FreeKey {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct FreeCertificate {
  void operator()(X509* certificate) const { X509_free(certificate); }
};
using Key = std::unique_ptr<EVP_PKEY, FreeKey>;
using Certificate = std::unique_ptr<X509, FreeCertificate>;

inline void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test PKI: ") + what + " failed");
}

inline void add_extension(X509* certificate, X509* issuer, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
  require(extension != nullptr, value);
  X509_add_ext(certificate, extension, -1);
  X509_EXTENSION_free(extension);
}

struct CertificateSpec {
  const char* common_name = "hammer test";
  bool is_ca = false;
  const char* subject_alt_name = nullptr;  // "IP:127.0.0.1,DNS:localhost"
  const char* extended_key_usage = nullptr;  // "serverAuth", "clientAuth"
  long not_before_s = -3600;  // from now
  long not_after_s = 86400;
};

/// Signed by `issuer` with `issuer_key`, or self-signed when issuer is null.
inline Certificate make_certificate(EVP_PKEY* key, const CertificateSpec& spec, X509* issuer,
                                    EVP_PKEY* issuer_key, long serial) {
  Certificate certificate(X509_new());
  X509* cert = certificate.get();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert), spec.not_before_s);
  X509_gmtime_adj(X509_getm_notAfter(cert), spec.not_after_s);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(spec.common_name), -1, -1, 0);
  X509_set_issuer_name(cert, issuer != nullptr ? X509_get_subject_name(issuer) : name);
  X509* signer = issuer != nullptr ? issuer : cert;
  add_extension(cert, signer, NID_basic_constraints,
                spec.is_ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
  add_extension(cert, signer, NID_key_usage,
                spec.is_ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature");
  add_extension(cert, signer, NID_subject_key_identifier, "hash");
  if (issuer != nullptr) add_extension(cert, signer, NID_authority_key_identifier, "keyid:always");
  if (spec.subject_alt_name != nullptr) {
    add_extension(cert, signer, NID_subject_alt_name, spec.subject_alt_name);
  }
  if (spec.extended_key_usage != nullptr) {
    add_extension(cert, signer, NID_ext_key_usage, spec.extended_key_usage);
  }
  require(X509_sign(cert, issuer_key != nullptr ? issuer_key : key, EVP_sha256()) > 0, "sign");
  return certificate;
}

inline Key make_key() {
  Key key(EVP_EC_gen("P-256"));
  require(key != nullptr, "key generation");
  return key;
}

inline void write_pem(const std::string& path, std::vector<X509*> certificates, EVP_PKEY* key) {
  BIO* file = BIO_new_file(path.c_str(), "w");
  require(file != nullptr, "open PEM file");
  for (X509* certificate : certificates) PEM_write_bio_X509(file, certificate);
  if (key != nullptr) PEM_write_bio_PrivateKey(file, key, nullptr, nullptr, 0, nullptr, nullptr);
  BIO_free(file);
}

/// The certificates of every test, as PEM files in a fresh temporary directory (removed when
/// the process ends). Made once per process: P-256 keys take a millisecond each.
struct TestPki {
  std::string directory;
  std::string ca;            // the test CA alone: --cacert
  std::string server_chain;  // leaf for 127.0.0.1 and localhost, then the CA
  std::string server_key;
  std::string expired_chain;  // the same names, signed by the CA, expired an hour ago
  std::string self_signed;    // a leaf for the same names that signs itself
  std::string self_signed_key;
  std::string client_cert;   // a client certificate (clientAuth) from the CA
  std::string client_key;
  std::string other_key;     // a key that belongs to no certificate here

  static const TestPki& get() {
    static const TestPki pki = make();
    return pki;
  }

  ~TestPki() {
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  }

 private:
  static TestPki make() {
    TestPki pki;
    std::string pattern = (std::filesystem::temp_directory_path() / "hammer-tls-XXXXXX").string();
    require(mkdtemp(pattern.data()) != nullptr, "mkdtemp");
    pki.directory = pattern;
    auto path = [&](const char* name) { return pki.directory + "/" + name; };

    const Key ca_key = make_key();
    CertificateSpec ca_spec;
    ca_spec.common_name = "hammer test CA";
    ca_spec.is_ca = true;
    const Certificate ca = make_certificate(ca_key.get(), ca_spec, nullptr, nullptr, 1);

    CertificateSpec server_spec;
    server_spec.common_name = "not the host name";  // only the SAN may match
    server_spec.subject_alt_name = "IP:127.0.0.1,DNS:localhost";
    server_spec.extended_key_usage = "serverAuth";
    const Key server_key = make_key();
    const Certificate server =
        make_certificate(server_key.get(), server_spec, ca.get(), ca_key.get(), 2);
    CertificateSpec expired_spec = server_spec;
    expired_spec.not_before_s = -2 * 86400;
    expired_spec.not_after_s = -3600;
    const Certificate expired =
        make_certificate(server_key.get(), expired_spec, ca.get(), ca_key.get(), 3);
    const Key self_key = make_key();
    const Certificate self = make_certificate(self_key.get(), server_spec, nullptr, nullptr, 4);

    CertificateSpec client_spec;
    client_spec.common_name = "hammer test client";
    client_spec.extended_key_usage = "clientAuth";
    const Key client_key = make_key();
    const Certificate client =
        make_certificate(client_key.get(), client_spec, ca.get(), ca_key.get(), 5);
    const Key other_key = make_key();

    pki.ca = path("ca.pem");
    write_pem(pki.ca, {ca.get()}, nullptr);
    pki.server_chain = path("server.pem");
    write_pem(pki.server_chain, {server.get(), ca.get()}, nullptr);
    pki.server_key = path("server.key");
    write_pem(pki.server_key, {}, server_key.get());
    pki.expired_chain = path("expired.pem");
    write_pem(pki.expired_chain, {expired.get(), ca.get()}, nullptr);
    pki.self_signed = path("self.pem");
    write_pem(pki.self_signed, {self.get()}, nullptr);
    pki.self_signed_key = path("self.key");
    write_pem(pki.self_signed_key, {}, self_key.get());
    pki.client_cert = path("client.pem");
    write_pem(pki.client_cert, {client.get()}, nullptr);
    pki.client_key = path("client.key");
    write_pem(pki.client_key, {}, client_key.get());
    pki.other_key = path("other.key");
    write_pem(pki.other_key, {}, other_key.get());
    return pki;
  }
};

/// The server side's settings.
struct TestServerOptions {
  int min_version = TLS1_2_VERSION;
  int max_version = TLS1_3_VERSION;
  bool tickets = true;            // false: TLS 1.2 resumes by session ID, TLS 1.3 not at all
  std::vector<std::string> alpn = {"http/1.1"};  // chosen in the server's order; empty: none
  bool require_client_certificate = false;
  std::string chain;              // default: TestPki's server_chain and server_key
  std::string key;
};

/// An OpenSSL server context (SSL_CTX) for the test's connections.
class TestServerContext {
 public:
  explicit TestServerContext(TestServerOptions options = {}) : options_(std::move(options)) {
    const TestPki& pki = TestPki::get();
    context_ = SSL_CTX_new(TLS_server_method());
    require(context_ != nullptr, "SSL_CTX_new");
    SSL_CTX_set_min_proto_version(context_, options_.min_version);
    SSL_CTX_set_max_proto_version(context_, options_.max_version);
    const std::string chain = options_.chain.empty() ? pki.server_chain : options_.chain;
    const std::string key = options_.key.empty() ? pki.server_key : options_.key;
    require(SSL_CTX_use_certificate_chain_file(context_, chain.c_str()) == 1, "server chain");
    require(SSL_CTX_use_PrivateKey_file(context_, key.c_str(), SSL_FILETYPE_PEM) == 1,
            "server key");
    static const unsigned char kIdContext[] = "hammer-test";
    SSL_CTX_set_session_id_context(context_, kIdContext, sizeof(kIdContext) - 1);
    if (!options_.tickets) SSL_CTX_set_options(context_, SSL_OP_NO_TICKET);
    for (const std::string& name : options_.alpn) {
      alpn_wire_ += static_cast<char>(name.size());
      alpn_wire_ += name;
    }
    if (!options_.alpn.empty()) SSL_CTX_set_alpn_select_cb(context_, select_alpn, this);
    if (options_.require_client_certificate) {
      require(SSL_CTX_load_verify_file(context_, pki.ca.c_str()) == 1, "server CA");
      SSL_CTX_set_verify(context_, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
  }
  ~TestServerContext() { SSL_CTX_free(context_); }
  TestServerContext(const TestServerContext&) = delete;
  TestServerContext& operator=(const TestServerContext&) = delete;

  SSL_CTX* native() const { return context_; }

 private:
  static int select_alpn(SSL*, const unsigned char** out, unsigned char* out_bytes,
                         const unsigned char* offered, unsigned offered_bytes, void* arg) {
    auto* self = static_cast<TestServerContext*>(arg);
    unsigned char* chosen = nullptr;
    const int result = SSL_select_next_proto(
        &chosen, out_bytes, reinterpret_cast<const unsigned char*>(self->alpn_wire_.data()),
        static_cast<unsigned>(self->alpn_wire_.size()), offered, offered_bytes);
    if (result != OPENSSL_NPN_NEGOTIATED) return SSL_TLSEXT_ERR_NOACK;
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
  }

  TestServerOptions options_;
  SSL_CTX* context_ = nullptr;
  std::string alpn_wire_;
};

/// One server-side connection, on two growing memory BIOs (test code may allocate).
class TestServer {
 public:
  explicit TestServer(const TestServerContext& context) {
    ssl_ = SSL_new(context.native());
    in_ = BIO_new(BIO_s_mem());
    out_ = BIO_new(BIO_s_mem());
    require(ssl_ != nullptr && in_ != nullptr && out_ != nullptr, "server SSL");
    SSL_set_bio(ssl_, in_, out_);
    SSL_set_accept_state(ssl_);
  }
  // As nginx does: a connection that ends without a fatal error keeps its session resumable
  // (SSL_free without the shutdown flags would drop it from the server's cache).
  ~TestServer() {
    if (failure_.empty()) SSL_set_shutdown(ssl_, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
    SSL_free(ssl_);
  }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  SSL* native() const { return ssl_; }
  /// Ciphertext from the client.
  void receive(const char* bytes, size_t count) {
    BIO_write(in_, bytes, static_cast<int>(count));
  }
  size_t pending() const { return BIO_ctrl_pending(out_); }
  /// Takes up to `count` bytes of ciphertext for the client into `to`.
  size_t take(char* to, size_t count) {
    const int got = BIO_read(out_, to, static_cast<int>(count));
    return got > 0 ? static_cast<size_t>(got) : 0;
  }
  /// Runs the handshake, then reads every whole record into received(). false once the
  /// connection failed (failed() holds OpenSSL's reason).
  bool drive() {
    if (!failure_.empty()) return false;
    if (!SSL_is_init_finished(ssl_)) {
      const int result = SSL_do_handshake(ssl_);
      if (result != 1) return check(result);
    }
    char buffer[16384];
    for (;;) {
      size_t got = 0;
      if (SSL_read_ex(ssl_, buffer, sizeof(buffer), &got) != 1) return check(0);
      received_.append(buffer, got);
    }
  }
  /// Encrypts all of `plaintext` (the memory BIO grows as needed).
  void send(std::string_view plaintext) {
    size_t written = 0;
    require(SSL_write_ex(ssl_, plaintext.data(), plaintext.size(), &written) == 1 &&
                written == plaintext.size(),
            "server write");
  }
  void send_close_notify() { SSL_shutdown(ssl_); }
  const std::string& received() const { return received_; }
  const std::string& failed() const { return failure_; }
  bool handshake_done() const { return SSL_is_init_finished(ssl_) == 1; }
  bool resumed() const { return SSL_session_reused(ssl_) == 1; }
  /// The SNI the client sent; empty when none.
  std::string server_name() const {
    const char* name = SSL_get_servername(ssl_, TLSEXT_NAMETYPE_host_name);
    return name != nullptr ? name : "";
  }

 private:
  bool check(int result) {
    const int error = SSL_get_error(ssl_, result);
    if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return true;
    if (error == SSL_ERROR_ZERO_RETURN) return true;
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    const char* reason = ERR_reason_error_string(code);
    failure_ = reason != nullptr ? reason : "error " + std::to_string(error);
    return false;
  }

  SSL* ssl_ = nullptr;
  BIO* in_ = nullptr;
  BIO* out_ = nullptr;
  std::string received_;
  std::string failure_;
};

/// Moves ciphertext between a TlsClient and a TestServer, `chunk` bytes at a time, driving
/// each side after every chunk: the client's handshake until established, then read() of all
/// plaintext into received.
struct Link {
  Link(TlsClient& tls_client, TestServer& tls_server, size_t chunk_bytes = SIZE_MAX)
      : client(tls_client), server(tls_server), chunk(chunk_bytes) {}

  TlsClient& client;
  TestServer& server;
  size_t chunk;
  std::string received;       // plaintext the client read
  size_t client_reads = 0;    // read() calls that returned data

  void drive_client() {
    if (client.state() == TlsState::handshaking) client.handshake();
    if (client.state() != TlsState::established) return;
    char buffer[4096];
    for (;;) {
      const TlsTransfer transfer = client.read(buffer);
      if (transfer.io != TlsIo::done) break;
      received.append(buffer, transfer.bytes);
      ++client_reads;
    }
  }

  /// One round both ways; false when nothing moved.
  bool step() {
    bool moved = false;
    for (auto out = client.ciphertext_to_send(); !out.empty(); out = client.ciphertext_to_send()) {
      const size_t count = std::min(out.size(), chunk);
      server.receive(out.data(), count);
      client.ciphertext_sent(count);
      server.drive();
      moved = true;
    }
    while (server.pending() > 0) {
      std::span<char> space = client.ciphertext_space();
      if (space.empty()) break;  // the client's ring is full: it reads, then the next step
      const size_t count = server.take(space.data(), std::min({space.size(), chunk,
                                                               server.pending()}));
      client.ciphertext_received(count);
      moved = true;
      drive_client();
      if (!client.ciphertext_to_send().empty()) break;  // answer first (the handshake)
    }
    drive_client();
    return moved;
  }

  /// Until neither side has anything to move (bounded: a test that loops forever fails).
  void settle() {
    for (int round = 0; round < 10'000'000 && step(); ++round) {
    }
  }

  /// The client's pending ciphertext (one record) to the server with its last byte, the tag's,
  /// flipped: the server cannot decrypt it and fails with a fatal alert. Returns server.drive().
  bool deliver_corrupted() {
    const std::span<const char> record = client.ciphertext_to_send();
    std::string corrupted(record.begin(), record.end());
    client.ciphertext_sent(record.size());
    corrupted.back() = static_cast<char>(corrupted.back() ^ 1);
    server.receive(corrupted.data(), corrupted.size());
    return server.drive();
  }

  /// Writes all of `plaintext` from the client, settling whenever its outgoing ring is full.
  void client_send(std::string_view plaintext) {
    while (!plaintext.empty()) {
      const TlsTransfer transfer = client.write(plaintext);
      if (transfer.io == TlsIo::done) {
        plaintext.remove_prefix(transfer.bytes);
      } else if (transfer.io == TlsIo::want_output || transfer.io == TlsIo::want_input) {
        if (!step()) return;  // stuck: the test's expectations will say so
      } else {
        return;
      }
    }
    settle();
  }
};

/// A client configuration that trusts TestPki's CA alone.
inline TlsConfig trusting_test_ca() {
  TlsConfig config;
  config.ca_file = TestPki::get().ca;
  return config;
}

/// A context for `config` offering `alpn`; throws when the configuration is refused.
inline TlsContext make_context(const TlsConfig& config,
                        std::vector<std::string> alpn = {"http/1.1"}) {
  auto context = TlsContext::create(config, std::move(alpn));
  if (!context) throw std::runtime_error("TlsContext: " + context.error().reason);
  return std::move(*context);
}

/// A test server that speaks versions min_version to max_version (TLS1_2_VERSION ...).
inline TestServerOptions server_versions(int min_version, int max_version) {
  TestServerOptions options;
  options.min_version = min_version;
  options.max_version = max_version;
  return options;
}


/// One more connection of an existing `tls_client`: a fresh TestServer of `server_context` and
/// a Link to it; the client is started again toward `host` (offering its last session) and
/// both sides are settled.
struct NextConnection {
  NextConnection(TlsClient& tls_client, const TestServerContext& server_context,
             const char* host = "localhost")
      : server(server_context), link(tls_client, server) {
    tls_client.start(host);
    link.settle();
  }
  TestServer server;
  Link link;
};

/// A TlsClient on a context of its own and a TestServer joined by a Link: once constructed,
/// the client has been started toward `host` and both sides settled, so the handshake has gone
/// as far as it goes (client.state() says whether it was established or failed). The first
/// lines of most tests here.
class Connected {
 public:
  /// Against a server context of its own, made from `options`; the Link moves `chunk` bytes at
  /// a time.
  explicit Connected(TestServerOptions options = {}, const TlsConfig& config = trusting_test_ca(),
                     const char* host = "localhost", size_t chunk = SIZE_MAX)
      : own_server_context_(std::in_place, std::move(options)),
        context(make_context(config)),
        server(*own_server_context_),
        client(context),
        link(client, server, chunk) {
    start(host);
  }
  /// Against `shared`, a server context that other connections use too, offering `alpn`.
  explicit Connected(const TestServerContext& shared, const TlsConfig& config = trusting_test_ca(),
                     const char* host = "localhost",
                     std::vector<std::string> alpn = {"http/1.1"})
      : context(make_context(config, std::move(alpn))),
        server(shared),
        client(context),
        link(client, server) {
    start(host);
  }

 private:
  std::optional<TestServerContext> own_server_context_;  // first: the server refers to it

  void start(const char* host) {
    client.start(host);
    link.settle();
  }

 public:
  TlsContext context;
  TestServer server;
  TlsClient client;
  Link link;
};

}  // namespace hammer::test
