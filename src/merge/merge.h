// SPDX-License-Identifier: MIT
#pragma once
// `hammer merge`: the shards of one fleet (--shard I/N) added into the run one impossibly large
// machine would have measured. See merge.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/expected.h"
#include "document/run_document.h"
#include "document/fleet_summary.h"
#include "run/result.h"

namespace hammer {

/// Shards whose schedule origins are further apart than this get a warning: their schedules
/// were not one schedule (the default allows for a second of `date`-level clock setting).
inline constexpr int64_t kDefaultMergeStartToleranceNs = 1'000'000'000;

struct MergedRun {
  Config config;       // the fleet's: the shards' common config, threads summed, no shard
  RunResult result;    // histograms, counts, errors, status and dispatch lag added
  FleetSummary fleet;  // the shards, for the report's per-shard lines
};

/// Why shards cannot be merged: one line for the user (exit 1).
struct MergeRefusal {
  std::string message;
};

/// Merges the documents of every shard 1..N of one fleet. Refuses documents that are not
/// shards, disagree on the URL or on any setting that shapes the schedule (-c, --rate, -d,
/// --warmup, --timeout, -m, --closed-loop, N), or do not hold each shard exactly once.
/// Timelines are added row by row on the wall clock (a shard that started one second later
/// adds into the next row); percentiles come from the added histograms only.
Expected<MergedRun, MergeRefusal> merge_shards(const std::vector<RunDocument>& documents,
                                               int64_t start_tolerance_ns);

}  // namespace hammer
