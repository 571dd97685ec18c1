// SPDX-License-Identifier: MIT
#pragma once
// The HTML report (-o run.html, `hammer report`): one self-contained file — inline CSS and SVG,
// no script, no fetch of any kind — rendered from hammer's JSON documents. The document is the
// source of truth: histograms are decoded from its HDR strings (never rebuilt from its rounded
// percentiles), so a report rendered later from a saved run shows the same figures as one
// written at the end of the run. See html_report.cc for the page's order.
#include <string>
#include <vector>

#include "core/expected.h"
#include "json/json_value.h"

namespace hammer {

struct HtmlSource {
  std::string label;        // how the page names the run: html_label_for()
  const JsonValue* document;  // a single-run or sweep document (docs/json.md)
};

/// How a page names a document: the file it is saved in, without its directories ("run.json"
/// for "out/run.json"), or "this run" when it is saved in none (path empty). A run's own -o
/// page and `hammer report` of that run's -o .json file name it alike, so they are one page.
std::string html_label_for(const std::string& document_path);

/// The whole page. One single-run document: its full report. Two or more: each one's summary,
/// their spectra overlaid, then each full report. A sweep document: the sweep's charts and
/// table. Fails with one line naming the source and the member when a document cannot be
/// read (not hammer's, another schema, a bad HDR string); mixing a sweep with other documents
/// is refused too.
Expected<std::string, std::string> render_html_report(const std::vector<HtmlSource>& sources);

}  // namespace hammer
