// SPDX-License-Identifier: MIT
// Open-loop truth over TLS (issue 25): hammer at a fixed rate against nginx over TLS, which
// proxies over keep-alive upstream connections to tools/pausing_server.py, a server that
// stalls for 200 ms every N responses. The corrected percentiles must follow the pause /
// period formula of design.md §1 as they do over plain HTTP (open_loop_test.cc, whose judging
// this copies): TLS adds microseconds per request, nothing the formula can see. Run under
// each engine (HAMMER_ENGINE=io_uring, epoll) like the rest of the suite.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "e2e/e2e.h"
#include "support/nginx_tls.h"

namespace hammer::test {
namespace {

// The pausing server's own lateness after its stalls, in ms (GET /__pausing_server/overrun,
// asked of it directly over plain HTTP): the most a response it held left after the stall's
// end, its threads waking one after another. The formula leaves it out; the margin takes it.
double server_overrun_ms(const ServerProcess& upstream) {
  const Finished asked =
      run_process({python_binary(), "-c",
                   "import sys, urllib.request; "
                   "print(urllib.request.urlopen(sys.argv[1]).read().decode())",
                   upstream.url("/__pausing_server/overrun")},
                  30);
  EXPECT_EQ(asked.exit_code, 0) << asked.err;
  return std::atof(asked.out.c_str());
}

TEST(TlsOpenLoopTest, PausingServerBehindNginxOverTlsCorrectedPercentilesFollowTheFormula) {
  if (access(kNginx, X_OK) != 0 || access(kOpenssl, X_OK) != 0) {
    GTEST_SKIP() << kNginx << " or " << kOpenssl << " is not installed (scripts/deps.sh)";
  }
  // 1,000 req/s with a 200 ms pause every 1,500 responses: one pause per 1.5 s, as the issue's
  // 2,000 req/s with one every 3,000 (bench/tls.sh runs that one), at half the Python server's
  // load: at 2,000 req/s on a busy two-core machine it had too little to spare to drain a
  // pause's backlog quickly (p99 243 ms seen for 181), which the formula takes as instant.
  // 7.5 s hold four pauses (the fifth begins as the run ends): f = 0.107, so p90 falls just
  // inside the pauses (~12 ms) and p99 deep in them (~181 ms). 10 connections: the requests
  // caught in flight by a pause (10 per 1,500) stay out of the uncorrected p99. The margin is
  // the plain case's, 25% of the expected p99 plus the run's own uncorrected p99 (the
  // machine's noise, measured in the same run), plus the server's own overrun after its
  // stalls and hammer's longest host stall; a miss is repeated, up to three attempts.
  constexpr double kRate = 1000, kEvery = 1500, kPauseMs = 200, kSeconds = 7.5;
  const double expected_p90 = expected_corrected_ms(0.90, kPauseMs, kEvery, kRate, kSeconds);
  const double expected_p99 = expected_corrected_ms(0.99, kPauseMs, kEvery, kRate, kSeconds);
  auto arg = [](double value) {
    std::string text = std::to_string(value);
    text.erase(text.find_last_not_of('0') + 1);  // "7.500000" -> "7.5", "1000.000000" -> "1000"
    if (text.back() == '.') text.pop_back();
    return text;
  };
  for (int attempt = 1;; ++attempt) {
    ServerProcess upstream({python_binary(), pausing_server_script(), "--port", "0",
                            "--pause-ms", arg(kPauseMs), "--every", arg(kEvery)});
    ASSERT_TRUE(upstream.ready()) << upstream.startup_output();
    const TlsServer nginx(TlsServerOptions{.upstream_port = upstream.port()});
    ASSERT_TRUE(nginx.ready()) << "nginx did not start";
    const std::string url = "https://127.0.0.1:" + std::to_string(nginx.proxy_port()) + "/";
    const Finished run = run_hammer({"-r", arg(kRate), "-c", "10", "-t", "2", "-d",
                                     arg(kSeconds), "--json", "--cacert", nginx.ca(), url},
                                    60);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const JsonValue report = parse_report(run);

    const PausingRunLatency latency = pausing_run_latency(report, kRate * kSeconds);
    const auto& [corrected_p90, corrected_p99, uncorrected_p90, uncorrected_p99] = latency;
    expect_no_errors_over_tls(report);
    // Over TLS, with keep-alive: one full handshake per connection and no more.
    EXPECT_EQ(number_at(report, "tls.handshakes.full"), 10);
    EXPECT_EQ(number_at(report, "tls.handshakes.failed"), 0);
    const double overrun = server_overrun_ms(upstream);
    // hammer's own host stalls (its hiccup meter) delay the reading of answers as much.
    const JsonValue* stall = report.find("host.max_stall_ns");
    const double host_stall = stall != nullptr ? stall->number / 1e6 : 0;
    const double margin = 0.25 * expected_p99 + uncorrected_p99 + overrun + host_stall;
    const std::string reading =
        "corrected p90 " + std::to_string(corrected_p90) + " ms (expected " +
        std::to_string(expected_p90) + ", uncorrected " + std::to_string(uncorrected_p90) +
        "), corrected p99 " + std::to_string(corrected_p99) + " ms, expected " +
        std::to_string(expected_p99) + " +- " + std::to_string(margin) +
        " ms (25% + uncorrected p99 " + std::to_string(uncorrected_p99) +
        " ms + server overrun " + std::to_string(overrun) + " ms + host stall " +
        std::to_string(host_stall) + " ms)";
    std::cout << "attempt " << attempt << ": " << reading << "\n";
    // As in the plain case: hammer's warning about its own lateness is judged by its figures.
    EXPECT_EQ(generator_warning_problem(report), "") << run.out;
    if (latency.omission_shown() && std::abs(corrected_p90 - expected_p90) <= margin &&
        std::abs(corrected_p99 - expected_p99) <= margin) {
      break;
    }
    if (attempt == 3) {
      ADD_FAILURE() << reading << ", on three attempts";
      break;
    }
    std::cout << "retrying: " << reading << "\n";
  }
}

}  // namespace
}  // namespace hammer::test
