// SPDX-License-Identifier: MIT
#pragma once
// TlsClient: one https:// connection's TLS, as a byte transform with no socket. The engine
// moves ciphertext between the socket and this object; the HTTP/1.1 code reads and writes
// plaintext through it. Two rings of fixed size sit between them (an OpenSSL BIO pair):
//
//   engine --recv--> ciphertext_space() / put_ciphertext() --> OpenSSL --> read(plaintext)
//   engine <--send-- ciphertext_to_send()                  <-- OpenSSL <-- write(plaintext)
//
// After every call that can make ciphertext (start, handshake, read, write, close), the caller
// sends what ciphertext_to_send() holds. Nothing here blocks, allocates after the handshake
// (see tls_client.cc for what OpenSSL allocates and when), or knows which engine it serves.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <openssl/types.h>

#include "core/config.h"
#include "tls/tls_failure.h"

struct ssl_session_st;  // SSL_SESSION, declared in <openssl/ssl.h>

namespace hammer {

class TlsContext;

enum class TlsState : uint8_t {
  idle,         // before start(), or after reset()
  handshaking,  // feed the server's bytes in and call handshake() until it says established
  established,  // read() and write() application data
  closed,       // the server's close_notify arrived (read() said closed): a clean end
  failed,       // failure() says why; start() again for a new connection
};

/// What a read() or write() did.
enum class TlsIo : uint8_t {
  done,          // `bytes` moved (> 0)
  want_input,    // nothing more until more ciphertext arrives (a record is still incomplete)
  want_output,   // the outgoing ring is full: send ciphertext_to_send(), then call again
  closed,        // read: close_notify received, no more plaintext will come
  failed,        // failure() says why; the connection is done
};

struct TlsTransfer {
  TlsIo io = TlsIo::want_input;
  size_t bytes = 0;  // plaintext bytes read into the caller's buffer, or taken from it
};

/// What the handshake settled; valid from `established` until the next start() or reset().
struct TlsSessionInfo {
  TlsVersion version = TlsVersion::tls1_2;
  std::string_view cipher;  // OpenSSL's name, e.g. "TLS_AES_256_GCM_SHA384"; static storage
  std::string_view alpn;    // the protocol the server chose from the list offered; empty when
                            // it chose none (views the TlsContext's list)
  bool resumed = false;     // an abbreviated handshake on a session of an earlier connection
};

class TlsClient {
 public:
  /// Bytes each ring holds: a whole TLS record (16 KB of plaintext plus its header and tag)
  /// fits, so a record never needs two trips through a full ring.
  static constexpr size_t kRingBytes = 17 * 1024;

  /// `context` must outlive this client. No OpenSSL object exists until start().
  explicit TlsClient(const TlsContext& context);
  ~TlsClient();
  TlsClient(const TlsClient&) = delete;
  TlsClient& operator=(const TlsClient&) = delete;

  /// Begins a handshake on a newly connected socket (dropping any earlier connection's state,
  /// but keeping its session to resume, unless the context does not resume). `server_name` is
  /// the URL's host, or the Host header's when one is given: sent as SNI unless it is an IP
  /// address (RFC 6066 forbids literal addresses there), and what the certificate must name.
  /// The ClientHello is in ciphertext_to_send() on return. Returns handshaking, or failed.
  TlsState start(std::string_view server_name);

  /// Advances the handshake with what has arrived; returns the state it reached. Once it is
  /// established, session() holds what was negotiated.
  TlsState handshake();

  /// Marks a handshake that the caller's timer gave up on as failed (handshake_timeout).
  void fail_handshake_timeout(int64_t timeout_ns);

  /// Asks for a close_notify to the server (in ciphertext_to_send() on return), for a polite
  /// end of a connection hammer closes; the connection is then done.
  void close();

  /// Frees the connection's OpenSSL objects (as after start() the next time), keeping the
  /// session to resume. For a connection that ends and waits before it reconnects.
  void reset();

  // --- ciphertext from the server --------------------------------------------------------
  /// Contiguous free space of the incoming ring, for the engine to receive into directly
  /// (zero-copy); then received(n). Empty when the ring is full: read() plaintext first. The
  /// span stays valid until received(), put_ciphertext(), start() or reset().
  std::span<char> ciphertext_space();
  void ciphertext_received(size_t bytes);
  /// Copies what fits of `bytes` into the incoming ring; returns how many it took (less than
  /// given when the ring is full: read() plaintext, then offer the rest).
  size_t put_ciphertext(std::span<const char> bytes);
  /// The socket reached its end (recv returned 0): read() reports closed when the server's
  /// close_notify came first, failed with closed_without_close_notify otherwise.
  void peer_closed();

  // --- ciphertext to the server ----------------------------------------------------------
  /// The oldest contiguous run of ciphertext waiting to be sent; it stays in place (send it
  /// straight from here, io_uring included) until ciphertext_sent() says how much left.
  std::span<const char> ciphertext_to_send() const;
  void ciphertext_sent(size_t bytes);
  size_t ciphertext_pending() const;  // all of it, across the ring's wrap

  // --- plaintext -------------------------------------------------------------------------
  /// Decrypts into `out` (established only): done with bytes > 0, or why nothing came.
  TlsTransfer read(std::span<char> out);
  /// Encrypts from `in` (established only): done with the bytes taken (whole records; perhaps
  /// fewer than given), or want_output with none, when the outgoing ring must be sent first.
  /// After want_output, call again with the same bytes (OpenSSL holds a record of them).
  TlsTransfer write(std::span<const char> in);

  TlsState state() const { return state_; }
  const TlsFailure& failure() const { return failure_; }
  const TlsSessionInfo& session() const { return info_; }
  /// A session from an earlier connection is held to offer at the next start().
  bool has_session_to_resume() const { return session_ != nullptr; }

  /// OpenSSL's new-session callback (TlsContext installs it): keeps `session` for the next
  /// start() of the client that owns `ssl`. Returns 1: the reference is now the client's.
  static int keep_session(SSL* ssl, ssl_session_st* session);

  /// OpenSSL's info callback (start() installs it on each connection): notes that this client
  /// refused a renegotiation (it sent the no_renegotiation warning), so a failure the server
  /// answers it with names why. OpenSSL calls it for handshake states and alerts only, never
  /// for application data.
  static void note_alert(const SSL* ssl, int where, int value);

 private:
  TlsState fail(int ssl_error);
  TlsState fail_with(TlsFailure failure);
  void settle_session_info();
  void free_connection();

  const TlsContext& context_;
  SSL* ssl_ = nullptr;
  BIO* network_ = nullptr;  // our end of the BIO pair; OpenSSL owns the other (via ssl_)
  ssl_session_st* session_ = nullptr;  // the last session the server gave; one reference
  TlsState state_ = TlsState::idle;
  bool close_notify_sent_ = false;
  bool peer_closed_ = false;  // the socket ended (peer_closed): no more ciphertext will come
  bool refused_renegotiation_ = false;  // the server asked to renegotiate (note_alert)
  TlsFailure failure_;
  TlsSessionInfo info_;
  char server_name_[256] = {};  // for the hostname-mismatch reason; DNS names fit in 253
};

}  // namespace hammer
