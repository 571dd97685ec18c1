// SPDX-License-Identifier: MIT
#include "report/output_files.h"

#include "json/json_value.h"
#include "platform/files.h"
#include "report/csv_report.h"
#include "report/hgrm.h"
#include "report/html_report.h"
#include "report/interval_log_report.h"

namespace hammer {
namespace {

void add_hgrm_files(const ReportInput& input, const std::string& path,
                    std::vector<RenderedFile>& files) {
  const bool corrected_leads = input.config.corrected_stopwatch_leads();
  const auto hgrm = [&](const Histogram& histogram) {
    return render_hgrm(histogram, kHgrmTicksPerHalfDistance, kHgrmNsPerOutputUnit,
                       tail_of(input.config, input.result, histogram));
  };
  files.push_back({path, hgrm(lead_histogram(input)), ""});
  // The corrected histogram exists only in open loop; then the one not leading goes beside.
  if (input.config.open_loop()) {
    const Histogram& other = corrected_leads ? input.result.uncorrected : input.result.corrected;
    files.push_back({hgrm_companion_path(path, !corrected_leads), hgrm(other), ""});
  }
}

// The first -o .json: the file that holds the document a page is rendered from.
std::string saved_document_path(const Config& config) {
  for (const OutputFile& output : config.outputs) {
    if (output.format == OutputFormat::json) return output.path;
  }
  return {};
}

}  // namespace

RenderedFile render_html_file(const std::string& path, const std::string& json_document,
                              const std::string& document_path) {
  // Through the document, as `hammer report` renders a saved run: one path, the same page.
  auto document = parse_json(json_document);
  if (!document) return {path, "", "the run's JSON document: " + document.error()};
  auto html = render_html_report({{html_label_for(document_path), &*document}});
  if (!html) return {path, "", html.error()};
  return {path, std::move(*html), ""};
}

std::string hgrm_companion_path(const std::string& path, bool companion_is_corrected) {
  const size_t dot = path.rfind('.');
  const std::string suffix = companion_is_corrected ? ".corrected" : ".uncorrected";
  return path.substr(0, dot) + suffix + path.substr(dot);
}

std::vector<RenderedFile> render_run_outputs(const ReportInput& input,
                                             const std::string& json_document) {
  std::vector<RenderedFile> files;
  for (const OutputFile& output : input.config.outputs) {
    switch (output.format) {
      case OutputFormat::json:
        files.push_back({output.path, json_document, ""});
        break;
      case OutputFormat::html:
        files.push_back(
            render_html_file(output.path, json_document, saved_document_path(input.config)));
        break;
      case OutputFormat::hgrm:
        add_hgrm_files(input, output.path, files);
        break;
      case OutputFormat::csv:
        files.push_back({output.path, render_timeline_csv(input), ""});
        break;
      case OutputFormat::hlog:
        files.push_back({output.path, render_interval_log(input), ""});
        break;
    }
  }
  return files;
}

std::vector<RenderedFile> render_sweep_outputs(const Config& config, const SweepResult& result,
                                               const std::string& json_document) {
  std::vector<RenderedFile> files;
  for (const OutputFile& output : config.outputs) {
    switch (output.format) {
      case OutputFormat::json:
        files.push_back({output.path, json_document, ""});
        break;
      case OutputFormat::csv:
        files.push_back({output.path, render_sweep_csv(config, result), ""});
        break;
      case OutputFormat::html:
        files.push_back(render_html_file(output.path, json_document, saved_document_path(config)));
        break;
      case OutputFormat::hgrm:
      case OutputFormat::hlog:
        break;  // options refuse them for a sweep (sweep_writes_it)
    }
  }
  return files;
}

std::vector<WriteFailure> write_files(const std::vector<RenderedFile>& files) {
  std::vector<WriteFailure> failures;
  for (const RenderedFile& file : files) {
    if (!file.error.empty()) {
      failures.push_back({file.path, file.error});
      continue;
    }
    if (auto reason = write_file_atomically(file.path, file.contents)) {
      failures.push_back({file.path, std::move(*reason)});
    }
  }
  return failures;
}

}  // namespace hammer
