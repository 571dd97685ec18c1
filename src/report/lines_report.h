// SPDX-License-Identifier: MIT
#pragma once
// --requests: each line of the file reported apart (measured part only), so "which endpoint is
// slow?" has an answer: requests, status classes, errors, and p50/p99/max on both stopwatches
// (corrected in open loop, uncorrected always), in text and in JSON ("requests_file"). Lines
// after the first kMaxLinesWithOwnStats share one aggregated row (run/result.h).
#include <string>

#include "report/json_writer.h"
#include "report/report_input.h"

namespace hammer {

/// A --requests row's label and name, as the text table, the JSON's requests_file and the
/// HTML page name it: "3" and the line's name, or, for the entry that holds the lines after
/// the first kMaxLinesWithOwnStats, "65-100" and "(requests 65-100, aggregated)". `line` is
/// null for that entry.
struct LineLabel {
  std::string label;
  std::string name;
  const RequestLine* line = nullptr;
};
LineLabel line_label(const Config& config, size_t slot);

/// The per-line table; nothing without --requests.
void append_lines_text(const ReportInput& input, std::string& out);

/// "requests_file": {path, count, lines: [...]}, or null without --requests.
void write_lines_json(const ReportInput& input, JsonWriter& json);

}  // namespace hammer
