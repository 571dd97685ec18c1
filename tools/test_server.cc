// SPDX-License-Identifier: MIT
// test_server: a fast, controllable HTTP/1.1 target for hammer's end-to-end tests and benchmarks.
//
// Why our own: the e2e tests need servers that misbehave on purpose (never answer, close every
// connection, answer 500, have a known capacity), and the side-by-side benchmark needs a server
// fast enough that the generator, not the server, is what gets measured. No dependencies, one
// file, Linux epoll, level-triggered (see design.md §5 on why not edge-triggered).
//
//   test_server --port N [--host A] [--mode fast|capacity|silent|close|status|early]
//               [--threads N]
//               [--body-bytes N] [--service-us N] [--service-kind busy|sleep|paced]
//               [--close-every N] [--status N]
//               [--setup-ms N] [--slow-start-ms N --slow-start-us M] [--count-paths 1]
//               [--stop-after N] [--silent-every N]
//
// --silent-every N: every N-th request a thread reads is never answered, nor is anything after
// it on that connection (HTTP/1.1 answers in order): the client times it out. The rest are
// answered at once, so a run with a --timeout shorter than the run has about 1 in N requests
// timed out: a tail that the latency histogram cannot hold (hammer's censored percentiles).
//
// --stop-after N: once N requests have been answered (over every thread), the server stops as
// on SIGTERM (it raises one at itself): every connection closed, the listener with them. "The
// server died mid-run", placed by the run's progress rather than by a clock, so tests of it
// read the same on a quiet machine and a busy one.
//
// --mode early answers a request with a body as soon as its head is in, before it reads any of
// the body (as nginx's `return 200` does), then reads and discards the body and keeps the
// connection (unless --close-every says otherwise: then it discards input until the peer
// closes). For tests of how hammer meets an answer that comes while its request is still
// being sent.
//
// On SIGTERM or SIGINT it prints "answered N requests" (over every thread) before it exits:
// tests compare it with what hammer counted.
//
// --read-delay-us N sleeps N us after each read that brought request bytes: a round trip's
// cost, which pipelined requests arriving together pay once.
//
// --count-paths 1 counts requests by request target (path and query); GET /__counts answers
// "total N" then one "N PATH" line per target, sorted, and is not counted itself. For tests of
// hammer's --requests rotation; the count takes a lock per request, so it is no benchmark mode.
//
// Cold starts (for hammer's warm-up and timeline tests), timed from the first request: with
// --setup-ms, every request that arrives within N ms of the first waits until those N ms are
// over (one lazy setup, as a cache filled on first use); with --slow-start-ms, each request in
// the first N ms takes M us more (as code still being compiled). Both sleep the serving thread.
//
// Capacity mode serves one request at a time, --service-us each. How the time is spent:
// busy burns it (the capacity then follows the CPU share the server gets); sleep sleeps it (a
// late wake-up on a contended CPU still adds to every request: under four busy loops on two
// cores one sweep saw 200 to 690 req/s); paced finishes each request at a time set by the clock
// alone: max(its arrival, the previous request's finish) + the service time, the arrival being
// the kernel's receive timestamp (SO_TIMESTAMPNS), not the moment this thread got to read it.
// A late wake-up then delays answers but does not lower the capacity: the requests queued
// behind it are already due and go out at once. Paced is what tests that judge a fixed
// capacity on a shared machine use.
//
// Each thread owns an epoll set and the connections it accepted; connections never move between
// threads, so nothing is shared while serving. The threads share one listening socket, watched
// with EPOLLEXCLUSIVE so one idle thread wakes per connection. Not SO_REUSEPORT: it would let a
// second server (a stale one, or a parallel test) silently share a fixed port with this one. SIGTERM/SIGINT are taken by the main thread with
// sigwait, which wakes every worker through an eventfd; all sockets are closed before exit.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

enum class Mode { fast, capacity, silent, close, status, early };
enum class ServiceKind { busy, sleep, paced };

