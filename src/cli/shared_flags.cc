// SPDX-License-Identifier: MIT
#include "cli/shared_flags.h"

#include <string>

#include "cli/slo_flag.h"
#include "cli/units.h"
#include "platform/files.h"
#include "report/output_files.h"
#include "report/output_formats.h"

namespace hammer {

std::optional<UsageError> add_output(std::string_view value, const OutputRule& rule,
                                     std::vector<OutputFile>& outputs) {
  const OutputFormatSpec* spec = output_format_for_path(value);
  if (rule.only && (spec == nullptr || spec->format != *rule.only)) {
    return flag_error("--output", rule.only_reason, value);
  }
  if (spec == nullptr) {
    return flag_error("--output", "unknown file type; the extension chooses the format: " +
                                      output_extensions_text(),
                      value);
  }
  for (const OutputFile& given : outputs) {
    if (same_file(given.path, std::string(value))) {
      return flag_error("--output", "the same file is given twice", value);
    }
  }
  outputs.push_back({std::string(value), spec->format});
  return std::nullopt;
}

std::optional<UsageError> check_output_directories(const std::vector<OutputFile>& outputs) {
  for (const OutputFile& output : outputs) {
    std::string directory;
    switch (parent_directory_of(output.path, directory)) {
      case ParentDirectory::ok:
        break;
      case ParentDirectory::missing:
        return UsageError{"--output: cannot write " + quoted(output.path) + ": no directory " +
                          quoted(directory)};
      case ParentDirectory::not_a_directory:
        return UsageError{"--output: cannot write " + quoted(output.path) + ": " +
                          quoted(directory) + " is not a directory"};
    }
  }
  return std::nullopt;
}

// -o run.hgrm in open loop also writes the other histogram beside it (report/output_files):
// another -o naming that file would be written twice, the second time with the wrong one.
std::optional<UsageError> check_hgrm_companions(const Config& config) {
  if (!config.open_loop()) return std::nullopt;
  const bool companion_is_corrected = !config.corrected_stopwatch_leads();
  for (const OutputFile& hgrm : config.outputs) {
    if (hgrm.format != OutputFormat::hgrm) continue;
    const std::string companion = hgrm_companion_path(hgrm.path, companion_is_corrected);
    for (const OutputFile& other : config.outputs) {
      if (!same_file(other.path, companion)) continue;
      return flag_error("--output",
                        "-o " + hgrm.path + " already writes the " +
                            (companion_is_corrected ? "corrected" : "uncorrected") +
                            " histogram there; give " + hgrm.path + " alone",
                        other.path);
    }
  }
  return std::nullopt;
}

std::optional<UsageError> add_slo_limits(std::string_view value, std::vector<SloLimit>& slos) {
  auto limits = parse_slo_list(value);
  if (!limits) return flag_error("--slo", limits.error(), value);
  for (SloLimit& limit : *limits) {
    for (const SloLimit& given : slos) {
      // p99.9 and p99.90 are one limit.
      if (same_slo(given, limit)) return flag_error("--slo", limit.key + " is given twice", value);
    }
    slos.push_back(std::move(limit));
  }
  return std::nullopt;
}

std::optional<UsageError> parse_start_tolerance(std::string_view value, int64_t& tolerance_ns) {
  auto ns = parse_duration_ns(value, kNanosPerSecond);
  if (!ns || *ns < 0 || *ns > kMaxStartToleranceNs) {
    return flag_error("--start-tolerance",
                      "expected a duration >= 0, at most 24h (e.g. 0, 2s, 500ms)", value);
  }
  tolerance_ns = *ns;
  return std::nullopt;
}

}  // namespace hammer
