// SPDX-License-Identifier: MIT
// https:// against a real server: Debian's nginx (nginx-light, scripts/deps.sh) serving TLS
// 1.2 and 1.3 with a leaf certificate for 127.0.0.1 and localhost (subjectAltName, not CN)
// signed by a CA that `openssl` makes at test time. The checks are counts and words inside one
// run (exact totals, handshake kinds, one-line errors), never speed. Run under each engine
// (HAMMER_ENGINE=io_uring, epoll) like the rest of the suite.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

constexpr const char* kNginx = "/usr/sbin/nginx";
constexpr const char* kOpenssl = "/usr/bin/openssl";  // run_process takes a path, not a name

bool accepts_connections(int port) {
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

bool run_quietly(const std::vector<std::string>& argv) {
  const Finished done = run_process(argv, 60);
  EXPECT_EQ(done.exit_code, 0) << argv[0] << " " << argv[1] << ": " << done.err;
  return done.exit_code == 0;
}

// Certificates and an nginx for the whole suite: made once, removed at the end.
class TlsServer {
 public:
  TlsServer() {
    char pattern[] = "/tmp/hammer-tls-XXXXXX";
    if (mkdtemp(pattern) == nullptr) return;
    dir_ = pattern;
    if (!make_certificates()) return;
    tls_port_ = unused_port();
    old_tls_port_ = unused_port();
    plain_port_ = unused_port();
    self_signed_port_ = unused_port();
    write_config();
    const std::string command = "echo listening on 127.0.0.1:" + std::to_string(tls_port_) +
                                "; exec " + kNginx + " -p " + dir_ + "/ -c " + dir_ +
                                "/nginx.conf";
    server_ = std::make_unique<ServerProcess>(std::vector<std::string>{"/bin/sh", "-c", command});
    if (!server_->ready()) return;
    // The line comes before nginx binds: wait (bounded) until every port answers.
    for (int i = 0; i < 500; ++i) {
      if (accepts_connections(tls_port_) && accepts_connections(old_tls_port_) &&
          accepts_connections(plain_port_) && accepts_connections(self_signed_port_)) {
        ready_ = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~TlsServer() {
    server_.reset();
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }

  bool ready() const { return ready_; }
  std::string ca() const { return dir_ + "/ca.pem"; }
  std::string url(const std::string& path = "/", const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(tls_port_) + path;
  }
  int tls_port() const { return tls_port_; }
  int old_tls_port() const { return old_tls_port_; }  // TLS 1.2 only
  int plain_port() const { return plain_port_; }      // plain HTTP
  int self_signed_port() const { return self_signed_port_; }

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

  void write_config() {
    const std::string d = dir_ + "/";
    auto server = [&](int port, const std::string& protocols, const std::string& cert) {
      return "  server {\n    listen 127.0.0.1:" + std::to_string(port) + " ssl;\n" +
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
        << server(tls_port_, "TLSv1.2 TLSv1.3", "leaf") << server(old_tls_port_, "TLSv1.2", "leaf")
        << server(self_signed_port_, "TLSv1.2 TLSv1.3", "self")
        << "  server {\n    listen 127.0.0.1:" << plain_port_
        << ";\n    location / { return 200 \"plain\\n\"; }\n  }\n}\n";
  }

  std::string dir_;
  int tls_port_ = 0;
  int old_tls_port_ = 0;
  int plain_port_ = 0;
  int self_signed_port_ = 0;
  std::unique_ptr<ServerProcess> server_;
  bool ready_ = false;
};

class TlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (access(kNginx, X_OK) != 0 || access(kOpenssl, X_OK) != 0) return;
    server_ = new TlsServer();
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

  static void expect_no_errors(const JsonValue& report) {
    for (const char* kind : {"connect", "read", "write", "timeout", "parse", "tls"}) {
      EXPECT_EQ(number_at(report, std::string("errors.") + kind), 0) << kind;
    }
  }
  static std::string text_at(const JsonValue& report, const std::string& path) {
    const JsonValue* value = report.find(path);
    EXPECT_NE(value, nullptr) << "missing " << path;
    return value == nullptr ? std::string() : value->text;
  }

  static TlsServer* server_;
};
TlsServer* TlsTest::server_ = nullptr;

// The one line of a run that cannot start, and its exit status.
void expect_refused(const Finished& run, const std::string& line) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err, "hammer: " + line + "\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST_F(TlsTest, ClosedLoopCountsAreExactWithOneFullHandshakePerConnection) {
  const Finished run = run_hammer({"-c", "4", "-t", "2", "-d", "1", "--json", "--cacert",
                                   server().ca(), server().url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors(report);
  const double completed = number_at(report, "requests.completed");
  EXPECT_GT(completed, 0);
  EXPECT_EQ(completed, number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "status.2xx"), completed);
  EXPECT_EQ(number_at(report, "tls.handshakes.full"), 4);
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), 0);
  EXPECT_EQ(number_at(report, "tls.handshakes.failed"), 0);
  EXPECT_EQ(number_at(report, "tls.handshake_time.count"), 4);
  EXPECT_EQ(number_at(report, "connect.count"), 4);
  EXPECT_EQ(text_at(report, "tls.version"), "1.3");
  EXPECT_EQ(text_at(report, "tls.alpn"), "http/1.1");
  EXPECT_FALSE(text_at(report, "tls.cipher").empty());
  const JsonValue* verify = report.find("tls.verify");
  ASSERT_NE(verify, nullptr);
  EXPECT_EQ(verify->kind, JsonValue::Kind::boolean);
  EXPECT_TRUE(verify->boolean);
}

TEST_F(TlsTest, OpenLoopSendsEverySlotAndAnswersEachOne) {
  const Finished run = run_hammer({"-c", "4", "-t", "1", "-r", "200", "-d", "2", "--json",
                                   "--cacert", server().ca(), server().url("/", "localhost")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors(report);
  EXPECT_EQ(number_at(report, "requests.scheduled"), 400);
  EXPECT_EQ(number_at(report, "requests.sent") + number_at(report, "requests.unsent"), 400);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));
  EXPECT_EQ(number_at(report, "latency.corrected.count"), number_at(report, "requests.completed"));
}

TEST_F(TlsTest, PipelinedAndRequestsFileRunsAnswerEveryRequest) {
  const Finished pipelined = run_hammer({"-c", "2", "-t", "1", "-p", "8", "-d", "1", "--json",
                                         "--cacert", server().ca(), server().url()});
  ASSERT_EQ(pipelined.exit_code, 0) << pipelined.err;
  JsonValue report = parse_report(pipelined);
  expect_no_errors(report);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));

  char pattern[] = "/tmp/hammer-tls-requests-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string file = std::string(pattern) + "/requests.jsonl";
  std::ofstream(file) << "{\"path\": \"/\"}\n{\"method\": \"POST\", \"path\": \"/\", "
                         "\"body\": \"abc\"}\n";
  const Finished lines = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--requests",
                                     file, "--cacert", server().ca(), server().url()});
  std::remove(file.c_str());
  rmdir(pattern);
  ASSERT_EQ(lines.exit_code, 0) << lines.err;
  report = parse_report(lines);
  expect_no_errors(report);
  EXPECT_EQ(number_at(report, "requests.completed"), number_at(report, "requests.sent"));
}

