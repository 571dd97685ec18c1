// SPDX-License-Identifier: MIT
#pragma once
// TlsContext: what every https:// connection of a run shares, built once before the run from
// the options (core/config.h's TlsConfig): the trust store, the client certificate, the version
// bounds, the ALPN list and the session-cache settings, in one OpenSSL SSL_CTX. Each connection
// is a TlsClient (tls_client.h) made from it.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/types.h>

#include "core/config.h"
#include "core/expected.h"

namespace hammer {

/// Which setting could not be used, so the caller names its flag.
enum class TlsSetupStep : uint8_t {
  openssl,       // OpenSSL itself (out of memory, a broken installation)
  system_store,  // the system's trust store (no --cacert)
  ca_file,       // --cacert
  cert_file,     // --cert
  key_file,      // --key
  key_mismatch,  // --key is not the key of --cert
  alpn,          // a protocol name of the ALPN list (empty, or over 255 bytes)
};

struct TlsSetupError {
  TlsSetupStep step = TlsSetupStep::openssl;
  std::string reason;  // OpenSSL's words, e.g. "no such file" or "key values mismatch"
};

/// The protocol version as TLS numbers it: TLS1_2_VERSION, TLS1_3_VERSION.
int tls_protocol_number(TlsVersion version);

class TlsContext {
 public:
  /// Builds the shared context. Verification is on (system trust store, or --cacert alone,
  /// as curl does) unless config.insecure; `alpn` is offered in order ("http/1.1" today, "h2"
  /// with HTTP/2); an empty list offers no ALPN at all. Reads the files now, so a bad one is
  /// an error before the run, not a run of failed handshakes.
  static Expected<TlsContext, TlsSetupError> create(
      const TlsConfig& config, std::vector<std::string> alpn = {"http/1.1"});

  TlsContext(TlsContext&&) noexcept;
  TlsContext& operator=(TlsContext&&) noexcept;
  ~TlsContext();

  /// The SSL_CTX; SSL_new on it is thread-safe, so workers share one context, read-only.
  SSL_CTX* native() const { return context_.get(); }
  bool verifies() const { return !insecure_; }
  /// Session resumption (--tls-resume): connections keep their last session for the next.
  bool resumes() const { return resume_; }
  /// The entry of the ALPN list equal to `selected` (what the server chose), so the view
  /// lives as long as the context; empty when none matches.
  std::string_view offered_protocol(std::span<const unsigned char> selected) const;

 private:
  struct FreeContext {
    void operator()(SSL_CTX* context) const;
  };
  TlsContext() = default;

  std::unique_ptr<SSL_CTX, FreeContext> context_;
  std::vector<std::string> alpn_;
  bool insecure_ = false;
  bool resume_ = true;
};

}  // namespace hammer
