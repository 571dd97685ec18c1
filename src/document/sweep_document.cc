// SPDX-License-Identifier: MIT
// Reading a sweep's document back, member by member, as run_document.cc reads a run's: the
// first problem becomes the error, naming the path. Every StepSummary member the text and HTML
// reports use comes from the step's own members (docs/json.md, "Sweeps"); the censoring of its
// percentiles from its answered (completed) and timed-out counts, as the sweep computed it.
#include "document/sweep_document.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "document/document_reader.h"
#include "document/document_sections.h"
#include "run/verdicts.h"
#include "sweep/noise.h"
#include "sweep/step.h"

namespace hammer {
namespace {


// One of `names` (kStepMissNames, kReadingNoiseNames) as its enum's index; nullopt, with the
// reader failed, for any other text.
template <size_t N>
std::optional<size_t> named(DocumentReader& reader, const JsonValue& node,
                            const std::array<std::string_view, N>& names,
                            const std::string& path) {
  if (node.is_string()) {
    for (size_t i = 0; i < N; ++i) {
      if (names[i] == node.text) return i;
    }
  }
  std::string expected;
  for (std::string_view name : names) expected += (expected.empty() ? "" : ", ") + std::string(name);
  reader.fail(path + ": expected one of " + expected);
  return std::nullopt;
}

ReadingNoise read_noise(DocumentReader& reader, const JsonValue* noise, std::string_view member) {
  const JsonValue* node = reader.at(noise, {member});
  if (node == nullptr || node->is_null()) return ReadingNoise::clean;
  const auto index = named(reader, *node, kReadingNoiseNames, "sweep.noise." + std::string(member));
  return index ? static_cast<ReadingNoise>(*index) : ReadingNoise::clean;
}

// The latency figures: null when the step got no response.
void read_latency(DocumentReader& reader, const JsonValue& node, const std::string& name,
                  int64_t timeout_ns, StepSummary& step) {
  const JsonValue* latency = node.find("latency_ns");
  const std::string base = name + ".latency_ns";
  const JsonValue* stopwatch = latency ? latency->find("stopwatch") : nullptr;
  if (stopwatch == nullptr || !stopwatch->is_string() ||
      (stopwatch->text != "corrected" && stopwatch->text != "uncorrected")) {
    reader.fail(base + ".stopwatch: expected \"corrected\" or \"uncorrected\"");
    return;
  }
  step.corrected = stopwatch->text == "corrected";
  const JsonValue* p50 = latency->find("50");
  step.has_latency = p50 != nullptr && !p50->is_null();
  step.tail = {step.completed, reader.integer(latency, base, {"timed_out"}), timeout_ns};
  if (!step.has_latency) return;
  step.p50_ns = reader.integer(latency, base, {"50"});
  step.p90_ns = reader.integer(latency, base, {"90"});
  step.p95_ns = reader.integer(latency, base, {"95"});
  step.p99_ns = reader.integer(latency, base, {"99"});
  step.p999_ns = reader.integer(latency, base, {"99.9"});
  step.max_ns = reader.integer(latency, base, {"max"});
  step.mean_ns = reader.number(latency, base, {"mean"});
}

StepSummary read_step(DocumentReader& reader, const JsonValue& node, const std::string& name,
                      const Config& config) {
  StepSummary step;
  step.level = reader.number(&node, name, {"level"});
  step.connections = reader.integer(&node, name, {"connections"});
  step.threads = reader.integer(&node, name, {"threads"});
  step.rate = reader.number_or_null(&node, name, {"rate"}, 0);
  step.elapsed_ns = reader.integer(&node, name, {"elapsed_ns"});
  step.scheduled = static_cast<int64_t>(
      reader.number_or_null(&node, name, {"requests", "scheduled"}, 0));
  step.completed = reader.integer(&node, name, {"requests", "completed"});
  step.unsent = reader.integer(&node, name, {"requests", "unsent"});
  step.per_second = reader.number(&node, name, {"requests", "per_second"});
  read_latency(reader, node, name, config.timeout_ns, step);
  step.errors = reader.integer(&node, name, {"errors"});
  step.non_2xx_3xx = reader.integer(&node, name, {"non_2xx_3xx"});
  if (const JsonValue* lag = node.find("dispatch_lag"); lag != nullptr && !lag->is_null()) {
    const std::string base = name + ".dispatch_lag";
    step.dispatched = reader.integer(lag, base, {"dispatched"});
    step.behind_schedule = reader.integer(lag, base, {"behind_schedule"});
    step.behind_server = reader.integer(lag, base, {"behind_server"});
    step.behind_generator = reader.integer(lag, base, {"behind_generator"});
  }
  step.cpu_cores = reader.number_or_null(&node, name, {"generator_cpu", "cores"}, -1);
  step.usable_cores = reader.integer(&node, name, {"generator_cpu", "usable_cores"});
  step.generator_busy = reader.boolean(&node, name, {"generator_cpu", "busy"});
  // Added within schema 1: older documents read as having no more cores to give threads.
  if (node.at({"generator_cpu", "threads_below_cpus"}) != nullptr) {
    step.threads_below_cpus = reader.boolean(&node, name, {"generator_cpu", "threads_below_cpus"});
  }
  step.slo = read_slo_outcomes(reader, node.find("slo"), name + ".slo");
  step.slo_passed = slos_pass(step.slo);
  if (const JsonValue* misses = node.find("misses"); misses != nullptr && misses->is_array()) {
    for (size_t i = 0; i < misses->items.size(); ++i) {
      const auto miss = named(reader, misses->items[i], kStepMissNames,
                              name + ".misses[" + std::to_string(i) + "]");
      if (miss) step.misses.push_back(static_cast<StepMiss>(*miss));
    }
  } else {
    reader.fail(name + ".misses: expected an array");
  }
  step.failed = std::find(step.misses.begin(), step.misses.end(), StepMiss::failed) !=
                step.misses.end();
  if (const JsonValue* verdicts = node.find("verdicts"); verdicts != nullptr && verdicts->is_array()) {
    for (const JsonValue& code : verdicts->items) {
      // A code this version does not know (a newer writer's) decides nothing here.
      if (const auto known = verdict_code_from_name(code.is_string() ? code.text : "")) {
        step.verdict_codes.push_back(*known);
      }
    }
  } else {
    reader.fail(name + ".verdicts: expected an array");
  }
  step.control_per_second = reader.number_or_null(&node, name, {"control_per_second"}, -1);
  step.interrupted = reader.boolean(&node, name, {"interrupted"});
  if (const JsonValue* error = node.find("error"); error != nullptr && !error->is_null()) {
    if (!error->is_string()) reader.fail(name + ".error: expected a string or null");
    step.start_error = error->text;
  }
  step.runs = static_cast<int>(reader.integer(&node, name, {"runs"}));
  step.noisy = reader.boolean(&node, name, {"noisy"});
  if (const JsonValue* p99s = node.find("run_p99_ns"); p99s != nullptr && p99s->is_array()) {
    for (const JsonValue& p99 : p99s->items) {
      step.run_p99_ns.push_back(p99.is_null() ? -1 : p99.as_int().value_or(-1));
    }
  } else {
    reader.fail(name + ".run_p99_ns: expected an array");
  }
  const JsonValue* stall = node.find("host_stall_ns");
  step.host_measured = stall != nullptr && !stall->is_null();
  if (step.host_measured) step.host_stall_ns = reader.integer(&node, name, {"host_stall_ns"});
  return step;
}

std::vector<StepSummary> read_steps(DocumentReader& reader, const JsonValue* steps,
                                    const std::string& name, const Config& config) {
  std::vector<StepSummary> out;
  if (steps == nullptr || !steps->is_array()) {
    reader.fail(name + ": expected an array");
    return out;
  }
  for (size_t i = 0; i < steps->items.size() && !reader.failed(); ++i) {
    out.push_back(read_step(reader, steps->items[i], name + "[" + std::to_string(i) + "]", config));
  }
  return out;
}

// The planned levels, the search's range and the --control URL, which the text header names.
void read_plan(DocumentReader& reader, const JsonValue* sweep, SweepResult& result,
               Config& config) {
  if (result.search) {
    config.sweep.search_low = reader.number(sweep, "sweep", {"range", "low"});
    config.sweep.search_high = reader.number(sweep, "sweep", {"range", "high"});
    return;
  }
  const JsonValue* levels = sweep->find("levels");
  if (levels == nullptr || !levels->is_array()) {
    reader.fail("sweep.levels: expected an array");
    return;
  }
  for (const JsonValue& level : levels->items) {
    const std::optional<double> value = level.as_double();
    if (!value) {
      reader.fail("sweep.levels: expected an array of numbers");
      return;
    }
    if (result.kind == SweepKind::connections) {
      config.sweep.connections.push_back(std::llround(*value));
    } else {
      config.sweep.rates.push_back(*value);
    }
  }
}

// The readings the sweep stored. Their indices are the places of their levels in the curve.
void read_readings(DocumentReader& reader, const JsonValue* sweep, SweepResult& result) {
  const std::vector<CurvePoint> curve = curve_of(result.steps);
  const auto index_of = [&](double level) {
    for (size_t i = 0; i < curve.size(); ++i) {
      if (curve[i].level == level) return i;
    }
    return size_t{0};
  };
  if (const JsonValue* knee = sweep->find("knee"); knee != nullptr && !knee->is_null()) {
    KneeReading reading;
    reading.level = reader.number(knee, "sweep.knee", {"level"});
    reading.index = index_of(reading.level);
    reading.per_second = reader.number(knee, "sweep.knee", {"per_second"});
    reading.best_after_per_second = reader.number(knee, "sweep.knee", {"best_after_per_second"});
    reading.mean_latency_ns = reader.number(knee, "sweep.knee", {"mean_latency_ns"});
    reading.last_level = reader.number(knee, "sweep.knee", {"last_level"});
    reading.last_mean_latency_ns = reader.number(knee, "sweep.knee", {"last_mean_latency_ns"});
    result.knee = reading;
  }
  if (const JsonValue* collapse = sweep->find("collapse");
      collapse != nullptr && !collapse->is_null()) {
    CollapseReading reading;
    reading.held_level = reader.number(collapse, "sweep.collapse", {"held_level"});
    reading.held_per_second = reader.number(collapse, "sweep.collapse", {"held_per_second"});
    reading.fell_level = reader.number(collapse, "sweep.collapse", {"fell_level"});
    reading.fell_per_second = reader.number(collapse, "sweep.collapse", {"fell_per_second"});
    reading.held_index = index_of(reading.held_level);
    reading.fell_index = index_of(reading.fell_level);
    result.collapse = reading;
  }
  if (const JsonValue* capacity = sweep->find("capacity");
      capacity != nullptr && !capacity->is_null()) {
    CapacityReading reading;
    reading.found = reader.boolean(capacity, "sweep.capacity", {"found"});
    reading.rate = reader.number_or_null(capacity, "sweep.capacity", {"level"}, 0);
    reading.first_failing =
        reader.number_or_null(capacity, "sweep.capacity", {"first_failing_level"}, 0);
    reading.whole_range = reader.boolean(capacity, "sweep.capacity", {"whole_range"});
    reading.out_of_steps = reader.boolean(capacity, "sweep.capacity", {"out_of_steps"});
    reading.steps = static_cast<int>(reader.integer(capacity, "sweep.capacity", {"steps"}));
    result.capacity = reading;
  }
  const JsonValue* noise = sweep->find("noise");
  result.knee_noise = read_noise(reader, noise, "knee");
  result.collapse_noise = read_noise(reader, noise, "collapse");
  result.capacity_noise = read_noise(reader, noise, "capacity");
}

}  // namespace

Expected<SweepDocument, std::string> read_sweep_document(const JsonValue& root) {
  DocumentReader reader(root);
  if (const std::string problem = unreadable_header(reader); !problem.empty()) {
    return unexpected(problem);
  }
  const JsonValue* sweep = root.find("sweep");
  if (sweep == nullptr || !sweep->is_object()) {
    return unexpected(std::string("a single run's document, not a sweep"));
  }
  SweepDocument document;
  document.version = reader.text({"hammer", "version"});
  Config& config = document.config;
  read_config_section(reader, config);
  config.slos = read_slo_limits(reader);
  SweepResult& result = document.result;
  const std::string kind = reader.text({"sweep", "kind"});
  if (!reader.failed() && kind != "connections" && kind != "rate") {
    reader.fail("sweep.kind: expected \"connections\" or \"rate\", got \"" + kind + "\"");
  }
  result.kind = kind == "rate" ? SweepKind::rate : SweepKind::connections;
  result.search = reader.boolean(sweep, "sweep", {"search"});
  read_plan(reader, sweep, result, config);
  result.steps = read_steps(reader, sweep->find("steps"), "sweep.steps", config);
  if (const JsonValue* control = sweep->find("control"); control != nullptr && !control->is_null()) {
    const JsonValue* url = control->find("url");
    if (url == nullptr || !url->is_string()) reader.fail("sweep.control.url: expected a string");
    config.sweep.control_url = url && url->is_string() ? url->text : "";
    result.control_steps = read_steps(reader, control->find("steps"), "sweep.control.steps", config);
  }
  if (reader.failed()) return unexpected(reader.error());
  read_readings(reader, sweep, result);
  result.interrupted = reader.boolean(sweep, "sweep", {"interrupted"});
  if (const JsonValue* stopped = sweep->find("stopped"); stopped != nullptr && !stopped->is_null()) {
    if (!stopped->is_string()) reader.fail("sweep.stopped: expected a string or null");
    result.stopped = stopped->text;
  }
  if (reader.failed()) return unexpected(reader.error());
  return document;
}

}  // namespace hammer
