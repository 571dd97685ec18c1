// SPDX-License-Identifier: MIT
#include "cli/report_command.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "cli/arg_tokenizer.h"
#include "cli/shared_flags.h"
#include "cli/slo_flag.h"
#include "platform/files.h"
#include "document/run_document.h"
#include "json/json_value.h"
#include "report/html_report.h"
#include "report/output_formats.h"
#include "report/slo_report.h"
#include "report/text_report.h"
#include "run/verdicts.h"
#include "sweep/slo.h"

namespace hammer {
namespace {

UsageError report_error(const std::string& message) { return {"report: " + message}; }

// A saved document is a few MB at most; this bound keeps a wrong file (/dev/zero, a disk
// image) from filling memory, as hammer merge bounds its inputs.
constexpr int64_t kMaxDocumentBytes = 256LL * 1024 * 1024;

// The flags `hammer report` takes: rows of the run's table, so each is spelled as there.
constexpr std::array kReportFlags = {flag_spec(Flag::output), flag_spec(Flag::help)};

}  // namespace

Expected<ReportOptions, UsageError> parse_report_options(const std::vector<std::string>& args) {
  ReportOptions options;
  ArgTokenizer arguments(args, CommandFlags{"hammer report", kReportFlags});
  const OutputRule html_only{OutputFormat::html, "renders HTML; expected a FILE.html"};
  for (;;) {
    auto argument = arguments.next();
    if (!argument) return unexpected(report_error(argument.error().message));
    if (!*argument) break;
    const std::string_view value = (*argument)->value;
    if ((*argument)->flag == nullptr) {
      options.inputs.emplace_back(value);
    } else if ((*argument)->flag->flag == Flag::help) {
      options.help = true;
      return options;
    } else if (auto failure = add_output(value, html_only, options.outputs)) {
      return unexpected(report_error(failure->message));
    }
  }
  if (options.inputs.empty()) {
    return unexpected(report_error("no saved run given (usage: hammer report RUN.json "
                                   "[RUN2.json ...] -o report.html)"));
  }
  if (options.outputs.empty() && options.inputs.size() > 1) {
    return unexpected(report_error("comparing " + std::to_string(options.inputs.size()) +
                                   " runs renders HTML: give -o report.html (one run alone, "
                                   "without -o, prints its text report)"));
  }
  if (auto failure = check_output_directories(options.outputs)) {
    return unexpected(report_error(failure->message));
  }
  return options;
}

Expected<std::vector<RenderedFile>, std::string> render_report_files(
    const ReportOptions& options) {
  std::vector<JsonValue> documents;
  documents.reserve(options.inputs.size());
  for (const std::string& input : options.inputs) {
    auto text = read_bounded_file(input, kMaxDocumentBytes, "256MB; not a hammer document");
    if (!text) return unexpected("report: '" + input + "': " + text.error());
    auto document = parse_json(*text);
    if (!document) return unexpected("report: '" + input + "': not JSON: " + document.error());
    documents.push_back(std::move(*document));
  }
  std::vector<HtmlSource> sources;
  for (size_t i = 0; i < documents.size(); ++i) {
    sources.push_back({html_label_for(options.inputs[i]), &documents[i]});
  }
  auto html = render_html_report(sources);
  if (!html) return unexpected("report: " + html.error());
  std::vector<RenderedFile> files;
  for (const OutputFile& output : options.outputs) files.push_back({output.path, *html, ""});
  return files;
}

namespace {

// The document's `slo` array as the limits that were asked for: each limit's text is rebuilt
// from its number ("p99=50ms", "errors=1%") and parsed as --slo would be, so a saved gate is
// judged again by the very rules that judged the run.
Expected<std::vector<SloLimit>, std::string> saved_slo_limits(const JsonValue& document) {
  std::vector<SloLimit> limits;
  const JsonValue* slo = document.find("slo");
  if (slo == nullptr || slo->is_null()) return limits;
  const std::string shape = "slo: expected an array of {key, limit, unit}";
  if (!slo->is_array()) return unexpected(shape);
  for (const JsonValue& entry : slo->items) {
    const JsonValue* key = entry.find("key");
    const JsonValue* limit = entry.find("limit");
    if (key == nullptr || !key->is_string() || limit == nullptr || !limit->is_number()) {
      return unexpected(shape);
    }
    const double number = limit->as_double().value_or(0);
    char text[64];
    if (slo_kind_of(key->text) == SloKind::error_rate) {
      std::snprintf(text, sizeof text, "%.10g%%", number * 100);
    } else {
      std::snprintf(text, sizeof text, "%.0fns", number);
    }
    auto parsed = parse_slo_list(key->text + "=" + text);
    if (!parsed) return unexpected("slo: " + key->text + ": " + parsed.error());
    for (SloLimit& one : *parsed) limits.push_back(std::move(one));
  }
  return limits;
}

// The CPUs of the machine the run ran on, as far as the document tells: only the generator's
// verdict names them (and only its advice depends on them); 0, unknown, otherwise.
int64_t saved_cpus(const JsonValue& document) {
  const JsonValue* verdicts = document.find("verdicts");
  if (verdicts == nullptr || !verdicts->is_array()) return 0;
  for (const JsonValue& verdict : verdicts->items) {
    const JsonValue* cpus = verdict.at({"figures", "cpus"});
    if (cpus != nullptr && cpus->is_number()) return cpus->as_int().value_or(0);
  }
  return 0;
}

}  // namespace

Expected<std::string, std::string> render_saved_run_text(const std::string& path) {
  auto text = read_bounded_file(path, kMaxDocumentBytes, "256MB; not a hammer document");
  if (!text) return unexpected("report: '" + path + "': " + text.error());
  auto json = parse_json(*text);
  if (!json) return unexpected("report: '" + path + "': not JSON: " + json.error());
  if (json->find("hammer") != nullptr && json->find("sweep") != nullptr) {
    return unexpected("report: '" + path + "': a sweep's document renders as HTML only: give "
                      "-o report.html");
  }
  auto document = read_run_document(*json);
  if (!document) return unexpected("report: '" + path + "': " + document.error());
  auto limits = saved_slo_limits(*json);
  if (!limits) return unexpected("report: '" + path + "': " + limits.error());
  // The verdicts are judged again from the figures, as the run judged them.
  const Config& config = document->config;
  const std::vector<Verdict> verdicts =
      compute_verdicts(config, document->result, saved_cpus(*json));
  const std::vector<SloOutcome> slo = evaluate_slos(*limits, config, document->result);
  ReportInput input{config, document->result, verdicts, {}, limits->empty() ? nullptr : &slo};
  if (document->notes) input.saved_notes = &*document->notes;
  return render_text_report(input) + render_slo_lines(slo);
}

std::string report_usage_text() {
  return "Usage: hammer report RUN.json [RUN2.json ...] -o report.html\n"
         "       hammer report RUN.json\n"
         "\n"
         "Renders saved runs (hammer --json or -o RUN.json) as one self-contained HTML\n"
         "page, without running them again. Figures come from each document's\n"
         "histograms (their HDR strings), never from its rounded percentiles.\n"
         "Two or more runs are compared: their percentile spectra are overlaid.\n"
         "A sweep's document is rendered alone.\n"
         "Without -o, one saved run prints its text report, as the run printed it\n"
         "(its --slo limits judged again from the histograms).\n"
         "\n"
         "  -o, --output FILE.html  where to write the page, repeatable\n"
         "  -h, --help              print this help and exit\n"
         "\n"
         "Exit status: 0 written; 1 bad input (an unreadable document, one that is not\n"
         "strict JSON, a key given twice included, or not hammer's); 2 a page could not be\n"
         "written.\n";
}

}  // namespace hammer