TEST_F(TlsTest, ReconnectsAfterConnectionCloseResumeTheirSessions) {
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--cacert",
                                   server().ca(), server().url("/close")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors(report);
  const double completed = number_at(report, "requests.completed");
  EXPECT_EQ(completed, number_at(report, "requests.sent"));
  const double full = number_at(report, "tls.handshakes.full");
  const double resumed = number_at(report, "tls.handshakes.resumed");
  EXPECT_EQ(full, 2);  // each connection's first; every reconnect offers its last session
  EXPECT_GT(resumed, 0);
  // One handshake per request, and perhaps one more begun as the run ended.
  EXPECT_GE(full + resumed, completed);
  EXPECT_LE(full + resumed, completed + 2);
}

TEST_F(TlsTest, NoKeepaliveWithResumeOffMakesFullHandshakesOnly) {
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "--no-keepalive",
                                   "--tls-resume", "off", "--cacert", server().ca(),
                                   server().url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  expect_no_errors(report);
  EXPECT_GT(number_at(report, "requests.completed"), 1);
  EXPECT_EQ(number_at(report, "tls.handshakes.resumed"), 0);
  EXPECT_GE(number_at(report, "tls.handshakes.full"), number_at(report, "requests.completed"));
}

TEST_F(TlsTest, TheTextReportShowsTheTlsLinesAndTheHandshakeApartFromConnect) {
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "1", "-k", server().url()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\nTLS            1.3 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(", ALPN http/1.1; 2 handshakes: 2 full, 0 resumed\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\nHandshake      p50 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nConnect        p50 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nTLS            certificates not verified (-k)"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(", parse 0, tls 0\n"), std::string::npos) << run.out;
}

