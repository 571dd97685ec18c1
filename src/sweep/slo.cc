// SPDX-License-Identifier: MIT
#include "sweep/slo.h"

#include <algorithm>

#include "stats/censored_tail.h"

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
  const CensoredTail tail =
      censored_tail(histogram, result.error_count(ErrorKind::timeout), config.timeout_ns);
  std::vector<SloOutcome> outcomes;
  for (const SloLimit& limit : limits) {
    SloOutcome outcome{limit, false, 0, false, false, false};
    if (limit.is_error_rate()) {
      outcome.has_measured = true;
      outcome.measured = error_rate(result);
      outcome.pass = outcome.measured <= limit.error_rate;
    } else if (histogram.total_count() > 0) {
      const TailFigure figure = limit.percentile >= 100 ? tail.max(histogram)
                                                        : tail.at(histogram, limit.percentile);
      outcome.has_measured = true;
      outcome.measured = static_cast<double>(figure.value_ns);
      outcome.censored = figure.censored;
      outcome.unjudged = figure.censored && limit.limit_ns > figure.value_ns;
      outcome.pass = !figure.censored && figure.value_ns <= limit.limit_ns;
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
