// SPDX-License-Identifier: MIT
#pragma once
// Running the built binaries from tests: a process with its output captured, bounded in time,
// and stopped by its own PID (never by name).
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hammer::test {

struct Finished {
  int exit_code = -1;     // -1 when killed by a signal or by the time limit
  bool timed_out = false;
  std::string out;
  std::string err;
  double wall_s = 0;
  int64_t max_rss_kb = -1;  // the process's peak resident set (wait4's ru_maxrss), KiB
  double first_signal_s = -1;  // when the first timed signal was sent, from the start
};

/// Runs `argv` to completion, killing it (SIGKILL) after `limit_s`. stdin is /dev/null.
/// With `signal_number`, sends that signal once, `signal_after_s` after the program has put a
/// handler in place for it (after the exec when it never does, within 10 s).
Finished run_process(const std::vector<std::string>& argv, double limit_s, int signal_number = 0,
                     double signal_after_s = 0);

/// One signal to send, `after_s` after the start.
struct TimedSignal {
  int signal_number;
  double after_s;
};
/// As above, sending each of `signals` (in order of after_s) at its time. The times count
/// from when the program catches `origin_signal` (0: the first of `signals`), so that signals
/// no program catches (SIGSTOP, SIGCONT) can be timed from its handler for another.
Finished run_process(const std::vector<std::string>& argv, double limit_s,
                     const std::vector<TimedSignal>& signals, int origin_signal = 0);

/// A server started for a test: waits for its "listening on" line on stdout; stopped with
/// SIGTERM (then SIGKILL) by PID when destroyed.
class ServerProcess {
 public:
  ServerProcess(const std::vector<std::string>& argv, double ready_limit_s = 10);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  bool ready() const { return ready_; }
  pid_t pid() const { return pid_; }
  const std::string& startup_output() const { return startup_output_; }
  /// The port from the "listening on HOST:PORT" line (servers are started with --port 0).
  int port() const { return port_; }
  std::string url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  pid_t pid_ = -1;
  bool ready_ = false;
  std::string startup_output_;
  int port_ = 0;
};

/// A loopback port on which nothing listens (bound, then released).
int unused_port();

/// Waits, up to `limit_s`, until some TCP connection to local `port` is established (read from
/// /proc/net/tcp and tcp6): a test that sabotages a server "N ms into the run" counts from the
/// moment the run really began, not from when hammer was started, which on a busy machine
/// (or under a sanitizer) can be a second apart. False when none came in time.
bool wait_for_established_connection(int port, double limit_s = 20);

/// Paths of the programs under test, from compile definitions.
std::string hammer_binary();
std::string test_server_binary();
std::string pausing_server_script();
std::string tls_hostile_server_script();
std::string h2_hostile_server_script();
std::string python_binary();

}  // namespace hammer::test
