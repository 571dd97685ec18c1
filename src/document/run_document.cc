// SPDX-License-Identifier: MIT
// Reading a hammer JSON document back into plain data. Each member is looked up by its path
// and checked for its type; the first problem becomes the error, naming the path, so a
// hand-edited or truncated file fails with a line a user can act on instead of a merge of
// half-read figures. Members that later versions add are ignored, as docs/json.md promises.
#include "document/run_document.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>

#include "core/percentiles.h"
#include "document/document_reader.h"
#include "document/document_sections.h"
#include "platform/files.h"
#include "json/json_value.h"
#include "stats/histogram_v2.h"

namespace hammer {
namespace {

constexpr int64_t kMaxDocumentBytes = 256LL * 1024 * 1024;

// An error kind added within schema 1 (tls, with https): read when present, so documents from
// before it still load.
bool added_later(int kind) { return kind == static_cast<int>(ErrorKind::tls); }

// `shard` and `start`: the run's place in a fleet and its wall-clock start (a single run's
// document; a sweep's has neither).
void read_shard_and_start(DocumentReader& reader, Config& config) {
  const JsonValue* shard = reader.at({"shard"});
  if (shard != nullptr && shard->is_object()) {
    config.shard.index = reader.integer(shard, "shard", {"index"});
    config.shard.count = reader.integer(shard, "shard", {"count"});
    config.shard.given = true;
    if (!reader.failed() && (config.shard.count < 1 || config.shard.index < 1 ||
                             config.shard.index > config.shard.count)) {
      reader.fail("shard: index " + std::to_string(config.shard.index) + " of " +
                  std::to_string(config.shard.count) + " does not exist");
    }
  }
  const JsonValue* start = reader.at({"start"});
  if (start == nullptr || !start->is_object()) {
    reader.fail("start: missing (written by a hammer older than --shard; re-run to merge)");
    return;
  }
  const JsonValue* start_at = start->find("start_at");
  if (start_at != nullptr && start_at->kind == JsonValue::Kind::boolean && start_at->boolean) {
    config.start_at.unix_ns = reader.integer(start, "start", {"origin_unix_ns"});
    config.start_at.set = true;
  }
  config.start_at.tolerance_ns = reader.integer(start, "start", {"tolerance_ns"});
}

void read_lag(DocumentReader& reader, RunResult& result) {
  const JsonValue* lag = reader.at({"dispatch_lag"});
  if (lag == nullptr || lag->is_null()) return;
  DispatchLag& out = result.lag;
  out.dispatched = reader.integer(lag, "dispatch_lag", {"dispatched"});
  // sum_ns is exact; documents without it (older ones) give mean x count, rounded.
  out.sum_ns = lag->find("sum_ns") != nullptr
                   ? reader.integer(lag, "dispatch_lag", {"sum_ns"})
                   : reader.integer(lag, "dispatch_lag", {"mean_ns"}) * out.dispatched;
  out.max_ns = reader.integer(lag, "dispatch_lag", {"max_ns"});
  out.behind_schedule = reader.integer(lag, "dispatch_lag", {"behind_schedule"});
  out.threshold_ns = reader.integer(lag, "dispatch_lag", {"threshold_ns"});
  // Added with --dispatch-precision (issue 27); older documents leave it unknown (-1).
  if (const JsonValue* budget = lag->find("budget_ns"); budget != nullptr && !budget->is_null()) {
    out.budget_ns = reader.integer(lag, "dispatch_lag", {"budget_ns"});
  }
  out.peak_backlog = reader.integer(lag, "dispatch_lag", {"peak_backlog"});
  out.behind_server = reader.integer(lag, "dispatch_lag", {"cause", "server"});
  out.behind_generator = reader.integer(lag, "dispatch_lag", {"cause", "generator"});
  // Older documents have no generator_max_ns: their largest lag is the best bound they give.
  out.generator_max_ns = lag->find("generator_max_ns") != nullptr
                             ? reader.integer(lag, "dispatch_lag", {"generator_max_ns"})
                             : (out.behind_generator > 0 ? out.max_ns : 0);
  // Added after the first release: older documents leave them out, and their merged run then
  // has no lag percentiles and no timer-floor reading, as before.
  if (lag->find("idle_dispatched") != nullptr) {
    out.idle_dispatched = reader.integer(lag, "dispatch_lag", {"idle_dispatched"});
    out.idle_sum_ns = reader.integer(lag, "dispatch_lag", {"idle_sum_ns"});
    out.timer_granularity_ns = reader.integer(lag, "dispatch_lag", {"timer_granularity_ns"});
  }
  if (lag->find("hdr") != nullptr) out.histogram = reader.histogram(lag, "dispatch_lag");
  // Added with blame by due time (issue 23); older documents read as never absent, and their
  // generator-late requests as placed anywhere (the verdicts' worst case).
  if (lag->find("absent_ns") != nullptr) {
    out.behind_absent = reader.integer(lag, "dispatch_lag", {"generator_absent"});
    out.absent_ns = reader.integer(lag, "dispatch_lag", {"absent_ns"});
  }
  if (lag->find("generator_late_hdr") != nullptr) {
    out.generator_late_latency = reader.histogram(lag, "dispatch_lag", "generator_late_hdr");
  }
  // Added when the rule learnt which late requests cross a figure; without it, every late
  // request at or above a figure is taken to drop below it (the worst case).
  if (lag->find("generator_late_unlagged_hdr") != nullptr) {
    out.generator_late_unlagged =
        reader.histogram(lag, "dispatch_lag", "generator_late_unlagged_hdr");
  }
}

// "host" and "generator_cpu" (added within schema 1): absent or null in older documents and
// hand-built ones, whose runs then have no meter reading, as before.
void read_host(DocumentReader& reader, RunResult& result) {
  const JsonValue* host = reader.at({"host"});
  if (host != nullptr && host->is_object()) {
    HostReading& out = result.host;
    out.meters = reader.integer(host, "host", {"meters"});
    out.interval_ns = reader.integer(host, "host", {"interval_ns"});
    out.observed_ns = reader.integer(host, "host", {"observed_ns"});
    out.max_ns = reader.integer(host, "host", {"max_stall_ns"});
    out.long_count = reader.integer(host, "host", {"long_stalls"});
    out.long_sum_ns = reader.integer(host, "host", {"lost_ns"});
    const JsonValue* steal = host->find("steal_ns");
    out.steal_ns = steal && steal->is_number() ? steal->as_int().value_or(-1) : -1;
    const JsonValue* cpu = host->find("meter_cpu_ns");
    out.meter_cpu_ns = cpu && cpu->is_number() ? cpu->as_int().value_or(-1) : -1;
    const JsonValue* stalls = host->find("stalls");
    if (stalls == nullptr || !stalls->is_array() ||
        static_cast<int64_t>(stalls->items.size()) > HostReading::kMaxStallsKept) {
      reader.fail("host.stalls: expected an array of at most " +
                  std::to_string(HostReading::kMaxStallsKept) + " {at_ns, ns}");
      return;
    }
    for (size_t i = 0; i < stalls->items.size(); ++i) {
      const std::string name = "host.stalls[" + std::to_string(i) + "]";
      out.long_stalls.push_back({reader.integer(&stalls->items[i], name, {"at_ns"}),
                                 reader.integer(&stalls->items[i], name, {"ns"})});
    }
    out.oversleeps = reader.histogram(host, "host");
    if (!reader.failed() && out.meters < 1) reader.fail("host.meters: expected 1 or more");
  }
  const JsonValue* cpu = reader.at({"generator_cpu"});
  if (cpu != nullptr && cpu->is_object()) {
    GeneratorCpu& out = result.generator_cpu;
    out.workers = reader.integer(cpu, "generator_cpu", {"threads"});
    out.cpu_ns = reader.integer(cpu, "generator_cpu", {"cpu_ns"});
    out.wall_ns = reader.integer(cpu, "generator_cpu", {"wall_ns"});
    const JsonValue* busiest = cpu->find("busiest_share");
    out.busiest_share = busiest ? busiest->as_double().value_or(0) : 0;
  }
}

// "wakes" (issue 27): absent in older documents, whose runs then read as zeros.
void read_wakes(DocumentReader& reader, RunResult& result) {
  const JsonValue* wakes = reader.at({"wakes"});
  if (wakes == nullptr || !wakes->is_object()) return;
  WakeSummary& out = result.wakes;
  out.sleeps = reader.integer(wakes, "wakes", {"sleeps"});
  out.through_traffic = reader.integer(wakes, "wakes", {"through_traffic"});
  out.stamped_reads = reader.integer(wakes, "wakes", {"stamped_reads"});
  out.unstamped_reads = reader.integer(wakes, "wakes", {"unstamped_reads"});
  out.clock_steps = reader.integer(wakes, "wakes", {"clock_steps"});
  out.largest_step_ns = reader.integer(wakes, "wakes", {"largest_step_ns"});
  out.stamps_refused = reader.boolean(wakes, "wakes", {"stamps_refused"});
  out.large_responses = reader.boolean(wakes, "wakes", {"large_responses"});
}

void read_timeline(DocumentReader& reader, const Config& config, RunResult& result) {
  const JsonValue* rows = reader.at({"timeline", "rows"});
  if (rows == nullptr || !rows->is_array()) {
    reader.fail("timeline.rows: expected an array");
    return;
  }
  // No rows: the run kept no timeline (a hand-built result; every run's has a row at least).
  // It reads back as none, as it was, not as a planned timeline of empty seconds, which the
  // reports would print and draw as seconds without a request.
  if (rows->items.empty()) return;
  const bool both = rows->items.front().find("other_hdr") != nullptr;
  result.timeline.plan(config.warmup_ns, config.duration_ns, both, config.ramp_ns, 0,
                       config.counted_closed_loop());
  // A merged document's timeline runs on the fleet's wall clock: a shard that started k rows
  // after the earliest one adds into rows k, k+1, ..., so the rows outlast the duration by the
  // start spread in whole rows, at the shards' own row width (merge/merge.cc plans it so).
  if (const JsonValue* spread = reader.at({"fleet", "start_spread_ns"});
      spread != nullptr && spread->is_number()) {
    const int64_t interval_ns = result.timeline.interval_ns();
    const int64_t spread_ns = std::max<int64_t>(spread->as_int().value_or(0), 0);
    // Never more rows than the document holds: a hand-edited spread cannot make it plan more.
    const int64_t shift_rows = std::min<int64_t>(
        std::llround(static_cast<double>(spread_ns) / static_cast<double>(interval_ns)),
        static_cast<int64_t>(rows->items.size()));
    if (shift_rows > 0) {
      result.timeline.plan(config.warmup_ns, config.duration_ns + shift_rows * interval_ns, both,
                           config.ramp_ns, interval_ns, config.counted_closed_loop());
    }
  }
  for (size_t i = 0; i < rows->items.size() && !reader.failed(); ++i) {
    const JsonValue& row = rows->items[i];
    const std::string name = "timeline.rows[" + std::to_string(i) + "]";
    const int64_t second = reader.integer(&row, name, {"second"});
    const int64_t completed = reader.integer(&row, name, {"requests"});
    const int64_t errors = reader.integer(&row, name, {"errors"});
    // Absent from documents written before rows counted their timeouts: none then.
    const JsonValue* timed_out_value = row.find("timed_out");
    const int64_t timed_out = timed_out_value && timed_out_value->is_number()
                                  ? timed_out_value->as_int().value_or(0)
                                  : 0;
    const JsonValue* max = row.find("max_ns");
    const int64_t max_ns = max && max->is_number() ? max->as_int().value_or(0) : 0;
    const Histogram latencies = reader.histogram(&row, name);
    if (reader.failed()) return;
    if (second < 1 || second > static_cast<int64_t>(result.timeline.rows().size())) {
      reader.fail(name + ".second: " + std::to_string(second) +
                  " is outside the run's duration and warm-up");
      return;
    }
    result.timeline.set_row(static_cast<int32_t>(second - 1), completed, errors, timed_out,
                            max_ns, latencies);
    if (both) {
      const JsonValue* other = row.find("other_hdr");
      if (other == nullptr || !other->is_string()) {
        reader.fail(name + ".other_hdr: expected an HdrHistogram V2 string");
        return;
      }
      auto decoded = decode_v2_base64(other->text);
      if (!decoded) {
        reader.fail(name + ".other_hdr: " + decoded.error());
        return;
      }
      result.timeline.set_other_row(static_cast<int32_t>(second - 1), *decoded);
    }
  }
}

// `status` by class, required where `required` (a phase's was added within schema 1), and
// `status_codes` (added within schema 1 everywhere): read when present, so documents from
// before them still merge. `node` is the object that holds them, named `base` in errors.
void read_status(DocumentReader& reader, const JsonValue* node, const std::string& base,
                 bool required, RunResult& result) {
  if (required || reader.at(node, {"status"}) != nullptr) {
    for (int index = 0; index < kStatusClassCount; ++index) {
      result.status_classes[index] =
          reader.integer(node, base, {"status", kStatusClassNames[index]});
    }
  }
  const JsonValue* codes = reader.at(node, {"status_codes"});
  if (codes == nullptr || !codes->is_object()) return;
  for (const auto& [code_text, count] : codes->members) {
    const int code = std::atoi(code_text.c_str());
    auto value = count.as_int();
    if (code < 100 || code >= kStatusCodeLimit || !value) {
      reader.fail(reader.path_text(base, {"status_codes", code_text}) +
                  ": expected a status code 100..599 and a count");
      return;
    }
    result.status_codes[static_cast<size_t>(code)] = *value;
  }
}

// "warmup" or "ramp": a phase before the measured part, kept on its lead stopwatch only
// (docs/json.md). Null when the run had none.
std::shared_ptr<RunResult> read_phase(DocumentReader& reader, const Config& config,
                                      std::string_view name) {
  const JsonValue* node = reader.at({name});
  if (node == nullptr || node->is_null()) return nullptr;
  const std::string base(name);
  auto phase = std::make_shared<RunResult>();
  phase->elapsed_ns = reader.integer(node, base, {"elapsed_ns"});
  phase->sent = reader.integer(node, base, {"sent"});
  phase->completed = reader.integer(node, base, {"completed"});
  if (const JsonValue* scheduled = node->find("scheduled"); scheduled && scheduled->is_number()) {
    phase->scheduled = scheduled->as_int().value_or(0);
  }
  for (int kind = 0; kind < kErrorKindCount; ++kind) {
    if (added_later(kind) && reader.at(node, {"errors", kErrorKindNames[kind]}) == nullptr) continue;
    phase->errors[kind] = reader.integer(node, base, {"errors", kErrorKindNames[kind]});
  }
  read_status(reader, node, base, /*required=*/false, *phase);
  Histogram lead = reader.histogram(node->find("latency"), base + ".latency");
  const bool corrected = config.corrected_stopwatch_leads();
  (corrected ? phase->corrected : phase->uncorrected) = std::move(lead);
  return phase;
}

// "requests_file": the lines' names and figures back into config.requests and result.lines
// (the lines after the ones with figures of their own keep only their count: one aggregated
// entry holds their figures).
void read_requests_file(DocumentReader& reader, Config& config, RunResult& result) {
  const JsonValue* file = reader.at({"requests_file"});
  if (file == nullptr || file->is_null()) return;
  const int64_t count = reader.integer(file, "requests_file", {"count"});
  const JsonValue* lines = file->find("lines");
  if (lines == nullptr || !lines->is_array()) {
    reader.fail("requests_file.lines: expected an array");
    return;
  }
  if (reader.failed()) return;
  if (count < 1 || static_cast<int64_t>(lines->items.size()) != line_stats_entries(count)) {
    reader.fail("requests_file: " + std::to_string(lines->items.size()) + " entries for " +
                std::to_string(count) + " requests");
    return;
  }
  config.requests.assign(static_cast<size_t>(count), RequestLine{});
  result.lines.resize(lines->items.size());
  for (size_t i = 0; i < lines->items.size() && !reader.failed(); ++i) {
    const JsonValue& entry = lines->items[i];
    const std::string name = "requests_file.lines[" + std::to_string(i) + "]";
    LineStats& stats = result.lines[i];
    stats.sent = reader.integer(&entry, name, {"sent"});
    stats.completed = reader.integer(&entry, name, {"completed"});
    for (int kind = 0; kind < kErrorKindCount; ++kind) {
      if (added_later(kind) && entry.at({"errors", kErrorKindNames[kind]}) == nullptr) continue;
      stats.errors[kind] = reader.integer(&entry, name, {"errors", kErrorKindNames[kind]});
    }
    for (int index = 0; index < kStatusClassCount; ++index) {
      stats.status_classes[index] =
          reader.integer(&entry, name, {"status", kStatusClassNames[index]});
    }
    const JsonValue* latency = entry.find("latency");
    const JsonValue* corrected = latency ? latency->find("corrected") : nullptr;
    if (corrected != nullptr && !corrected->is_null()) {
      stats.corrected = reader.histogram(corrected, name + ".latency.corrected");
    }
    stats.uncorrected = reader.histogram(latency ? latency->find("uncorrected") : nullptr,
                                         name + ".latency.uncorrected");
    if (static_cast<int64_t>(i) >= kMaxLinesWithOwnStats) continue;  // the aggregated entry
    RequestLine& line = config.requests[i];
    const JsonValue* label = entry.find("name");
    const JsonValue* method = entry.find("method");
    const JsonValue* path = entry.find("path");
    const JsonValue* file_line = entry.find("file_line");
    if (label == nullptr || !label->is_string() || method == nullptr || !method->is_string() ||
        path == nullptr || !path->is_string()) {
      reader.fail(name + ": expected name, method and path strings");
      return;
    }
    line.name = label->text;
    line.method = method->text;
    line.path = path->text;
    line.line_number = file_line ? file_line->as_int().value_or(0) : 0;
  }
}

}  // namespace

Expected<RunDocument, std::string> read_run_document(std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed) return unexpected("not a JSON document: " + parsed.error());
  return read_run_document(*parsed);
}

