// SPDX-License-Identifier: MIT
// Reporting a fleet. The merged figures are an ordinary run's and render as one; what a fleet
// adds is the question "was one generator the bottleneck?", answered per shard by its dispatch
// lag and its cause (a shard whose lag is the generator's own fault describes its machine, not
// the server), and the question "was it one schedule?", answered by the start times.
#include "report/fleet_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/shard_share.h"
#include "report/format.h"
#include "run/verdicts.h"
#include "time/time_units.h"

namespace hammer {
namespace {

std::string shard_name(int64_t index, int64_t count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

int64_t mean_lag(const DispatchLag& lag) {
  return lag.dispatched > 0 ? lag.sum_ns / lag.dispatched : 0;
}

}  // namespace

std::string render_shard_line(const ReportInput& input) {
  const Config& config = input.config;
  if (!config.shard.given || input.fleet != nullptr) return {};
  std::string line = "  shard " + shard_name(config.shard.index, config.shard.count) + ": " +
                     std::to_string(shard_connections(config)) + " of " +
                     std::to_string(config.connections) + " connections";
  if (config.open_loop()) {
    line += ", " + format_number(std::round(shard_rate(config) * 100) / 100) + " of " +
            format_number(config.rate) +
            " req/s (slots k mod " + std::to_string(config.shard.count) + " = " +
            std::to_string(config.shard.index - 1) + ")";
  }
  line += ", schedule from " + format_wall_time(input.result.wall_start.origin_unix_ns);
  if (config.start_at.given()) line += " (--start-at)";
  return line + "\n";
}

std::string render_start_wait_line(int64_t start_unix_ns, int64_t ahead_ns) {
  return "waiting until " + format_wall_time(start_unix_ns) + " (in " +
         format_duration_ns(ahead_ns) + ") for --start-at; Ctrl-C stops the wait";
}

std::string render_fleet_table(const FleetSummary& fleet) {
  std::string out = "Merged " + std::to_string(fleet.shards.size()) + " shards of " +
                    std::to_string(fleet.shard_count) + ":";
  for (const ShardSummary& shard : fleet.shards) {
    out += ' ';
    out += shard_name(shard.index, shard.count);
    out += ' ';
    out += shard.source;
    if (&shard != &fleet.shards.back()) out += ",";
  }
  out += "\n";
  out += "  shard  started (UTC)              late      requests     req/s  p50       p99       "
         "lag mean  lag max   behind: server  generator\n";
  for (const ShardSummary& shard : fleet.shards) {
    const double shard_per_second = per_second(shard.completed, shard.elapsed_ns);
    std::string row(2, ' ');
    row += left_cell(shard_name(shard.index, shard.count), 7);
    row += left_cell(format_wall_time(shard.wall_start.started_unix_ns), 27);
    row += left_cell(format_duration_ns(shard.wall_start.late_ns), 10);
    row += pad_left(std::to_string(shard.completed), 8);
    row += pad_left(format_number(std::round(shard_per_second * 100) / 100), 10) + "  ";
    row += left_cell(tail_figure_text({shard.lead_p50_ns, shard.lead_p50_censored}), 10);
    row += left_cell(tail_figure_text({shard.lead_p99_ns, shard.lead_p99_censored}), 10);
    row += left_cell(format_duration_ns(mean_lag(shard.lag)), 10);
    row += left_cell(format_duration_ns(shard.lag.max_ns), 10);
    row += pad_left(std::to_string(shard.lag.behind_server), 14);
    row += pad_left(std::to_string(shard.lag.behind_generator), 11);
    out += row + "\n";
  }
  out += "  (each shard's own p50/p99 for reading only; the figures below add the shards' "
         "histograms)\n\n";
  return out;
}

void write_fleet_json(const FleetSummary& fleet, JsonWriter& json) {
  json.key("fleet").begin_object();
  json.member("shards", fleet.shard_count);
  json.key("indices").begin_array();
  for (const ShardSummary& shard : fleet.shards) json.value(shard.index);
  json.end_array();
  json.member("start_spread_ns", fleet.start_spread_ns);
  json.member("start_tolerance_ns", fleet.start_tolerance_ns);
  json.member("starts_apart", fleet.start_spread_ns > fleet.start_tolerance_ns);
  json.key("members").begin_array();
  for (const ShardSummary& shard : fleet.shards) {
    json.begin_object();
    json.member("index", shard.index);
    json.member("count", shard.count);
    json.member("source", shard.source);
    json.member("connections", shard.connections);
    json.member("threads", shard.threads);
    json.member("origin_unix_ns", shard.wall_start.origin_unix_ns);
    json.member("started_unix_ns", shard.wall_start.started_unix_ns);
    json.member("late_ns", shard.wall_start.late_ns);
    json.member("elapsed_ns", shard.elapsed_ns);
    json.member("scheduled", shard.scheduled);
    json.member("sent", shard.sent);
    json.member("completed", shard.completed);
    json.member("unsent", shard.unsent);
    json.member("failed", shard.errors);
    json.member("p50_ns", shard.lead_p50_ns);
    json.member("p99_ns", shard.lead_p99_ns);
    json.key("censored").begin_array();  // as latency.*.censored: these figures are --timeout
    if (shard.lead_p50_censored) json.value("50");
    if (shard.lead_p99_censored) json.value("99");
    json.end_array();
    json.key("dispatch_lag").begin_object();
    json.member("dispatched", shard.lag.dispatched);
    json.member("mean_ns", mean_lag(shard.lag));
    json.member("max_ns", shard.lag.max_ns);
    json.member("behind_schedule", shard.lag.behind_schedule);
    json.key("cause").begin_object();
    json.member("server", shard.lag.behind_server);
    json.member("generator", shard.lag.behind_generator);
    json.end_object();
    json.end_object();
    json.member("interrupted", shard.interrupted);
    json.key("tls");  // https: what its handshakes settled; null for http:// or none settled
    if (shard.tls_version.empty()) {
      json.null();
    } else {
      json.begin_object();
      json.member("version", shard.tls_version);
      json.member("cipher", shard.tls_cipher);
      json.member_or_null("alpn", !shard.tls_alpn.empty(), shard.tls_alpn);
      json.end_object();
    }
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

std::string schedules_apart_note(const FleetSummary& fleet) {
  return "the shards' schedules began " + format_duration_ns(fleet.start_spread_ns) +
         " apart (more than the " + format_duration_ns(fleet.start_tolerance_ns) +
         " tolerance): they were not one schedule, so the merged load was uneven; start shards "
         "with one --start-at";
}

std::string tls_differs_note(const FleetSummary& fleet) {
  std::string settled;
  const ShardSummary* first = nullptr;
  for (const ShardSummary& shard : fleet.shards) {
    if (shard.tls_version.empty()) continue;
    if (first == nullptr) first = &shard;
    settled += (settled.empty() ? "" : ", ") + shard_name(shard.index, shard.count) + " " +
               shard.tls_version + " " + shard.tls_cipher + " ALPN " +
               (shard.tls_alpn.empty() ? std::string("none") : shard.tls_alpn);
  }
  return "the shards' TLS differs (" + settled + "); the TLS line names shard " +
         shard_name(first->index, first->count) + "'s, the handshake counts are every shard's";
}

std::vector<std::string> start_notes(const ReportInput& input) {
  std::vector<std::string> notes;
  const Config& config = input.config;
  if (input.fleet == nullptr && config.start_at.given() &&
      started_late(input.result.wall_start.late_ns)) {
    notes.push_back("started " + format_duration_ns(input.result.wall_start.late_ns) +
                    " after --start-at (allowed by --start-tolerance " +
                    format_duration_ns(config.start_at.tolerance_ns) +
                    "): the slots due before it left late and count as dispatch lag");
  }
  if (input.fleet != nullptr) {
    const FleetSummary& fleet = *input.fleet;
    if (fleet.schedules_apart()) notes.push_back(schedules_apart_note(fleet));
    if (fleet.tls_differs()) notes.push_back(tls_differs_note(fleet));
    for (const ShardSummary& shard : fleet.shards) {
      if (started_late(shard.wall_start.late_ns)) {
        notes.push_back("shard " + shard_name(shard.index, shard.count) + " started " +
                        format_duration_ns(shard.wall_start.late_ns) +
                        " after --start-at; its first slots left late (dispatch lag)");
      }
      const ShardLateness lateness = shard_lateness(shard.lag, shard.generator_moves_percentile);
      if (lateness != ShardLateness::none) {
        notes.push_back(
            "shard " + shard_name(shard.index, shard.count) + " (" + shard.source + ") sent " +
            std::to_string(shard.lag.behind_generator) +
            (shard.lag.behind_generator == 1 ? " request" : " requests") +
            " late by its own fault (max lag " + format_duration_ns(shard.lag.generator_max_ns) +
            ")" +
            (lateness == ShardLateness::bottleneck
                 ? ": enough to move its percentiles; that generator was the bottleneck: give "
                   "it more threads or add shards"
                 : ": too little to move its percentiles by a tenth"));
      }
    }
  }
  if (config.start_at.given() || input.fleet != nullptr) {
    notes.push_back("clocks: the shards' wall clocks are trusted to agree (NTP-synchronised, "
                    "typically within a millisecond); an offset of D between two machines "
                    "shifts their slots D apart, bunching or thinning the fleet's load, and "
                    "moves corrected latency by up to D");
  }
  return notes;
}

}  // namespace hammer
