// SPDX-License-Identifier: MIT
#pragma once
// `hammer compare A.json B.json [--fail-if p99+10%]... [--json] [-o page.html]`: did B's latency percentiles
// move beyond noise (compare/compare.h)? Its own small command line, like `hammer report`.
#include <span>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/options.h"
#include "compare/compare.h"
#include "core/config.h"
#include "core/expected.h"
#include "report/output_files.h"

namespace hammer {

struct CompareOptions {
  std::string a;
  std::string b;
  std::vector<FailIf> fail_ifs;  // --fail-if, repeatable
  std::vector<OutputFile> outputs;  // -o page.html, repeatable; .html only
  bool json = false;
  bool help = false;
};

/// The flags `hammer compare` takes: rows of the run's table (the completions list them).
std::span<const FlagSpec> compare_flags();

/// Parses the arguments after "compare": exactly two saved runs, --fail-if pNN+X% (any
/// percentile parse_percentile() reads, X >= 0), --json, -o FILE.html (its directory must
/// exist).
Expected<CompareOptions, UsageError> parse_compare_options(const std::vector<std::string>& args);

/// "p99+10%" -> {99, 10}; the reason when it is not one.
Expected<FailIf, std::string> parse_fail_if(std::string_view text);

struct CompareOutcome {
  std::string report;  // text or JSON, printed whether or not -o is given
  std::vector<RenderedFile> files;  // each -o page, for write_files()
  bool failed = false; // a --fail-if row failed: exit 3
};

/// Reads both documents and compares B with A at A's reported percentiles (and every --fail-if
/// row's). Errors are one line naming the file.
Expected<CompareOutcome, std::string> run_compare(const CompareOptions& options);

/// The `hammer compare --help` text.
std::string compare_usage_text();

}  // namespace hammer
