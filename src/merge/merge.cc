// SPDX-License-Identifier: MIT
// Merging shards exactly. Each shard of a fleet sent its own slots of one global schedule
// (schedule/slot_partition.cc) and recorded every latency in full HDR histograms, saved in its
// JSON document as HdrHistogram V2. Adding those histograms gives, count for count, the
// histograms a single machine sending every slot would have recorded; counts, errors, status
// classes and dispatch lag add the same way and maxima take the maximum. Nothing here averages
// a percentile: the merged percentiles are read from the added histograms, and the per-shard
// figures kept in FleetSummary are there only so the report can point at a lagging generator.
//
// The refusals protect that exactness. Shards of different URLs, rates, connection counts,
// durations or shard counts are not parts of one schedule, and a missing or duplicated shard
// would make the sum a different load than the one asked for; each is refused with a line that
// names the files. Start times that differ are only warned about (the report says by how much):
// the figures still add up, but the load was not the single schedule it claims.
#include "merge/merge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/percentiles.h"
#include "stats/censored_tail.h"
#include "run/run.h"
#include "run/verdicts.h"
#include "time/clock.h"

namespace hammer {
namespace {

std::string shard_text(const Config& config) {
  return std::to_string(config.shard.index) + "/" + std::to_string(config.shard.count);
}

std::string seconds_text(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%gs", static_cast<double>(ns) / 1e9);
  return text;
}

std::string rate_text(const Config& config) {
  if (!config.open_loop()) return "closed loop";
  char text[48];
  std::snprintf(text, sizeof text, "--rate %g", config.rate);
  return text;
}

std::string requests_text(const Config& config) {
  if (config.requests.empty()) return "no --requests";
  return "--requests " + config.requests_path + " (" + std::to_string(config.requests.size()) +
         (config.requests.size() == 1 ? " line)" : " lines)");
}

// --requests: the shards sent the same mix, line for line (the file may live at another path
// on another machine: its lines decide, not its name). The lines past those reported one by
// one are known only by their count.
std::string requests_difference(const Config& first, const Config& other) {
  auto differ = [](std::string a, std::string b) { return a + " vs " + b; };
  if (first.requests.size() != other.requests.size()) {
    return differ(requests_text(first), requests_text(other));
  }
  for (size_t i = 0; i < first.requests.size(); ++i) {
    const RequestLine& a = first.requests[i];
    const RequestLine& b = other.requests[i];
    auto text = [](const RequestLine& line) {
      return line.method + " " + line.path + (line.name != line.path ? " (" + line.name + ")" : "");
    };
    if (text(a) != text(b)) {
      return differ("--requests request " + std::to_string(i + 1) + " " + text(a), text(b));
    }
  }
  return {};
}

// The first setting on which `other` differs from `first`, as "--rate 2000 vs --rate 3000";
// empty when the two describe the same fleet run.
std::string config_difference(const Config& first, const Config& other) {
  auto differ = [](std::string a, std::string b) { return a + " vs " + b; };
  if (first.open_loop() != other.open_loop() || first.rate != other.rate) {
    return differ(rate_text(first), rate_text(other));
  }
  if (first.connections != other.connections) {
    return differ("-c " + std::to_string(first.connections),
                  "-c " + std::to_string(other.connections));
  }
  if (first.requests_count != other.requests_count) {
    const auto count_text = [](const Config& config) {
      return config.requests_count > 0 ? "-n " + std::to_string(config.requests_count)
                                       : std::string("no -n");
    };
    return differ(count_text(first), count_text(other));
  }
  if (first.duration_ns != other.duration_ns) {
    return differ("-d " + seconds_text(first.duration_ns), "-d " + seconds_text(other.duration_ns));
  }
  if (first.warmup_ns != other.warmup_ns) {
    return differ("--warmup " + seconds_text(first.warmup_ns),
                  "--warmup " + seconds_text(other.warmup_ns));
  }
  if (first.timeout_ns != other.timeout_ns) {
    return differ("--timeout " + seconds_text(first.timeout_ns),
                  "--timeout " + seconds_text(other.timeout_ns));
  }
  if (first.method != other.method) return differ("-m " + first.method, "-m " + other.method);
  if (first.ramp_ns != other.ramp_ns) {
    return differ("--ramp " + seconds_text(first.ramp_ns), "--ramp " + seconds_text(other.ramp_ns));
  }
  if (first.arrival.kind != other.arrival.kind ||
      (first.arrival.kind == Arrival::poisson && first.arrival.seed != other.arrival.seed)) {
    const auto arrival_text = [](const Config& config) {
      return "--arrival " + std::string(arrival_name(config.arrival.kind)) +
             (config.arrival.kind == Arrival::poisson
                  ? " --seed " + std::to_string(config.arrival.seed)
                  : "");
    };
    return differ(arrival_text(first), arrival_text(other));
  }
  if (first.pipeline != other.pipeline) {
    return differ("-p " + std::to_string(first.pipeline), "-p " + std::to_string(other.pipeline));
  }
  if (const std::string difference = requests_difference(first, other); !difference.empty()) {
    return difference;
  }
  if (first.closed_loop_stopwatch != other.closed_loop_stopwatch) {
    return differ(first.closed_loop_stopwatch ? "--closed-loop" : "no --closed-loop",
                  other.closed_loop_stopwatch ? "--closed-loop" : "no --closed-loop");
  }
  if (first.shard.count != other.shard.count) {
    return differ("--shard " + shard_text(first), "--shard " + shard_text(other));
  }
  return {};
}

Expected<bool, MergeRefusal> check_fleet(const std::vector<RunDocument>& documents) {
  auto refuse = [](std::string message) { return unexpected(MergeRefusal{std::move(message)}); };
  if (documents.empty()) return refuse("merge: nothing to merge");
  for (const RunDocument& document : documents) {
    if (!document.config.shard.given) {
      return refuse("merge: " + document.source +
                    " is not a shard (it was not run with --shard I/N): adding a whole run to "
                    "a fleet would count its schedule twice");
    }
  }
  const RunDocument& first = documents.front();
  for (const RunDocument& document : documents) {
    if (document.config.url != first.config.url) {
      return refuse("merge: different URLs: " + first.source + " ran " + first.config.url +
                    ", " + document.source + " ran " + document.config.url);
    }
    const std::string difference = config_difference(first.config, document.config);
    if (!difference.empty()) {
      return refuse("merge: incompatible configs: " + first.source + " and " + document.source +
                    " differ (" + difference + "); shards of one fleet share every setting "
                    "but --threads");
    }
  }
  // Timelines add row by row. Shards of one fleet plan rows of the same width; a document whose
  // rows differ was edited or written by another hammer, and its rows could not be added.
  const RunDocument* row_width_of = nullptr;
  for (const RunDocument& document : documents) {
    if (document.result.timeline.empty()) continue;
    if (row_width_of == nullptr) {
      row_width_of = &document;
    } else if (document.result.timeline.interval_ns() !=
               row_width_of->result.timeline.interval_ns()) {
      return refuse("merge: " + row_width_of->source + " and " + document.source +
                    " have timelines of different row widths (" +
                    seconds_text(row_width_of->result.timeline.interval_ns()) + " vs " +
                    seconds_text(document.result.timeline.interval_ns()) +
                    "); shards of one fleet share them");
    }
  }
  const int64_t count = first.config.shard.count;
  std::map<int64_t, const RunDocument*> by_index;
  for (const RunDocument& document : documents) {
    auto [it, inserted] = by_index.emplace(document.config.shard.index, &document);
    if (!inserted) {
      return refuse("merge: shard " + shard_text(document.config) + " appears twice (" +
                    it->second->source + " and " + document.source + ")");
    }
  }
  std::string missing;
  for (int64_t index = 1; index <= count; ++index) {
    if (by_index.count(index) == 0) {
      missing += (missing.empty() ? "" : ", ") + std::to_string(index) + "/" +
                 std::to_string(count);
    }
  }
  if (!missing.empty()) {
    std::string have;
    for (const auto& [index, document] : by_index) {
      have += (have.empty() ? "" : ", ") + std::to_string(index);
    }
    return refuse("merge: shard " + missing + " missing (have " + have + " of " +
                  std::to_string(count) + "); the fleet's figures need every shard");
  }
  return true;
}

ShardSummary summarize_shard(const RunDocument& document) {
  const Config& config = document.config;
  const RunResult& result = document.result;
  ShardSummary shard;
  shard.source = document.source;
  shard.index = config.shard.index;
  shard.count = config.shard.count;
  shard.connections = config.connections / config.shard.count +
                      (config.shard.index - 1 < config.connections % config.shard.count ? 1 : 0);
  shard.threads = config.threads;
  shard.wall_start = result.wall_start;
  shard.elapsed_ns = result.elapsed_ns;
  shard.scheduled = result.scheduled;
  shard.sent = result.sent;
  shard.completed = result.completed;
  shard.unsent = result.unsent;
  shard.errors = result.failed_requests();
  shard.lag = result.lag;
  shard.generator_moves_percentile = generator_percentile_shift(config, result).percentile > 0;
  const bool corrected = config.corrected_stopwatch_leads();
  const Histogram& lead = corrected ? result.corrected : result.uncorrected;
  const CensoredTail tail =
      censored_tail(lead, result.error_count(ErrorKind::timeout), config.timeout_ns);
  const TailFigure p50 = tail.at(lead, 50);
  const TailFigure p99 = tail.at(lead, 99);
  shard.lead_p50_ns = p50.value_ns;
  shard.lead_p99_ns = p99.value_ns;
  shard.lead_p50_censored = p50.censored;
  shard.lead_p99_censored = p99.censored;
  shard.interrupted = result.interrupted;
  shard.tls_version = result.tls.version;
  shard.tls_cipher = result.tls.cipher;
  shard.tls_alpn = result.tls.alpn;
  return shard;
}

}  // namespace

Expected<MergedRun, MergeRefusal> merge_shards(const std::vector<RunDocument>& documents,
                                               int64_t start_tolerance_ns) {
  if (auto checked = check_fleet(documents); !checked) return unexpected(checked.error());

  std::vector<const RunDocument*> ordered;
  for (const RunDocument& document : documents) ordered.push_back(&document);
  std::sort(ordered.begin(), ordered.end(), [](const RunDocument* a, const RunDocument* b) {
    return a->config.shard.index < b->config.shard.index;
  });

  MergedRun merged;
  merged.config = ordered.front()->config;
  merged.config.shard = ShardSpec{};
  merged.config.threads = 0;
  // The shards ran on machines of their own: no one machine's CPUs describe the fleet.
  merged.config.cpus_available = 0;
  FleetSummary& fleet = merged.fleet;
  fleet.shard_count = ordered.front()->config.shard.count;
  fleet.start_tolerance_ns = start_tolerance_ns;

  int64_t earliest_origin = INT64_MAX;
  int64_t latest_origin = INT64_MIN;
  for (const RunDocument* document : ordered) {
    earliest_origin = std::min(earliest_origin, document->result.wall_start.origin_unix_ns);
    latest_origin = std::max(latest_origin, document->result.wall_start.origin_unix_ns);
  }
  fleet.earliest_origin_unix_ns = earliest_origin;
  fleet.start_spread_ns = latest_origin - earliest_origin;

  // Timelines: one row per interval of wall-clock time from the earliest origin; a shard that
  // started k intervals later adds into rows k, k+1, ... (rounded to the nearest interval).
  // Rows as wide as the shards' (check_fleet() saw that they agree).
  int64_t interval_ns = kNanosPerSecond;
  for (const RunDocument* document : ordered) {
    if (!document->result.timeline.empty()) {
      interval_ns = document->result.timeline.interval_ns();
      break;
    }
  }
  int32_t most_shift = 0;
  for (const RunDocument* document : ordered) {
    const int64_t offset = document->result.wall_start.origin_unix_ns - earliest_origin;
    most_shift = std::max(most_shift, static_cast<int32_t>(std::llround(
                                          static_cast<double>(offset) /
                                          static_cast<double>(interval_ns))));
  }
  Timeline timeline;
  const bool both = std::all_of(ordered.begin(), ordered.end(), [](const RunDocument* document) {
    return document->result.timeline.has_other();
  });
  // At the shards' own row width: planned for the longer span, rows would widen past
  // kMaxRows and no shard's rows would fit.
  timeline.plan(merged.config.warmup_ns, merged.config.duration_ns + most_shift * interval_ns,
                both, merged.config.ramp_ns, interval_ns, merged.config.counted_closed_loop());

  RunResult& total = merged.result;
  int64_t fleet_end_unix_ns = earliest_origin;
  const int64_t before_warmup_ns = merged.config.ramp_ns;  // the ramp comes first
  int64_t warmup_end_unix_ns = earliest_origin + before_warmup_ns;
  int64_t ramp_end_unix_ns = earliest_origin;
  for (const RunDocument* document : ordered) {
    RunResult part = document->result;
    const int64_t origin = part.wall_start.origin_unix_ns;
    const int32_t shift = static_cast<int32_t>(std::llround(
        static_cast<double>(origin - earliest_origin) / static_cast<double>(interval_ns)));
    if (!part.timeline.empty()) timeline.add_shifted(part.timeline, shift);
    part.timeline = Timeline();
    // Each shard's host stalls on the fleet's clock, as its timeline rows are (the meters'
    // histograms add, their maxima take the maximum: RunResult::add).
    for (HostStall& stall : part.host.long_stalls) stall.at_ns += origin - earliest_origin;
    total.add(part);
    merged.config.threads += document->config.threads;
    merged.config.percentiles =
        union_of_percentiles(merged.config.percentiles, document->config.percentiles);
    // One engine when every shard ran it; shards on different engines name none.
    if (document->config.engine != merged.config.engine) {
      merged.config.engine = EngineKind::automatic;
    }
    const int64_t measured_start =
        origin + document->config.ramp_ns + document->config.warmup_ns;
    fleet_end_unix_ns = std::max(fleet_end_unix_ns, measured_start + part.elapsed_ns);
    if (part.warmup) {
      warmup_end_unix_ns = std::max(
          warmup_end_unix_ns, origin + document->config.ramp_ns + part.warmup->elapsed_ns);
    }
    if (part.ramp) ramp_end_unix_ns = std::max(ramp_end_unix_ns, origin + part.ramp->elapsed_ns);
    fleet.shards.push_back(summarize_shard(*document));
  }
  total.timeline = std::move(timeline);
  // The fleet's measured time runs from the earliest measured start to the last shard's end.
  total.elapsed_ns =
      fleet_end_unix_ns - (earliest_origin + before_warmup_ns + merged.config.warmup_ns);
  if (total.warmup) {
    total.warmup->elapsed_ns = warmup_end_unix_ns - (earliest_origin + before_warmup_ns);
  }
  if (total.ramp) total.ramp->elapsed_ns = ramp_end_unix_ns - earliest_origin;
  total.wall_start.origin_unix_ns = earliest_origin;
  total.wall_start.started_unix_ns = INT64_MAX;
  total.wall_start.late_ns = 0;
  for (const ShardSummary& shard : fleet.shards) {
    total.wall_start.started_unix_ns =
        std::min(total.wall_start.started_unix_ns, shard.wall_start.started_unix_ns);
    total.wall_start.late_ns = std::max(total.wall_start.late_ns, shard.wall_start.late_ns);
    total.wall_start.connecting_ns =
        std::max(total.wall_start.connecting_ns, shard.wall_start.connecting_ns);
  }
  return merged;
}

}  // namespace hammer
