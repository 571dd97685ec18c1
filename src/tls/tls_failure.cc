// SPDX-License-Identifier: MIT
// Classifying OpenSSL's failures. OpenSSL reports a failed call as SSL_ERROR_SSL plus a queue of
// packed error codes, oldest first; the oldest one from the SSL library is the cause (later
// ones are the layers that gave up because of it). Its reason code says which kind it is:
// - SSL_R_CERTIFICATE_VERIFY_FAILED: the chain or the name; SSL_get_verify_result tells which
//   (X509_V_ERR_HOSTNAME_MISMATCH and _IP_ADDRESS_MISMATCH come from SSL_set1_host and
//   X509_VERIFY_PARAM_set1_ip_asc, checked as part of the chain);
// - SSL_AD_REASON_OFFSET + an alert code (1000..1255): the peer sent that fatal alert; a
//   protocol_version alert (1070) is the server refusing every version offered;
// - the version reasons (unsupported protocol, version too low ...): this side refused;
// - SSL_R_UNEXPECTED_EOF_WHILE_READING: the transport ended with no close_notify (TlsClient
//   tells that itself, so OpenSSL never sees the end: it would spoil the session).
// OpenSSL's own texts ("self-signed certificate in certificate chain", "bad record mac") are
// precise and stable across 3.x, so the reasons quote them after a prefix that names the kind.
#include "tls/tls_failure.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

namespace hammer {
namespace {

bool is_version_reason(int reason) {
  switch (reason) {
    case SSL_R_UNSUPPORTED_PROTOCOL:
    case SSL_R_NO_PROTOCOLS_AVAILABLE:
    case SSL_R_VERSION_TOO_HIGH:
    case SSL_R_VERSION_TOO_LOW:
    case SSL_R_WRONG_SSL_VERSION:
    case SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
      return true;
    default:
      return false;
  }
}

// The first SSL-library error in the queue, else the first of any library; 0 when empty.
// Empties the queue, so the next call on this thread starts clean.
unsigned long first_error() {
  unsigned long first_any = 0;
  while (const unsigned long code = ERR_get_error()) {  // oldest first
    if (first_any == 0) first_any = code;
    if (ERR_GET_LIB(code) == ERR_LIB_SSL) {
      ERR_clear_error();
      return code;
    }
  }
  return first_any;
}

std::string reason_text(unsigned long code) {
  const char* text = ERR_reason_error_string(code);
  if (text != nullptr) return text;
  return "error " + std::to_string(ERR_GET_REASON(code));
}

}  // namespace

std::string_view tls_error_name(TlsError kind) {
  switch (kind) {
    case TlsError::none:
      return "none";
    case TlsError::verify_failed:
      return "verify_failed";
    case TlsError::hostname_mismatch:
      return "hostname_mismatch";
    case TlsError::protocol_version:
      return "protocol_version";
    case TlsError::alert_received:
      return "alert_received";
    case TlsError::handshake_timeout:
      return "handshake_timeout";
    case TlsError::closed_without_close_notify:
      return "closed_without_close_notify";
    case TlsError::other:
      break;
  }
  return "other";
}

TlsFailure tls_failure_from_openssl(const SSL* ssl, int ssl_error, std::string_view server_name) {
  const unsigned long code = first_error();
  if (code == 0) {
    // SSL_ERROR_SYSCALL with an empty queue: the BIO reported an end OpenSSL did not name.
    if (ssl_error == SSL_ERROR_SYSCALL || ssl_error == SSL_ERROR_ZERO_RETURN) {
      return tls_closed_without_close_notify_failure(false);
    }
    return {TlsError::other, "TLS failure (OpenSSL error " + std::to_string(ssl_error) + ")"};
  }
  const int reason = ERR_GET_REASON(code);
  if (ERR_GET_LIB(code) == ERR_LIB_SSL) {
    if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED) {
      const long verify = SSL_get_verify_result(ssl);
      const std::string words = X509_verify_cert_error_string(verify);
      if (verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH) {
        return {TlsError::hostname_mismatch, "certificate verify failed: " + words +
                                                 " (the certificate is not for '" +
                                                 std::string(server_name) + "')"};
      }
      // A chain the trust store does not reach (a private CA, a self-signed test server):
      // the two ways on are the flags, named as the other errors name theirs.
      const bool untrusted = verify == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY ||
                             verify == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT ||
                             verify == X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE ||
                             verify == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT ||
                             verify == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN ||
                             verify == X509_V_ERR_CERT_UNTRUSTED;
      return {TlsError::verify_failed,
              "certificate verify failed: " + words +
                  (untrusted ? " (trust its CA with --cacert FILE, or skip verification with -k)"
                             : "")};
    }
    if (is_version_reason(reason)) {
      if (reason == SSL_R_TLSV1_ALERT_PROTOCOL_VERSION) {
        return {TlsError::protocol_version,
                "protocol version: the server accepts none of the versions offered (alert "
                "protocol version)"};
      }
      return {TlsError::protocol_version, "protocol version: " + reason_text(code)};
    }
    if (reason >= SSL_AD_REASON_OFFSET && reason < SSL_AD_REASON_OFFSET + 256) {
      // "sslv3 alert bad record mac", "tlsv13 alert certificate required": the alert's name
      // after the word "alert" (SSL_alert_desc_string_long knows no TLS 1.3 alert in 3.0).
      std::string name = reason_text(code);
      if (const size_t at = name.find("alert "); at != std::string::npos) name.erase(0, at + 6);
      return {TlsError::alert_received, "alert received: " + name,
              reason - SSL_AD_REASON_OFFSET};
    }
    if (reason == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
      return tls_closed_without_close_notify_failure(false);
    }
    if (reason == SSL_R_WRONG_VERSION_NUMBER) {
      return {TlsError::other, "wrong version number (is the server speaking TLS on this port?)"};
    }
  }
  return {TlsError::other, reason_text(code)};
}

