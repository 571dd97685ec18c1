// SPDX-License-Identifier: MIT
#include "cli/merge_options.h"

#include <algorithm>

#include "cli/slo_flag.h"
#include "cli/units.h"
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
         "                          (default 1s; bare number = seconds)\n"
         "      --slo KEY=LIMIT     the fleet's service-level objective, repeatable, as for a\n"
         "                          run (p99=50ms, max=1s, errors=1%), judged on the merged\n"
         "                          histograms; a miss exits 3\n"
         "  -h, --help              print this help and exit\n";
}

Expected<MergeOptions, UsageError> parse_merge_options(const std::vector<std::string>& args) {
  MergeOptions options;
  options.start_tolerance_ns = kDefaultMergeStartToleranceNs;
  auto fail = [](std::string message) { return unexpected(UsageError{"merge: " + message}); };
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended) {
      options.inputs.push_back(arg);
      continue;
    }
    if (arg == "--") {  // what follows is files, whatever their names
      options_ended = true;
      continue;
    }
    auto value_of = [&](std::string_view flag, std::string& out) -> bool {
      const std::string prefix = std::string(flag) + "=";
      if (arg.rfind(prefix, 0) == 0) {
        out = arg.substr(prefix.size());
        return true;
      }
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      options.help = true;
      return options;
    }
    if (arg == "--json") {
      options.json = true;
    } else if (arg == "-o" || arg == "--output" || arg.rfind("--output=", 0) == 0) {
      std::string path;
      if (!value_of("--output", path)) return fail("--output: missing value");
      if (path.empty()) return fail("--output: expected a file name, got ''");
      options.outputs.push_back(path);
    } else if (arg.rfind("-o", 0) == 0 && arg.size() > 2) {
      options.outputs.push_back(arg.substr(2));
    } else if (arg == "--start-tolerance" || arg.rfind("--start-tolerance=", 0) == 0) {
      std::string text;
      if (!value_of("--start-tolerance", text)) return fail("--start-tolerance: missing value");
      auto ns = parse_duration_ns(text, kNanosPerSecond);
      if (!ns || *ns < 0) {
        return fail("--start-tolerance: expected a duration >= 0 (e.g. 1s, 500ms), got '" +
                    text + "'");
      }
      options.start_tolerance_ns = *ns;
    } else if (arg == "--slo" || arg.rfind("--slo=", 0) == 0) {
      std::string text;
      if (!value_of("--slo", text)) return fail("--slo: missing value");
      auto limits = parse_slo_list(text);
      if (!limits) return fail("--slo: " + escaped(limits.error()) + ", got " + quoted(text));
      for (SloLimit& limit : *limits) {
        for (const SloLimit& given : options.slos) {
          // p99.9 and p99.90 are one limit, as on a run's command line.
          if (same_slo(given, limit)) {
            return fail("--slo: " + limit.key + " is given twice, got " + quoted(text));
          }
        }
        options.slos.push_back(std::move(limit));
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail("unknown option '" + arg + "'; see hammer merge --help");
    } else {
      options.inputs.push_back(arg);
    }
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
  for (const std::string& output : options.outputs) {
    if (first_is_log && !ends_with(output, ".hlog")) {
      return fail("--output: interval logs merge into a .hlog file, got '" + output + "'");
    }
    if (!first_is_log && output_format_for_path(output) == nullptr) {
      return fail("--output: unknown file type; the extension chooses the format: " +
                  output_extensions_text() + ", got '" + output + "'");
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
  for (const std::string& output : options.outputs) {
    for (const std::string& input : options.inputs) {
      if (same_file(output, input)) {
        return fail("--output: '" + output + "' is one of the files being merged; name another "
                    "file");
      }
    }
  }
  if (first_is_log && !options.slos.empty()) {
    return fail("--slo: interval logs carry no error counts to judge; merge the .json documents");
  }
  if (first_is_log && options.outputs.empty()) {
    return fail("--output: merging interval logs needs -o merged.hlog");
  }
  return options;
}

}  // namespace hammer
