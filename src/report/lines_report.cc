// SPDX-License-Identifier: MIT
#include "report/lines_report.h"

#include <string_view>

#include "report/format.h"
#include "report/json_report.h"

namespace hammer {
namespace {

// "2xx 1000, 5xx 3"; "-" when no response.
std::string status_text(const LineStats& line) {
  std::string text;
  for (int index = 0; index < kStatusClassCount; ++index) {
    if (line.status_classes[index] == 0) continue;
    if (!text.empty()) text += ", ";
    text += std::string(kStatusClassNames[index]) + " " + std::to_string(line.status_classes[index]);
  }
  return text.empty() ? "-" : text;
}

// A line's histogram as its timeouts censor it.
CensoredTail line_tail(const Config& config, const LineStats& line, const Histogram& histogram) {
  return tail_of(config, line.errors[static_cast<int>(ErrorKind::timeout)], histogram);
}

// A latency column: a censored figure ("> 150.00ms") and a space before it.
constexpr size_t kLatencyColumn = 11;

// p50, p99, max of the line's requests that ended; "> 2.00s" where its timeouts censor them.
std::string figures(const Config& config, const LineStats& line, const Histogram& histogram) {
  if (histogram.total_count() == 0) {
    return pad_left("-", kLatencyColumn) + pad_left("-", kLatencyColumn) +
           pad_left("-", kLatencyColumn);
  }
  const CensoredTail tail = line_tail(config, line, histogram);
  return right_cell(tail_figure_text(tail.at(histogram, 50)), kLatencyColumn) +
         right_cell(tail_figure_text(tail.at(histogram, 99)), kLatencyColumn) +
         right_cell(tail_figure_text(tail.max(histogram)), kLatencyColumn);
}

struct Entry {
  std::string label;  // "1" .. "64", or "65-100" for the aggregated row
  std::string name;
  const RequestLine* line = nullptr;  // null for the aggregated row
  const LineStats* stats = nullptr;
};

}  // namespace

LineLabel line_label(const Config& config, size_t slot) {
  const auto index = static_cast<int64_t>(slot);
  const auto count = static_cast<int64_t>(config.requests.size());
  if (index < kMaxLinesWithOwnStats && index < count) {
    return {std::to_string(index + 1), config.requests[slot].name, &config.requests[slot]};
  }
  std::string label = std::to_string(kMaxLinesWithOwnStats + 1);
  label += "-";  // in steps: GCC 12's -Wrestrict misfires on string + "-" + string
  label += std::to_string(count);
  std::string name = "(requests ";
  name += label;
  name += ", aggregated)";
  return {label, name, nullptr};
}

namespace {

std::vector<Entry> entries(const ReportInput& input) {
  std::vector<Entry> rows;
  const auto& stats = input.result.lines;
  for (size_t slot = 0; slot < stats.size(); ++slot) {
    LineLabel named = line_label(input.config, slot);
    rows.push_back(Entry{std::move(named.label), std::move(named.name), named.line, &stats[slot]});
  }
  return rows;
}

void write_line_histogram(const Config& config, const LineStats& line, const Histogram& histogram,
                          JsonWriter& json) {
  write_short_latency(line_tail(config, line, histogram), histogram, json);
}

}  // namespace

void append_lines_text(const ReportInput& input, std::string& out) {
  if (input.config.requests.empty() || input.result.lines.empty()) return;
  const bool open_loop = input.config.open_loop();
  out += "Requests by line (" + input.config.requests_path + ", " +
         std::to_string(input.config.requests.size()) +
         (input.config.requests.size() == 1 ? " line" : " lines") + "; measured part)\n";
  // Errors got no answer; non-2xx/3xx got one the server refused or failed (a line of 404s
  // is not clean): both beside the requests, the classes after them.
  out += pad_left("line", 7) + pad_left("requests", 10) + pad_left("errors", 8) +
         pad_left("non-2xx/3xx", 13) + "  " + pad_right("status", 18);
  if (open_loop) {
    out += pad_left("p50", kLatencyColumn) + pad_left("p99", kLatencyColumn) +
           pad_left("max", kLatencyColumn) + "  |";
  }
  out += pad_left(open_loop ? "unc. p50" : "p50", kLatencyColumn) +
         pad_left("p99", kLatencyColumn) + pad_left("max", kLatencyColumn) + "  name\n";
  for (const Entry& entry : entries(input)) {
    const LineStats& stats = *entry.stats;
    out += pad_left(entry.label, 7) + pad_left(std::to_string(stats.completed), 10) +
           pad_left(std::to_string(stats.failed_requests()), 8) +
           pad_left(std::to_string(stats.non_2xx_3xx()), 13) + "  " +
           pad_right(status_text(stats), 18);
    if (open_loop) out += figures(input.config, stats, stats.corrected) + "  |";
    out += figures(input.config, stats, stats.uncorrected) + "  " + entry.name + "\n";
  }
  if (open_loop) out += "  (left: corrected latency; right of '|': uncorrected)\n";
  // A line's max a hair above the run's read as a contradiction (a new user's trial): the
  // lines keep 2 significant digits (run/result.h's LineStats), the run 3.
  out += "  (each line's own histogram, 2 significant digits: a figure may read up to 1% above "
         "the run's)\n";
}

void write_lines_json(const ReportInput& input, JsonWriter& json) {
  json.key("requests_file");
  if (input.config.requests.empty()) {
    json.null();
    return;
  }
  json.begin_object();
  json.member("path", input.config.requests_path);
  json.member("count", static_cast<int64_t>(input.config.requests.size()));
  json.member("lines_with_own_figures", kMaxLinesWithOwnStats);
  json.key("lines").begin_array();
  for (const Entry& entry : entries(input)) {
    const LineStats& stats = *entry.stats;
    json.begin_object();
    json.member("lines", entry.label);  // "3" (1-based request index), or "65-100" aggregated
    json.member("name", entry.name);
    json.member_or_null("file_line", entry.line != nullptr,
                        entry.line != nullptr ? entry.line->line_number : 0);
    json.member_or_null("method", entry.line != nullptr,
                        entry.line != nullptr ? entry.line->method : std::string());
    json.member_or_null("path", entry.line != nullptr,
                        entry.line != nullptr ? entry.line->path : std::string());
    json.member("sent", stats.sent);
    json.member("completed", stats.completed);
    write_named_counts("errors", kErrorKindNames, stats.errors, json);
    write_named_counts("status", kStatusClassNames, stats.status_classes, json);
    json.member("non_2xx_3xx", stats.non_2xx_3xx());
    json.key("latency").begin_object();
    json.key("corrected");
    if (input.config.open_loop()) {
      write_line_histogram(input.config, stats, stats.corrected, json);
    } else {
      json.null();
    }
    json.key("uncorrected");
    write_line_histogram(input.config, stats, stats.uncorrected, json);
    json.end_object();
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

}  // namespace hammer