TEST_F(TlsTest, AnUnknownCaWithoutCacertIsOneLineAndExit2AndInsecureRuns) {
  const std::string where = "127.0.0.1:" + std::to_string(server().tls_port());
  expect_refused(run_hammer({"-c", "2", "-d", "1", server().url()}),
                 "cannot connect to " + where +
                     ": TLS handshake failed: certificate verify failed: unable to get local "
                     "issuer certificate");
  const std::string self = "https://127.0.0.1:" + std::to_string(server().self_signed_port()) + "/";
  expect_refused(run_hammer({"-c", "2", "-d", "1", "--cacert", server().ca(), self}),
                 "cannot connect to 127.0.0.1:" + std::to_string(server().self_signed_port()) +
                     ": TLS handshake failed: certificate verify failed: self-signed certificate");
  const Finished insecure = run_hammer({"-c", "2", "-t", "1", "-d", "1", "--json", "-k", self});
  ASSERT_EQ(insecure.exit_code, 0) << insecure.err;
  const JsonValue report = parse_report(insecure);
  expect_no_errors(report);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  const JsonValue* verify = report.find("tls.verify");
  ASSERT_NE(verify, nullptr);
  EXPECT_FALSE(verify->boolean);
}

TEST_F(TlsTest, AWrongHostNameFailsWithHostnameMismatch) {
  expect_refused(run_hammer({"-c", "1", "-d", "1", "--cacert", server().ca(), "-H",
                             "Host: wrong.example", server().url()}),
                 "cannot connect to 127.0.0.1:" + std::to_string(server().tls_port()) +
                     ": TLS handshake failed: certificate verify failed: hostname mismatch (the "
                     "certificate is not for 'wrong.example')");
}

TEST_F(TlsTest, APlainHttpPortGivenHttpsFailsInOneLine) {
  const std::string where = "127.0.0.1:" + std::to_string(server().plain_port());
  expect_refused(run_hammer({"-c", "1", "-d", "1", "https://" + where + "/"}),
                 "cannot connect to " + where +
                     ": TLS handshake failed: wrong version number (is the server speaking TLS "
                     "on this port?)");
}

TEST_F(TlsTest, VersionBoundsChooseTheVersionOrFailInOneLine) {
  const Finished capped = run_hammer({"-c", "1", "-t", "1", "-d", "1", "--json", "--tls-max",
                                      "1.2", "--cacert", server().ca(), server().url()});
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  const JsonValue report = parse_report(capped);
  expect_no_errors(report);
  EXPECT_EQ(text_at(report, "tls.version"), "1.2");

  const Finished refused =
      run_hammer({"-c", "1", "-d", "1", "--tls-min", "1.3", "--cacert", server().ca(),
                  "https://127.0.0.1:" + std::to_string(server().old_tls_port()) + "/"});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_EQ(refused.err.find("hammer: cannot connect to 127.0.0.1:" +
                             std::to_string(server().old_tls_port()) + ": TLS handshake failed: "),
            0u)
      << refused.err;
  EXPECT_EQ(refused.err.find('\n'), refused.err.size() - 1) << refused.err;
}

TEST_F(TlsTest, CtrlCEndsAnHttpsRunWithItsReport) {
  const Finished run = run_process({hammer_binary(), "-c", "2", "-t", "1", "-d", "20", "--json",
                                    "--cacert", server().ca(), server().url()},
                                   30, SIGINT, 1.0);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue report = parse_report(run);
  const JsonValue* interrupted = report.find("interrupted");
  ASSERT_NE(interrupted, nullptr);
  EXPECT_TRUE(interrupted->boolean);
  EXPECT_GT(number_at(report, "requests.completed"), 0);
  EXPECT_LT(run.wall_s, 15);
}

}  // namespace
}  // namespace hammer::test
