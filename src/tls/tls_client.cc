// SPDX-License-Identifier: MIT
// One connection's TLS over an OpenSSL BIO pair: two fixed rings, allocated with the pair at
// start(), between the engine and the SSL object. A pair rather than two BIO_s_mem buffers
// because a memory BIO grows (realloc) and moves its bytes on every write, while the pair's
// rings never move: the engine can receive into ciphertext_space() and send straight from
// ciphertext_to_send() (BIO_nwrite0 / BIO_nread0), so ciphertext crosses no copy of ours, and
// an io_uring send may point into the ring until it completes.
//
// What allocates, and when (OpenSSL's CRYPTO_malloc, not operator new; tls_client_test.cc
// counts it):
// - start(): the SSL object, the BIO pair and its two rings (kRingBytes each), the
//   ClientHello's key share; a resumed session is referenced, not copied.
// - the handshake: OpenSSL's read and write buffers (about 17 KB each, kept until the
//   connection ends: SSL_MODE_RELEASE_BUFFERS is off), the server's certificates, the keys.
// - the first reads after a TLS 1.3 handshake: each NewSessionTicket the server sends becomes
//   an SSL_SESSION (keep_session keeps the last). OpenSSL servers send two, nginx one.
// - then nothing: read() and write() of application data allocate nothing, in either
//   direction, records of any size (the counting test runs 200 exchanges after a warm-up).
//   A TLS 1.3 KeyUpdate from the server would allocate (rare; nginx and OpenSSL never send one
//   unprompted); renegotiation is refused (tls_context.cc), and the failure that may follow
//   says so (note_alert).
//
// OpenSSL reports errors through a per-thread queue that must be empty before each call for
// SSL_get_error to be right; every call here empties it first, as nginx does before SSL_read,
// looking before it clears on the data path (clear_stale_errors).
#include "tls/tls_client.h"

#include <cassert>
#include <cstring>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "tls/tls_context.h"