bool refuses_client_certificate(const TlsFailure& failure) {
  if (failure.kind != TlsError::alert_received) return false;
  switch (failure.alert) {
    case SSL_AD_BAD_CERTIFICATE:
    case SSL_AD_UNSUPPORTED_CERTIFICATE:
    case SSL_AD_CERTIFICATE_REVOKED:
    case SSL_AD_CERTIFICATE_EXPIRED:
    case SSL_AD_CERTIFICATE_UNKNOWN:
    case SSL_AD_UNKNOWN_CA:
    case SSL_AD_CERTIFICATE_REQUIRED:
      return true;
    default:
      return false;
  }
}

bool refuses_application_protocol(const TlsFailure& failure) {
  return failure.kind == TlsError::alert_received &&
         failure.alert == SSL_AD_NO_APPLICATION_PROTOCOL;
}

bool refuses_security_parameters(const TlsFailure& failure) {
  return failure.kind == TlsError::alert_received && failure.alert == SSL_AD_HANDSHAKE_FAILURE;
}

TlsFailure tls_after_refused_renegotiation(TlsFailure failure) {
  failure.reason += " (after the server asked to renegotiate, which hammer refuses)";
  return failure;
}

TlsFailure tls_handshake_timeout_failure(int64_t timeout_ns) {
  // As the flag is spelled: "--timeout 300ms", "--timeout 10s".
  const int64_t ms = timeout_ns / 1'000'000;
  const std::string timeout =
      ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
  return {TlsError::handshake_timeout,
          "handshake timeout: the handshake did not finish within --timeout " + timeout};
}

TlsFailure tls_closed_without_close_notify_failure(bool during_handshake) {
  return {TlsError::closed_without_close_notify,
          during_handshake ? "connection closed during the handshake"
                           : "connection closed without close_notify"};
}

}  // namespace hammer
