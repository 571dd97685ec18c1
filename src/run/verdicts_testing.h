// SPDX-License-Identifier: MIT
#pragma once
// Fabricated runs for the verdict rules' tests (verdicts_test.cc, verdicts_cases_test.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "run/verdicts.h"

namespace hammer::verdicts_testing {

// An open-loop run of `rate` req/s over 1 s on `connections`, all scheduled requests sent and
// answered, answered in `latency_ns` (fastest `fastest_ns`); rows change what they test.
struct Fabricated {
  Config config;
  RunResult result;

  Fabricated(double rate, int64_t connections, int64_t latency_ns, int64_t fastest_ns) {
    config.rate = rate;
    config.connections = connections;
    config.threads = std::min<int64_t>(4, connections);
    result.elapsed_ns = 1'000'000'000;
    result.scheduled = static_cast<int64_t>(rate);
    result.sent = result.scheduled;
    result.completed = result.scheduled;
    result.status_classes[1] = result.completed;
    result.status_codes[200] = result.completed;
    result.lag.dispatched = result.sent;
    result.uncorrected.record(fastest_ns);
    result.uncorrected.record_n(latency_ns, result.completed - 1);
    result.corrected.add(result.uncorrected);  // every request left on time
  }

  // The corrected figures: `on_time` answered in `fast_ns` after their slot, `late` of them
  // left `lag_ns` late by hammer's own fault (answered in `fast_ns` once sent), and the rest
  // answered `slow_ns` after their slot (a server's pause).
  void corrected_spread(int64_t on_time, int64_t fast_ns, int64_t late, int64_t lag_ns,
                        int64_t slow_ns) {
    result.corrected.reset();
    result.corrected.record_n(fast_ns, on_time);
    result.corrected.record_n(fast_ns + lag_ns, late);
    result.corrected.record_n(slow_ns, result.completed - on_time - late);
    result.lag.behind_generator = late;
    result.lag.generator_max_ns = lag_ns;
    result.lag.generator_late_latency.reset();
    result.lag.generator_late_latency.record_n(fast_ns + lag_ns, late);
    result.lag.generator_late_unlagged.reset();
    result.lag.generator_late_unlagged.record_n(fast_ns, late);
  }
};

inline std::vector<VerdictCode> codes_of(const std::vector<Verdict>& verdicts) {
  std::vector<VerdictCode> codes;
  for (const Verdict& verdict : verdicts) codes.push_back(verdict_code(verdict));
  return codes;
}

}  // namespace hammer::verdicts_testing
