// SPDX-License-Identifier: MIT
// The TLS flags (issue 25): -k, --cacert, --cert, --key, --tls-min, --tls-max, --tls-resume,
// what they default to, what they need of each other and of an https:// URL, and the one line
// a build without TLS gives an https:// run.
#include "cli/options.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/options_testing.h"
#include "core/build_features.h"

namespace hammer {
namespace {

using namespace options_testing;

// A temporary file for --cacert, --cert and --key (options check only that it can be read).
class TlsFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/hammer-tls-option-XXXXXX";
    const int fd = mkstemp(name);
    ASSERT_GE(fd, 0);
    close(fd);
    path_ = name;
  }
  void TearDown() override { std::remove(path_.c_str()); }
  std::string path_;
};

constexpr const char* kHttpsUrl = "https://localhost:8443/";

TEST_F(TlsFileTest, TlsFlagsFillTheConfigOfAnHttpsRun) {
  const Config config = config_of({"--cacert", path_, "--cert", path_, "--key", path_,
                                   "--tls-min", "1.3", "--tls-max", "1.3", "--tls-resume", "off",
                                   kHttpsUrl});
  EXPECT_EQ(config.target.scheme, Scheme::https);
  EXPECT_EQ(config.target.port, 8443);
  EXPECT_FALSE(config.tls.insecure);
  EXPECT_EQ(config.tls.ca_file, path_);
  EXPECT_EQ(config.tls.cert_file, path_);
  EXPECT_EQ(config.tls.key_file, path_);
  EXPECT_EQ(config.tls.min_version, TlsVersion::tls1_3);
  EXPECT_EQ(config.tls.max_version, TlsVersion::tls1_3);
  EXPECT_FALSE(config.tls.resume);
  EXPECT_TRUE(config_of({"--insecure", kHttpsUrl}).tls.insecure);
}

TEST(OptionsTest, TlsDefaultsVerifyResumeAndAllowBothVersions) {
  const Config config = config_of({kHttpsUrl});
  EXPECT_EQ(config.target.port, 8443);
  EXPECT_FALSE(config.tls.insecure);
  EXPECT_TRUE(config.tls.ca_file.empty());
  EXPECT_TRUE(config.tls.cert_file.empty());
  EXPECT_EQ(config.tls.min_version, TlsVersion::tls1_2);
  EXPECT_EQ(config.tls.max_version, TlsVersion::tls1_3);
  EXPECT_TRUE(config.tls.resume);
  EXPECT_EQ(config_of({"https://example.com/"}).target.port, 443);
}

TEST_F(TlsFileTest, TlsFlagsThatNeedEachOtherOrAnHttpsUrlSaySo) {
  EXPECT_EQ(error_of({"--cert", path_, kHttpsUrl}),
            "--cert: needs --key FILE, the certificate's private key");
  EXPECT_EQ(error_of({"--key", path_, kHttpsUrl}),
            "--key: needs --cert FILE, the certificate it belongs to");
  // -k skips the verification a --cacert bundle is for: silently ignored, it checked nothing.
  EXPECT_EQ(error_of({"-k", "--cacert", path_, kHttpsUrl}),
            "--cacert: -k (--insecure) skips the verification the bundle is for; give one of "
            "them");
  EXPECT_EQ(error_of({"--tls-min", "1.3", "--tls-max", "1.2", kHttpsUrl}),
            "--tls-min: 1.3 is above --tls-max 1.2, which leaves no version to offer");
  EXPECT_EQ(error_of({"--tls-resume", "off", kUrl}),
            "--tls-resume: only means something with an https:// URL, got "
            "'http://127.0.0.1:8080/'");
  // The first such flag is the one named.
  EXPECT_EQ(error_of({"--cacert", path_, "-k", kUrl}),
            "--cacert: only means something with an https:// URL, got "
            "'http://127.0.0.1:8080/'");
  // A sweep's --control URL over https is https enough.
  EXPECT_EQ(config_of({"-c", "1,2", "--control", "https://127.0.0.1/", "-k", kUrl})
                .sweep.control_target.scheme,
            Scheme::https);
  EXPECT_EQ(config_of({"--tls-min", "1.2", "--tls-max", "1.2", kHttpsUrl}).tls.max_version,
            TlsVersion::tls1_2);
}

// https:// runs where this build has TLS, the sweep's --control URL too; a build without it
// refuses either (in main) in one line.
TEST(OptionsTest, AnHttpsRunIsRefusedOnlyWithoutTls) {
  auto refused = https_refusal(config_of({"https://example.com/"}));
  auto control_refused = https_refusal(config_of({"-c", "1,2", "--control", "https://x/", kUrl}));
  if (kBuiltWithTls) {
    EXPECT_FALSE(refused);
    EXPECT_FALSE(control_refused);
  } else {
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->message,
              "bad URL 'https://example.com/': this build of hammer has no TLS (built without "
              "OpenSSL 3); use an http:// URL");
    ASSERT_TRUE(control_refused);
    EXPECT_EQ(control_refused->message,
              "--control: bad URL 'https://x/': this build of hammer has no TLS (built without "
              "OpenSSL 3); use an http:// URL");
  }
  EXPECT_FALSE(https_refusal(config_of({kUrl})));
}

}  // namespace
}  // namespace hammer
