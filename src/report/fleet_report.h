// SPDX-License-Identifier: MIT
#pragma once
// The words and members that --shard, --start-at and `hammer merge` add to a report: the shard
// line of a shard's header, the per-shard table and "fleet" member of a merged report, and the
// notes on start times and clocks.
#include <string>
#include <vector>

#include "document/fleet_summary.h"
#include "report/json_writer.h"
#include "report/report_input.h"

namespace hammer {

/// "  shard 2/3: 7 of 20 connections, 666.67 of 2000 req/s, schedule from <origin>\n" for a
/// shard; empty otherwise.
std::string render_shard_line(const ReportInput& input);

/// "waiting until 2026-12-01T10:00:00.000Z (in 1h 2m) for --start-at": said before a run
/// whose start lies `ahead_ns` off, so that the wait does not look like a hang.
std::string render_start_wait_line(int64_t start_unix_ns, int64_t ahead_ns);

/// The merged report's opening lines: how many shards, which files, and one row per shard
/// (start, lateness, requests, its own p50/p99, dispatch lag and its cause).
std::string render_fleet_table(const FleetSummary& fleet);

/// The "fleet" member of a merged document (docs/json.md).
void write_fleet_json(const FleetSummary& fleet, JsonWriter& json);

/// The words for FleetSummary::schedules_apart(): "the shards' schedules began 3.00s apart
/// (more than the 1.00s tolerance): ...". One of start_notes(); `hammer merge` also warns with it.
std::string schedules_apart_note(const FleetSummary& fleet);
/// "the shards' TLS differs (1/2 1.3 TLS_AES_256_GCM_SHA384 ALPN http/1.1, 2/2 1.2 ...); ...":
/// a note when FleetSummary::tls_differs().
std::string tls_differs_note(const FleetSummary& fleet);

/// Notes on the start: a shard that started late, shards whose schedules began apart, and
/// (with --start-at or a merge) what trusting the machines' clocks means.
std::vector<std::string> start_notes(const ReportInput& input);

}  // namespace hammer
