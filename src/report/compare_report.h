// SPDX-License-Identifier: MIT
#pragma once
// `hammer compare`'s output: the rows of a Comparison (compare/compare.h) as text or JSON.
#include <string>
#include <vector>

#include "compare/compare.h"

namespace hammer {

/// What the comparison is of, for its header.
struct CompareLabels {
  std::string a;          // the files as given
  std::string b;
  std::string stopwatch;  // "corrected" or "uncorrected": A's lead stopwatch
};

/// "better", "no change", "worse".
const char* compare_verdict_text(CompareVerdict verdict);
/// "better", "no_change", "worse": the JSON's verdict, and the HTML page's class for it.
const char* compare_verdict_code(CompareVerdict verdict);
/// A row's B - A ("+1.20ms"), as a percentage of A ("+4.1%"; "" when A is 0), and its
/// interval ("[+1.00ms, +1.40ms]"): the text table's wording, which the HTML page shares.
std::string compare_delta_text(const CompareRow& row);
std::string compare_percent_text(const CompareRow& row);
std::string compare_interval_text(const CompareRow& row);
/// A row's verdict as its table cell: the verdict's text, and for a change held back by the
/// host's own noise "no change (host noise 52.00us)".
std::string compare_row_verdict_text(const Comparison& comparison, const CompareRow& row);
/// A side's figure: "1.20ms", or "> 200.00ms" when it is only the timeout (censored).
std::string compare_figure_text(int64_t ns, bool censored);
/// One sentence per run whose requests timed out, or whose host stalled, saying so: the text
/// prints each on its own indented line, the page as a finding.
std::vector<std::string> compare_side_notes(const Comparison& comparison);
/// A gated row's rule as given: "--fail-if p99+10%".
std::string compare_gate_text(const CompareRow& row);
/// A gate's outcome, as the text prints it after the rule and the page in its cell:
/// "FAIL (worse beyond noise, by +12.0%)", "pass", or "FAIL, not judged: ..." when the runs
/// could not judge its row (too few seconds, too few requests above the percentile, a figure
/// the timeouts censor): a gate passes only when the runs show it does.
std::string compare_gate_outcome_text(const Comparison& comparison, const CompareRow& row);

/// A table: percentile, A, B, B - A (and %), its interval, the verdict; then the --fail-if
/// outcome lines.
/// "not judged: A has 1 measured second and B 1, ...": a comparison too short to resample.
std::string compare_too_few_seconds_text(const Comparison& comparison);
std::string render_compare_text(const Comparison& comparison, const CompareLabels& labels);

/// The same as one JSON document (docs/json.md, "hammer compare").
std::string render_compare_json(const Comparison& comparison, const CompareLabels& labels);

}  // namespace hammer
