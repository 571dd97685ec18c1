// SPDX-License-Identifier: MIT
#pragma once
// An nginx (Debian's nginx-light, scripts/deps.sh) serving TLS for a test suite, with
// certificates `openssl` makes at test time: a CA and a leaf for 127.0.0.1 and localhost
// (subjectAltName, not CN), and a self-signed one. Ports: TLS 1.2 and 1.3 (`/` answers
// "hello", `/close` with Connection: close), TLS 1.2 only, the self-signed certificate, and
// plain HTTP. Asked for (TlsServerOptions): a TLS port proxying to a plain HTTP server on
// 127.0.0.1 over keep-alive upstream connections, and a TLS port that requires a client
// certificate signed by the CA (a client certificate and key, and a key of another pair, are
// made for it). Stopped by PID and its directory removed when destroyed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/subprocess.h"

namespace hammer::test {

inline constexpr const char* kNginx = "/usr/sbin/nginx";
inline constexpr const char* kOpenssl = "/usr/bin/openssl";  // run_process takes a path, not a name

inline bool accepts_connections(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return connected;
}

inline bool run_quietly(const std::vector<std::string>& argv) {
  const Finished done = run_process(argv, 60);
  EXPECT_EQ(done.exit_code, 0) << argv[0] << " " << argv[1] << ": " << done.err;
  return done.exit_code == 0;
}

// The certificates a test's TLS servers present, made by `openssl` in a private directory
// (removed when destroyed): a CA, a leaf it signed for 127.0.0.1 and localhost, a self-signed
// certificate and, when asked for the extras, a client certificate (clientAuth) signed by the
// CA, the key of an unrelated pair, a leaf the CA signed for another name only and one for
// leaf's names whose validity ended before it was made.
class TlsCertificates {
 public:
  explicit TlsCertificates(bool extras = false) {
    char pattern[] = "/tmp/hammer-tls-XXXXXX";
    if (mkdtemp(pattern) == nullptr) return;
    dir_ = pattern;
    ready_ = make_certificates() && (!extras || make_extra_certificates());
  }
  ~TlsCertificates() {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  TlsCertificates(const TlsCertificates&) = delete;
  TlsCertificates& operator=(const TlsCertificates&) = delete;

  bool ready() const { return ready_; }
  const std::string& dir() const { return dir_; }
  std::string ca() const { return dir_ + "/ca.pem"; }
  std::string leaf_cert() const { return dir_ + "/leaf.pem"; }  // for 127.0.0.1, localhost
  std::string leaf_key() const { return dir_ + "/leaf.key"; }
  std::string self_cert() const { return dir_ + "/self.pem"; }  // self-signed, same names
  std::string self_key() const { return dir_ + "/self.key"; }
  std::string client_cert() const { return dir_ + "/client.pem"; }  // signed by ca()
  std::string client_key() const { return dir_ + "/client.key"; }
  std::string other_key() const { return dir_ + "/other.key"; }  // not client_cert()'s key
  std::string elsewhere_cert() const { return dir_ + "/elsewhere.pem"; }  // elsewhere.example
  std::string elsewhere_key() const { return dir_ + "/elsewhere.key"; }
  std::string expired_cert() const { return dir_ + "/expired.pem"; }  // as leaf, expired
  std::string expired_key() const { return dir_ + "/expired.key"; }

 private:
  bool make_certificates() {
    const std::string d = dir_ + "/";
    std::ofstream(d + "leaf.ext") << "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                     "basicConstraints=CA:FALSE\n"
                                     "extendedKeyUsage=serverAuth\n";
    const std::vector<std::string> ec = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                         "-nodes"};
    auto with = [&](std::vector<std::string> head, const std::vector<std::string>& tail) {
      head.insert(head.end(), tail.begin(), tail.end());
      return head;
    };
    return run_quietly(with(with({kOpenssl, "req", "-x509"}, ec),
                            {"-keyout", d + "ca.key", "-out", d + "ca.pem", "-days", "2", "-subj",
                             "/CN=hammer test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                             "-addext", "keyUsage=critical,keyCertSign"})) &&
           run_quietly(with(with({kOpenssl, "req"}, ec), {"-keyout", d + "leaf.key", "-out",
                                                          d + "leaf.csr", "-subj", "/CN=leaf"})) &&
           run_quietly({kOpenssl, "x509", "-req", "-in", d + "leaf.csr", "-CA", d + "ca.pem",
                        "-CAkey", d + "ca.key", "-CAcreateserial", "-out", d + "leaf.pem",
                        "-days", "2", "-extfile", d + "leaf.ext"}) &&
           run_quietly(with(with({kOpenssl, "req", "-x509"}, ec),
                            {"-keyout", d + "self.key", "-out", d + "self.pem", "-days", "2",
                             "-subj", "/CN=localhost", "-addext",
                             "subjectAltName=DNS:localhost,IP:127.0.0.1"}));
  }

  bool make_extra_certificates() {
    const std::string d = dir_ + "/";
    std::ofstream(d + "client.ext") << "basicConstraints=CA:FALSE\n"
                                       "extendedKeyUsage=clientAuth\n";
    std::ofstream(d + "elsewhere.ext") << "subjectAltName=DNS:elsewhere.example\n"
                                          "basicConstraints=CA:FALSE\n"
                                          "extendedKeyUsage=serverAuth\n";
    // `days` -1 ends the certificate's validity a day before it begins, before now: expired.
    auto signed_by_ca = [&](const std::string& name, const std::string& subject,
                            const std::string& extensions, const std::string& days) {
      return run_quietly({kOpenssl, "req", "-newkey", "ec", "-pkeyopt",
                          "ec_paramgen_curve:P-256", "-nodes", "-keyout", d + name + ".key",
                          "-out", d + name + ".csr", "-subj", subject}) &&
             run_quietly({kOpenssl, "x509", "-req", "-in", d + name + ".csr", "-CA",
                          d + "ca.pem", "-CAkey", d + "ca.key", "-CAcreateserial", "-out",
                          d + name + ".pem", "-days", days, "-extfile", d + extensions});
    };
    return signed_by_ca("client", "/CN=hammer test client", "client.ext", "2") &&
           signed_by_ca("elsewhere", "/CN=elsewhere.example", "elsewhere.ext", "2") &&
           signed_by_ca("expired", "/CN=expired", "leaf.ext", "-1") &&
           run_quietly({kOpenssl, "genpkey", "-algorithm", "EC", "-pkeyopt",
                        "ec_paramgen_curve:P-256", "-out", d + "other.key"});
  }

  std::string dir_;
  bool ready_ = false;
};

struct TlsServerOptions {
  int upstream_port = 0;             // when set: proxy_port() proxies to 127.0.0.1:upstream_port
  bool client_certificates = false;  // when set: mtls_port() requires a client certificate
                                     // (and the certificates' extras are made)
  bool http2 = false;  // when set: h2_port() speaks HTTP/2 over TLS (ALPN h2) and h2c_port()
                       // h2c with prior knowledge; each logs its requests (h2_log(), h2c_log())
};

class TlsServer {
 public:
  explicit TlsServer(TlsServerOptions options = {})
      : options_(options), certificates_(options.client_certificates), dir_(certificates_.dir()) {
    if (!certificates_.ready()) return;
    tls_port_ = unused_port();
    old_tls_port_ = unused_port();
    plain_port_ = unused_port();
    self_signed_port_ = unused_port();
    if (options_.upstream_port != 0) proxy_port_ = unused_port();
    if (options_.client_certificates) mtls_port_ = unused_port();
    if (options_.http2) {
      h2_port_ = unused_port();
      h2c_port_ = unused_port();
    }
    write_config();
    const std::string command = "echo listening on 127.0.0.1:" + std::to_string(tls_port_) +
                                "; exec " + kNginx + " -p " + dir_ + "/ -c " + dir_ +
                                "/nginx.conf";
    server_ = std::make_unique<ServerProcess>(std::vector<std::string>{"/bin/sh", "-c", command});
    if (!server_->ready()) return;
    // The line comes before nginx binds: wait (bounded) until every port answers.
    for (int i = 0; i < 500; ++i) {
      if (accepts_connections(tls_port_) && accepts_connections(old_tls_port_) &&
          accepts_connections(plain_port_) && accepts_connections(self_signed_port_) &&
          (proxy_port_ == 0 || accepts_connections(proxy_port_)) &&
          (mtls_port_ == 0 || accepts_connections(mtls_port_)) &&
          (h2_port_ == 0 || (accepts_connections(h2_port_) && accepts_connections(h2c_port_)))) {
        ready_ = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~TlsServer() { server_.reset(); }  // before the certificates' directory goes
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;

  bool ready() const { return ready_; }
  const TlsCertificates& certificates() const { return certificates_; }
  std::string ca() const { return certificates_.ca(); }
  std::string leaf_cert() const { return certificates_.leaf_cert(); }
  std::string leaf_key() const { return certificates_.leaf_key(); }
  std::string url(const std::string& path = "/", const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(tls_port_) + path;
  }
  int tls_port() const { return tls_port_; }
  int old_tls_port() const { return old_tls_port_; }  // TLS 1.2 only
  int plain_port() const { return plain_port_; }      // plain HTTP
  int self_signed_port() const { return self_signed_port_; }
  int proxy_port() const { return proxy_port_; }  // TlsServerOptions::upstream_port
  int mtls_port() const { return mtls_port_; }    // TlsServerOptions::client_certificates
  int h2_port() const { return h2_port_; }        // TlsServerOptions::http2
  int h2c_port() const { return h2c_port_; }
  std::string h2_log() const { return dir_ + "/h2.log"; }  // one line per request
  std::string h2c_log() const { return dir_ + "/h2c.log"; }
  std::string plain_log() const { return dir_ + "/plain.log"; }  // plain_port's requests
  std::string tls_log() const { return dir_ + "/tls.log"; }      // tls_port's requests
  std::string client_cert() const { return certificates_.client_cert(); }
  std::string client_key() const { return certificates_.client_key(); }
  std::string other_key() const { return certificates_.other_key(); }

 private:
  // The optional servers' blocks: the proxy (upstream connections kept alive and never
  // retired, so the upstream sees as few connections as nginx needs) and the mTLS port, which
  // answers 200 only when the client's certificate verified (nginx itself answers 400 when
  // none came or it did not verify, after the handshake).
  std::string optional_servers() const {
    const std::string d = dir_ + "/";
    const std::string tls = " ssl;\n    ssl_protocols TLSv1.2 TLSv1.3;\n"
                            "    ssl_certificate " + d + "leaf.pem;\n" +
                            "    ssl_certificate_key " + d + "leaf.key;\n" +
                            "    keepalive_requests 1000000;\n";
    std::string blocks;
    if (proxy_port_ != 0) {
      blocks += "  upstream plain_upstream {\n    server 127.0.0.1:" +
                std::to_string(options_.upstream_port) +
                ";\n    keepalive 64;\n    keepalive_requests 1000000;\n  }\n" +
                "  server {\n    listen 127.0.0.1:" + std::to_string(proxy_port_) + tls +
                "    location / {\n      proxy_pass http://plain_upstream;\n"
                "      proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n"
                "      proxy_read_timeout 30s;\n    }\n  }\n";
    }
    if (h2_port_ != 0) {
      // keepalive_requests bounds the streams of one connection too (nginx 1.19.7+).
      blocks += "  server {\n    listen 127.0.0.1:" + std::to_string(h2_port_) + " ssl http2;\n" +
                "    ssl_protocols TLSv1.2 TLSv1.3;\n    ssl_certificate " + d + "leaf.pem;\n" +
                "    ssl_certificate_key " + d + "leaf.key;\n    keepalive_requests 1000000;\n" +
                "    access_log " + d + "h2.log;\n    location / { return 200 \"h2\\n\"; }\n  }\n";
      blocks += "  server {\n    listen 127.0.0.1:" + std::to_string(h2c_port_) + " http2;\n" +
                "    keepalive_requests 1000000;\n    access_log " + d + "h2c.log;\n" +
                "    location / { return 200 \"h2c\\n\"; }\n  }\n";
    }
    if (mtls_port_ != 0) {
      blocks += "  server {\n    listen 127.0.0.1:" + std::to_string(mtls_port_) + tls +
                "    ssl_client_certificate " + d + "ca.pem;\n    ssl_verify_client on;\n" +
                "    location / { return 200 \"client verified\\n\"; }\n  }\n";
    }
    return blocks;
  }

  void write_config() {
    const std::string d = dir_ + "/";
    auto server = [&](int port, const std::string& protocols, const std::string& cert,
                      const std::string& log = "") {
      return "  server {\n    listen 127.0.0.1:" + std::to_string(port) + " ssl;\n" +
             (log.empty() ? std::string() : "    access_log " + d + log + ";\n") +
             "    ssl_protocols " + protocols + ";\n    ssl_certificate " + d + cert +
             ".pem;\n    ssl_certificate_key " + d + cert + ".key;\n" +
             "    keepalive_requests 1000000;\n"
             "    location / { return 200 \"hello\\n\"; }\n"
             "    location /close { keepalive_timeout 0; return 200 \"bye\\n\"; }\n  }\n";
    };
    std::ofstream(d + "nginx.conf")
        << "daemon off;\nmaster_process off;\nworker_processes 1;\n"
        << "error_log " << d << "error.log;\npid " << d << "nginx.pid;\n"
        << "events { worker_connections 1024; }\nhttp {\n  access_log off;\n"
        << "  client_body_temp_path " << d << ";\n  proxy_temp_path " << d << ";\n"
        << "  fastcgi_temp_path " << d << ";\n  uwsgi_temp_path " << d << ";\n"
        << "  scgi_temp_path " << d << ";\n"
        << server(tls_port_, "TLSv1.2 TLSv1.3", "leaf", "tls.log") << server(old_tls_port_, "TLSv1.2", "leaf")
        << server(self_signed_port_, "TLSv1.2 TLSv1.3", "self") << optional_servers()
        << "  server {\n    listen 127.0.0.1:" << plain_port_ << ";\n    access_log " << d
        << "plain.log;\n    location / { return 200 \"plain\\n\"; }\n  }\n}\n";
  }

  TlsServerOptions options_;
  TlsCertificates certificates_;
  std::string dir_;  // the certificates', where nginx keeps its configuration and logs too
  int tls_port_ = 0;
  int old_tls_port_ = 0;
  int plain_port_ = 0;
  int self_signed_port_ = 0;
  int proxy_port_ = 0;
  int mtls_port_ = 0;
  int h2_port_ = 0;
  int h2c_port_ = 0;
  std::unique_ptr<ServerProcess> server_;
  bool ready_ = false;
};

}  // namespace hammer::test
