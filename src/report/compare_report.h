// SPDX-License-Identifier: MIT
#pragma once
// `hammer compare`'s output: the rows of a Comparison (compare/compare.h) as text or JSON.
#include <string>

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

/// A table: percentile, A, B, B - A (and %), its interval, the verdict; then the --fail-if
/// outcome lines.
std::string render_compare_text(const Comparison& comparison, const CompareLabels& labels);

/// The same as one JSON document (docs/json.md, "hammer compare").
std::string render_compare_json(const Comparison& comparison, const CompareLabels& labels);

}  // namespace hammer
