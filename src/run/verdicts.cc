// SPDX-License-Identifier: MIT
//
// How the verdicts are decided, and why these thresholds.
//
// Open loop only, since a closed loop has no schedule to fall behind:
// - Backlog grew: requests due before the deadline were never sent (unsent), or more than 2%
//   of requests left late for want of a free connection. Then either the server cannot keep
//   up, or the connections are too few to carry the rate at the server's latency. Little's law
//   tells them apart: carrying `rate` at latency L needs rate * L connections. L is taken as
//   the uncorrected median, but only when the server shows no queueing (median below 4x the
//   fastest response): a server that queues inflates its own latency, and more connections
//   would only queue more. So: no queueing and rate * L > connections -> too few connections;
//   otherwise -> over capacity, with the rate the server did sustain.
// - hammer itself late with an idle connection for more than 1% of requests (and at least 10):
//   the generator was saturated, the figures describe hammer, not the server.
// - Late requests that are the server's fault, but without a growing backlog, get a note: the
//   corrected latencies already contain the wait.
#include "run/verdicts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace hammer {
namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string milliseconds(int64_t ns) { return fixed(static_cast<double>(ns) / 1e6, 2) + " ms"; }

}  // namespace

namespace {

// No answer at all, or more failed requests than answers.
bool no_working_answers(const RunResult& result) {
  return result.completed == 0 || result.failed_requests() > result.completed;
}

// "503 ×180, 404 ×20": the codes other than 2xx/3xx, most frequent first, at most three.
std::string error_codes_text(const RunResult& result) {
  std::vector<std::pair<int64_t, int>> codes;  // (count, code)
  for (int code = 0; code < kStatusCodeLimit; ++code) {
    const bool error_class = code < 200 || code >= 400;
    if (error_class && result.status_codes[code] > 0) {
      codes.emplace_back(result.status_codes[code], code);
    }
  }
  std::sort(codes.begin(), codes.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first
                                                                         : a.second < b.second; });
  std::string text;
  for (size_t k = 0; k < codes.size() && k < 3; ++k) {
    if (k > 0) text += ", ";
    text += std::to_string(codes[k].second) + " \u00d7" + std::to_string(codes[k].first);
  }
  if (codes.size() > 3) text += ", ...";
  return text;
}

}  // namespace

bool mostly_non_2xx(const RunResult& result) {
  return result.completed > 0 && result.non_2xx_3xx() * 2 > result.completed;
}

bool run_failed(const RunResult& result) {
  return no_working_answers(result) || mostly_non_2xx(result);
}

bool interrupted_before_measuring(const RunResult& result) {
  return result.interrupted && result.sent == 0 && result.completed == 0;
}

