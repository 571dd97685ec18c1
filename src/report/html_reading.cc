// SPDX-License-Identifier: MIT
#include "report/html_reading.h"

#include "report/report_input.h"

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

Expected<RunView, std::string> read_run(const HtmlSource& source) {
  auto typed = read_run_document(*source.document);
  if (!typed) return unexpected(source.label + ": " + typed.error());
  RunView run{source.label, source.document, std::move(*typed), false, {}, {}};
  const RunResult& result = run.typed.result;
  run.corrected_leads = run.typed.config.corrected_stopwatch_leads();
  const Config& config = run.typed.config;
  if (run.corrected()) run.corrected_tail = tail_of(config, result, *run.corrected());
  run.uncorrected_tail = tail_of(config, result, result.uncorrected);
  return run;
}

}  // namespace hammer::html
