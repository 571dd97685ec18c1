// SPDX-License-Identifier: MIT
// The one SSL_CTX of a run. Everything a connection does not choose for itself is set here,
// once, so a handshake costs only its own work:
// - verification: SSL_VERIFY_PEER against the system's store (SSL_CTX_set_default_verify_paths:
//   the bundle file is read now; a hashed directory, where a system has one, is read on
//   demand by the first handshakes) or --cacert alone; the host name is per connection
//   (TlsClient::start). -k turns verification off, nothing else.
// - versions and ALPN as the options say; renegotiation refused (SSL_OP_NO_RENEGOTIATION): a
//   server asking for it mid-run would turn a request into a handshake nobody measures.
// - buffers: SSL_MODE_RELEASE_BUFFERS stays off, so each connection's read and write buffers
//   (about 17 KB each) are allocated at its handshake and kept, never freed and reallocated
//   between records; partial writes and moving write buffers on, so a large write returns
//   after each record that fits instead of insisting on the same pointer.
// - sessions: a client cache with no internal store. OpenSSL hands each new session (a TLS 1.2
//   session ID at the end of the handshake, a TLS 1.3 ticket when it arrives after) to
//   TlsClient::keep_session, and the connection offers it at its next handshake. No shared
//   cache means no lock between workers; each connection resumes its own last session.
#include "tls/tls_context.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "tls/system_trust_store.h"
#include "tls/tls_client.h"

namespace hammer {
namespace {

std::string take_error_reason() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown error";
  const char* text = ERR_reason_error_string(code);
  return text != nullptr ? text : "error " + std::to_string(ERR_GET_REASON(code));
}

Unexpected<TlsSetupError> setup_error(TlsSetupStep step) {
  return unexpected(TlsSetupError{step, take_error_reason()});
}

// Whether the first error OpenSSL queued (the cause; those after it are its callers' "PEM lib")
// is this library's reason.
bool first_error_is(int library, int reason) {
  const unsigned long code = ERR_peek_error();
  return ERR_GET_LIB(code) == library && ERR_GET_REASON(code) == reason;
}

// The two files swapped, or a file of neither kind, in words that say so: OpenSSL alone says
// "no start line" (no PEM certificate block) and "unsupported" (no decoder took the file as a
// key).
Unexpected<TlsSetupError> file_error(TlsSetupStep step, const std::string& path, int library,
                                     int reason, const char* what) {
  if (!first_error_is(library, reason)) return setup_error(step);
  ERR_clear_error();
  return unexpected(TlsSetupError{step, path + " holds " + what});
}

// An encrypted --key would make OpenSSL ask for its pass phrase on the terminal, in the middle
// of a benchmark's start-up: answer "no pass phrase" so loading fails with a reason instead.
int no_pass_phrase(char*, int, int, void*) { return 0; }

}  // namespace

// A CA bundle to load besides OpenSSL's default paths, or "" (tls/system_trust_store.h).
std::string system_ca_bundle_fallback() {
  const bool env_set = std::getenv(X509_get_default_cert_file_env()) != nullptr ||
                       std::getenv(X509_get_default_cert_dir_env()) != nullptr;
  return fallback_ca_bundle(env_set, X509_get_default_cert_file(), X509_get_default_cert_dir(),
                            known_ca_bundles(),
                            [](const std::string& path) { return access(path.c_str(), R_OK) == 0; });
}

int tls_protocol_number(TlsVersion version) {
  return version == TlsVersion::tls1_3 ? TLS1_3_VERSION : TLS1_2_VERSION;
}

void TlsContext::FreeContext::operator()(SSL_CTX* context) const { SSL_CTX_free(context); }

TlsContext::TlsContext(TlsContext&&) noexcept = default;
TlsContext& TlsContext::operator=(TlsContext&&) noexcept = default;
TlsContext::~TlsContext() = default;

