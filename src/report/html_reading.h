// SPDX-License-Identifier: MIT
#pragma once
// The HTML report's view of a saved document (report/html_report.h): a single run read through
// the typed reader (document/run_document.h), whose histograms are decoded once from their HDR
// strings (never rebuilt from the rounded percentiles). Every figure of the page comes from the
// typed document, as `hammer report`'s text does; the raw document is kept only for the config
// footers, which list every member as written. Internal to the html_* files.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "document/run_document.h"
#include "json/json_value.h"
#include "report/html_report.h"
#include "stats/censored_tail.h"
#include "stats/histogram.h"

namespace hammer::html {

/// The member at `path` under `node` (either may be missing: nullptr).
const JsonValue* at(const JsonValue* node, std::initializer_list<std::string_view> path);
std::optional<double> number_at(const JsonValue* node,
                                std::initializer_list<std::string_view> path);
double number_or(const JsonValue* node, std::initializer_list<std::string_view> path,
                 double fallback);
/// The string at `path`, or "" when it is missing or not a string.
std::string text_at(const JsonValue* node, std::initializer_list<std::string_view> path);

/// One single-run document as the page reads it.
struct RunView {
  std::string label;
  const JsonValue* document;  // for the config footers only: every member, as written
  RunDocument typed;          // the run as read_run_document() reads it: every histogram
  bool corrected_leads = false;
  // What the run's timeouts censor in each latency histogram (tail_of, as the text report
  // reads it), from the document's counts: older documents, written before `censored`
  // existed, are read the same.
  CensoredTail corrected_tail;
  CensoredTail uncorrected_tail;

  /// The corrected histogram when the run had an open loop's schedule; none in closed loop
  /// (the document's latency.corrected is null exactly then).
  const Histogram* corrected() const {
    return typed.config.open_loop() ? &typed.result.corrected : nullptr;
  }
  const Histogram& uncorrected() const { return typed.result.uncorrected; }
};

/// Reads the source through the typed reader; fails with one line naming the source and the
/// member.
Expected<RunView, std::string> read_run(const HtmlSource& source);

}  // namespace hammer::html
