// SPDX-License-Identifier: MIT
#pragma once
// The HTML report's view of a saved document (report/html_report.h): members read by path,
// and a single run's histograms decoded once from their HDR strings (never rebuilt from the
// rounded percentiles). Internal to the html_* files.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.h"
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

/// A histogram of the document ("latency.corrected"); nullopt when the member is null (a
/// closed-loop run has no corrected histogram). A bad HDR string is an error naming `name`.
Expected<std::optional<Histogram>, std::string> histogram_at(
    const JsonValue* document, std::initializer_list<std::string_view> path,
    const std::string& name);

/// One single-run document as the page reads it.
struct RunView {
  std::string label;
  const JsonValue* document;
  std::optional<Histogram> corrected;
  std::optional<Histogram> uncorrected;
  std::optional<Histogram> connect;
  std::optional<Histogram> first_requests;
  std::optional<Histogram> handshake;  // https: tls.handshake_time; none for http://
  bool corrected_leads = false;
  // What the run's timeouts censor in each latency histogram (stats/censored_tail.h), from the
  // document's counts: older documents, written before `censored` existed, are read the same.
  CensoredTail corrected_tail;
  CensoredTail uncorrected_tail;
};

/// Decodes the source's histograms; fails with one line naming the source and the member.
Expected<RunView, std::string> read_run(const HtmlSource& source);

}  // namespace hammer::html