Expected<TlsContext, TlsSetupError> TlsContext::create(const TlsConfig& config,
                                                       std::vector<std::string> alpn) {
  ERR_clear_error();
  TlsContext result;
  result.context_.reset(SSL_CTX_new(TLS_client_method()));
  SSL_CTX* context = result.context_.get();
  if (context == nullptr) return setup_error(TlsSetupStep::openssl);
  result.insecure_ = config.insecure;
  result.resume_ = config.resume;

  if (SSL_CTX_set_min_proto_version(context, tls_protocol_number(config.min_version)) != 1 ||
      SSL_CTX_set_max_proto_version(context, tls_protocol_number(config.max_version)) != 1) {
    return setup_error(TlsSetupStep::openssl);
  }
  SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_clear_mode(context, SSL_MODE_RELEASE_BUFFERS);
  SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // Read ahead: one BIO read takes every whole record that has arrived, not a header and then
  // a body, so a burst of records costs one pass through the BIO.
  SSL_CTX_set_read_ahead(context, 1);
  SSL_CTX_set_default_passwd_cb(context, no_pass_phrase);

  if (config.insecure) {
    SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nullptr);
  } else {
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    if (!config.ca_file.empty()) {
      if (SSL_CTX_load_verify_file(context, config.ca_file.c_str()) != 1) {
        // A key, an empty file or DER: OpenSSL alone says "no certificate or crl found".
        return file_error(TlsSetupStep::ca_file, config.ca_file, ERR_LIB_X509,
                          X509_R_NO_CERTIFICATE_OR_CRL_FOUND,
                          "no PEM certificate (a CA bundle is '-----BEGIN CERTIFICATE-----' "
                          "blocks)");
      }
    } else if (SSL_CTX_set_default_verify_paths(context) != 1) {
      return setup_error(TlsSetupStep::system_store);
    } else if (const std::string bundle = system_ca_bundle_fallback(); !bundle.empty()) {
      // OpenSSL's compiled-in store is not on this machine (a static build run elsewhere).
      if (SSL_CTX_load_verify_file(context, bundle.c_str()) != 1) {
        return setup_error(TlsSetupStep::system_store);
      }
    }
  }

  if (!config.cert_file.empty()) {
    if (SSL_CTX_use_certificate_chain_file(context, config.cert_file.c_str()) != 1) {
      return file_error(TlsSetupStep::cert_file, config.cert_file, ERR_LIB_PEM, PEM_R_NO_START_LINE,
                        "no PEM certificate (is it the key?)");
    }
    if (SSL_CTX_use_PrivateKey_file(context, config.key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
      // It checks the key against the certificate itself: a key of another certificate.
      const unsigned long code = ERR_peek_error();
      const bool mismatch =
          ERR_GET_LIB(code) == ERR_LIB_X509 && ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH;
      if (mismatch) return setup_error(TlsSetupStep::key_mismatch);
      return file_error(TlsSetupStep::key_file, config.key_file, ERR_LIB_OSSL_DECODER, ERR_R_UNSUPPORTED,
                        "no PEM private key (is it the certificate?)");
    }
    if (SSL_CTX_check_private_key(context) != 1) return setup_error(TlsSetupStep::key_mismatch);
  }

  if (!alpn.empty()) {
    std::string wire;  // each name prefixed by its length (RFC 7301)
    for (const std::string& name : alpn) {
      if (name.empty() || name.size() > 255) {
        return unexpected(TlsSetupError{TlsSetupStep::alpn, "bad protocol name '" + name + "'"});
      }
      wire += static_cast<char>(name.size());
      wire += name;
    }
    // The one OpenSSL setter that returns 0 on success.
    if (SSL_CTX_set_alpn_protos(context, reinterpret_cast<const unsigned char*>(wire.data()),
                                static_cast<unsigned>(wire.size())) != 0) {
      return setup_error(TlsSetupStep::openssl);
    }
  }
  result.alpn_ = std::move(alpn);

  if (config.resume) {
    SSL_CTX_set_session_cache_mode(context,
                                   SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(context, TlsClient::keep_session);
  } else {
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET);  // no TLS 1.2 ticket asked for either
  }
  return result;
}

std::string_view TlsContext::offered_protocol(std::span<const unsigned char> selected) const {
  const std::string_view name(reinterpret_cast<const char*>(selected.data()), selected.size());
  for (const std::string& offered : alpn_) {
    if (offered == name) return offered;
  }
  return {};
}

}  // namespace hammer
