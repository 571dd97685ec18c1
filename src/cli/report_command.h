// SPDX-License-Identifier: MIT
#pragma once
// `hammer report RUN.json [RUN2.json ...] -o report.html`: saved runs rendered later, without
// running them again. Its own small command line, like `hammer merge`.
#include <span>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/options.h"
#include "core/expected.h"
#include "report/output_files.h"

namespace hammer {

struct ReportOptions {
  std::vector<std::string> inputs;   // saved --json documents (or -o x.json files)
  std::vector<OutputFile> outputs;   // -o FILE.html, repeatable
  bool help = false;
};

/// Parses the arguments after "report", spelled as every command's (cli/arg_tokenizer.h): at
/// least one input, every -o an .html file, no file given twice; without -o, one input only
/// (printed as text).
Expected<ReportOptions, UsageError> parse_report_options(const std::vector<std::string>& args);

/// Reads every input and renders the page once for every -o. The error is one line naming the
/// file and what is wrong with it ("b.json: latency.corrected.hdr: bad base64").
Expected<std::vector<RenderedFile>, std::string> render_report_files(const ReportOptions& options);

/// `hammer report RUN.json` without -o: the saved single run's text report, as the run printed
/// it, with its --slo lines judged again; a sweep's document, the sweep's table and readings
/// as it printed them. One that cannot be read is a one-line error naming the file.
Expected<std::string, std::string> render_saved_run_text(const std::string& path);

/// The flags `hammer report` takes (rows of kFlags), for shell completions.
std::span<const FlagSpec> report_flags();

/// The `hammer report --help` text.
std::string report_usage_text();

}  // namespace hammer
