// SPDX-License-Identifier: MIT
// A sweep reads as a table, one row per step, then sentences with the figures: where the knee
// is, whether throughput collapsed, the capacity under the SLOs, and the evidence that the
// generator was not the limit (--control's ratio, or hammer's own CPU per step). Rows use the
// same figures as a single run's report: latency from the stopwatch the run leads with
// (corrected in open loop), throughput as completed / measured wall time.
#include "report/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "report/format.h"
#include "report/json_report.h"
#include "report/slo_report.h"
#include "report/verdict_text.h"

#ifndef HAMMER_VERSION
#define HAMMER_VERSION "unknown"
#endif

namespace hammer {
namespace {

constexpr size_t kColumn = 11;

// One table cell: right-aligned in `width`, and a space before a figure that fills it, so
// neighbouring cells never run together.
std::string cell(const std::string& text, size_t width = kColumn) {
  return text.size() >= width ? " " + text : pad_left(text, width);
}

std::string percent(double share) { return format_fixed(share * 100, 1) + "%"; }

bool connection_sweep(const Config& config) { return !config.sweep.connections.empty(); }

/// Little's law applies to a closed loop: every connection always has a request in flight
/// (with -p N, N of them).
bool littles_law_applies(const Config& config) {
  return connection_sweep(config) && !config.open_loop();
}

/// What req/s x mean latency must give back: every connection holds -p requests in flight.
double littles_law_expected(const Config& config, const StepSummary& step) {
  return static_cast<double>(step.connections) *
         static_cast<double>(std::max<int64_t>(config.pipeline, 1));
}

bool judged(const Config& config) { return !config.slos.empty(); }

// "1 usable core", "2 usable cores".
std::string usable_cores_text(int64_t cores) {
  return std::to_string(cores) + (cores == 1 ? " usable core" : " usable cores");
}

std::string level_text(const Config& config, double level) {
  if (connection_sweep(config)) {
    const auto count = static_cast<int64_t>(level);
    return std::to_string(count) + (count == 1 ? " connection" : " connections");
  }
  return format_number(level) + " req/s";
}

// A signal ended the sweep: which step it cut, if one was running, and how much of it ran (the
// row above covers only that part).
std::string interrupted_note(const Config& config, const SweepResult& result) {
  std::string text = "interrupted (Ctrl-C or SIGTERM)";
  for (const StepSummary& step : result.steps) {
    if (!step.interrupted) continue;
    text += " during the step at " + level_text(config, step.level) + ", which ran " +
            format_duration_ns(step.elapsed_ns) + " of " + format_duration_ns(config.duration_ns);
    break;
  }
  return text + "; later steps were not run";
}

std::string limits_text(const Config& config) {
  std::string text;
  for (const SloLimit& limit : config.slos) {
    if (!text.empty()) text += ", ";
    text += limit_text(limit);
  }
  return text;
}

/// Why a step did not count: "p99 41.20ms > 30.00ms, 12.3% late for the server".
std::string misses_text(const StepSummary& step) {
  std::string text;
  auto add = [&](const std::string& part) {
    if (!text.empty()) text += ", ";
    text += part;
  };
  for (const StepMiss miss : step.misses) {
    switch (miss) {
      case StepMiss::failed:
        add("run failed");
        break;
      case StepMiss::slo:
        for (const SloOutcome& outcome : step.slo) {
          if (outcome.pass) continue;
          if (outcome.censored) {
            add(outcome.limit.key + " " + slo_measured_text(outcome) +
                (outcome.unjudged ? ", limit " + limit_figure(outcome.limit) + " not judged"
                                  : " > " + limit_figure(outcome.limit)));
            break;
          }
          add(outcome.has_measured
                  ? outcome.limit.key + " " + slo_figure(outcome.limit, outcome.measured) +
                        " > " + limit_figure(outcome.limit)
                  : outcome.limit.key + " unmeasured (no response)");
        }
        break;
      case StepMiss::server_late:
        add(percent(step.server_late_share()) + " late for the server");
        break;
      case StepMiss::unsent:
        add(std::to_string(step.unsent) + " never sent");
        break;
    }
  }
  return text;
}

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
  json.key("dispatch_lag");
  if (step.rate > 0) {
    json.begin_object();
    json.member("dispatched", step.dispatched);
    json.member("behind_schedule", step.behind_schedule);
    json.member("behind_server", step.behind_server);
    json.member("behind_generator", step.behind_generator);
    json.member("behind_share", step.behind_share());
    json.member("server_share", step.server_late_share());
    json.end_object();
  } else {
    json.null();
  }
  json.key("littles_law");
  if (littles_law_applies(config) && step.has_latency) {
    const double in_flight = step.in_flight();
    json.begin_object();
    json.member("in_flight", in_flight);
    json.member("deviation_pct",
                littles_law_deviation_pct(in_flight, littles_law_expected(config, step)));
    json.end_object();
  } else {
    json.null();
  }
  json.key("generator_cpu").begin_object();
  json.member_or_null("cores", step.cpu_cores >= 0, step.cpu_cores);
  json.member("usable_cores", step.usable_cores);
  json.member("busy", step.generator_busy);
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
  json.end_object();
}

const StepSummary* busiest_step(const SweepResult& result) {
  const StepSummary* busiest = nullptr;
  for (const StepSummary& step : result.steps) {
    if (step.cpu_cores < 0) continue;
    const double share = step.cpu_cores / static_cast<double>(step.usable_cores);
    if (!busiest || share > busiest->cpu_cores / static_cast<double>(busiest->usable_cores)) {
      busiest = &step;
    }
  }
  return busiest;
}

}  // namespace