struct Options {
  std::string host = "127.0.0.1";
  int port = -1;
  Mode mode = Mode::fast;
  int threads = 1;
  bool threads_given = false;
  int64_t body_bytes = 13;
  int64_t service_us = 0;
  bool service_given = false;
  ServiceKind service_kind = ServiceKind::busy;  // see the header comment
  int64_t close_every = 0;
  int status = 200;
  bool status_given = false;
  int64_t setup_ms = 0;
  int64_t slow_start_ms = 0;
  int64_t slow_start_us = 0;
  bool count_paths = false;
  // --read-delay-us: the thread sleeps this long after each read that brought requests, as a
  // round trip would cost: pipelined requests that arrive together share one delay.
  int64_t read_delay_us = 0;
  int64_t stop_after = 0;  // --stop-after: 0 = never
  int64_t silent_every = 0;  // --silent-every: 0 = never
  // --delay-us with --delay-every K: every K-th request a thread reads is answered this much
  // later, without holding up the thread's other connections (hammer compare's tests).
  int64_t delay_us = 0;
  int64_t delay_every = 0;
  // --hold-us: every answer leaves this long after its request was read, the same way (a
  // fixed service time that blocks nothing: a latency floor steadier than loopback's).
  int64_t hold_us = 0;
};

// --stop-after: requests answered over every thread; the one that reaches the limit raises the
// stop. An atomic per request is fine here: this mode is for tests, not benchmarks.
std::atomic<int64_t> g_answered_total{0};

// --count-paths: requests per target, over every thread.
struct PathCounts {
  std::mutex mutex;
  std::map<std::string, int64_t, std::less<>> counts;
  int64_t total = 0;

  void add(std::string_view target) {
    std::lock_guard<std::mutex> lock(mutex);
    ++total;
    auto found = counts.find(target);
    if (found == counts.end()) {
      counts.emplace(std::string(target), 1);
    } else {
      ++found->second;
    }
  }

  std::string report() {
    std::lock_guard<std::mutex> lock(mutex);
    std::string text = "total " + std::to_string(total) + "\n";
    for (const auto& [target, count] : counts) {
      text += std::to_string(count) + " " + target + "\n";
    }
    return text;
  }
};
PathCounts g_path_counts;

constexpr size_t kReadChunkBytes = 16 * 1024;
constexpr size_t kMaxHeadBytes = 64 * 1024;
constexpr int kMaxEvents = 256;
constexpr int64_t kDefaultCapacityServiceUs = 1000;

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "test_server: %s\n", message.c_str());
  std::exit(1);
}