Expected<RunDocument, std::string> read_run_document(const JsonValue& root) {
  DocumentReader reader(root);
  RunDocument document;
  if (const std::string problem = unreadable_header(reader); !problem.empty()) {
    return unexpected(problem);
  }
  if (root.find("sweep") != nullptr) {
    return unexpected(std::string("a sweep document (a run for each level), not a single run"));
  }
  document.version = reader.text({"hammer", "version"});
  read_config_section(reader, document.config);
  read_shard_and_start(reader, document.config);
  if (reader.failed()) return unexpected(reader.error());

  RunResult& result = document.result;
  result.elapsed_ns = reader.integer({"elapsed_ns"});
  const JsonValue* scheduled = reader.at({"requests", "scheduled"});
  result.scheduled = scheduled && scheduled->is_number() ? scheduled->as_int().value_or(0) : 0;
  result.sent = reader.integer({"requests", "sent"});
  result.completed = reader.integer({"requests", "completed"});
  result.unsent = reader.integer({"requests", "unsent"});
  result.bytes_read = reader.integer({"requests", "bytes_read"});
  result.connects = reader.integer({"connections", "opened"});
  const JsonValue* corrected = reader.at({"latency", "corrected"});
  if (corrected != nullptr && !corrected->is_null()) {
    result.corrected = reader.histogram(corrected, "latency.corrected");
  }
  result.uncorrected = reader.histogram(reader.at({"latency", "uncorrected"}), "latency.uncorrected");
  for (int kind = 0; kind < kErrorKindCount; ++kind) {
    if (added_later(kind) && reader.at({"errors", kErrorKindNames[kind]}) == nullptr) continue;
    result.errors[kind] = reader.integer({"errors", kErrorKindNames[kind]});
  }
  read_status(reader, reader.root(), "", /*required=*/true, result);
  // Members added within schema 1 (connection events, in-flight at a signal): read when
  // present, so documents from before them still merge.
  if (const JsonValue* events = reader.at({"connection_events"}); events && events->is_object()) {
    result.reconnects = reader.integer(events, "connection_events", {"reconnects"});
    result.unsolicited = reader.integer(events, "connection_events", {"unsolicited_responses"});
    if (events->find("early_responses") != nullptr) {
      result.early_responses = reader.integer(events, "connection_events", {"early_responses"});
    }
  }
  // Added within schema 1 (resends after a polite close): absent in older documents.
  if (reader.at({"requests", "retried"}) != nullptr) {
    result.retried = reader.integer({"requests", "retried"});
  }
  if (reader.at({"requests", "not_retried"}) != nullptr) {
    result.not_retried = reader.integer({"requests", "not_retried"});
  }
  if (reader.at({"requests", "unsent_no_connection"}) != nullptr) {
    result.unsent_no_connection = reader.integer({"requests", "unsent_no_connection"});
  }
  if (reader.at({"requests", "unsent_absent"}) != nullptr) {
    result.unsent_absent = reader.integer({"requests", "unsent_absent"});
  }
  if (reader.at({"requests", "last_answer_ns"}) != nullptr) {
    result.last_answer_ns = reader.integer({"requests", "last_answer_ns"});
    result.unanswered_tail_ns = reader.integer({"requests", "unanswered_tail_ns"});
  }
  if (const JsonValue* due = reader.at({"requests", "due_after_last_answer"});
      due != nullptr && due->is_number()) {
    result.due_after_last_answer = due->as_int().value_or(0);
  }
  if (reader.at({"requests", "in_flight_at_stop"}) != nullptr) {
    result.in_flight_at_stop = reader.integer({"requests", "in_flight_at_stop"});
  }
  read_lag(reader, result);
  read_host(reader, result);
  read_wakes(reader, result);
  result.warmup = read_phase(reader, document.config, "warmup");
  result.ramp = read_phase(reader, document.config, "ramp");
  read_requests_file(reader, document.config, result);
  read_timeline(reader, document.config, result);
  result.connect_time = reader.histogram(reader.at({"connect"}), "connect");
  result.first_requests = reader.histogram(reader.at({"first_requests"}), "first_requests");
  read_tls_section(reader, result);
  read_http2_section(reader, result);
  document.slo_limits = read_slo_limits(reader);
  document.machine_cpus = read_machine_cpus(reader);
  document.fleet = read_fleet_section(reader);
  result.wall_start.origin_unix_ns = reader.integer({"start", "origin_unix_ns"});
  result.wall_start.started_unix_ns = reader.integer({"start", "started_unix_ns"});
  result.wall_start.late_ns = reader.integer({"start", "late_ns"});
  if (reader.at({"start", "connecting_ns"}) != nullptr) {  // absent in older documents
    result.wall_start.connecting_ns = reader.integer({"start", "connecting_ns"});
  }
  if (const JsonValue* notes = reader.at({"notes"}); notes != nullptr) {
    if (!notes->is_array()) reader.fail("notes: expected an array of strings");
    document.notes.emplace();
    for (size_t i = 0; notes->is_array() && i < notes->items.size(); ++i) {
      const JsonValue& note = notes->items[i];
      if (!note.is_string()) {
        reader.fail("notes[" + std::to_string(i) + "]: expected a string");
        break;
      }
      document.notes->push_back(note.text);
    }
  }
  const JsonValue* interrupted = reader.at({"interrupted"});
  result.interrupted = interrupted && interrupted->kind == JsonValue::Kind::boolean &&
                       interrupted->boolean;
  if (reader.failed()) return unexpected(reader.error());
  return document;
}

Expected<RunDocument, std::string> load_run_document(const std::string& path) {
  const auto text = read_bounded_file(path, kMaxDocumentBytes, "256MB; not a hammer document");
  if (!text) return unexpected(path + ": " + text.error());
  auto document = read_run_document(*text);
  if (!document) return unexpected(path + ": " + document.error());
  document->source = path;
  return document;
}

}  // namespace hammer