std::string render_sweep_header(const Config& config) {
  std::string out = "Sweep @ " + config.url + ": ";
  if (connection_sweep(config)) {
    out += "connections ";
    for (size_t i = 0; i < config.sweep.connections.size(); ++i) {
      if (i > 0) out += ",";
      out += std::to_string(config.sweep.connections[i]);
    }
    out += config.open_loop() ? ", open loop @ " + format_number(config.rate) + " req/s"
                              : ", closed loop";
  } else if (config.sweep.search()) {
    out += "capacity search over " + format_number(config.sweep.search_low) + " to " +
           format_number(config.sweep.search_high) + " req/s (" + limits_text(config) + ")";
  } else {
    out += "rates ";
    for (size_t i = 0; i < config.sweep.rates.size(); ++i) {
      if (i > 0) out += ",";
      out += format_number(config.sweep.rates[i]);
    }
    out += " req/s, open loop";
  }
  out += "\n  " + format_duration_ns(config.duration_ns) + " per step";
  if (config.warmup_ns > 0) out += " after " + format_duration_ns(config.warmup_ns) + " of warm-up";
  if (!connection_sweep(config)) {
    out += ", " + std::to_string(config.connections) +
           (config.connections == 1 ? " connection" : " connections");
  }
  out += ", up to " + std::to_string(config.threads) +
         (config.threads == 1 ? " thread" : " threads") +
         (config.threads_held_to_cpus() ? " (the CPUs available)" : "") + "; latency ";
  out += config.corrected_stopwatch_leads() ? "corrected (from intended send)"
                                            : "uncorrected (from actual send)";
  out += "\n";
  out += cell(connection_sweep(config) ? "conns" : "rate", 8) + cell("req/s") +
         cell("p50") + cell("p99") + cell("mean") + cell("errors", 8);
  if (littles_law_applies(config)) {
    out += cell("rps*mean") + cell("vs conns", 10);
  } else {
    out += cell("late", 8) + cell("server", 8);
  }
  out += cell("cpu", 7);
  if (judged(config)) out += "  SLO";
  out += "\n";
  return out;
}

std::string render_control_header(const Config& config) {
  return "Control @ " + config.sweep.control_url +
         " (a route that does no work), closed loop, same connections:\n";
}

