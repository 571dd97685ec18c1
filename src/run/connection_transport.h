// SPDX-License-Identifier: MIT
#pragma once
// The transport seam of a connection (design.md §10): a byte transform between the engine
// (ciphertext on a socket) and HTTP/1.1 (request bytes, the response parser). A plain
// connection has none (Connection::transport is null: the worker's plain path, unchanged, one
// branch per read or write); an https:// connection has one, TLS (connection_transport_tls.cc
// over src/tls/'s TlsClient). The worker drives it in worker_transport.cc, one virtual call
// per read, write or handshake step, never per byte.
//
// The interface names no OpenSSL type, so the worker compiles in a build without TLS; there
// make_tls_transport_context() says this build has none (connection_transport_no_tls.cc).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/config.h"
#include "core/expected.h"
#include "run/result.h"

namespace hammer {

enum class TransportState : uint8_t {
  handshaking,  // feed the server's bytes in and call handshake() until established
  established,  // read() and write() application data
  failed,       // failure_reason() says why; the connection is done
};

enum class TransportIo : uint8_t {
  done,         // `bytes` moved (> 0)
  want_input,   // nothing more until more bytes arrive
  want_output,  // the outgoing ring is full: send to_send(), then call again with the same bytes
  closed,       // read: the end of the stream (the server's close_notify, or, once the socket
                // ended, none): whether that is an error is the HTTP layer's call
  failed,       // failure_reason() says why
};

struct TransportTransfer {
  TransportIo io = TransportIo::want_input;
  size_t bytes = 0;
};

/// What a handshake settled (views live as long as the context).
struct TransportSession {
  TlsVersion version = TlsVersion::tls1_2;
  std::string_view cipher;
  std::string_view alpn;
  bool resumed = false;
};

/// One connection's transform, made at setup and reused by each socket the connection opens.
class ConnectionTransport {
 public:
  virtual ~ConnectionTransport() = default;

  /// A new socket connected: begins the handshake (what to send is in to_send() on return).
  virtual TransportState start() = 0;
  /// Advances the handshake with what has arrived.
  virtual TransportState handshake() = 0;
  /// The caller's timer gave up on the handshake.
  virtual void fail_handshake_timeout(int64_t timeout_ns) = 0;

  /// Received bytes: straight into the incoming ring (readiness engines), or copied in
  /// (io_uring's provided buffers): returns how many it took (fewer when the ring is full:
  /// read() first).
  virtual std::span<char> receive_space() = 0;
  virtual void received(size_t bytes) = 0;
  virtual size_t put_received(std::span<const char> bytes) = 0;
  /// The socket reached its end (recv returned 0).
  virtual void peer_closed() = 0;

  /// Bytes waiting to be sent; they stay in place until sent() says how many left.
  virtual std::span<const char> to_send() const = 0;
  virtual void sent(size_t bytes) = 0;

  virtual TransportTransfer read(std::span<char> out) = 0;
  virtual TransportTransfer write(std::span<const char> in) = 0;

  /// The failure's reason in words (tls_failure.cc), e.g. "certificate verify failed: ...".
  virtual std::string_view failure_reason() const = 0;
  /// What the server's alert, if the failure was one, says it refused: the client's
  /// certificate or its lack (tls_failure.h refuses_client_certificate), or every protocol
  /// ALPN offered (refuses_application_protocol). Decided on the alert's number.
  virtual TransportRefusal failure_refusal() const = 0;
  virtual TransportSession session() const = 0;
};

/// What every connection of a run shares (the TLS context), built once before the run.
class TransportContext {
 public:
  virtual ~TransportContext() = default;
  /// A connection's transform (at a worker's setup: it allocates).
  virtual std::unique_ptr<ConnectionTransport> connection() const = 0;
  virtual bool verifies() const = 0;
};

/// OpenSSL's small blocks from a per-thread free list instead of malloc (tls/tls_block_cache.h):
/// call first in main(), before OpenSSL allocates. False where it could not be (or no TLS).
bool install_tls_allocator();

/// The name a server's certificate must carry and SNI sends: the Host header's host when one
/// is given (-H "Host: ..."), else the URL's host.
std::string tls_server_name(const Config& config);

/// The run's TLS context from config.tls (reads --cacert, --cert, --key now). The error is one
/// line naming the flag ("--cacert: ..."), or, in a build without TLS, saying so.
Expected<std::shared_ptr<const TransportContext>, std::string> make_tls_transport_context(
    const Config& config);

}  // namespace hammer
