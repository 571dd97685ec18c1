// SPDX-License-Identifier: MIT
#pragma once
// One nginx over TLS (support/nginx_tls.h) per test suite, shared by the suite's tests: started
// before the first, stopped after the last. Where nginx or openssl is not installed every test
// of the suite is skipped, saying so. A suite names its server's options:
//   class TlsErrorsTest : public NginxTlsSuite<TlsErrorsTest> {
//    public:
//     static TlsServerOptions server_options() { return {.client_certificates = true}; }
//   };
#include <gtest/gtest.h>
#include <unistd.h>

#include "support/nginx_tls.h"

namespace hammer::test {

template <typename Suite>
class NginxTlsSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (access(kNginx, X_OK) != 0 || access(kOpenssl, X_OK) != 0) return;
    server_ = new TlsServer(Suite::server_options());
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (server_ == nullptr) {
      GTEST_SKIP() << kNginx << " or " << kOpenssl << " is not installed (scripts/deps.sh)";
    }
    ASSERT_TRUE(server_->ready()) << "nginx did not start";
  }
  static const TlsServer& server() { return *server_; }

 private:
  static inline TlsServer* server_ = nullptr;
};

}  // namespace hammer::test
