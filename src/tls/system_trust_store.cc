// SPDX-License-Identifier: MIT
#include "tls/system_trust_store.h"

#include <array>

namespace hammer {

std::span<const char* const> known_ca_bundles() {
  static constexpr std::array<const char*, 5> kBundles = {
      "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Arch, Alpine, Gentoo
      "/etc/pki/tls/certs/ca-bundle.crt",    // Fedora, RHEL, CentOS
      "/etc/ssl/ca-bundle.pem",              // openSUSE
      "/etc/pki/tls/cacert.pem",             // OpenELEC
      "/etc/ssl/cert.pem",                   // Alpine, Void
  };
  return kBundles;
}

std::string fallback_ca_bundle(bool env_set, const std::string& default_file,
                               const std::string& default_dir,
                               std::span<const char* const> candidates,
                               const std::function<bool(const std::string&)>& exists) {
  if (env_set || exists(default_file) || exists(default_dir)) return {};
  for (const char* candidate : candidates) {
    if (exists(candidate)) return candidate;
  }
  return {};
}

}  // namespace hammer
