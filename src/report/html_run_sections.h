// SPDX-License-Identifier: MIT
#pragma once
// The sections of a single run's page, in the order a reader needs them (html_report.cc says
// which): findings, the summary table, the spectrum, the timeline, the --requests lines, the
// cold start, and the config footer. Internal to the html_* files.
#include <string>

#include "json/json_value.h"
#include "report/html_reading.h"

namespace hammer::html {

/// One run's full report, every id inside prefixed by `prefix` ("run2-") when the page holds
/// several runs.
std::string single_run_body(const RunView& run, const std::string& prefix);
/// The line under the page's title: what was run, as the document says.
std::string run_heading(const RunView& run);
/// A config member's value as the foot shows it (unescaped): "none", "true", the number or
/// text, a list joined by ", ", "…" for a nested one; "" for a value that says nothing.
std::string config_value_text(const JsonValue& value);
/// The page's foot: the config and the hammer version that wrote the document.
std::string config_footer(const JsonValue* doc);

}  // namespace hammer::html
