// SPDX-License-Identifier: MIT
#include "report/progress_json.h"

#include "report/json_writer.h"

namespace hammer {
namespace {

void write_position(JsonWriter& json, const StepPosition& step) {
  json.key("step").begin_object();
  json.member("index", step.index).member("level", step.level).member("control", step.control);
  json.end_object();
}

}  // namespace

std::string render_progress_line(const Progress& progress, const StepPosition* step) {
  JsonWriter json;
  json.begin_object();
  json.member("type", "progress");
  if (step) write_position(json, *step);
  json.member("phase", progress.elapsed_ns < progress.ramp_ns      ? "ramp"
                       : progress.elapsed_ns < progress.warmup_ns ? "warmup"
                                                                  : "measured");
  json.member("elapsed_ns", progress.elapsed_ns).member("total_ns", progress.total_ns);
  json.member("completed", progress.completed).member("errors", progress.errors);
  json.member("per_second", progress.per_second);
  json.end_object();
  return json.str() + "\n";
}

std::string render_step_line(const StepSummary& step, const StepPosition& position) {
  JsonWriter json;
  json.begin_object();
  json.member("type", "step");
  write_position(json, position);
  json.member("completed", step.completed).member("errors", step.errors);
  json.member("per_second", step.per_second);
  json.member_or_null("p99_ns", step.has_latency, step.p99_ns);
  json.member("failed", step.failed).member("slo_passed", step.slo_passed);
  json.member("runs", step.runs).member("noisy", step.noisy);
  json.end_object();
  return json.str() + "\n";
}

}  // namespace hammer
