// SPDX-License-Identifier: MIT
// The sweep as one JSON document (docs/json.md, "Sweeps"): every step's figures, the readings,
// and the summary sentences the text report ends with.
#include <cmath>
#include <utility>

#include "report/format.h"
#include "report/json_report.h"
#include "report/slo_report.h"
#include "report/sweep_parts.h"
#include "report/sweep_report.h"
#include "report/verdict_text.h"
#include "sweep/generator_readings.h"

namespace hammer {
namespace {

using namespace sweep_parts;

void write_step_json(const Config& config, const StepSummary& step, StepRole role,
                     JsonWriter& json) {
  json.begin_object();
  json.member("level", step.level);
  json.member("connections", step.connections);
  json.member("threads", step.threads);
  json.member_or_null("rate", step.rate > 0, step.rate);
  json.member("elapsed_ns", step.elapsed_ns);
  json.key("requests").begin_object();
  json.member_or_null("scheduled", step.rate > 0, step.scheduled);
  json.member("completed", step.completed);
  json.member("unsent", step.unsent);
  json.member("per_second", step.per_second);
  json.end_object();

  json.key("latency_ns").begin_object();
  json.member("stopwatch", step.corrected ? "corrected" : "uncorrected");
  auto figure = [&](std::string_view name, int64_t value) {
    json.member_or_null(name, step.has_latency, value);
  };
  figure("50", step.p50_ns);
  figure("90", step.p90_ns);
  figure("95", step.p95_ns);
  figure("99", step.p99_ns);
  figure("99.9", step.p999_ns);
  figure("max", step.max_ns);
  figure("mean", std::llround(step.mean_ns));
  // The figures above that are the timeout, a bound: as a run's latency.*.censored.
  json.key("censored").begin_array();
  if (step.has_latency) {
    for (const auto& [label, q] : {std::pair<const char*, double>{"50", 50}, {"90", 90},
                                   {"95", 95}, {"99", 99}, {"99.9", 99.9}}) {
      if (step.tail.censors(q)) json.value(label);
    }
    if (step.tail.any()) json.value("max");
  }
  json.end_array();
  json.member("timed_out", step.tail.timed_out);
  json.end_object();

  json.member("errors", step.errors);
  json.member("non_2xx_3xx", step.non_2xx_3xx);
  json.object_or_null("dispatch_lag", step.rate > 0, [&] {
    json.member("dispatched", step.dispatched);
    json.member("behind_schedule", step.behind_schedule);
    json.member("behind_server", step.behind_server);
    json.member("behind_generator", step.behind_generator);
    json.member("behind_share", step.behind_share());
    json.member("server_share", step.server_late_share());
  });
  json.object_or_null("littles_law", littles_law_applies(config) && step.has_latency, [&] {
    const double in_flight = step.in_flight();
    json.member("in_flight", in_flight);
    json.member("deviation_pct",
                littles_law_deviation_pct(in_flight, littles_law_expected(config, step)));
  });
  json.key("generator_cpu").begin_object();
  json.member_or_null("cores", step.cpu_cores >= 0, step.cpu_cores);
  json.member("usable_cores", step.usable_cores);
  json.member("busy", step.generator_busy);
  // More --threads would have had cores to use: the busy warning's advice says so.
  json.member("threads_below_cpus", step.threads_below_cpus);
  json.end_object();
  if (judged(config) && role == StepRole::measured) write_slo_json(step.slo, json);
  json.member("meets", step.meets());
  json.key("misses").begin_array();
  for (const StepMiss miss : step.misses) json.value(step_miss_name(miss));
  json.end_array();
  json.key("verdicts").begin_array();
  for (VerdictCode code : step.verdict_codes) json.value(verdict_code_name(code));
  json.end_array();
  json.member_or_null("control_per_second", step.control_per_second >= 0,
                      step.control_per_second);
  json.member("interrupted", step.interrupted);
  json.member_or_null("error", !step.start_error.empty(), step.start_error);
  // The level over its runs (sweep/noise.h): the figures above are its reported run's.
  json.member("runs", step.runs);
  json.member("noisy", step.noisy);
  json.key("run_p99_ns").begin_array();
  for (int64_t p99_ns : step.run_p99_ns) {
    if (p99_ns >= 0) {
      json.value(p99_ns);
    } else {
      json.null();
    }
  }
  json.end_array();
  json.member_or_null("host_stall_ns", step.host_measured, step.host_stall_ns);
  json.end_object();
}

// How far the readings rest on noisy levels (sweep/noise.h): which levels stayed noisy, which
// were repeated, and each reading's standing (null where the reading is absent).
void write_noise_json(const SweepResult& result, JsonWriter& json) {
  json.key("noise").begin_object();
  json.member("max_repeats", kMaxRepeats);
  json.member("reproduce_factor", kReproduceFactor);
  json.key("noisy_levels").begin_array();
  for (const StepSummary& step : result.steps) {
    if (step.noisy) json.value(step.level);
  }
  json.end_array();
  json.key("repeated_levels").begin_array();
  for (const StepSummary& step : result.steps) {
    if (step.runs > 1) json.value(step.level);
  }
  json.end_array();
  json.member_or_null("knee", !result.search, reading_noise_name(result.knee_noise));
  json.member_or_null("collapse", result.collapse.has_value(),
                      reading_noise_name(result.collapse_noise));
  json.member_or_null("capacity", result.capacity.has_value(),
                      reading_noise_name(result.capacity_noise));
  json.end_object();
}

}  // namespace

std::string render_sweep_json(const Config& config, const SweepResult& result) {
  JsonWriter json(2);
  json.begin_object();
  write_document_header(config, json);

  json.key("sweep").begin_object();
  json.member("kind", result.kind == SweepKind::connections ? "connections" : "rate");
  json.member("search", result.search);
  json.key("levels");
  if (result.search) {
    json.null();
  } else {
    json.begin_array();
    if (result.kind == SweepKind::connections) {
      for (int64_t level : config.sweep.connections) json.value(level);
    } else {
      for (double level : config.sweep.rates) json.value(level);
    }
    json.end_array();
  }
  json.object_or_null("range", result.search, [&] {
    json.member("low", config.sweep.search_low);
    json.member("high", config.sweep.search_high);
  });
  json.member("max_runs", sweep_max_runs(config));
  json.member("max_duration_ns", sweep_max_duration_ns(config));
  json.key("steps").begin_array();
  for (const StepSummary& step : result.steps) {
    write_step_json(config, step, StepRole::measured, json);
  }
  json.end_array();
  write_noise_json(result, json);

  json.object_or_null("knee", result.knee.has_value(), [&] {
    json.member("level", result.knee->level);
    json.member("per_second", result.knee->per_second);
    json.member("best_after_per_second", result.knee->best_after_per_second);
    json.member("mean_latency_ns", std::llround(result.knee->mean_latency_ns));
    json.member("last_level", result.knee->last_level);
    json.member("last_mean_latency_ns", std::llround(result.knee->last_mean_latency_ns));
  });
  json.object_or_null("collapse", result.collapse.has_value(), [&] {
    json.member("held_level", result.collapse->held_level);
    json.member("held_per_second", result.collapse->held_per_second);
    json.member("fell_level", result.collapse->fell_level);
    json.member("fell_per_second", result.collapse->fell_per_second);
  });
  json.object_or_null("capacity", result.capacity.has_value(), [&] {
    json.member("found", result.capacity->found);
    json.member_or_null("level", result.capacity->found, result.capacity->rate);
    json.member_or_null("first_failing_level", result.capacity->first_failing > 0,
                        result.capacity->first_failing);
    json.member("whole_range", result.capacity->whole_range);
    json.member("out_of_steps", result.capacity->out_of_steps);
    json.member("steps", result.capacity->steps);
  });
  json.object_or_null("control", !result.control_steps.empty(), [&] {
    json.member("url", config.sweep.control_url);
    json.key("steps").begin_array();
    for (const StepSummary& step : result.control_steps) {
      write_step_json(config, step, StepRole::control, json);
    }
    json.end_array();
    const std::optional<ControlReading> reading = read_control(result);
    json.member_or_null("ratio", reading.has_value(), reading ? reading->ratio : 0.0);
  });
  json.key("generator").begin_object();
  const GeneratorReading generator = read_generator(result);
  json.member_or_null("max_cpu_cores", generator.busiest.has_value(),
                      generator.busiest ? result.steps[*generator.busiest].cpu_cores : 0.0);
  json.key("busy_levels").begin_array();
  for (const size_t index : generator.busy) json.value(result.steps[index].level);
  json.end_array();
  json.end_object();
  json.member("interrupted", result.interrupted);
  json.member_or_null("stopped", !result.stopped.empty(), result.stopped);
  // The sentences the text report ends with, one per line, so a page rendered later from the
  // document (hammer report) words the knee, the collapse, the capacity and the control as
  // the text report does, without a second wording.
  json.key("summary").begin_array();
  const std::string summary = render_sweep_summary(config, result);
  for (const std::string_view line : text_lines(summary)) json.value(line);
  json.end_array();
  json.end_object();

  if (judged(config)) {
    // The limits the sweep was judged by (each step's `slo` holds its outcomes), so the
    // document read back names them as the header did, steps or none.
    json.key("slo").begin_array();
    for (const SloLimit& limit : config.slos) {
      json.begin_object();
      write_slo_limit_members(limit, json);
      json.end_object();
    }
    json.end_array();
    json.member("slo_passed", result.capacity && result.capacity->found);
  }
  json.key("notes").begin_array();
  if (result.interrupted) json.value(interrupted_note(config, result));
  if (!result.stopped.empty()) {
    json.value("the sweep stopped: " + result.stopped +
               "; the steps before it are kept, later steps were not run");
  }
  json.end_array();
  json.end_object();
  return json.str() + "\n";
}

}  // namespace hammer
