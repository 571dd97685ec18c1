// SPDX-License-Identifier: MIT
#pragma once
// Where the system's trust store is when OpenSSL's compiled-in one is not there. A libssl
// from the system's own packages looks where that system keeps its certificates; one linked
// in statically (the npm package's Linux binary, HAMMER_STATIC_OPENSSL) looks where the
// build machine kept them (Debian: /usr/lib/ssl), which another distribution lacks, and every
// handshake would then fail "unable to get local issuer certificate". So, as Go's crypto/x509
// does, the bundle files the common distributions install are tried in turn. OpenSSL's own
// SSL_CERT_FILE and SSL_CERT_DIR still win: they are the user's word.
#include <functional>
#include <span>
#include <string>

namespace hammer {

/// The CA bundle files the common Linux distributions install, most common first.
std::span<const char* const> known_ca_bundles();

/// The bundle to load besides OpenSSL's default paths, or "" for none: none when the user set
/// SSL_CERT_FILE or SSL_CERT_DIR (`env_set`), or when OpenSSL's compiled-in file or directory
/// (`default_file`, `default_dir`) exists; else the first of `candidates` that exists.
std::string fallback_ca_bundle(bool env_set, const std::string& default_file,
                               const std::string& default_dir,
                               std::span<const char* const> candidates,
                               const std::function<bool(const std::string&)>& exists);

}  // namespace hammer
