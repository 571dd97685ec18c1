// SPDX-License-Identifier: MIT
// `fleet` read back (docs/json.md): the per-shard side of a merged document, as
// report/fleet_report.cc wrote it, so `hammer report merged.json` prints the table `hammer
// merge` printed. The merged figures themselves are read as any run's.
#include <algorithm>
#include <string>
#include <utility>

#include "document/document_sections.h"

namespace hammer {
namespace {

// One of `members`: what the fleet table and JSON say of a shard. The lag's sum is kept as
// its mean times its count, which gives the written mean back exactly.
ShardSummary read_shard(DocumentReader& reader, const JsonValue& member, const std::string& name) {
  ShardSummary shard;
  shard.index = reader.integer(&member, name, {"index"});
  shard.count = reader.integer(&member, name, {"count"});
  const JsonValue* source = member.find("source");
  if (source == nullptr || !source->is_string()) reader.fail(name + ".source: expected a string");
  shard.source = source != nullptr ? source->text : std::string();
  shard.connections = reader.integer(&member, name, {"connections"});
  shard.threads = reader.integer(&member, name, {"threads"});
  shard.wall_start.origin_unix_ns = reader.integer(&member, name, {"origin_unix_ns"});
  shard.wall_start.started_unix_ns = reader.integer(&member, name, {"started_unix_ns"});
  shard.wall_start.late_ns = reader.integer(&member, name, {"late_ns"});
  shard.elapsed_ns = reader.integer(&member, name, {"elapsed_ns"});
  shard.scheduled = reader.integer(&member, name, {"scheduled"});
  shard.sent = reader.integer(&member, name, {"sent"});
  shard.completed = reader.integer(&member, name, {"completed"});
  shard.unsent = reader.integer(&member, name, {"unsent"});
  shard.errors = reader.integer(&member, name, {"failed"});
  shard.lead_p50_ns = reader.integer(&member, name, {"p50_ns"});
  shard.lead_p99_ns = reader.integer(&member, name, {"p99_ns"});
  if (const JsonValue* censored = member.find("censored"); censored && censored->is_array()) {
    for (const JsonValue& figure : censored->items) {
      shard.lead_p50_censored = shard.lead_p50_censored || figure.text == "50";
      shard.lead_p99_censored = shard.lead_p99_censored || figure.text == "99";
    }
  }
  DispatchLag& lag = shard.lag;
  lag.dispatched = reader.integer(&member, name, {"dispatch_lag", "dispatched"});
  lag.sum_ns = reader.integer(&member, name, {"dispatch_lag", "mean_ns"}) * lag.dispatched;
  lag.max_ns = reader.integer(&member, name, {"dispatch_lag", "max_ns"});
  lag.behind_schedule = reader.integer(&member, name, {"dispatch_lag", "behind_schedule"});
  lag.behind_server = reader.integer(&member, name, {"dispatch_lag", "cause", "server"});
  lag.behind_generator = reader.integer(&member, name, {"dispatch_lag", "cause", "generator"});
  const JsonValue* interrupted = member.find("interrupted");
  shard.interrupted = interrupted != nullptr && interrupted->kind == JsonValue::Kind::boolean &&
                      interrupted->boolean;
  if (const JsonValue* tls = member.find("tls"); tls != nullptr && tls->is_object()) {
    for (auto [key, into] : {std::pair<const char*, std::string*>{"version", &shard.tls_version},
                             {"cipher", &shard.tls_cipher},
                             {"alpn", &shard.tls_alpn}}) {
      const JsonValue* text = tls->find(key);
      if (text != nullptr && text->is_string()) *into = text->text;
    }
  }
  return shard;
}

}  // namespace

std::optional<FleetSummary> read_fleet_section(DocumentReader& reader) {
  const JsonValue* fleet = reader.at({"fleet"});
  if (fleet == nullptr || fleet->is_null()) return std::nullopt;
  FleetSummary out;
  out.shard_count = reader.integer(fleet, "fleet", {"shards"});
  out.start_spread_ns = reader.integer(fleet, "fleet", {"start_spread_ns"});
  out.start_tolerance_ns = reader.integer(fleet, "fleet", {"start_tolerance_ns"});
  const JsonValue* members = fleet->find("members");
  if (members == nullptr || !members->is_array()) {
    reader.fail("fleet.members: expected an array");
    return std::nullopt;
  }
  for (size_t i = 0; i < members->items.size() && !reader.failed(); ++i) {
    out.shards.push_back(
        read_shard(reader, members->items[i], "fleet.members[" + std::to_string(i) + "]"));
  }
  if (!out.shards.empty()) {
    out.earliest_origin_unix_ns = out.shards.front().wall_start.origin_unix_ns;
    for (const ShardSummary& shard : out.shards) {
      out.earliest_origin_unix_ns =
          std::min(out.earliest_origin_unix_ns, shard.wall_start.origin_unix_ns);
    }
  }
  return out;
}

}  // namespace hammer
