// SPDX-License-Identifier: MIT
#pragma once
// `hammer compare A.json B.json -o page.html`: the comparison as one self-contained page, in
// the HTML report's frame (report/html_report.h): the findings (each row's verdict, B - A and
// its interval), both runs' percentile spectra on one chart, the --fail-if gates and whether
// they tripped, and both runs' configurations side by side.
#include <string>

#include "core/expected.h"
#include "json/json_value.h"
#include "report/compare_report.h"

namespace hammer {

/// The page for `comparison` of the documents `a` and `b` (the saved runs as parsed JSON,
/// named by labels.a and labels.b). Fails with one line naming the document when one cannot
/// be read as a single run.
Expected<std::string, std::string> render_compare_html(const Comparison& comparison,
                                                       const CompareLabels& labels,
                                                       const JsonValue& a, const JsonValue& b);

}  // namespace hammer