std::string render_sweep_row(const Config& config, const StepSummary& step, StepRole role) {
  if (!step.start_error.empty()) {
    return cell(format_number(step.level), 8) + "  failed: " + step.start_error + "\n";
  }
  std::string out = cell(format_number(step.level), 8) + cell(format_rate(step.per_second));
  auto latency = [&](int64_t ns, bool censored) {
    return step.has_latency ? tail_figure_text({ns, censored}) : "-";
  };
  out += cell(latency(step.p50_ns, step.tail.censors(50))) +
         cell(latency(step.p99_ns, step.tail.censors(99))) +
         cell(latency(std::llround(step.mean_ns), false));
  out += cell(std::to_string(step.errors + step.non_2xx_3xx), 8);
  if (littles_law_applies(config)) {
    if (step.has_latency && step.rate == 0) {
      const double in_flight = step.in_flight();
      const double deviation =
          littles_law_deviation_pct(in_flight, littles_law_expected(config, step));
      out += cell(format_fixed(in_flight, 2)) +
             cell((deviation >= 0 ? "+" : "") + format_fixed(deviation, 1) + "%", 10);
    } else {
      out += cell("-") + cell("-", 10);
    }
  } else if (step.rate > 0) {
    out += cell(percent(step.behind_share()), 8) + cell(percent(step.server_late_share()), 8);
  } else {
    out += cell("-", 8) + cell("-", 8);
  }
  out += cell(step.cpu_cores >= 0 ? format_fixed(step.cpu_cores, 2) + (step.generator_busy ? "!" : "")
                                      : "-",
                  7);
  if (judged(config) && role == StepRole::measured) {
    out += step.meets() ? "  met" : "  missed: " + misses_text(step);
  }
  // The step Ctrl-C cut: its figures cover only the part that ran.
  if (step.interrupted) out += "  interrupted after " + format_duration_ns(step.elapsed_ns);
  out += "\n";
  return out;
}

namespace {

// The lowest level of a rate sweep whose run found the server over capacity: the offered rate
// outran what the server held. (Too few connections is -c's limit, which its verdict names.)
const StepSummary* first_level_short_of_its_rate(const SweepResult& result) {
  if (result.kind != SweepKind::rate) return nullptr;
  const StepSummary* found = nullptr;
  for (const StepSummary& step : result.steps) {
    const bool short_of_rate =
        std::find(step.verdict_codes.begin(), step.verdict_codes.end(),
                  VerdictCode::over_capacity) != step.verdict_codes.end();
    if (short_of_rate && (!found || step.level < found->level)) found = &step;
  }
  return found;
}

}  // namespace