int64_t parse_whole(std::string_view flag, std::string_view text, int64_t min, int64_t max) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max) {
    usage_error(std::string(flag) + ": expected a whole number in [" + std::to_string(min) + ", " +
                std::to_string(max) + "], got '" + std::string(text) + "'");
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      std::printf(
          "usage: test_server --port N [--host A]\n"
          "                   [--mode fast|capacity|silent|close|status|early]\n"
          "                   [--threads N] [--body-bytes N] [--service-us N]\n"
          "                   [--service-kind busy|sleep|paced] [--close-every N]\n"
          "                   [--status N] [--setup-ms N] [--count-paths 1] [--stop-after N]\n"
          "                   [--read-delay-us N] [--silent-every N]\n"
          "                   [--slow-start-ms N --slow-start-us M]\n"
          "                   [--delay-us N --delay-every K] [--hold-us N]\n");
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error(std::string(flag) + ": missing value");
    const std::string_view value = argv[++i];
    if (flag == "--port") {
      options.port = static_cast<int>(parse_whole(flag, value, 0, 65535));
    } else if (flag == "--host") {
      options.host = value;
    } else if (flag == "--mode") {
      if (value == "fast") options.mode = Mode::fast;
      else if (value == "capacity") options.mode = Mode::capacity;
      else if (value == "silent") options.mode = Mode::silent;
      else if (value == "close") options.mode = Mode::close;
      else if (value == "status") options.mode = Mode::status;
      else if (value == "early") options.mode = Mode::early;
      else usage_error("--mode: expected fast, capacity, silent, close, status or early, got '" +
                       std::string(value) + "'");
    } else if (flag == "--threads") {
      options.threads = static_cast<int>(parse_whole(flag, value, 1, 256));
      options.threads_given = true;
    } else if (flag == "--body-bytes") {
      options.body_bytes = parse_whole(flag, value, 0, 64 * 1024 * 1024);
    } else if (flag == "--service-us") {
      options.service_us = parse_whole(flag, value, 0, 10'000'000);
      options.service_given = true;
    } else if (flag == "--service-kind") {
      if (value == "busy") options.service_kind = ServiceKind::busy;
      else if (value == "sleep") options.service_kind = ServiceKind::sleep;
      else if (value == "paced") options.service_kind = ServiceKind::paced;
      else usage_error("--service-kind: expected busy, sleep or paced, got '" +
                       std::string(value) + "'");
    } else if (flag == "--close-every") {
      options.close_every = parse_whole(flag, value, 0, INT64_MAX);
    } else if (flag == "--setup-ms") {
      options.setup_ms = parse_whole(flag, value, 1, 60'000);
    } else if (flag == "--slow-start-ms") {
      options.slow_start_ms = parse_whole(flag, value, 1, 600'000);
    } else if (flag == "--slow-start-us") {
      options.slow_start_us = parse_whole(flag, value, 1, 10'000'000);
    } else if (flag == "--read-delay-us") {
      options.read_delay_us = parse_whole(flag, value, 0, 10'000'000);
    } else if (flag == "--silent-every") {
      options.silent_every = parse_whole(flag, value, 1, INT64_MAX);
    } else if (flag == "--delay-us") {
      options.delay_us = parse_whole(flag, value, 1, 10'000'000);
    } else if (flag == "--hold-us") {
      options.hold_us = parse_whole(flag, value, 1, 10'000'000);
    } else if (flag == "--delay-every") {
      options.delay_every = parse_whole(flag, value, 1, INT64_MAX);
    } else if (flag == "--stop-after") {
      options.stop_after = parse_whole(flag, value, 1, INT64_MAX);
    } else if (flag == "--count-paths") {
      options.count_paths = parse_whole(flag, value, 0, 1) == 1;
    } else if (flag == "--status") {
      options.status = static_cast<int>(parse_whole(flag, value, 200, 599));
      options.status_given = true;
    } else {
      usage_error("unknown option '" + std::string(flag) + "'");
    }
  }
  if (options.port < 0) usage_error("--port is required (0 picks an ephemeral port)");
  if (options.mode == Mode::capacity) {
    if (options.threads_given && options.threads != 1) {
      usage_error("--threads: capacity mode is single-threaded by definition, got " +
                  std::to_string(options.threads));
    }
    if (!options.service_given) options.service_us = kDefaultCapacityServiceUs;
  }
  if ((options.slow_start_ms > 0) != (options.slow_start_us > 0)) {
    usage_error("--slow-start-ms and --slow-start-us go together");
  }
  if ((options.delay_us > 0) != (options.delay_every > 0)) {
    usage_error("--delay-us and --delay-every go together");
  }
  if (options.mode == Mode::status && !options.status_given) options.status = 500;
  if (options.status_given && options.mode != Mode::status) {
    usage_error("--status: only meaningful with --mode status");
  }
  return options;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Status";
  }
}

/// Serialized once at start: the four responses a connection can send (keep-alive or close,
/// with or without body for HEAD), so answering a request is one append.
struct Responses {
  std::string keep_alive, keep_alive_head, closing, closing_head;
};

