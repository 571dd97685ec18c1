// SPDX-License-Identifier: MIT
#pragma once
// `hammer merge A.json B.json ... [-o merged.json] [--json] [--start-tolerance T] [--slo K=L]`: the
// subcommand's own small command line (its flags are not the run's).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/options.h"
#include "core/config.h"
#include "core/expected.h"

namespace hammer {

struct MergeOptions {
  std::vector<std::string> inputs;   // the shards' documents (.json) or interval logs (.hlog)
  std::vector<OutputFile> outputs;   // -o FILE, repeatable; the format follows the extension
  bool json = false;                 // --json: the merged document on stdout, not the text
  bool help = false;
  int64_t start_tolerance_ns = 0;    // shards' origins further apart than this are warned of
  bool interval_logs = false;        // the inputs are .hlog files
  // --slo KEY=LIMIT, repeatable: the fleet's gate, judged on the merged histograms (a shard's
  // own --slo judges only its share of the load).
  std::vector<SloLimit> slos;
};

/// Parses the arguments after "merge", spelled as every command's (cli/arg_tokenizer.h); -o,
/// --slo and --start-tolerance are read as a run reads them (cli/shared_flags.h). At least one input; every input of one kind (.json or
/// .hlog), outputs of a kind the inputs can make (.json or .hlog from .json; .hlog from .hlog).
Expected<MergeOptions, UsageError> parse_merge_options(const std::vector<std::string>& args);

/// The flags `hammer merge` takes (rows of kFlags), for its --help and shell completions.
std::span<const FlagSpec> merge_flags();

/// The `hammer merge --help` text.
std::string merge_usage_text();

}  // namespace hammer