namespace hammer {
namespace {

// RFC 6066 §3: "Literal IPv4 and IPv6 addresses are not permitted in HostName".
bool is_ip_literal(const char* name) {
  ASN1_OCTET_STRING* address = a2i_IPADDRESS(name);
  if (address == nullptr) {
    ERR_clear_error();
    return false;
  }
  ASN1_OCTET_STRING_free(address);
  return true;
}

// The queue is nearly always empty already (a failure drains it: tls_failure.cc), and
// ERR_clear_error resets all of its slots each time while ERR_peek_error of an empty queue is
// one comparison: on the data path, two calls per request, look first.
void clear_stale_errors() {
  if (ERR_peek_error() != 0) ERR_clear_error();
}

}  // namespace

TlsClient::TlsClient(const TlsContext& context) : context_(context) {}

TlsClient::~TlsClient() {
  free_connection();
  SSL_SESSION_free(session_);
}

void TlsClient::free_connection() {
  // A fatal TLS error spoils the session (RFC 5246 §7.2.2: such a connection "MUST NOT be
  // resumed"); the transport ending, with or without close_notify, or a handshake the caller
  // timed out, does not (TLS 1.1 and later allow resuming those, and browsers do).
  const bool session_good = state_ != TlsState::failed ||
                            failure_.kind == TlsError::closed_without_close_notify ||
                            failure_.kind == TlsError::handshake_timeout;
  if (ssl_ != nullptr && session_good) {
    // Else SSL_free marks the session not resumable (and takes the context's lock to drop it
    // from a cache we do not keep).
    SSL_set_shutdown(ssl_, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
  }
  if (!session_good) {
    SSL_SESSION_free(session_);
    session_ = nullptr;
  }
  SSL_free(ssl_);  // frees OpenSSL's end of the pair too
  BIO_free(network_);
  ssl_ = nullptr;
  network_ = nullptr;
  close_notify_sent_ = false;
  peer_closed_ = false;
  refused_renegotiation_ = false;
}

void TlsClient::reset() {
  free_connection();
  state_ = TlsState::idle;
  failure_ = {};
  info_ = {};
}

TlsState TlsClient::start(std::string_view server_name) {
  reset();
  ERR_clear_error();
  state_ = TlsState::handshaking;
  if (server_name.empty() || server_name.size() >= sizeof(server_name_) ||
      server_name.find('\0') != std::string_view::npos) {
    return fail_with({TlsError::other, "bad TLS server name '" + std::string(server_name) + "'"});
  }
  std::memcpy(server_name_, server_name.data(), server_name.size());
  server_name_[server_name.size()] = '\0';

  ssl_ = SSL_new(context_.native());
  BIO* internal = nullptr;
  if (ssl_ == nullptr || BIO_new_bio_pair(&internal, kRingBytes, &network_, kRingBytes) != 1) {
    return fail(SSL_ERROR_SSL);
  }
  SSL_set_bio(ssl_, internal, internal);  // one BIO both ways: SSL takes its one reference
  SSL_set_app_data(ssl_, this);
  SSL_set_info_callback(ssl_, note_alert);
  SSL_set_connect_state(ssl_);

  const bool ip_literal = is_ip_literal(server_name_);
  if (!ip_literal && SSL_set_tlsext_host_name(ssl_, server_name_) != 1) return fail(SSL_ERROR_SSL);
  if (context_.verifies()) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
    // As curl: "*.example.com" matches "a.example.com", never "a.b.example.com" or "ab*.com".
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    const int named = ip_literal ? X509_VERIFY_PARAM_set1_ip_asc(param, server_name_)
                                 : SSL_set1_host(ssl_, server_name_);
    if (named != 1) return fail(SSL_ERROR_SSL);
  }
  if (context_.resumes() && session_ != nullptr && SSL_SESSION_is_resumable(session_) == 1) {
    SSL_set_session(ssl_, session_);  // takes its own reference
  }
  return handshake();
}

TlsState TlsClient::handshake() {
  if (state_ != TlsState::handshaking) return state_;
  ERR_clear_error();
  const int result = SSL_do_handshake(ssl_);
  if (result == 1) {
    settle_session_info();
    state_ = TlsState::established;
    return state_;
  }
  const int error = SSL_get_error(ssl_, result);
  if (error == SSL_ERROR_WANT_READ && peer_closed_) {
    return fail_with(tls_closed_without_close_notify_failure(true));
  }
  if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return state_;
  return fail(error);
}

void TlsClient::settle_session_info() {
  info_.version = SSL_version(ssl_) == TLS1_3_VERSION ? TlsVersion::tls1_3 : TlsVersion::tls1_2;
  const char* cipher = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl_));
  info_.cipher = cipher != nullptr ? cipher : "";
  const unsigned char* alpn = nullptr;
  unsigned alpn_bytes = 0;
  SSL_get0_alpn_selected(ssl_, &alpn, &alpn_bytes);
  info_.alpn = context_.offered_protocol({alpn, alpn_bytes});
  info_.resumed = SSL_session_reused(ssl_) == 1;
}

void TlsClient::fail_handshake_timeout(int64_t timeout_ns) {
  fail_with(tls_handshake_timeout_failure(timeout_ns));
}

void TlsClient::close() {
  if (ssl_ == nullptr || close_notify_sent_) return;
  if (state_ == TlsState::established || state_ == TlsState::closed) {
    ERR_clear_error();
    SSL_shutdown(ssl_);  // 0: sent, the server's not yet seen; the connection ends either way
    ERR_clear_error();
    close_notify_sent_ = true;
    state_ = TlsState::closed;
  }
}

TlsState TlsClient::fail(int ssl_error) {
  TlsFailure failure = tls_failure_from_openssl(ssl_, ssl_error, server_name_);
  if (refused_renegotiation_) failure = tls_after_refused_renegotiation(std::move(failure));
  return fail_with(std::move(failure));
}

TlsState TlsClient::fail_with(TlsFailure failure) {
  failure_ = std::move(failure);
  state_ = TlsState::failed;
  return state_;
}

std::span<char> TlsClient::ciphertext_space() {
  if (network_ == nullptr) return {};
  char* space = nullptr;
  const int bytes = BIO_nwrite0(network_, &space);
  if (bytes <= 0) return {};
  return {space, static_cast<size_t>(bytes)};
}

void TlsClient::ciphertext_received(size_t bytes) {
  if (bytes == 0) return;
  char* space = nullptr;
  [[maybe_unused]] const int committed = BIO_nwrite(network_, &space, static_cast<int>(bytes));
  assert(committed == static_cast<int>(bytes));  // no more than ciphertext_space() offered
}

