// SPDX-License-Identifier: MIT
// tls_rekey_server: a keep-alive HTTPS server that asks for new keys before every answer, for
// the e2e tests of what hammer does when a server goes back into the handshake mid-stream
// (tests/e2e/tls_test.cc). 127.0.0.1 only; OpenSSL 3; one thread per connection.
//
//   tls_rekey_server --port N --cert LEAF.pem --key LEAF.key --mode renegotiate|key-update
//
// Each request head (a request ends at its blank line; bodies are not expected) is answered
// `HTTP/1.1 200 OK`, Content-Length 5, `hello`, after:
//   renegotiate  (TLS 1.2 only) SSL_renegotiate and a HelloRequest. A client that refuses
//                renegotiation answers with a no_renegotiation warning, which OpenSSL's server
//                reads at its next request as fatal: it sends a handshake_failure alert and
//                closes. hammer refuses renegotiation (tls_context.cc), so each connection's
//                first request is answered and its second fails.
//   key-update   (TLS 1.3 only) a KeyUpdate that requests the client's own (RFC 8446 §4.6.3):
//                a post-handshake message every client must handle; no request fails.
// Prints "listening on 127.0.0.1:PORT" (--port 0 picks one) and, on SIGTERM or SIGINT, one line
// on stderr: "tls_rekey_server: mode M: answered N, rekeyed K, failed F", then exits 0.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace {

enum class Mode { renegotiate, key_update };

std::atomic<long> answered{0};
std::atomic<long> rekeyed{0};
std::atomic<long> failed{0};
volatile std::sig_atomic_t stop_requested = 0;

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "tls_rekey_server: %s\n", message.c_str());
  std::exit(2);
}

// Starts the rekeying this mode asks for before an answer; false when OpenSSL refused.
bool rekey(SSL* ssl, Mode mode) {
  if (mode == Mode::renegotiate) {
    return SSL_renegotiate(ssl) == 1 && SSL_do_handshake(ssl) == 1;
  }
  return SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED) == 1;
}

void serve(SSL_CTX* context, int fd, Mode mode) {
  SSL* ssl = SSL_new(context);
  SSL_set_fd(ssl, fd);
  bool ok = SSL_accept(ssl) == 1;
  std::string input;
  char buffer[4096];
  while (ok) {
    const size_t end = input.find("\r\n\r\n");
    if (end == std::string::npos) {
      const int got = SSL_read(ssl, buffer, sizeof buffer);
      if (got <= 0) {
        ok = SSL_get_error(ssl, got) == SSL_ERROR_ZERO_RETURN;
        break;
      }
      input.append(buffer, static_cast<size_t>(got));
      continue;
    }
    input.erase(0, end + 4);
    if (!rekey(ssl, mode)) {
      ok = false;
      break;
    }
    rekeyed.fetch_add(1);
    static constexpr std::string_view kAnswer =
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    if (SSL_write(ssl, kAnswer.data(), static_cast<int>(kAnswer.size())) <= 0) {
      ok = false;
      break;
    }
    answered.fetch_add(1);
  }
  if (!ok) failed.fetch_add(1);
  SSL_free(ssl);
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);  // a crashed test leaves no server behind
  std::signal(SIGPIPE, SIG_IGN);
  int port = 0;
  std::string cert;
  std::string key;
  std::string mode_name;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--port") {
      port = std::atoi(argv[i + 1]);
    } else if (flag == "--cert") {
      cert = argv[i + 1];
    } else if (flag == "--key") {
      key = argv[i + 1];
    } else if (flag == "--mode") {
      mode_name = argv[i + 1];
    } else {
      usage_error("unknown flag " + std::string(flag));
    }
  }
  if (argc % 2 == 0) usage_error("every flag takes a value");
  if (mode_name != "renegotiate" && mode_name != "key-update") {
    usage_error("--mode: renegotiate or key-update");
  }
  if (cert.empty() || key.empty()) usage_error("--cert and --key are required");
  const Mode mode = mode_name == "renegotiate" ? Mode::renegotiate : Mode::key_update;

  SSL_CTX* context = SSL_CTX_new(TLS_server_method());
  const int version = mode == Mode::renegotiate ? TLS1_2_VERSION : TLS1_3_VERSION;
  SSL_CTX_set_min_proto_version(context, version);
  SSL_CTX_set_max_proto_version(context, version);
  if (SSL_CTX_use_certificate_chain_file(context, cert.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(context, key.c_str(), SSL_FILETYPE_PEM) != 1) {
    usage_error("cannot load --cert/--key");
  }

  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  const int on = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(listener, 128) != 0) {
    usage_error(std::string("cannot listen: ") + std::strerror(errno));
  }
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  std::printf("listening on 127.0.0.1:%d\n", ntohs(address.sin_port));
  std::fflush(stdout);

  // accept() is interrupted by the signal (no SA_RESTART), and the loop ends.
  struct sigaction action{};
  action.sa_handler = [](int) { stop_requested = 1; };
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  while (stop_requested == 0) {
    const int fd = accept(listener, nullptr, nullptr);
    if (fd < 0) continue;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    std::thread(serve, context, fd, mode).detach();
  }
  std::fprintf(stderr, "tls_rekey_server: mode %s: answered %ld, rekeyed %ld, failed %ld\n",
               mode_name.c_str(), answered.load(), rekeyed.load(), failed.load());
  std::_Exit(0);  // connection threads may still hold the context
}