std::string make_response(int status, int64_t body_bytes, bool closing, bool head_only) {
  const bool bodiless = status == 204 || status == 304;
  std::string text = "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
  text += "Server: hammer-test-server\r\n";
  if (!bodiless) text += "Content-Length: " + std::to_string(body_bytes) + "\r\nContent-Type: text/plain\r\n";
  if (closing) text += "Connection: close\r\n";
  text += "\r\n";
  if (!bodiless && !head_only) {
    static constexpr std::string_view kPattern = "Hello, World!";
    for (int64_t i = 0; i < body_bytes; ++i) text += kPattern[static_cast<size_t>(i) % kPattern.size()];
  }
  return text;
}

Responses make_responses(const Options& options) {
  const int status = options.mode == Mode::status ? options.status : 200;
  return {make_response(status, options.body_bytes, false, false),
          make_response(status, options.body_bytes, false, true),
          make_response(status, options.body_bytes, true, false),
          make_response(status, options.body_bytes, true, true)};
}

void busy_wait_us(int64_t micros) {
  if (micros <= 0) return;
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  const int64_t deadline = now.tv_sec * 1'000'000'000LL + now.tv_nsec + micros * 1000;
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (now.tv_sec * 1'000'000'000LL + now.tv_nsec < deadline);
}

void sleep_us(int64_t micros) {
  if (micros <= 0) return;
  timespec pause{static_cast<time_t>(micros / 1'000'000), static_cast<long>(micros % 1'000'000) * 1000};
  while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
  }
}

int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1'000'000'000LL + now.tv_nsec;
}

int64_t realtime_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return now.tv_sec * 1'000'000'000LL + now.tv_nsec;
}

