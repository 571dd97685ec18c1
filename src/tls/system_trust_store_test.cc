// SPDX-License-Identifier: MIT
#include "tls/system_trust_store.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace hammer {
namespace {

struct FakeFiles {
  std::set<std::string> present;
  bool operator()(const std::string& path) const { return present.count(path) != 0; }
};

constexpr const char* kDefaultFile = "/usr/lib/ssl/cert.pem";
constexpr const char* kDefaultDir = "/usr/lib/ssl/certs";

TEST(SystemTrustStoreTest, OpenSslsOwnDefaultWhereItExists) {
  const FakeFiles files{{kDefaultDir, "/etc/pki/tls/certs/ca-bundle.crt"}};
  EXPECT_EQ(fallback_ca_bundle(false, kDefaultFile, kDefaultDir, known_ca_bundles(), files), "");
}

TEST(SystemTrustStoreTest, TheFirstKnownBundleWhereTheDefaultIsMissing) {
  // A Fedora machine running a binary built on Debian.
  const FakeFiles fedora{{"/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"}};
  EXPECT_EQ(fallback_ca_bundle(false, kDefaultFile, kDefaultDir, known_ca_bundles(), fedora),
            "/etc/pki/tls/certs/ca-bundle.crt");
  const FakeFiles alpine{{"/etc/ssl/cert.pem"}};
  EXPECT_EQ(fallback_ca_bundle(false, kDefaultFile, kDefaultDir, known_ca_bundles(), alpine),
            "/etc/ssl/cert.pem");
}

TEST(SystemTrustStoreTest, TheUsersEnvironmentWinsAndNothingFoundIsNothing) {
  const FakeFiles fedora{{"/etc/pki/tls/certs/ca-bundle.crt"}};
  EXPECT_EQ(fallback_ca_bundle(true, kDefaultFile, kDefaultDir, known_ca_bundles(), fedora), "");
  EXPECT_EQ(fallback_ca_bundle(false, kDefaultFile, kDefaultDir, known_ca_bundles(), FakeFiles{}),
            "");
}

TEST(SystemTrustStoreTest, EveryKnownBundleIsAnAbsolutePath) {
  ASSERT_FALSE(known_ca_bundles().empty());
  for (const char* bundle : known_ca_bundles()) EXPECT_EQ(bundle[0], '/') << bundle;
}

}  // namespace
}  // namespace hammer