std::string render_sweep_summary(const Config& config, const SweepResult& result) {
  std::string out;
  const bool connections = result.kind == SweepKind::connections;
  if (!result.search && result.steps.size() >= 2) {
    if (result.knee) {
      const KneeReading& knee = *result.knee;
      const double change = knee.per_second > 0
                                ? (knee.best_after_per_second / knee.per_second - 1) * 100
                                : 0;
      out += "Knee: throughput stops rising after " + level_text(config, knee.level) + ": " +
             format_fixed(knee.per_second, 0) + " req/s there, at most " +
             format_fixed(knee.best_after_per_second, 0) + " req/s beyond (" +
             (change >= 0 ? "+" : "") + format_fixed(change, 1) + "%), while mean latency grows from " +
             format_duration_ns(std::llround(knee.mean_latency_ns)) + " to " +
             format_duration_ns(std::llround(knee.last_mean_latency_ns)) + " at " +
             level_text(config, knee.last_level) + ".\n";
    } else if (std::none_of(result.steps.begin(), result.steps.end(),
                            [](const StepSummary& step) { return step.completed > 0; })) {
      out += "Knee: none: no level got a response, so there is no throughput curve to read.\n";
    } else if (const StepSummary* short_step = first_level_short_of_its_rate(result)) {
      // A rate sweep keeps rising until the offered rate passes what the server holds: the
      // level that fell short is the server's limit, though no flat step after it made a knee.
      const StepSummary* below = nullptr;
      for (const StepSummary& step : result.steps) {
        if (step.level < short_step->level && (!below || step.level > below->level)) below = &step;
      }
      out += "Knee: none read between the levels, but " + level_text(config, short_step->level) +
             " sent only " + format_fixed(short_step->per_second, 0) +
             " req/s (over capacity): the server's limit lies " +
             (below ? "between " + level_text(config, below->level) + " and "
                    : std::string("below ")) +
             level_text(config, short_step->level) + "; add levels there to find the knee.\n";
    } else {
      out += "Knee: none in this range: throughput was still rising (or latency flat) up to " +
             level_text(config, result.steps.back().level) + ".\n";
    }
    if (result.collapse) {
      const CollapseReading& collapse = *result.collapse;
      out += "Collapse: throughput fell as load rose, from " +
             format_fixed(collapse.held_per_second, 0) + " req/s at " +
             level_text(config, collapse.held_level) + " (the last level that held) to " +
             format_fixed(collapse.fell_per_second, 0) + " req/s at " +
             level_text(config, collapse.fell_level) + " (" +
             format_fixed((collapse.fell_per_second / collapse.held_per_second - 1) * 100, 1) + "%).\n";
    }
  }

  if (result.capacity) {
    const CapacityReading& capacity = *result.capacity;
    const StepSummary* failing = nullptr;
    for (const StepSummary& step : result.steps) {
      if (step.level == capacity.first_failing && !step.meets()) failing = &step;
    }
    const std::string what = result.search ? "rate" : "level";
    if (result.steps.empty()) {
      // Ctrl-C before the first step ran: nothing was measured, so nothing was missed either.
      out += "Capacity: not read: the " + std::string(result.search ? "search" : "sweep") +
             " was interrupted before its first step.\n";
    } else if (!capacity.found) {
      out += "Capacity: no " + what + " met every SLO (" + limits_text(config) + ")";
      if (failing) {
        out += "; even " + level_text(config, failing->level) + " missed: " +
               misses_text(*failing);
      }
      out += ".\n";
    } else if (capacity.out_of_steps) {
      // Every rate tried met the limits and the search ran out of steps below the top of the
      // range: the capacity is somewhere above, and the figure is only a lower bound.
      out += "Capacity: at least " + level_text(config, capacity.rate) + ": every rate tried met " +
             "every SLO (" + limits_text(config) + "), but the search ran out of its " +
             std::to_string(capacity.steps) + " steps before any rate missed, below the top of " +
             "the range (" + level_text(config, config.sweep.search_high) +
             "); search above it: --rate " + format_number(capacity.rate) + ":" +
             format_number(config.sweep.search_high) + ".\n";
    } else if (!capacity.whole_range && !failing && capacity.first_failing == 0 &&
               (result.interrupted || !result.stopped.empty())) {
      // Cut short (Ctrl-C, or a step that could not start) before any level missed: the
      // highest level that met is a lower bound, not the capacity.
      out += "Capacity: at least " + level_text(config, capacity.rate) + ": every " + what +
             " tried met every SLO (" + limits_text(config) + "), but the " +
             (result.search ? "search" : "sweep") + " was " +
             (result.interrupted ? "interrupted" : "stopped") + " before any " + what +
             " missed.\n";
    } else {
      out += "Capacity: " + level_text(config, capacity.rate) + " is the highest " + what +
             " tried that met every SLO (" + limits_text(config) + ")";
      if (!connections) out += " with under 5% of requests late for the server";
      if (capacity.whole_range) {
        out += "; that is the top of the range: raise it to find the limit.\n";
      } else if (failing) {
        out += "; " + level_text(config, failing->level) + " missed: " + misses_text(*failing) +
               ".\n";
      } else {
        out += ".\n";
      }
    }
  }

  if (auto ratio = control_ratio(result)) {
    double control_best = 0;
    const StepSummary* best_control = nullptr;
    for (const StepSummary& step : result.control_steps) {
      if (step.per_second > control_best) {
        control_best = step.per_second;
        best_control = &step;
      }
    }
    double best = 0;
    for (const StepSummary& step : result.steps) best = std::max(best, step.per_second);
    out += "Generator control: " + config.sweep.control_url + " drove " + format_fixed(control_best, 0) +
           " req/s" +
           (best_control ? " at " + std::to_string(best_control->connections) + " connections"
                         : std::string()) +
           ", " + format_fixed(*ratio, 1) + "x the best of the sweep (" + format_fixed(best, 0) + " req/s): ";
    // A plateau is there only where throughput stopped rising or a level fell short; a sweep
    // that kept up everywhere has none to blame on anyone.
    const bool plateau =
        result.knee || result.collapse ||
        std::any_of(result.steps.begin(), result.steps.end(),
                    [](const StepSummary& step) { return !step.meets(); });
    if (*ratio < 2) {
      out += "too little headroom to rule the generator out as the limit.\n";
    } else if (plateau) {
      out += "the plateau is the server's, not hammer's.\n";
    } else {
      out += "hammer had room to spare, and no level reached a plateau.\n";
    }
  }

  int64_t busy = 0;
  for (const StepSummary& step : result.steps) {
    if (step.generator_busy) {
      ++busy;
      out += "warning: hammer used " + format_fixed(step.cpu_cores, 2) + " of " +
             usable_cores_text(step.usable_cores) + " at " +
             level_text(config, step.level) +
             " (over 80%): the figures there may describe the generator; check with --control "
             "URL" + (step.threads_below_cpus ? " or add --threads" : "") + "\n";
    }
  }
  std::string late_levels;
  int64_t late_total = 0;
  bool threads_can_grow = false;
  int64_t late_level_count = 0;
  for (const StepSummary& step : result.steps) {
    if (std::find(step.verdict_codes.begin(), step.verdict_codes.end(),
                  VerdictCode::generator_saturated) != step.verdict_codes.end()) {
      ++late_level_count;
      if (!late_levels.empty()) late_levels += ", ";
      late_levels += format_number(step.level);
      late_total += step.behind_generator;
      threads_can_grow = threads_can_grow || step.threads_below_cpus;
    }
  }
  if (late_total > 0) {
    out += "warning: hammer itself sent " + std::to_string(late_total) +
           " requests late with a connection idle (at " +
           (late_level_count == 1 ? "level " : "levels ") + late_levels +
           "); the latencies there include its own delay: a loaded machine" +
           (threads_can_grow ? ", or too few --threads" : "") + "\n";
  }
  // The same rule as one run's: lateness that moves no reported percentile is only noted.
  std::string noted_levels;
  int64_t noted_total = 0;
  for (const StepSummary& step : result.steps) {
    if (std::find(step.verdict_codes.begin(), step.verdict_codes.end(),
                  VerdictCode::generator_late) != step.verdict_codes.end()) {
      if (!noted_levels.empty()) noted_levels += ", ";
      noted_levels += format_number(step.level);
      noted_total += step.behind_generator;
    }
  }
  if (noted_total > 0) {
    out += "note: hammer itself sent " + std::to_string(noted_total) +
           " requests late with a connection idle (at " + noted_levels +
           "), too few or too little to move a reported percentile by a tenth\n";
  }
  if (busy == 0) {
    if (const StepSummary* busiest = busiest_step(result)) {
      out += "Generator CPU: at most " + format_fixed(busiest->cpu_cores, 2) + " of " +
             usable_cores_text(busiest->usable_cores) + " (at " +
             level_text(config, busiest->level) + "), below the 80% that would make it suspect.\n";
    }
  }
  if (result.interrupted) out += "note: " + interrupted_note(config, result) + "\n";
  if (!result.stopped.empty()) {
    out += "note: the sweep stopped: " + result.stopped +
           "; the steps above it are kept, later steps were not run\n";
  }
  return out;
}