void sleep_until_ns(int64_t deadline_ns) {
  const timespec until{static_cast<time_t>(deadline_ns / 1'000'000'000),
                       static_cast<long>(deadline_ns % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

/// When the first request arrived (0: none yet); shared by the serving threads.
std::atomic<int64_t> g_first_request_ns{0};

/// --setup-ms and --slow-start-ms: the delay a request arriving now owes the cold start.
void cold_start(const Options& options) {
  if (options.setup_ms == 0 && options.slow_start_ms == 0) return;
  const int64_t now = monotonic_ns();
  int64_t first = 0;
  if (g_first_request_ns.compare_exchange_strong(first, now)) first = now;
  if (options.setup_ms > 0 && now < first + options.setup_ms * 1'000'000) {
    sleep_until_ns(first + options.setup_ms * 1'000'000);
  }
  if (options.slow_start_ms > 0 && now < first + options.slow_start_ms * 1'000'000) {
    sleep_until_ns(monotonic_ns() + options.slow_start_us * 1'000);
  }
}

bool iequals_prefix(std::string_view line, std::string_view name) {
  if (line.size() < name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = line[i];
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != name[i]) return false;
  }
  return true;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool contains_token_close(std::string_view value) {
  for (size_t i = 0; i + 5 <= value.size(); ++i) {
    if (iequals_prefix(value.substr(i), "close")) return true;
  }
  return false;
}

/// What the server needs from one request head.
struct RequestHead {
  int64_t content_length = 0;
  bool wants_close = false;
  bool head_method = false;
  std::string_view target;  // the request target, e.g. "/search?category=alpha"
  bool bad = false;  // unparseable Content-Length or a chunked body we do not decode
};

RequestHead parse_head(std::string_view head) {
  RequestHead request;
  const size_t line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  request.head_method = request_line.starts_with("HEAD ");
  const size_t target_start = request_line.find(' ');
  if (target_start != std::string_view::npos) {
    const size_t target_end = request_line.find(' ', target_start + 1);
    request.target = request_line.substr(
        target_start + 1,
        target_end == std::string_view::npos ? std::string_view::npos
                                             : target_end - target_start - 1);
  }
  if (request_line.ends_with("HTTP/1.0")) request.wants_close = true;
  size_t pos = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t end = head.find("\r\n", pos);
    if (end == std::string_view::npos) end = head.size();
    const std::string_view line = head.substr(pos, end - pos);
    pos = end + 2;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals_prefix(line, "content-length:")) {
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(),
                                             request.content_length);
      if (ec != std::errc{} || ptr != value.data() + value.size() || request.content_length < 0) {
        request.bad = true;
      }
    } else if (iequals_prefix(line, "transfer-encoding:")) {
      request.bad = true;
    } else if (iequals_prefix(line, "connection:")) {
      if (contains_token_close(value)) request.wants_close = true;
      else if (iequals_prefix(value, "keep-alive")) request.wants_close = false;
    }
  }
  return request;
}

struct Connection {
  int fd = -1;
  std::vector<char> input = std::vector<char>(kReadChunkBytes);
  size_t input_begin = 0;
  size_t input_end = 0;
  std::string output;
  size_t output_sent = 0;
  int64_t body_remaining = 0;  // request body bytes still to discard
  int64_t responses = 0;
  size_t slot = 0;             // index in Worker::open_
  bool closing = false;        // the last response said Connection: close
  bool draining = false;       // write side shut; discard input until the peer closes
  bool silent = false;         // --silent-every: a request here is never answered, nor any after
  bool dead = false;           // closed while answering (--mode early's flush failed)
  int64_t arrived_ns = 0;      // --service-kind paced: when the last bytes read arrived
  int64_t held_until_ns = 0;   // --delay-every: output waits until then (0: not held)
  uint32_t interest = EPOLLIN;
};

class Worker {
 public:
  int64_t answered() const { return answered_; }  // read after the thread joined
  Worker(const Options& options, const Responses& responses, int listener, int wake_fd)
      : options_(options), responses_(responses), listener_(listener), wake_fd_(wake_fd),
        accept_batch_(options.threads == 1 ? INT32_MAX : 1) {}

  void run() {
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    add(listener_, &listener_, options_.threads == 1 ? EPOLLIN : EPOLLIN | EPOLLEXCLUSIVE);
    add(wake_fd_, &wake_fd_, EPOLLIN);
    // --hold-us, --delay-every: held answers leave when this timer fires, to the microsecond
    // (epoll's own timeout counts whole milliseconds).
    hold_timer_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    add(hold_timer_, &hold_timer_, EPOLLIN);
    epoll_event events[kMaxEvents];
    bool stopping = false;
    while (!stopping) {
      arm_hold_timer();
      const int count = epoll_wait(epoll_, events, kMaxEvents, -1);
      if (count < 0 && errno == EINTR) continue;
      if (count < 0) break;
      for (int i = 0; i < count; ++i) {
        void* tag = events[i].data.ptr;
        if (tag == &hold_timer_) {
          uint64_t expirations = 0;
          [[maybe_unused]] const ssize_t got = read(hold_timer_, &expirations, sizeof expirations);
        } else if (tag == &wake_fd_) {
          stopping = true;
        } else if (tag == &listener_) {
          accept_some();
        } else {
          on_event(static_cast<Connection*>(tag), events[i].events);
        }
      }
      release_held();
      for (Connection* dead : closed_) delete dead;
      closed_.clear();
    }
    for (Connection* connection : open_) {
      ::close(connection->fd);
      delete connection;
    }
    open_.clear();
    ::close(hold_timer_);
    ::close(epoll_);
  }

 private:
  void add(int fd, void* tag, uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.ptr = tag;
    epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event);
  }

  void set_interest(Connection* connection, uint32_t events) {
    if (connection->interest == events) return;
    connection->interest = events;
    epoll_event event{};
    event.events = events;
    event.data.ptr = connection;
    epoll_ctl(epoll_, EPOLL_CTL_MOD, connection->fd, &event);
  }

  /// One thread takes every pending connection; several take one per wake-up each, so that the
  /// level-triggered listener wakes the next idle thread for the next connection.
  void accept_some() {
    for (int32_t accepted = 0; accepted < accept_batch_; ++accepted) {
      const int fd = accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        // EAGAIN: drained. EMFILE/ENFILE and friends: leave the rest in the backlog; level
        // triggering brings us back, and the client sees a slow connect rather than a crash.
        return;
      }
      const int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (options_.service_kind == ServiceKind::paced) {
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
      }
      auto* connection = new Connection;
      connection->fd = fd;
      connection->slot = open_.size();
      open_.push_back(connection);
      add(fd, connection, EPOLLIN);
    }
  }

  /// --hold-us, --delay-every: the timer set to the first held answer's time (disarmed when
  /// none is held).
  void arm_hold_timer() {
    int64_t first = INT64_MAX;
    for (const Connection* c : held_) first = std::min(first, c->held_until_ns);
    if (first == armed_for_ns_) return;
    armed_for_ns_ = first;
    itimerspec when{};
    if (first != INT64_MAX) {
      when.it_value.tv_sec = first / 1'000'000'000;
      when.it_value.tv_nsec = first % 1'000'000'000;
    }
    timerfd_settime(hold_timer_, TFD_TIMER_ABSTIME, &when, nullptr);
  }

  /// Sends the held output that is due.
  void release_held() {
    const int64_t now = monotonic_ns();
    for (size_t i = 0; i < held_.size();) {
      Connection* c = held_[i];
      if (c->held_until_ns > now) {
        ++i;
        continue;
      }
      held_[i] = held_.back();
      held_.pop_back();
      c->held_until_ns = 0;
      if (!c->output.empty()) flush(c);
    }
  }

  void close_connection(Connection* connection) {
    if (connection->held_until_ns != 0) {
      held_.erase(std::find(held_.begin(), held_.end(), connection));
      connection->held_until_ns = 0;
    }
    epoll_ctl(epoll_, EPOLL_CTL_DEL, connection->fd, nullptr);
    ::close(connection->fd);
    open_[connection->slot] = open_.back();
    open_[connection->slot]->slot = connection->slot;
    open_.pop_back();
    closed_.push_back(connection);
  }

  void on_event(Connection* connection, uint32_t events) {
    if (events & EPOLLOUT) {
      if (!flush(connection)) return;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(connection);
  }

  /// Reads what is there, answers every complete request in it, writes the answers.
  void on_readable(Connection* connection) {
    Connection& c = *connection;
    if (c.input_begin == c.input_end) c.input_begin = c.input_end = 0;
    if (c.input.size() - c.input_end < kReadChunkBytes / 4) {
      if (c.input_begin > 0) {
        std::memmove(c.input.data(), c.input.data() + c.input_begin, c.input_end - c.input_begin);
        c.input_end -= c.input_begin;
        c.input_begin = 0;
      }
      if (c.input.size() - c.input_end < kReadChunkBytes / 4) c.input.resize(c.input.size() * 2);
    }
    const ssize_t got = options_.service_kind == ServiceKind::paced
                            ? recv_timestamped(c)
                            : recv(c.fd, c.input.data() + c.input_end,
                                   c.input.size() - c.input_end, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (got <= 0) {  // peer closed, or ECONNRESET and friends: nothing more to do for it
      close_connection(connection);
      return;
    }
    c.input_end += static_cast<size_t>(got);
    if (c.draining || c.silent || options_.mode == Mode::silent) {
      c.input_begin = c.input_end = 0;
      return;
    }
    if (options_.read_delay_us > 0) sleep_us(options_.read_delay_us);
    if (!answer_complete_requests(c)) {
      close_connection(connection);
      return;
    }
    if (!c.dead && !c.output.empty()) flush(connection);
  }

  /// Consumes complete requests from the input; false when the connection must be dropped.
  bool answer_complete_requests(Connection& c) {
    while (!c.closing) {
      if (c.body_remaining > 0) {
        const int64_t available = static_cast<int64_t>(c.input_end - c.input_begin);
        const int64_t skip = available < c.body_remaining ? available : c.body_remaining;
        c.input_begin += static_cast<size_t>(skip);
        c.body_remaining -= skip;
        if (c.body_remaining > 0) return true;
      }
      const std::string_view pending(c.input.data() + c.input_begin, c.input_end - c.input_begin);
      const size_t head_end = pending.find("\r\n\r\n");
      if (head_end == std::string_view::npos) {
        if (pending.size() > kMaxHeadBytes) return false;
        return true;
      }
      const RequestHead request = parse_head(pending.substr(0, head_end));
      c.input_begin += head_end + 4;
      if (request.bad) return false;
      c.body_remaining = request.content_length;
      if (options_.silent_every > 0 && ++requests_read_ % options_.silent_every == 0) {
        c.silent = true;  // this request and everything after it on c go unanswered
        c.input_begin = c.input_end = 0;
        return true;
      }
      cold_start(options_);
      serve(c);
      const bool delayed =
          options_.delay_every > 0 && ++requests_delayed_count_ % options_.delay_every == 0;
      if (const int64_t hold_us = options_.hold_us + (delayed ? options_.delay_us : 0);
          hold_us > 0) {
        if (c.held_until_ns == 0) held_.push_back(&c);
        c.held_until_ns = std::max(c.held_until_ns, monotonic_ns() + hold_us * 1000);
      }
      ++c.responses;
      ++answered_;
      if (options_.stop_after > 0 &&
          g_answered_total.fetch_add(1, std::memory_order_relaxed) + 1 == options_.stop_after) {
        kill(getpid(), SIGTERM);  // main's sigwait takes it: the same stop as `kill PID`
      }
      const bool closing = request.wants_close || options_.mode == Mode::close ||
                           (options_.close_every > 0 && c.responses % options_.close_every == 0);
      if (options_.count_paths) {
        if (request.target == "/__counts") {
          const std::string body = g_path_counts.report();
          c.output += "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\n" +
                      (closing ? "Connection: close\r\n" : "") + "\r\n" + body;
          c.closing = closing;
          continue;
        }
        g_path_counts.add(request.target);
      }
      const std::string& response =
          closing ? (request.head_method ? responses_.closing_head : responses_.closing)
                  : (request.head_method ? responses_.keep_alive_head : responses_.keep_alive);
      c.output += response;
      c.closing = closing;
      if (options_.mode == Mode::early && c.body_remaining > 0) {
        // The answer leaves before a byte of the body is read.
        if (!flush(&c)) {
          c.dead = true;
          return true;
        }
      }
    }
    return true;
  }

  /// Spends one request's service time (capacity mode; 0 elsewhere), as --service-kind says.
  void serve(const Connection& c) {
    switch (options_.service_kind) {
      case ServiceKind::busy:
        busy_wait_us(options_.service_us);
        return;
      case ServiceKind::sleep:
        sleep_us(options_.service_us);
        return;
      case ServiceKind::paced:
        free_at_ns_ = std::max(c.arrived_ns, free_at_ns_) + options_.service_us * 1000;
        sleep_until_ns(free_at_ns_);
        return;
    }
  }

  /// recv() that also notes when the kernel received the bytes (SO_TIMESTAMPNS, on the
  /// realtime clock, moved to the monotonic one); the time of the call when there is none.
  ssize_t recv_timestamped(Connection& c) {
    iovec buffer{c.input.data() + c.input_end, c.input.size() - c.input_end};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    msghdr message{};
    message.msg_iov = &buffer;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t got = recvmsg(c.fd, &message, 0);
    const int64_t now = monotonic_ns();
    c.arrived_ns = now;
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
         header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_TIMESTAMPNS) continue;
      timespec received{};
      std::memcpy(&received, CMSG_DATA(header), sizeof received);
      const int64_t age = realtime_ns() - (received.tv_sec * 1'000'000'000LL + received.tv_nsec);
      if (age >= 0 && age < now) c.arrived_ns = now - age;
    }
    return got;
  }

  /// Sends buffered output; false when the connection was closed.
  bool flush(Connection* connection) {
    Connection& c = *connection;
    if (c.held_until_ns != 0) return true;  // --delay-every: release_held() sends it
    while (c.output_sent < c.output.size()) {
      const ssize_t sent = send(c.fd, c.output.data() + c.output_sent,
                                c.output.size() - c.output_sent, MSG_NOSIGNAL);
      if (sent < 0 && errno == EINTR) continue;
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        set_interest(connection, EPOLLOUT);  // stop reading until the peer reads: backpressure
        return true;
      }
      if (sent < 0) {
        close_connection(connection);
        return false;
      }
      c.output_sent += static_cast<size_t>(sent);
    }
    c.output.clear();
    c.output_sent = 0;
    set_interest(connection, EPOLLIN);
    if (c.closing && !c.draining) {
      // Half-close instead of close: unread pipelined input would otherwise turn close() into
      // an RST that can destroy the response still in flight. The peer's EOF ends it.
      shutdown(c.fd, SHUT_WR);
      c.draining = true;
      c.input_begin = c.input_end = 0;
    }
    return true;
  }

  const Options& options_;
  const Responses& responses_;
  int64_t answered_ = 0;  // requests answered, printed at exit (bench/engine.sh counts them)
  int64_t requests_delayed_count_ = 0;  // --delay-every: requests this thread answered
  std::vector<Connection*> held_;       // --delay-every: connections whose output waits
  int hold_timer_ = -1;                 // fires when the first of them is due
  int64_t armed_for_ns_ = INT64_MAX;    // the time it is set to (INT64_MAX: disarmed)
  int64_t requests_read_ = 0;  // --silent-every: complete request heads this thread read
  int listener_;
  int wake_fd_;
  int32_t accept_batch_;
  int epoll_ = -1;
  int64_t free_at_ns_ = 0;           // --service-kind paced: when the last request finishes
  std::vector<Connection*> open_;    // every live connection, for the final close
  std::vector<Connection*> closed_;  // freed after the event batch that closed them
};

