// SPDX-License-Identifier: MIT
#pragma once
// FleetSummary: what `hammer merge` knows about the shards it added up, as plain data for the
// report (report/fleet_report.h words it). The merged figures themselves are an ordinary
// RunResult; this is only the per-shard side, so a reader can see which generator lagged. A
// merged document's `fleet` member holds it, and the document reader reads it back
// (document/fleet_section.cc), so `hammer report merged.json` prints merge's own table.
#include <cstdint>
#include <string>
#include <vector>

#include "run/result.h"

namespace hammer {

struct ShardSummary {
  std::string source;      // the file it was read from
  int64_t index = 1;       // --shard I/N
  int64_t count = 1;
  int64_t connections = 0; // the shard's own share of -c
  int64_t threads = 0;
  WallClockStart wall_start;
  int64_t elapsed_ns = 0;
  int64_t scheduled = 0;
  int64_t sent = 0;
  int64_t completed = 0;
  int64_t unsent = 0;
  int64_t errors = 0;      // failed requests (read, write, timeout, parse)
  DispatchLag lag;
  // Its own lateness (lag.behind_generator) can move one of its reported percentiles
  // (generator_percentile_shift, run/verdicts.h): only then was that generator the limit.
  bool generator_moves_percentile = false;
  int64_t lead_p50_ns = 0; // the shard's own lead-stopwatch percentiles, for reading only:
  int64_t lead_p99_ns = 0; // the fleet's figures come from the added histograms, never these
  bool lead_p50_censored = false;  // the shard's timeouts censor it: the figure is --timeout,
  bool lead_p99_censored = false;  // a bound (stats/censored_tail.h)
  bool interrupted = false;
  // https: what the shard's first successful handshake settled (RunResult::tls); empty for
  // http:// or when none succeeded.
  std::string tls_version;
  std::string tls_cipher;
  std::string tls_alpn;
};

struct FleetSummary {
  int64_t shard_count = 0;            // N of --shard I/N
  std::vector<ShardSummary> shards;   // one per shard, in index order
  int64_t start_spread_ns = 0;        // latest schedule origin minus the earliest
  int64_t start_tolerance_ns = 0;     // `hammer merge --start-tolerance`: a spread above warns
  int64_t earliest_origin_unix_ns = 0;
  /// The shards' schedules began further apart than --start-tolerance: not one schedule, so
  /// the merged load was uneven. `hammer merge` warns of it on stderr; the report notes it.
  bool schedules_apart() const { return start_spread_ns > start_tolerance_ns; }
  /// Two shards' handshakes settled different TLS (version, cipher or ALPN): the merged TLS
  /// line names the first shard's, so the report says they differ.
  bool tls_differs() const {
    const ShardSummary* first = nullptr;
    for (const ShardSummary& shard : shards) {
      if (shard.tls_version.empty()) continue;
      if (first == nullptr) {
        first = &shard;
      } else if (shard.tls_version != first->tls_version ||
                 shard.tls_cipher != first->tls_cipher || shard.tls_alpn != first->tls_alpn) {
        return true;
      }
    }
    return false;
  }
};

}  // namespace hammer
