// SPDX-License-Identifier: MIT
#include "cli/report_command.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

#include "cli/arg_tokenizer.h"
#include "cli/shared_flags.h"
#include "platform/files.h"
#include "document/run_document.h"
#include "document/sweep_document.h"
#include "json/json_value.h"
#include "report/fleet_report.h"
#include "report/html_report.h"
#include "report/output_formats.h"
#include "report/slo_report.h"
#include "report/sweep_report.h"
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

std::span<const FlagSpec> report_flags() { return kReportFlags; }

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

Expected<std::string, std::string> render_saved_run_text(const std::string& path) {
  auto text = read_bounded_file(path, kMaxDocumentBytes, "256MB; not a hammer document");
  if (!text) return unexpected("report: '" + path + "': " + text.error());
  auto json = parse_json(*text);
  if (!json) return unexpected("report: '" + path + "': not JSON: " + json.error());
  if (json->find("hammer") != nullptr && json->find("sweep") != nullptr) {
    // A sweep's table, control rows and readings, as the sweep printed them.
    auto sweep = read_sweep_document(*json);
    if (!sweep) return unexpected("report: '" + path + "': " + sweep.error());
    return render_sweep_text(sweep->config, sweep->result);
  }
  auto document = read_run_document(*json);
  if (!document) return unexpected("report: '" + path + "': " + document.error());
  // The verdicts and --slo limits are judged again from the figures, as the run judged them.
  const Config& config = document->config;
  const std::vector<Verdict> verdicts =
      compute_verdicts(config, document->result, document->machine_cpus);
  const std::vector<SloOutcome> slo =
      evaluate_slos(document->slo_limits, config, document->result);
  ReportInput input{config, document->result, verdicts, {},
                    document->slo_limits.empty() ? nullptr : &slo};
  if (document->notes) input.saved_notes = &*document->notes;
  // A merged document: the shards' table first, as `hammer merge` printed it.
  std::string fleet_table;
  if (document->fleet) {
    input.fleet = &*document->fleet;
    fleet_table = render_fleet_table(*document->fleet);
  }
  return fleet_table + render_text_report(input) + render_slo_lines(slo);
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
         "(its --slo limits judged again from the histograms); a sweep's, its table\n"
         "and readings as the sweep printed them.\n"
         "\n"
         "  -o, --output FILE.html  where to write the page, repeatable\n"
         "  -h, --help              print this help and exit\n"
         "\n"
         "Exit status: 0 written; 1 bad input (an unreadable document, one that is not\n"
         "strict JSON, a key given twice included, or not hammer's); 2 a page could not be\n"
         "written.\n";
}

}  // namespace hammer