int open_listener(const Options& options) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(options.port));
  if (inet_pton(AF_INET, options.host.c_str(), &address.sin_addr) != 1) {
    usage_error("--host: expected an IPv4 address, got '" + options.host + "'");
  }
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(fd, 4096) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int bound_port(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return ntohs(address.sin_port);
}

void raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  raise_file_limit();

  // Block the stop signals before any thread starts, so only sigwait below ever sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // A test that crashes, or a wrapper killed by its PID, must not leave us holding the port.
  prctl(PR_SET_PDEATHSIG, SIGTERM);

  const int listener = open_listener(options);
  if (listener < 0) {
    std::fprintf(stderr, "test_server: cannot listen on %s:%d: %s\n", options.host.c_str(),
                 options.port, std::strerror(errno));
    return 2;
  }
  const int wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  const Responses responses = make_responses(options);

  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  for (int i = 0; i < options.threads; ++i) {
    workers.push_back(std::make_unique<Worker>(options, responses, listener, wake_fd));
    threads.emplace_back([worker = workers.back().get()] { worker->run(); });
  }
  std::printf("listening on %s:%d\n", options.host.c_str(), bound_port(listener));
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  const uint64_t one = 1;
  if (write(wake_fd, &one, sizeof one) < 0) std::perror("test_server: eventfd write");
  for (auto& thread : threads) thread.join();
  int64_t answered = 0;
  for (const auto& worker : workers) answered += worker->answered();
  std::printf("answered %lld requests\n", static_cast<long long>(answered));
  std::fflush(stdout);
  ::close(listener);
  ::close(wake_fd);
  return 0;
}
