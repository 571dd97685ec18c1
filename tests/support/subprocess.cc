// SPDX-License-Identifier: MIT
#include "support/subprocess.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

namespace hammer::test {
namespace {

// pipe2(O_CLOEXEC) where it exists; macOS has only pipe + fcntl (no child runs between the two
// calls here, so the window pipe2 closes does not matter in tests).
int cloexec_pipe(int fds[2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC);
#else
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

pid_t spawn(const std::vector<std::string>& argv, int out_fd, int err_fd) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    execv(args[0], args.data());
    std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  return pid;
}

// True once `pid` has a handler for `signal_number` (its bit in /proc/PID/status's SigCgt).
bool catches_signal(pid_t pid, int signal_number) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    return (mask >> (signal_number - 1)) & 1U;
  }
  return false;
}

}  // namespace

Finished run_process(const std::vector<std::string>& argv, double limit_s, int signal_number,
                     double signal_after_s) {
  std::vector<TimedSignal> signals;
  if (signal_number != 0) signals.push_back({signal_number, signal_after_s});
  return run_process(argv, limit_s, signals);
}

Finished run_process(const std::vector<std::string>& argv, double limit_s,
                     const std::vector<TimedSignal>& signals, int origin_signal) {
  int out_pipe[2];
  int err_pipe[2];
  if (cloexec_pipe(out_pipe) != 0 || cloexec_pipe(err_pipe) != 0) return {};
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = spawn(argv, out_pipe[1], err_pipe[1]);
  close(out_pipe[1]);
  close(err_pipe[1]);

  Finished finished;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_pipes = 2;
  size_t next_signal = 0;
  // The signals' times count from the moment the program catches the first of them (a handler
  // in place), not from the exec: on a busy machine, or under a sanitizer, a program can take
  // longer than the test's "1 s in" to get that far, and a signal it does not catch yet kills it
  // without a report, which is the machine's doing, not the program's. A program that has not
  // caught it within kCatchLimitS gets it anyway, timed from the exec.
  constexpr double kCatchLimitS = 10;
  std::optional<std::chrono::steady_clock::time_point> signals_origin;
  if (signals.empty()) signals_origin = start;
  while (open_pipes > 0) {
    const double elapsed_s = seconds_since(start);
    const double left_s = limit_s - elapsed_s;
    if (left_s <= 0) {
      kill(pid, SIGKILL);
      finished.timed_out = true;
      break;
    }
    if (!signals_origin &&
        (catches_signal(pid, origin_signal != 0 ? origin_signal : signals.front().signal_number) ||
                            elapsed_s >= kCatchLimitS)) {
      signals_origin = elapsed_s >= kCatchLimitS ? start : std::chrono::steady_clock::now();
    }
    const double signal_clock_s = signals_origin ? seconds_since(*signals_origin) : 0;
    while (signals_origin && next_signal < signals.size() &&
           signal_clock_s >= signals[next_signal].after_s) {
      kill(pid, signals[next_signal].signal_number);
      if (next_signal == 0) finished.first_signal_s = seconds_since(start);
      ++next_signal;
    }
    double wait_s = left_s;
    if (!signals_origin) {
      wait_s = std::min(wait_s, 0.002);  // look again for the handler soon
    } else if (next_signal < signals.size()) {
      wait_s = std::min(wait_s, signals[next_signal].after_s - signal_clock_s);
    }
    if (poll(fds, 2, static_cast<int>(wait_s * 1000) + 1) <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_pipes;
      } else {
        (i == 0 ? finished.out : finished.err).append(buffer, static_cast<size_t>(got));
      }
    }
  }
  for (pollfd& fd : fds) {
    if (fd.fd >= 0) close(fd.fd);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) == pid) finished.max_rss_kb = usage.ru_maxrss;
  finished.wall_s = seconds_since(start);
  if (!finished.timed_out && WIFEXITED(status)) finished.exit_code = WEXITSTATUS(status);
  return finished;
}

ServerProcess::ServerProcess(const std::vector<std::string>& argv, double ready_limit_s) {
  int out_pipe[2];
  if (cloexec_pipe(out_pipe) != 0) return;
  const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  pid_ = spawn(argv, out_pipe[1], null_fd);
  close(out_pipe[1]);
  close(null_fd);
  const auto start = std::chrono::steady_clock::now();
  pollfd fd = {out_pipe[0], POLLIN, 0};
  while (!ready_ && seconds_since(start) < ready_limit_s) {
    if (poll(&fd, 1, 100) <= 0) continue;
    char buffer[4096];
    const ssize_t got = read(out_pipe[0], buffer, sizeof buffer);
    if (got <= 0) break;
    startup_output_.append(buffer, static_cast<size_t>(got));
    const size_t line = startup_output_.find("listening on");
    const size_t end = startup_output_.find('\n', line);
    if (line != std::string::npos && end != std::string::npos) {
      const size_t colon = startup_output_.rfind(':', end);
      port_ = std::atoi(startup_output_.c_str() + colon + 1);
      ready_ = port_ > 0;
    }
  }
  // The server's later output goes nowhere; closing our end would SIGPIPE it on its next print.
  const int keep = out_pipe[0];
  std::thread([keep] {
    char sink[4096];
    while (read(keep, sink, sizeof sink) > 0) {
    }
    close(keep);
  }).detach();
}

ServerProcess::~ServerProcess() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  for (int i = 0; i < 50; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

int unused_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

namespace {

// True when /proc/net/<table> lists an ESTABLISHED (state 01) connection whose local end is
// `port`: the server's side of an accepted connection. Lines read
// "sl local_address rem_address st ...", addresses as HEXIP:HEXPORT.
bool table_has_established(const char* table, int port) {
  std::ifstream file(table);
  std::string line;
  std::getline(file, line);  // the header
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    if (!(fields >> slot >> local >> remote >> state)) continue;
    const size_t colon = local.rfind(':');
    if (colon == std::string::npos || state != "01") continue;
    if (std::strtol(local.c_str() + colon + 1, nullptr, 16) == port) return true;
  }
  return false;
}

}  // namespace

bool wait_for_established_connection(int port, double limit_s) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::microseconds(static_cast<int64_t>(limit_s * 1e6));
  while (std::chrono::steady_clock::now() < deadline) {
    if (table_has_established("/proc/net/tcp", port) ||
        table_has_established("/proc/net/tcp6", port)) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

std::string hammer_binary() { return HAMMER_BIN; }
std::string test_server_binary() { return HAMMER_TEST_SERVER; }
std::string pausing_server_script() { return HAMMER_SOURCE_DIR "/tools/pausing_server.py"; }
std::string tls_hostile_server_script() {
  return HAMMER_SOURCE_DIR "/tools/tls_hostile_server.py";
}
std::string h2_hostile_server_script() {
  return HAMMER_SOURCE_DIR "/tools/h2_hostile_server.py";
}
std::string python_binary() { return HAMMER_PYTHON; }

}  // namespace hammer::test
