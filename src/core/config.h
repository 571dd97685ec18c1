// SPDX-License-Identifier: MIT
#pragma once
// Config: everything a run needs, as plain data. cli/options builds it from argv (and checks
// every value); run/ and report/ only read it. Times are int64_t nanoseconds throughout.
#include <cstdint>
#include <string>
#include <vector>

namespace hammer {

struct Target {
  std::string host;         // as written in the URL: "127.0.0.1", "localhost", "::1"
  std::string port_text;    // "8080"
  int port = 80;
  std::string path = "/";   // path and query, always starts with '/'
  std::string host_header;  // value for the Host header: host[:port], [v6] bracketed
};

struct Config {
  std::string url;  // as the user typed it
  Target target;

  int64_t connections = 50;
  int64_t threads = 0;  // 0 until options resolve the default min(4, connections)
  int64_t duration_ns = 10'000'000'000;
  double rate = 0;            // requests/s over all connections; 0 = closed loop
  bool closed_loop_stopwatch = false;  // --closed-loop: lead with latency from actual send
  std::string method = "GET";
  std::vector<std::string> headers;  // "Name: value", in the order given
  std::string body;                  // contents of --body FILE
  std::string body_path;             // FILE as given, for the report
  int64_t timeout_ns = 2'000'000'000;
  bool print_latency = false;  // --latency
  bool json = false;           // --json
  int64_t warmup_ns = 0;       // --warmup: load before the measured part; 0 = none
  bool print_timeline = false; // --timeline: the per-second table in the text report
  int64_t slow_ns = 0;         // --slow: threshold of the slow-request note; 0 = 10x p50
  bool keep_alive = true;      // --no-keepalive: false, a new connection for every request

  bool open_loop() const { return rate > 0; }
};

}  // namespace hammer
