// SPDX-License-Identifier: MIT
// hostile_server: an HTTP/1.1 server that misbehaves on purpose, one way per mode, so the e2e
// tests can prove hammer counts each failure by kind, in bounded time, without crashing, hanging
// or leaking (tests/e2e/hostile_test.cc).
//
//   hostile_server --port N [--mode MODE]
//
// The mode is chosen per request by the URL path ("/garbage" plays garbage), or for the whole
// server by --mode; --mode also decides the modes that act before a request is read
// (never-read, backlog). Without either a request gets 200 OK. --port 0 picks a free port and
// prints "listening on 127.0.0.1:PORT".
//
// Deliberately simple: blocking sockets, one detached thread per connection. Speed does not
// matter here, and a thread that sleeps (drip) or never reads (never-read) is then just a
// sleeping thread. The process dies with its parent (PR_SET_PDEATHSIG) and on SIGTERM.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

namespace {

constexpr std::string_view kModes[] = {
    "ok",                   // 200 OK, keep-alive (the default)
    "reset-headers",        // part of the head, then RST
    "reset-body",           // the head and part of the body, then RST
    "close-after-headers",  // the head (Content-Length: 100), then FIN
    "close-silent",         // reads the request, closes without a byte
    "garbage",              // not HTTP at all
    "long-status",          // a status line over 64 KiB
    "many-headers",         // 10,000 header fields
    "huge-header",          // one 1 MiB header line
    "conflicting-length",   // Content-Length: 5 and Content-Length: 6
    "negative-length",      // Content-Length: -1
    "nonnumeric-length",    // Content-Length: abc
    "bad-chunk-size",       // chunked, size line "zz"
    "missing-last-chunk",   // chunked, one chunk, then FIN without the 0-chunk
    "chunk-extensions",     // chunked with extensions and trailers: valid
    "length-and-chunked",   // Content-Length together with Transfer-Encoding: chunked
    "drip",                 // Content-Length: 1000, one byte every 100 ms
    "two-responses",        // two full responses to one request, in one write
    "no-content-body",      // 204 No Content followed by body bytes, in one write
    "not-modified-body",    // 304 Not Modified with Content-Length and its body, in one write
    "longer-than-length",   // Content-Length: 2 followed by 7 body bytes, in one write
    "unrequested-upgrade",  // 101 Switching Protocols to a request that asked no upgrade
    "idle-408",             // 200 OK, then 408 and a close 50 ms later on the idle connection
    "tenth-404",            // every 10th request on a connection gets 404, the rest 200: valid
    "reset-third",          // 200 OK to two requests on a connection, RST on the third's
    "early-response",       // answers after the request head, before reading its body
    "continue",             // 100 Continue, then the real response: valid
    "never-read",           // --mode only: accepts, never reads, never answers
    "backlog",              // --mode only: listen(fd, 1), never accepts
};

bool known_mode(std::string_view mode) {
  for (std::string_view known : kModes) {
    if (known == mode) return true;
  }
  return false;
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "hostile_server: %s\n", message.c_str());
  std::exit(1);
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

// Closes with RST instead of FIN: SO_LINGER with a zero timeout.
void reset(int fd) {
  const linger abort_on_close{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
  ::close(fd);
}

struct Request {
  std::string path;
  int64_t content_length = 0;
};

// Reads one request head into `input` (which may already hold bytes); false at EOF or error.
// The head is removed from `input`; its body bytes, if any arrived, stay there.
bool read_head(int fd, std::string& input, Request* request) {
  for (;;) {
    const size_t end = input.find("\r\n\r\n");
    if (end != std::string::npos) {
      const std::string_view head(input.data(), end);
      const size_t first_space = head.find(' ');
      const size_t second_space = head.find(' ', first_space + 1);
      if (first_space == std::string_view::npos || second_space == std::string_view::npos) {
        return false;
      }
      request->path = std::string(head.substr(first_space + 1, second_space - first_space - 1));
      request->content_length = 0;
      const size_t length_at = head.find("\r\nContent-Length: ");
      if (length_at != std::string_view::npos) {
        const char* digits = head.data() + length_at + 18;
        std::from_chars(digits, head.data() + head.size(), request->content_length);
      }
      input.erase(0, end + 4);
      return true;
    }
    if (input.size() > 64 * 1024) return false;
    char buffer[16 * 1024];
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    input.append(buffer, static_cast<size_t>(got));
  }
}

// Consumes `length` body bytes (some may already be in `input`); false at EOF or error.
bool skip_body(int fd, std::string& input, int64_t length) {
  const auto from_input = std::min<int64_t>(length, static_cast<int64_t>(input.size()));
  input.erase(0, static_cast<size_t>(from_input));
  length -= from_input;
  char buffer[64 * 1024];
  while (length > 0) {
    const ssize_t got = ::recv(fd, buffer, std::min<size_t>(sizeof buffer, length), 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    length -= got;
  }
  return true;
}

const std::string kOk = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

// Plays `mode` for one request whose head was read. True: the connection stays open for the
// next request; false: the connection is finished (already closed when `*closed`).
bool answer(int fd, std::string_view mode, std::string& input, const Request& request,
            bool* closed) {
  if (mode == "ok") return send_all(fd, kOk);
  if (mode == "reset-headers") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Le");
    reset(fd);
    *closed = true;
    return false;
  }
  if (mode == "reset-body") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
    reset(fd);
    *closed = true;
    return false;
  }
  if (mode == "close-after-headers") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
    return false;
  }
  if (mode == "close-silent") return false;
  if (mode == "garbage") {
    send_all(fd, "SSH-2.0-OpenSSH_9.0\r\n\x01\x02\x03 not http at all\r\n\r\n");
    return false;
  }
  if (mode == "long-status") {
    send_all(fd, "HTTP/1.1 200 " + std::string(70 * 1024, 'O') + "\r\nContent-Length: 2\r\n\r\nok");
    return false;
  }
  if (mode == "many-headers") {
    std::string response = "HTTP/1.1 200 OK\r\n";
    for (int i = 0; i < 10'000; ++i) response += "X-Header-" + std::to_string(i) + ": v\r\n";
    send_all(fd, response + "Content-Length: 2\r\n\r\nok");
    return false;
  }
  if (mode == "huge-header") {
    send_all(fd, "HTTP/1.1 200 OK\r\nX-Huge: " + std::string(1 << 20, 'h') +
                     "\r\nContent-Length: 2\r\n\r\nok");
    return false;
  }
  if (mode == "conflicting-length") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!");
    return false;
  }
  if (mode == "negative-length") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nx");
    return false;
  }
  if (mode == "nonnumeric-length") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nx");
    return false;
  }
  if (mode == "bad-chunk-size") {
    send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n");
    return false;
  }
  if (mode == "missing-last-chunk") {
    send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
    return false;
  }
  if (mode == "chunk-extensions") {
    return send_all(fd,
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
                    "5;name=value;flag\r\nhello\r\n"
                    "6 ; quoted=\"a b\"\r\n world\r\n"
                    "0;last=1\r\nX-Checksum: 42\r\nX-Other: yes\r\n\r\n");
  }
  if (mode == "length-and-chunked") {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "5\r\nhello\r\n0\r\n\r\n");
    return false;
  }
  if (mode == "drip") {
    if (!send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")) return false;
    for (int i = 0; i < 1000; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (!send_all(fd, "d")) return false;  // hammer gave up (timeout) and closed
    }
    return true;
  }
  if (mode == "two-responses") return send_all(fd, kOk + kOk);
  // Framing leaks: more bytes than the response's framing allows, all in one write so they
  // reach the client together with the response. The connection stays open: a client that
  // does not notice would read them as the next request's answer, or wait.
  if (mode == "no-content-body") return send_all(fd, "HTTP/1.1 204 No Content\r\n\r\nhello");
  if (mode == "not-modified-body") {
    return send_all(fd, "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\nhello");
  }
  if (mode == "longer-than-length") {
    return send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA");
  }
  if (mode == "unrequested-upgrade") {
    // Then holds the connection, as a server that switched to another protocol would.
    return send_all(fd,
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\n\r\n");
  }
  if (mode == "tenth-404") {
    thread_local int64_t answered = 0;  // one thread per connection: a per-connection count
    if (++answered % 10 == 0) {
      return send_all(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno");
    }
    return send_all(fd, kOk);
  }
  if (mode == "reset-third") {
    // A server that drops a kept connection without a word (a restart, a load balancer's
    // idle cut): every third request fails unanswered, the others are good answers.
    thread_local int64_t read = 0;  // one thread per connection: a per-connection count
    if (++read % 3 == 0) {
      reset(fd);
      *closed = true;
      return false;
    }
    return send_all(fd, kOk);
  }
  if (mode == "idle-408") {
    // What servers with a short keep-alive timeout do: announce the close with a 408 nobody
    // asked for. Arriving on an idle connection it answers no request.
    if (!send_all(fd, kOk)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    send_all(fd, "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    return false;
  }
  if (mode == "early-response") {
    // Answers (keep-alive) before reading the body, then reads and drops the body and serves
    // the next request, as a real server does. A client that sent its whole body before the
    // answer came may reuse the connection; one that stops sending and closes (RFC 9112
    // §9.5) ends the body early, and the server closes too. Reading until then matters:
    // closing with unread bytes would turn the FIN into an RST.
    return send_all(fd, kOk) && skip_body(fd, input, request.content_length);
  }
  if (mode == "continue") {
    return send_all(fd, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  }
  (void)input;
  (void)request;
  return send_all(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 13\r\n\r\nunknown mode\n");
}

void serve(int fd, std::string_view server_mode) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (server_mode == "never-read") {
    for (;;) pause();  // holds the socket until the process ends
  }
  std::string input;
  Request request;
  bool closed = false;
  while (read_head(fd, input, &request)) {
    std::string_view mode = server_mode.empty() ? "ok" : server_mode;
    const std::string_view path_mode = std::string_view(request.path).substr(1);
    if (known_mode(path_mode)) mode = path_mode;
    if (mode != "early-response" && !skip_body(fd, input, request.content_length)) break;
    if (!answer(fd, mode, input, request, &closed)) break;
  }
  if (!closed) ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  int port = -1;
  std::string mode;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      std::printf("usage: hostile_server --port N [--mode MODE]\nmodes:");
      for (std::string_view known : kModes) std::printf(" %.*s", int(known.size()), known.data());
      std::printf("\n");
      return 0;
    }
    if (i + 1 >= argc) usage_error(std::string(flag) + ": missing value");
    const std::string_view value = argv[++i];
    if (flag == "--port") {
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), port);
      if (ec != std::errc{} || end != value.data() + value.size() || port < 0 || port > 65535) {
        usage_error("--port: expected a port in [0, 65535], got '" + std::string(value) + "'");
      }
    } else if (flag == "--mode") {
      if (!known_mode(value)) usage_error("--mode: unknown mode '" + std::string(value) + "'");
      mode = value;
    } else {
      usage_error("unknown option '" + std::string(flag) + "'");
    }
  }
  if (port < 0) usage_error("--port is required (0 picks a free port)");

  prctl(PR_SET_PDEATHSIG, SIGTERM);
  signal(SIGPIPE, SIG_IGN);

  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    usage_error("cannot bind 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno));
  }
  // backlog: a queue of one that is never accepted from, so it fills at once and stays full.
  if (listen(listener, mode == "backlog" ? 1 : 1024) != 0) {
    usage_error(std::string("listen: ") + std::strerror(errno));
  }
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  std::printf("listening on 127.0.0.1:%d\n", ntohs(address.sin_port));
  std::fflush(stdout);

  if (mode == "backlog") {
    for (;;) pause();
  }
  for (;;) {
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    std::thread(serve, fd, std::string_view(mode)).detach();
  }
}
