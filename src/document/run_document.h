// SPDX-License-Identifier: MIT
#pragma once
// A saved run read back: the JSON document hammer writes (docs/json.md) turned into the Config
// and RunResult it was rendered from, histograms decoded from their HdrHistogram V2 strings —
// never rebuilt from rounded percentiles — so that runs can be merged or re-rendered exactly.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/expected.h"
#include "document/fleet_summary.h"
#include "json/json_value.h"
#include "run/result.h"

namespace hammer {

struct RunDocument {
  std::string source;   // where it was read from (a file name), for messages
  std::string version;  // hammer.version of the writer
  Config config;        // what the document's config (and shard, start) members say
  RunResult result;     // every figure the document carries
  /// The notes the run printed, as it worded them (`notes`): some come from facts the
  /// document does not keep (the first socket error, the engine's fallback), so a saved run
  /// is re-rendered with these rather than with notes derived again. None when the document
  /// has no `notes` member.
  std::optional<std::vector<std::string>> notes;
  /// The --slo limits the run was judged by (`slo`), to judge the saved run again; empty
  /// when it had none.
  std::vector<SloLimit> slo_limits;
  /// The online CPUs of the machine that ran it, as its generator verdict names them (the
  /// `cpus` compute_verdicts() was given); 0 when no verdict says.
  int64_t machine_cpus = 0;
  /// A merged document's shards (`fleet`), for the table `hammer merge` printed; none for a
  /// single run.
  std::optional<FleetSummary> fleet;
};

/// Reads one single-run document. Errors name the member ("latency.corrected.hdr: bad base64")
/// or say why the document cannot be read (a sweep, another schema, not JSON).
Expected<RunDocument, std::string> read_run_document(std::string_view text);
/// The same, from a document already parsed.
Expected<RunDocument, std::string> read_run_document(const JsonValue& root);

/// Reads the file at `path`: its contents through read_run_document, errors prefixed with it.
Expected<RunDocument, std::string> load_run_document(const std::string& path);

}  // namespace hammer
