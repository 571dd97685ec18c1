// SPDX-License-Identifier: MIT
#pragma once
// Why a TLS connection failed: a kind to count and decide on, and the first error's reason in
// words, written once here (tls_failure.cc) from what OpenSSL said, for report/ to print as is.
#include <cstdint>
#include <string>
#include <string_view>

#include <openssl/types.h>

namespace hammer {

enum class TlsError : uint8_t {
  none,
  verify_failed,      // the server's chain does not verify: untrusted CA, self-signed, expired
  hostname_mismatch,  // the chain verifies but names another host (or IP address) than the URL's
  protocol_version,   // no TLS version both sides accept (--tls-min / --tls-max, or the server's)
  alert_received,     // the server sent a fatal alert (during the handshake or mid-stream)
  handshake_timeout,  // the caller's timer ran out (TlsClient::fail_handshake_timeout)
  closed_without_close_notify,  // the transport ended with no close_notify from the server
  other,              // anything else, e.g. a plain-HTTP server on the port ("wrong version number")
};

/// The kind's name as JSON and the counters spell it: "verify_failed", "hostname_mismatch" ...
std::string_view tls_error_name(TlsError kind);

struct TlsFailure {
  TlsError kind = TlsError::none;
  /// One line without a trailing period, e.g. "certificate verify failed: self-signed
  /// certificate in certificate chain"; empty when kind is none.
  std::string reason;
  /// alert_received: the alert's description (RFC 8446 §6: 116 certificate_required ...);
  /// -1 otherwise.
  int alert = -1;
  explicit operator bool() const { return kind != TlsError::none; }
};

/// The server's alert is about the client's certificate (none given where one is required,
/// or one it does not accept: bad, unsupported, revoked, expired, unknown, an unknown CA).
/// A server sends these only of what the client presented, or failed to: under TLS 1.3 they
/// come after the client's handshake is done, with its first read.
bool refuses_client_certificate(const TlsFailure& failure);

/// The failure an OpenSSL call on `ssl` just reported (`ssl_error` from SSL_get_error), read
/// from the thread's error queue (the first error: the cause, not its consequences) and the
/// verify result. `server_name` is the name the certificate had to match. Clears the queue.
TlsFailure tls_failure_from_openssl(const SSL* ssl, int ssl_error, std::string_view server_name);

/// The server's no_application_protocol alert (RFC 7301 §3.2): it took none of the protocols
/// the client's ALPN offered.
bool refuses_application_protocol(const TlsFailure& failure);

/// The server's handshake_failure alert: it took none of the security parameters offered. A
/// TLS 1.2 server that requires a client certificate ends a handshake without one so.
bool refuses_security_parameters(const TlsFailure& failure);

/// `failure`, on a connection that refused the server's request to renegotiate (TLS 1.2
/// HelloRequest; hammer never renegotiates): the server's answer to the refusal, usually a
/// handshake_failure alert, with why in words.
TlsFailure tls_after_refused_renegotiation(TlsFailure failure);

/// The failure for a handshake the caller's timer gave up on after `timeout_ns` (--timeout).
TlsFailure tls_handshake_timeout_failure(int64_t timeout_ns);

/// The failure for a transport that ended with no close_notify, during the handshake or after.
TlsFailure tls_closed_without_close_notify_failure(bool during_handshake);

}  // namespace hammer
