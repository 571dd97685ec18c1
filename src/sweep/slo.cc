// SPDX-License-Identifier: MIT
#include "sweep/slo.h"

#include <algorithm>

namespace hammer {

double error_rate(const RunResult& result) {
  const int64_t failed = result.failed_requests();
  const int64_t ended = result.completed + failed;
  if (ended <= 0) return 1.0;
  return static_cast<double>(failed + result.non_2xx_3xx()) / static_cast<double>(ended);
}

std::vector<SloOutcome> evaluate_slos(const std::vector<SloLimit>& limits, const Config& config,
                                      const RunResult& result) {
  const bool corrected = config.corrected_stopwatch_leads();
  const Histogram& histogram = corrected ? result.corrected : result.uncorrected;
  std::vector<SloOutcome> outcomes;
  for (const SloLimit& limit : limits) {
    SloOutcome outcome{limit, false, 0, false};
    if (limit.is_error_rate()) {
      outcome.has_measured = true;
      outcome.measured = error_rate(result);
      outcome.pass = outcome.measured <= limit.error_rate;
    } else if (histogram.total_count() > 0) {
      const int64_t figure = limit.percentile >= 100 ? histogram.max()
                                                     : histogram.value_at_percentile(limit.percentile);
      outcome.has_measured = true;
      outcome.measured = static_cast<double>(figure);
      outcome.pass = figure <= limit.limit_ns;
    }
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

bool slos_pass(const std::vector<SloOutcome>& outcomes) {
  return std::all_of(outcomes.begin(), outcomes.end(),
                     [](const SloOutcome& outcome) { return outcome.pass; });
}

}  // namespace hammer
