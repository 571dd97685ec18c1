// SPDX-License-Identifier: MIT
#pragma once
// `openssl s_server -www` on a loopback port for a test: a server whose TLS is set by its
// arguments alone (one version, one cipher, a client certificate required), for the cases
// nginx cannot be narrowed to per port. -www answers each request with an HTTP/1.0 status page
// and closes the connection, so every request after the first is a resumed handshake. It
// serves one connection at a time. Stopped by PID when destroyed.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/nginx_tls.h"
#include "support/subprocess.h"

namespace hammer::test {

class OpensslServer {
 public:
  // `tls` is s_server's own TLS arguments, e.g. {"-tls1_2", "-cipher", "ECDHE-..."}; it
  // presents the leaf for 127.0.0.1 and localhost unless given another pair.
  OpensslServer(const TlsCertificates& certificates, const std::vector<std::string>& tls,
                const std::string& cert = "", const std::string& key = "")
      : port_(unused_port()) {
    std::string command = "echo listening on 127.0.0.1:" + std::to_string(port_) + "; exec " +
                          kOpenssl + " s_server -quiet -www -accept 127.0.0.1:" +
                          std::to_string(port_) + " -cert " +
                          (cert.empty() ? certificates.leaf_cert() : cert) + " -key " +
                          (key.empty() ? certificates.leaf_key() : key);
    for (const std::string& argument : tls) command += " " + argument;
    server_ = std::make_unique<ServerProcess>(std::vector<std::string>{"/bin/sh", "-c", command});
    if (!server_->ready()) return;
    // The line comes before s_server binds: wait (bounded) until it accepts. The probe's
    // connection ends without a handshake, which s_server logs and goes on from.
    for (int i = 0; i < 500 && !ready_; ++i) {
      ready_ = accepts_connections(port_);
      if (!ready_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  bool ready() const { return ready_; }
  int port() const { return port_; }
  std::string where() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string url() const { return "https://" + where() + "/"; }

 private:
  int port_;
  std::unique_ptr<ServerProcess> server_;
  bool ready_ = false;
};

}  // namespace hammer::test
