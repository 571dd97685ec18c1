// SPDX-License-Identifier: MIT
#pragma once
// -o/--output: each requested file rendered in its format (report/output_formats.h), then
// written atomically. Rendering and writing are apart so that a file that cannot be written
// costs only itself: every other one is still written, and the caller reports each failure.
#include <string>
#include <vector>

#include "core/config.h"
#include "report/report_input.h"
#include "sweep/sweep.h"

namespace hammer {

/// One file to write: its path and its whole contents.
struct RenderedFile {
  std::string path;
  std::string contents;
  std::string error;  // why it could not be rendered; when set, write_files reports it instead
};

/// The HTML report of one document (a run's or a sweep's --json text), named as
/// html_label_for(document_path) names it: the -o .json file that holds the same document, if
/// any (`hammer report` of that file then renders this very page).
RenderedFile render_html_file(const std::string& path, const std::string& json_document,
                              const std::string& document_path);

/// The files of config.outputs for a single run. `json_document` is the run's --json
/// document (render_json_report), which .json copies and .html renders from. One -o may give
/// more than one file: .hgrm writes the lead histogram to FILE and the other one, when the
/// run has it, beside it (hgrm_companion_path).
std::vector<RenderedFile> render_run_outputs(const ReportInput& input,
                                             const std::string& json_document);

/// The files of config.outputs for a sweep (formats whose sweep_writes_it is true).
std::vector<RenderedFile> render_sweep_outputs(const Config& config, const SweepResult& result,
                                               const std::string& json_document);

/// Where .hgrm puts the histogram that does not lead: "run.hgrm" -> "run.uncorrected.hgrm"
/// (or ".corrected" when the uncorrected one leads, under --closed-loop with --rate).
std::string hgrm_companion_path(const std::string& path, bool companion_is_corrected);

/// One failure to write a file: the path and the system's reason.
struct WriteFailure {
  std::string path;
  std::string reason;
};

/// Writes every file atomically, in order, each independent of the others' fate.
std::vector<WriteFailure> write_files(const std::vector<RenderedFile>& files);

}  // namespace hammer
