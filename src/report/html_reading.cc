// SPDX-License-Identifier: MIT
#include "report/html_reading.h"

#include <cmath>

#include "stats/histogram_v2.h"

namespace hammer::html {

const JsonValue* at(const JsonValue* node, std::initializer_list<std::string_view> path) {
  return node == nullptr ? nullptr : node->at(path);
}

std::optional<double> number_at(const JsonValue* node,
                                std::initializer_list<std::string_view> path) {
  const JsonValue* value = at(node, path);
  return value ? value->as_double() : std::nullopt;
}

double number_or(const JsonValue* node, std::initializer_list<std::string_view> path,
                 double fallback) {
  return number_at(node, path).value_or(fallback);
}

std::string text_at(const JsonValue* node, std::initializer_list<std::string_view> path) {
  const JsonValue* value = at(node, path);
  return value && value->is_string() ? value->text : std::string();
}

// A histogram of the document ("latency.corrected"); nullopt when the member is null (a
// closed-loop run has no corrected histogram). A bad HDR string is an error.
Expected<std::optional<Histogram>, std::string> histogram_at(
    const JsonValue* document, std::initializer_list<std::string_view> path,
    const std::string& name) {
  const JsonValue* node = at(document, path);
  if (node == nullptr || node->is_null()) return std::optional<Histogram>();
  const JsonValue* hdr = node->find("hdr");
  if (hdr == nullptr || !hdr->is_string()) {
    return unexpected(name + ".hdr: expected an HdrHistogram string");
  }
  auto decoded = decode_v2_base64(hdr->text);
  if (!decoded) return unexpected(name + ".hdr: " + decoded.error());
  return std::optional<Histogram>(std::move(*decoded));
}

Expected<RunView, std::string> read_run(const HtmlSource& source) {
  RunView run{source.label, source.document, {}, {}, {}, {}, {}, false, {}, {}};
  struct Wanted {
    std::optional<Histogram>* into;
    std::initializer_list<std::string_view> path;
    const char* name;
  };
  const Wanted wanted[] = {{&run.corrected, {"latency", "corrected"}, "latency.corrected"},
                           {&run.uncorrected, {"latency", "uncorrected"}, "latency.uncorrected"},
                           {&run.connect, {"connect"}, "connect"},
                           {&run.first_requests, {"first_requests"}, "first_requests"},
                           {&run.handshake, {"tls", "handshake_time"}, "tls.handshake_time"}};
  for (const Wanted& item : wanted) {
    auto histogram = histogram_at(source.document, item.path, item.name);
    if (!histogram) return unexpected(source.label + ": " + histogram.error());
    *item.into = std::move(*histogram);
  }
  if (!run.uncorrected) return unexpected(source.label + ": latency.uncorrected: missing");
  run.corrected_leads = text_at(source.document, {"config", "stopwatch"}) == "corrected";
  const auto timed_out = static_cast<int64_t>(number_or(source.document, {"errors", "timeout"}, 0));
  const int64_t timeout_ns = std::llround(number_or(source.document, {"config", "timeout_ms"}, 0) * 1e6);
  if (run.corrected) run.corrected_tail = censored_tail(*run.corrected, timed_out, timeout_ns);
  run.uncorrected_tail = censored_tail(*run.uncorrected, timed_out, timeout_ns);
  return run;
}

}  // namespace hammer::html