std::vector<Verdict> compute_verdicts(const Config& config, const RunResult& result) {
  std::vector<Verdict> verdicts;
  const double elapsed_s = static_cast<double>(result.elapsed_ns) / 1e9;
  const double sustained = elapsed_s > 0 ? static_cast<double>(result.completed) / elapsed_s : 0;

  if (interrupted_before_measuring(result)) {
    // Not a failure of the server: the user stopped the run before its measured part began.
    const bool in_warmup = result.warmup != nullptr && result.warmup->sent > 0;
    verdicts.push_back({"interrupted_before_measuring",
                        in_warmup ? "interrupted during the warm-up: nothing was measured "
                                    "(the warm-up's own figures are above)"
                                  : "interrupted before the first request: nothing was measured",
                        {{"warmup_completed", result.warmup != nullptr
                                                  ? static_cast<double>(result.warmup->completed)
                                                  : 0.0}}});
  } else if (no_working_answers(result)) {
    const int64_t failures = result.failed_requests();
    std::string text = "the run did not work: " + std::to_string(result.completed) +
                       " responses against " + std::to_string(failures) + " failed requests";
    const int64_t timeouts = result.error_count(ErrorKind::timeout);
    if (timeouts > 0 && timeouts * 2 >= failures) {
      text += " (" + std::to_string(timeouts) + " timed out after " +
              milliseconds(config.timeout_ns) + "); these latencies describe nothing";
    }
    verdicts.push_back({"run_failed", text,
                        {{"completed", static_cast<double>(result.completed)},
                         {"failed", static_cast<double>(failures)},
                         {"timeouts", static_cast<double>(timeouts)}}});
  } else if (mostly_non_2xx(result)) {
    // Answers came, but most were errors: a fast 404 or 503 is not a fast server.
    const int64_t errors = result.non_2xx_3xx();
    verdicts.push_back(
        {"mostly_non_2xx",
         "the run did not work: the server answered " + std::to_string(errors) + " of " +
             std::to_string(result.completed) + " requests with an error status (" +
             error_codes_text(result) +
             "); these latencies describe error responses, not the service",
         {{"non_2xx_3xx", static_cast<double>(errors)},
          {"completed", static_cast<double>(result.completed)}}});
  } else if (const int64_t errors = result.non_2xx_3xx();
             errors > 0 && errors * 100 >= result.completed) {
    // A visible share (1% or more): said before the latencies, which include those answers.
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%",
                  100.0 * static_cast<double>(errors) / static_cast<double>(result.completed));
    verdicts.push_back(
        {"non_2xx_responses",
         "warning: " + std::to_string(errors) + " of " + std::to_string(result.completed) +
             " responses (" + share + ") had an error status (" + error_codes_text(result) +
             "); the latencies below include them",
         {{"non_2xx_3xx", static_cast<double>(errors)},
          {"completed", static_cast<double>(result.completed)}}});
  }

  if (!config.open_loop() || result.lag.dispatched == 0) return verdicts;

  const DispatchLag& lag = result.lag;
  const double dispatched = static_cast<double>(lag.dispatched);
  const bool backlog_grew =
      result.unsent > std::max<int64_t>(10, result.scheduled / 100) ||
      static_cast<double>(lag.behind_server) > 0.02 * dispatched;
  const bool backlog_left = result.unsent > std::max<int64_t>(10, result.scheduled / 100);

  if (backlog_grew && result.uncorrected.total_count() > 0) {
    const int64_t median_ns = result.uncorrected.value_at_percentile(50);
    const int64_t fastest_ns = std::max<int64_t>(1, result.uncorrected.min());
    const bool server_queues = median_ns > 4 * fastest_ns;
    const double needed = config.rate * static_cast<double>(median_ns) / 1e9;
    if (!server_queues && needed > static_cast<double>(config.connections)) {
      const int64_t suggested = static_cast<int64_t>(std::ceil(needed * 1.2));
      verdicts.push_back(
          {"too_few_connections",
           "too few connections: -c " + std::to_string(config.connections) + " cannot carry " +
               fixed(config.rate, 0) + " req/s at " + milliseconds(median_ns) +
               " per request; about " + std::to_string(suggested) +
               " connections would (Little's law: rate x latency)",
           {{"connections", static_cast<double>(config.connections)},
            {"rate", config.rate},
            {"latency_ns", static_cast<double>(median_ns)},
            {"connections_needed", needed}}});
    } else if (backlog_left || sustained < 0.95 * config.rate) {
      verdicts.push_back(
          {"over_capacity",
           "over capacity: the server sustained " + fixed(sustained, 0) + " req/s of the " +
               fixed(config.rate, 0) + " scheduled and the backlog kept growing (" +
               std::to_string(result.unsent) +
               " requests never sent); latencies now depend on the run's length, not the server",
           {{"sustained_rate", sustained},
            {"rate", config.rate},
            {"unsent", static_cast<double>(result.unsent)},
            {"peak_backlog", static_cast<double>(lag.peak_backlog)}}});
    }
  }

  if (lag.behind_generator >= 10 && static_cast<double>(lag.behind_generator) > 0.01 * dispatched) {
    verdicts.push_back(
        {"generator_saturated",
         "warning: hammer itself sent " + std::to_string(lag.behind_generator) +
             " requests late while a connection was idle (max lag " + milliseconds(lag.max_ns) +
             "); these numbers describe the generator, not the server: lower --rate or add "
             "--threads",
         {{"behind_generator", static_cast<double>(lag.behind_generator)},
          {"dispatched", dispatched},
          {"max_lag_ns", static_cast<double>(lag.max_ns)}}});
  }

  if (lag.behind_server > 0 && verdicts.empty()) {
    verdicts.push_back(
        {"server_behind",
         "note: " + std::to_string(lag.behind_server) +
             " requests left late because every connection was busy waiting on the server; "
             "the corrected latencies include that wait",
         {{"behind_server", static_cast<double>(lag.behind_server)}}});
  }
  return verdicts;
}

}  // namespace hammer
