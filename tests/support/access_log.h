// SPDX-License-Identifier: MIT
#pragma once
// The access logs of the servers the e2e tests start (nginx, h2o). A server writes a request's
// line after it has sent the response, so a log read the moment hammer exits can still lack
// the last few lines (seen: TemplatesTest.OverTls read 499 of 500 on a busy machine). A test
// that compares the log with hammer's count waits for the count it expects, bounded, and then
// compares: a log that never gets there, or holds more, still fails.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

namespace hammer::test {

/// Complete ('\n'-terminated) lines in `path`; 0 when it does not exist.
inline int64_t log_line_count(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  int64_t lines = 0;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) lines += *it == '\n';
  return lines;
}

/// Waits up to `timeout_ms` until `path` holds at least `lines` complete lines; returns how
/// many it holds then.
inline int64_t await_log_lines(const std::string& path, int64_t lines, int timeout_ms = 5000) {
  int64_t count = log_line_count(path);
  for (int waited = 0; count < lines && waited < timeout_ms; waited += 10) {
    usleep(10'000);
    count = log_line_count(path);
  }
  return count;
}

}  // namespace hammer::test
