// SPDX-License-Identifier: MIT
#include "cli/merge_options.h"

#include <algorithm>
#include <array>

#include "cli/arg_tokenizer.h"
#include "cli/shared_flags.h"
#include "cli/slo_flag.h"
#include "core/escaped.h"
#include "merge/merge.h"
#include "platform/files.h"
#include "report/output_formats.h"

namespace hammer {
namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), text.rbegin(), [](char a, char b) {
    return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
  });
}

}  // namespace

std::string merge_usage_text() {
  return "Usage: hammer merge SHARD.json... [-o merged.json|.html|.hlog|.csv|.hgrm]\n"
         "                    [--json]\n"
         "                    [--start-tolerance T] [--slo KEY=LIMIT]...\n"
         "       hammer merge SHARD.hlog... -o merged.hlog\n"
         "\n"
         "Adds the shards of one fleet (runs of --shard 1/N .. N/N) into the run one machine\n"
         "would have measured: histograms, counts, errors, status classes and dispatch lag\n"
         "are added, timelines are added second by second on the wall clock, and percentiles\n"
         "come from the added histograms, never from averaged ones. Refuses (exit 1) shards of\n"
         "different URLs or settings, and a missing or duplicated shard.\n"
         "\n"
         "Options:\n"
         "  -o, --output FILE       write the merged run to FILE, repeatable, as a run's -o:\n"
         "                          .json (the document hammer --json prints), .html (its\n"
         "                          report as one self-contained page), .hlog (HdrHistogram\n"
         "                          interval log), .csv (the timeline) or .hgrm (the\n"
         "                          percentile distribution)\n"
         "      --json              print the merged document on stdout instead of the text\n"
         "      --start-tolerance T warn when the shards' schedules began more than T apart\n"
         "                          (default 1s, at most 24h; bare number = seconds)\n"
         "      --slo KEY=LIMIT     the fleet's service-level objective, repeatable, as for a\n"
         "                          run (p99=50ms, max=1s, errors=1%), judged on the merged\n"
         "                          histograms; a miss exits 3\n"
         "  -h, --help              print this help and exit\n";
}

namespace {

// The flags `hammer merge` takes: rows of the run's table, so each is spelled as there.
constexpr std::array kMergeFlags = {flag_spec(Flag::output), flag_spec(Flag::json),
                                    flag_spec(Flag::start_tolerance), flag_spec(Flag::slo),
                                    flag_spec(Flag::help)};

}  // namespace

std::span<const FlagSpec> merge_flags() { return kMergeFlags; }

Expected<MergeOptions, UsageError> parse_merge_options(const std::vector<std::string>& args) {
  MergeOptions options;
  options.start_tolerance_ns = kDefaultMergeStartToleranceNs;
  auto fail = [](std::string message) { return unexpected(UsageError{"merge: " + message}); };
  ArgTokenizer arguments(args, CommandFlags{"hammer merge", kMergeFlags});
  for (;;) {
    auto argument = arguments.next();
    if (!argument) return fail(argument.error().message);
    if (!*argument) break;
    const std::string_view value = (*argument)->value;
    if ((*argument)->flag == nullptr) {
      options.inputs.emplace_back(value);
      continue;
    }
    std::optional<UsageError> failure;
    switch ((*argument)->flag->flag) {
      case Flag::help:
        options.help = true;
        return options;
      case Flag::json:
        options.json = true;
        break;
      case Flag::output:
        failure = add_output(value, OutputRule{}, options.outputs);
        break;
      case Flag::start_tolerance:
        failure = parse_start_tolerance(value, options.start_tolerance_ns);
        break;
      case Flag::slo:
        failure = add_slo_limits(value, options.slos);
        break;
      default:  // not in kMergeFlags
        break;
    }
    if (failure) return fail(failure->message);
  }
  if (options.inputs.empty()) {
    return fail("no shards given (usage: hammer merge A.json B.json ... [-o merged.json])");
  }
  const bool first_is_log = ends_with(options.inputs.front(), ".hlog");
  for (const std::string& input : options.inputs) {
    if (ends_with(input, ".hlog") != first_is_log) {
      return fail("cannot mix .hlog interval logs and .json documents ('" +
                  options.inputs.front() + "', '" + input + "')");
    }
  }
  options.interval_logs = first_is_log;
  for (const OutputFile& output : options.outputs) {
    if (first_is_log && output.format != OutputFormat::hlog) {
      return fail("--output: interval logs merge into a .hlog file, got " + quoted(output.path));
    }
  }
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (same_file(options.inputs[i], options.inputs[j])) {
        return fail("'" + options.inputs[i] + "' is given twice (as '" + options.inputs[j] +
                    "'); each shard once");
      }
    }
  }
  for (const OutputFile& output : options.outputs) {
    for (const std::string& input : options.inputs) {
      if (same_file(output.path, input)) {
        return fail("--output: " + quoted(output.path) + " is one of the files being merged; "
                    "name another file");
      }
    }
  }
  if (first_is_log && !options.slos.empty()) {
    return fail("--slo: interval logs carry no error counts to judge; merge the .json documents");
  }
  if (first_is_log && options.outputs.empty()) {
    return fail("--output: merging interval logs needs -o merged.hlog");
  }
  if (auto failure = check_output_directories(options.outputs)) return fail(failure->message);
  return options;
}

}  // namespace hammer
