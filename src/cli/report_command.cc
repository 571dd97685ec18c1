// SPDX-License-Identifier: MIT
#include "cli/report_command.h"

#include <algorithm>
#include <cstdint>

#include "core/read_bounded_file.h"
#include "json/json_value.h"
#include "report/html_report.h"
#include "report/output_formats.h"

namespace hammer {
namespace {

UsageError report_error(const std::string& message) { return {"report: " + message}; }

// A saved document is a few MB at most; this bound keeps a wrong file (/dev/zero, a disk
// image) from filling memory, as hammer merge bounds its inputs.
constexpr int64_t kMaxDocumentBytes = 256LL * 1024 * 1024;

}  // namespace

Expected<ReportOptions, UsageError> parse_report_options(const std::vector<std::string>& args) {
  ReportOptions options;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg.size() < 2 || arg.front() != '-') {
      options.inputs.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
    } else if (arg == "-h" || arg == "--help") {
      options.help = true;
      return options;
    } else if (arg == "-o" || arg == "--output" || arg.starts_with("--output=") ||
               (arg.starts_with("-o") && arg.size() > 2)) {
      std::string value;
      if (arg.starts_with("--output=")) {
        value = arg.substr(9);
      } else if (arg.size() > 2 && arg[1] == 'o') {
        value = arg.substr(2);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return unexpected(report_error("--output: missing value"));
      }
      const OutputFormatSpec* spec = output_format_for_path(value);
      if (spec == nullptr || spec->format != OutputFormat::html) {
        return unexpected(report_error("--output: renders HTML; expected a FILE.html, got '" +
                                       value + "'"));
      }
      if (std::find(options.outputs.begin(), options.outputs.end(), value) !=
          options.outputs.end()) {
        return unexpected(report_error("--output: the same file is given twice, got '" + value +
                                       "'"));
      }
      options.outputs.push_back(value);
    } else {
      return unexpected(report_error("unknown option '" + arg + "'; see hammer report --help"));
    }
  }
  if (options.inputs.empty()) {
    return unexpected(report_error("no saved run given (usage: hammer report RUN.json "
                                   "[RUN2.json ...] -o report.html)"));
  }
  if (options.outputs.empty()) {
    return unexpected(report_error("-o FILE.html is required (usage: hammer report RUN.json "
                                   "[RUN2.json ...] -o report.html)"));
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
    const std::string& path = options.inputs[i];
    const size_t slash = path.rfind('/');
    sources.push_back({slash == std::string::npos ? path : path.substr(slash + 1), &documents[i]});
  }
  auto html = render_html_report(sources);
  if (!html) return unexpected("report: " + html.error());
  std::vector<RenderedFile> files;
  for (const std::string& output : options.outputs) files.push_back({output, *html, ""});
  return files;
}

std::string report_usage_text() {
  return "Usage: hammer report RUN.json [RUN2.json ...] -o report.html\n"
         "\n"
         "Renders saved runs (hammer --json or -o RUN.json) as one self-contained HTML\n"
         "page, without running them again. Figures come from each document's\n"
         "histograms (their HDR strings), never from its rounded percentiles.\n"
         "Two or more runs are compared: their percentile spectra are overlaid.\n"
         "A sweep's document is rendered alone.\n"
         "\n"
         "  -o, --output FILE.html  where to write the page, repeatable\n"
         "  -h, --help              print this help and exit\n"
         "\n"
         "Exit status: 0 written; 1 bad input (an unreadable document, one that is not\n"
         "strict JSON, a key given twice included, or not hammer's); 2 a page could not be\n"
         "written.\n";
}

}  // namespace hammer
