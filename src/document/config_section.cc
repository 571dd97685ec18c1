// SPDX-License-Identifier: MIT
// The header (`hammer`: which schema) and `config`: what the run was asked to do, as write_document_header() (report/json_report.cc)
// writes it for a single run and for a sweep alike. Members added within schema 1 are read when
// present, so documents from before them still load.
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/percentiles.h"
#include "document/document_sections.h"

namespace hammer {
namespace {

int64_t seconds_to_ns(double seconds) { return std::llround(seconds * 1e9); }

// config.percentiles: the --percentiles rows, each above 0 and below 100, at most
// kMaxPercentiles; empty for the default spectrum.
void read_percentile_rows(DocumentReader& reader, const JsonValue& rows, Config& config) {
  const std::string shape = "config.percentiles: expected an array of at most " +
                            std::to_string(kMaxPercentiles) +
                            " percentiles above 0 and below 100";
  if (!rows.is_array() || rows.items.size() > kMaxPercentiles) {
    reader.fail(shape);
    return;
  }
  std::vector<double> values;
  for (const JsonValue& row : rows.items) {
    const std::optional<double> q = row.as_double();
    if (!q || !(*q > 0 && *q < 100)) {
      reader.fail(shape);
      return;
    }
    values.push_back(*q);
  }
  config.percentiles = union_of_percentiles({}, values);
}

constexpr int kReadableSchema = 1;

}  // namespace

std::string unreadable_header(DocumentReader& reader) {
  const JsonValue& root = *reader.root();
  if (!root.is_object() || root.find("hammer") == nullptr) {
    return "not a hammer document (no \"hammer\" member)";
  }
  const int64_t schema = reader.integer({"hammer", "schema"});
  if (reader.failed()) return reader.error();
  if (schema != kReadableSchema) {
    return "schema " + std::to_string(schema) + " is not readable by this hammer (it reads schema " +
           std::to_string(kReadableSchema) + ")";
  }
  return "";
}

void read_config_section(DocumentReader& reader, Config& config) {
  config.url = reader.text({"config", "url"});
  config.connections = reader.integer({"config", "connections"});
  config.threads = reader.integer({"config", "threads"});
  config.duration_ns = seconds_to_ns(reader.number({"config", "duration_s"}));
  config.warmup_ns = seconds_to_ns(reader.number({"config", "warmup_s"}));
  const JsonValue* rate = reader.at({"config", "rate"});
  config.rate = rate && rate->is_number() ? rate->as_double().value_or(0) : 0;
  const std::string mode = reader.text({"config", "mode"});
  if (!reader.failed() && mode != "open" && mode != "closed") {
    reader.fail("config.mode: expected \"open\" or \"closed\", got \"" + mode + "\"");
  }
  if (!reader.failed() && (mode == "open") != (config.rate > 0)) {
    reader.fail("config.rate: " + std::string(mode == "open" ? "null in an open-loop run"
                                                             : "set in a closed-loop run"));
  }
  const std::string stopwatch = reader.text({"config", "stopwatch"});
  config.closed_loop_stopwatch = mode == "open" && stopwatch == "uncorrected";
  config.timeout_ns = std::llround(reader.number({"config", "timeout_ms"}) * 1e6);
  config.method = reader.text({"config", "method"});
  // Added within schema 1 (--ramp, -p, --requests): absent in older documents, which ran
  // none of them.
  if (const JsonValue* ramp = reader.at({"config", "ramp_s"}); ramp != nullptr) {
    config.ramp_ns = seconds_to_ns(reader.number({"config", "ramp_s"}));
  }
  // Added within schema 1 (--arrival, --seed): absent in older documents, which ran constant.
  if (const JsonValue* arrival = reader.at({"config", "arrival"});
      arrival != nullptr && arrival->is_string()) {
    if (arrival->text == "poisson") {
      config.arrival.kind = Arrival::poisson;
    } else if (arrival->text != "constant") {
      reader.fail("config.arrival: expected \"constant\" or \"poisson\", got \"" +
                  arrival->text + "\"");
    }
  }
  if (const JsonValue* seed = reader.at({"config", "seed"}); seed != nullptr && seed->is_number()) {
    uint64_t value = 0;
    const auto [end, ec] =
        std::from_chars(seed->text.data(), seed->text.data() + seed->text.size(), value);
    if (ec != std::errc() || end != seed->text.data() + seed->text.size()) {
      reader.fail("config.seed: expected a whole number 0 to 2^64-1, got " + seed->text);
    } else {
      config.arrival.seed = value;
    }
  }
  if (reader.at({"config", "pipeline"}) != nullptr) {
    config.pipeline = reader.integer({"config", "pipeline"});
  }
  if (const JsonValue* retry = reader.at({"config", "retry"});
      retry != nullptr && retry->kind == JsonValue::Kind::boolean) {
    config.retry = retry->boolean;
  }
  if (const JsonValue* count = reader.at({"config", "requests_count"});
      count != nullptr && !count->is_null()) {
    config.requests_count = reader.integer({"config", "requests_count"});
  }
  if (const JsonValue* requests = reader.at({"config", "requests"});
      requests != nullptr && !requests->is_null()) {
    config.requests_path = reader.text({"config", "requests"});
  }
  // Added within schema 1 (--data, --data-order): absent in older documents, which had none.
  if (const JsonValue* data = reader.at({"config", "data"}); data != nullptr && !data->is_null()) {
    config.data_path = reader.text({"config", "data"});
    const std::string order = reader.text({"config", "data_order"});
    if (order == "random") {
      config.data_order = DataOrder::random;
    } else if (order != "sequential") {
      reader.fail("config.data_order: expected \"sequential\" or \"random\", got \"" + order +
                  "\"");
    }
  }
  read_tls_config(reader, config.tls);
  // The engine that ran; a name this reader does not know (a later engine) stays unsaid.
  if (const JsonValue* engine = reader.at({"config", "engine"}); engine && engine->is_string()) {
    for (EngineKind kind : {EngineKind::io_uring, EngineKind::epoll, EngineKind::poll}) {
      if (engine->text == engine_name(kind)) config.engine = kind;
    }
  }
  // Added within schema 1: what the text report printed (--latency, --timeline), and where
  // the thread count came from; absent in older documents, which printed neither table.
  config.print_latency = reader.flag({"config", "print_latency"});
  config.print_timeline = reader.flag({"config", "print_timeline"});
  if (const JsonValue* cpus = reader.at({"config", "cpus_available"}); cpus && cpus->is_number()) {
    config.cpus_available = cpus->as_int().value_or(0);
  }
  if (const JsonValue* from = reader.at({"config", "threads_from"}); from && from->is_string()) {
    config.threads_given = from->text == "flag";
  }
  // Added within schema 1: the --percentiles rows, so that a merge prints what the shards did.
  if (const JsonValue* rows = reader.at({"config", "percentiles"}); rows != nullptr) {
    read_percentile_rows(reader, *rows, config);
  }
}

}  // namespace hammer