std::string render_sweep_text(const Config& config, const SweepResult& result) {
  std::string out = render_sweep_header(config);
  for (const StepSummary& step : result.steps) out += render_sweep_row(config, step);
  if (!result.control_steps.empty()) {
    out += render_control_header(config);
    for (const StepSummary& step : result.control_steps) {
      out += render_sweep_row(config, step, StepRole::control);
    }
  }
  out += render_sweep_summary(config, result);
  return out;
}

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
  json.key("range");
  if (result.search) {
    json.begin_object();
    json.member("low", config.sweep.search_low);
    json.member("high", config.sweep.search_high);
    json.end_object();
  } else {
    json.null();
  }
  json.key("steps").begin_array();
  for (const StepSummary& step : result.steps) {
    write_step_json(config, step, StepRole::measured, json);
  }
  json.end_array();

  json.key("knee");
  if (result.knee) {
    json.begin_object();
    json.member("level", result.knee->level);
    json.member("per_second", result.knee->per_second);
    json.member("best_after_per_second", result.knee->best_after_per_second);
    json.member("mean_latency_ns", std::llround(result.knee->mean_latency_ns));
    json.member("last_level", result.knee->last_level);
    json.member("last_mean_latency_ns", std::llround(result.knee->last_mean_latency_ns));
    json.end_object();
  } else {
    json.null();
  }
  json.key("collapse");
  if (result.collapse) {
    json.begin_object();
    json.member("held_level", result.collapse->held_level);
    json.member("held_per_second", result.collapse->held_per_second);
    json.member("fell_level", result.collapse->fell_level);
    json.member("fell_per_second", result.collapse->fell_per_second);
    json.end_object();
  } else {
    json.null();
  }
  json.key("capacity");
  if (result.capacity) {
    json.begin_object();
    json.member("found", result.capacity->found);
    json.member_or_null("level", result.capacity->found, result.capacity->rate);
    json.member_or_null("first_failing_level", result.capacity->first_failing > 0,
                        result.capacity->first_failing);
    json.member("whole_range", result.capacity->whole_range);
    json.member("out_of_steps", result.capacity->out_of_steps);
    json.member("steps", result.capacity->steps);
    json.end_object();
  } else {
    json.null();
  }
  json.key("control");
  if (!result.control_steps.empty()) {
    json.begin_object();
    json.member("url", config.sweep.control_url);
    json.key("steps").begin_array();
    for (const StepSummary& step : result.control_steps) {
      write_step_json(config, step, StepRole::control, json);
    }
    json.end_array();
    if (auto ratio = control_ratio(result)) {
      json.member("ratio", *ratio);
    } else {
      json.null_member("ratio");
    }
    json.end_object();
  } else {
    json.null();
  }
  json.key("generator").begin_object();
  const StepSummary* busiest = busiest_step(result);
  if (busiest) {
    json.member("max_cpu_cores", busiest->cpu_cores);
  } else {
    json.null_member("max_cpu_cores");
  }
  json.key("busy_levels").begin_array();
  for (const StepSummary& step : result.steps) {
    if (step.generator_busy) json.value(step.level);
  }
  json.end_array();
  json.end_object();
  json.member("interrupted", result.interrupted);
  json.member_or_null("stopped", !result.stopped.empty(), result.stopped);
  // The sentences the text report ends with, one per line, so a page rendered later from the
  // document (hammer report) words the knee, the collapse, the capacity and the control as
  // the text report does, without a second wording.
  json.key("summary").begin_array();
  const std::string summary = render_sweep_summary(config, result);
  for (size_t start = 0, end = 0; start < summary.size(); start = end + 1) {
    end = summary.find('\n', start);
    if (end == std::string::npos) end = summary.size();
    if (end > start) json.value(std::string_view(summary).substr(start, end - start));
  }
  json.end_array();
  json.end_object();

  if (judged(config)) {
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