size_t TlsClient::put_ciphertext(std::span<const char> bytes) {
  if (network_ == nullptr || bytes.empty()) return 0;
  size_t written = 0;
  if (BIO_write_ex(network_, bytes.data(), bytes.size(), &written) != 1) return 0;  // full
  return written;
}

// Not BIO_shutdown_wr: OpenSSL would take the end for a truncation attack, a fatal error that
// marks the session not resumable. The end is told here, once OpenSSL has nothing left to read.
void TlsClient::peer_closed() { peer_closed_ = true; }

std::span<const char> TlsClient::ciphertext_to_send() const {
  if (network_ == nullptr) return {};
  char* pending = nullptr;
  const int bytes = BIO_nread0(network_, &pending);
  if (bytes <= 0) return {};
  return {pending, static_cast<size_t>(bytes)};
}

void TlsClient::ciphertext_sent(size_t bytes) {
  if (bytes == 0) return;
  char* pending = nullptr;
  [[maybe_unused]] const int consumed = BIO_nread(network_, &pending, static_cast<int>(bytes));
  assert(consumed == static_cast<int>(bytes));  // no more than ciphertext_to_send() offered
}

size_t TlsClient::ciphertext_pending() const {
  return network_ != nullptr ? BIO_ctrl_pending(network_) : 0;
}

TlsTransfer TlsClient::read(std::span<char> out) {
  if (state_ != TlsState::established) {
    return {state_ == TlsState::closed ? TlsIo::closed : TlsIo::failed, 0};
  }
  // The caller reads until want_input, so every response ends with a read that finds nothing.
  // Nothing to find is known without SSL_read: no record (whole or part) buffered inside
  // OpenSSL and no ciphertext waiting in the pair. With the peer gone, the full path below
  // tells a cut-off stream from a clean end.
  if (!peer_closed_ && SSL_has_pending(ssl_) == 0 && BIO_ctrl_pending(SSL_get_rbio(ssl_)) == 0) {
    return {TlsIo::want_input, 0};
  }
  clear_stale_errors();
  size_t bytes = 0;
  if (SSL_read_ex(ssl_, out.data(), out.size(), &bytes) == 1) return {TlsIo::done, bytes};
  const int error = SSL_get_error(ssl_, 0);
  switch (error) {
    case SSL_ERROR_WANT_READ:
      if (peer_closed_) {  // every whole record read; what is left (if anything) is cut off
        fail_with(tls_closed_without_close_notify_failure(false));
        return {TlsIo::failed, 0};
      }
      return {TlsIo::want_input, 0};
    case SSL_ERROR_WANT_WRITE:
      return {TlsIo::want_output, 0};
    case SSL_ERROR_ZERO_RETURN:
      state_ = TlsState::closed;
      return {TlsIo::closed, 0};
    default:
      fail(error);
      return {TlsIo::failed, 0};
  }
}

TlsTransfer TlsClient::write(std::span<const char> in) {
  if (state_ != TlsState::established) return {TlsIo::failed, 0};
  if (in.empty()) return {TlsIo::done, 0};
  clear_stale_errors();
  size_t bytes = 0;
  if (SSL_write_ex(ssl_, in.data(), in.size(), &bytes) == 1) return {TlsIo::done, bytes};
  const int error = SSL_get_error(ssl_, 0);
  switch (error) {
    case SSL_ERROR_WANT_WRITE:
      return {TlsIo::want_output, 0};
    case SSL_ERROR_WANT_READ:
      return {TlsIo::want_input, 0};
    default:
      fail(error);
      return {TlsIo::failed, 0};
  }
}

void TlsClient::note_alert(const SSL* ssl, int where, int value) {
  // `value` of an alert: its level in the high byte, its description in the low one.
  if ((where & SSL_CB_WRITE_ALERT) == 0 || (value & 0xff) != SSL_AD_NO_RENEGOTIATION) return;
  auto* client = static_cast<TlsClient*>(SSL_get_app_data(ssl));
  if (client != nullptr) client->refused_renegotiation_ = true;
}

int TlsClient::keep_session(SSL* ssl, SSL_SESSION* session) {
  auto* client = static_cast<TlsClient*>(SSL_get_app_data(ssl));
  if (client == nullptr) return 0;  // not ours: OpenSSL frees it
  SSL_SESSION_free(client->session_);
  client->session_ = session;
  return 1;
}

}  // namespace hammer
