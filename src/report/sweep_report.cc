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
#include "report/sweep_noise_text.h"
#include "report/sweep_parts.h"
#include "report/verdict_text.h"
#include "sweep/generator_readings.h"

#ifndef HAMMER_VERSION
#define HAMMER_VERSION "unknown"
#endif

namespace hammer {
namespace {

using namespace sweep_parts;

constexpr size_t kColumn = 11;

std::string cell(const std::string& text, size_t width = kColumn) {
  return right_cell(text, width);
}

std::string percent(double share) { return format_fixed(share * 100, 1) + "%"; }
// A threshold share as the sentences name it: 0.05 is "5%".
std::string percent_text(double share) { return format_number(share * 100) + "%"; }

std::string levels_list(const std::vector<double>& levels) {
  std::string text;
  for (const double level : levels) {
    if (!text.empty()) text += ", ";
    text += format_number(level);
  }
  return text;
}

// "1 usable core", "2 usable cores".
std::string usable_cores_text(int64_t cores) {
  return std::to_string(cores) + (cores == 1 ? " usable core" : " usable cores");
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

// Why a step that ran is not a point of the curve (StepSummary::on_curve); "" when it is one.
std::string left_out_text(const StepSummary& step) {
  if (!step.start_error.empty() || step.interrupted) return "";  // said on the row already
  if (step.server_stopped()) return "the server stopped answering";
  if (!step.failed) return "";
  if (step.completed == 0) return "no response";
  const bool mostly_non_2xx =
      std::find(step.verdict_codes.begin(), step.verdict_codes.end(),
                VerdictCode::mostly_non_2xx) != step.verdict_codes.end();
  return mostly_non_2xx ? "failed: mostly answers other than 2xx/3xx"
                        : "failed: more failed requests than answers";
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
  out += "\n" + sweep_budget_line(config);
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
  std::string out = cell(level_cell_text(step), 8) + cell(format_rate(step.per_second));
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
  if (const std::string why = left_out_text(step); !why.empty()) out += "  " + why;
  out += runs_text(step) + "\n";
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

// The knee, or why there is none.
std::string knee_sentence(const Config& config, const SweepResult& result) {
  std::string text;
  const StepSummary* knee_step = nullptr;
  const StepSummary* below_knee = nullptr;  // the highest level under the knee on the curve
  if (result.knee) {
    for (const StepSummary& step : result.steps) {
      if (!step.on_curve()) continue;
      if (step.level == result.knee->level) knee_step = &step;
      if (step.level < result.knee->level && (!below_knee || step.level > below_knee->level)) {
        below_knee = &step;
      }
    }
  }
  // In a rate sweep, a knee at a level that already fell short of its rate is past the
  // server's limit: the limit lies below it (a server topping out at 975 req/s read "stops
  // rising after 1200 req/s", 95% of that level late).
  const bool knee_past_limit =
      knee_step != nullptr && result.kind == SweepKind::rate &&
      (knee_step->server_late_share() >= kMaxServerLateShare ||
       std::find(knee_step->verdict_codes.begin(), knee_step->verdict_codes.end(),
                 VerdictCode::over_capacity) != knee_step->verdict_codes.end());
  if (knee_past_limit) {
    const KneeReading& knee = *result.knee;
    text += "Knee: the server saturates " +
            (below_knee ? "between " + level_text(config, below_knee->level) + " and "
                        : std::string("below ")) +
            level_text(config, knee.level) + ": at most " +
            format_fixed(std::max(knee.per_second, knee.best_after_per_second), 0) +
            " req/s completed, where " + level_text(config, knee.level) + " was offered (" +
            percent(knee_step->server_late_share()) +
            " late for the server), while mean latency grows from " +
            format_duration_ns(std::llround(knee.mean_latency_ns)) + " to " +
            format_duration_ns(std::llround(knee.last_mean_latency_ns)) + " at " +
            level_text(config, knee.last_level) + "; add levels below " +
            level_text(config, knee.level) + " to place it.\n";
  } else if (result.knee) {
    const KneeReading& knee = *result.knee;
    const double change = knee.per_second > 0
                              ? (knee.best_after_per_second / knee.per_second - 1) * 100
                              : 0;
    text += "Knee: throughput stops rising after " + level_text(config, knee.level) + ": " +
           format_fixed(knee.per_second, 0) + " req/s there, at most " +
           format_fixed(knee.best_after_per_second, 0) + " req/s beyond (" +
           (change >= 0 ? "+" : "") + format_fixed(change, 1) + "%), while mean latency grows from " +
           format_duration_ns(std::llround(knee.mean_latency_ns)) + " to " +
           format_duration_ns(std::llround(knee.last_mean_latency_ns)) + " at " +
           level_text(config, knee.last_level) + ".\n";
  } else if (std::none_of(result.steps.begin(), result.steps.end(),
                          [](const StepSummary& step) { return step.completed > 0; })) {
    text += "Knee: none: no level got a response, so there is no throughput curve to read.\n";
  } else if (std::count_if(result.steps.begin(), result.steps.end(),
                           [](const StepSummary& step) { return step.on_curve(); }) < 2) {
    text += "Knee: not read: fewer than two levels ran whole, so there is no curve to read.\n";
  } else if (const StepSummary* short_step = first_level_short_of_its_rate(result)) {
    // A rate sweep keeps rising until the offered rate passes what the server holds: the
    // level that fell short is the server's limit, though no flat step after it made a knee.
    const StepSummary* below = nullptr;
    for (const StepSummary& step : result.steps) {
      if (step.level < short_step->level && (!below || step.level > below->level)) below = &step;
    }
    text += "Knee: none read between the levels, but " + level_text(config, short_step->level) +
           " completed only " + format_fixed(short_step->per_second, 0) +
           " req/s (over capacity): the server's limit lies " +
           (below ? "between " + level_text(config, below->level) + " and "
                  : std::string("below ")) +
           level_text(config, short_step->level) + "; add levels there to find the knee.\n";
  } else {
    text += "Knee: none in this range: throughput was still rising (or latency flat) up to " +
           level_text(config, result.steps.back().level) + ".\n";
  }
  return text;
}

}  // namespace

// The levels left out of the knee and collapse (StepSummary::on_curve), and why; "" when
// every level that ran is on the curve.
std::string left_out_note(const Config& config, const SweepResult& result) {
  std::string list;
  for (const StepSummary& step : result.steps) {
    if (step.on_curve() || !step.start_error.empty()) continue;
    const std::string why = step.interrupted ? "interrupted" : left_out_text(step);
    list += (list.empty() ? "" : ", ") + level_text(config, step.level) + " (" + why + ")";
  }
  if (list.empty()) return "";
  return "note: the knee and collapse are read from the levels that ran whole; left out: " +
         list + "\n";
}

std::string render_sweep_summary(const Config& config, const SweepResult& result) {
  std::string out = noise_legend(config, result);
  // The mean column is the answered requests'; Little's law counts a timed-out one as
  // holding its connection for --timeout too, so the two columns do not multiply out then.
  if (littles_law_applies(config) &&
      std::any_of(result.steps.begin(), result.steps.end(),
                  [](const StepSummary& step) { return step.tail.timed_out > 0; })) {
    out += "note: rps*mean counts each timed-out request as holding its connection for "
           "--timeout " + format_duration_ns(config.timeout_ns) +
           "; the mean column is the answered requests'\n";
  }
  const bool connections = result.kind == SweepKind::connections;
  if (!result.search) out += left_out_note(config, result);
  if (!result.search && result.steps.size() >= 2) {
    const std::vector<double> deciding =
        result.knee ? knee_levels(result.steps, *result.knee) : std::vector<double>{};
    out += with_noise(config, result, "Knee", knee_sentence(config, result), result.knee_noise,
                      deciding);
    if (result.collapse) {
      const CollapseReading& collapse = *result.collapse;
      const std::string text = "Collapse: throughput fell as load rose, from " +
             format_fixed(collapse.held_per_second, 0) + " req/s at " +
             level_text(config, collapse.held_level) + " (the last level that held) to " +
             format_fixed(collapse.fell_per_second, 0) + " req/s at " +
             level_text(config, collapse.fell_level) + " (" +
             format_fixed((collapse.fell_per_second / collapse.held_per_second - 1) * 100, 1) + "%).\n";
      out += with_noise(config, result, "Collapse", text, result.collapse_noise,
                        collapse_levels(collapse));
    }
  }

  if (result.capacity) {
    const CapacityReading& capacity = *result.capacity;
    const StepSummary* failing = nullptr;
    for (const StepSummary& step : result.steps) {
      if (step.level == capacity.first_failing && !step.meets()) failing = &step;
    }
    const std::string what = result.search ? "rate" : "level";
    std::string text;
    if (result.steps.empty()) {
      // Ctrl-C before the first step ran: nothing was measured, so nothing was missed either.
      text += "Capacity: not read: the " + std::string(result.search ? "search" : "sweep") +
             " was interrupted before its first step.\n";
    } else if (!capacity.found) {
      text += "Capacity: no " + what + " met every SLO (" + limits_text(config) + ")";
      if (failing) {
        text += "; even " + level_text(config, failing->level) + " missed: " +
               misses_text(*failing);
      }
      text += ".\n";
    } else if (capacity.out_of_steps) {
      // Every rate tried met the limits and the search ran out of steps below the top of the
      // range: the capacity is somewhere above, and the figure is only a lower bound.
      text += "Capacity: at least " + level_text(config, capacity.rate) + ": every rate tried met " +
             "every SLO (" + limits_text(config) + "), but the search ran out of its " +
             std::to_string(capacity.steps) + " steps before any rate missed, below the top of " +
             "the range (" + level_text(config, config.sweep.search_high) +
             "); search above it: --rate " + format_number(capacity.rate) + ":" +
             format_number(config.sweep.search_high) + ".\n";
    } else if (!capacity.whole_range && !failing && capacity.first_failing == 0 &&
               (result.interrupted || !result.stopped.empty())) {
      // Cut short (Ctrl-C, or a step that could not start) before any level missed: the
      // highest level that met is a lower bound, not the capacity.
      text += "Capacity: at least " + level_text(config, capacity.rate) + ": every " + what +
             " tried met every SLO (" + limits_text(config) + "), but the " +
             (result.search ? "search" : "sweep") + " was " +
             (result.interrupted ? "interrupted" : "stopped") + " before any " + what +
             " missed.\n";
    } else {
      text += "Capacity: " + level_text(config, capacity.rate) + " is the highest " + what +
             " tried that met every SLO (" + limits_text(config) + ")";
      if (!connections) {
        text += " with under " + percent_text(kMaxServerLateShare) +
                " of requests late for the server";
      }
      if (capacity.whole_range) {
        text += "; that is the top of the range: raise it to find the limit.\n";
      } else if (failing) {
        text += "; " + level_text(config, failing->level) + " missed: " + misses_text(*failing) +
               ".\n";
      } else {
        text += ".\n";
      }
    }
    out += with_noise(config, result, "Capacity", text, result.capacity_noise,
                      capacity_levels(result.steps, capacity));
  }

  if (const std::optional<ControlReading> control = read_control(result)) {
    const StepSummary& best_control = result.control_steps[control->best_control];
    out += "Generator control: " + config.sweep.control_url + " drove " +
           format_fixed(control->control_best, 0) + " req/s at " +
           std::to_string(best_control.connections) +
           (best_control.connections == 1 ? " connection, " : " connections, ") +
           format_fixed(control->ratio, 1) + "x the best of the sweep (" +
           format_fixed(control->sweep_best, 0) + " req/s): ";
    switch (control->verdict) {
      case ControlVerdict::too_little_headroom:
        out += "too little headroom to rule the generator out as the limit.\n";
        break;
      case ControlVerdict::plateau_is_servers:
        out += "the plateau is the server's, not hammer's.\n";
        break;
      case ControlVerdict::room_to_spare:
        out += "hammer had room to spare, and no level reached a plateau.\n";
        break;
    }
  }

  const GeneratorReading generator = read_generator(result);
  for (const size_t index : generator.busy) {
    const StepSummary& step = result.steps[index];
    out += "warning: hammer used " + format_fixed(step.cpu_cores, 2) + " of " +
           usable_cores_text(step.usable_cores) + " at " + level_text(config, step.level) +
           " (over " + percent_text(kGeneratorBusyShare) +
           "): the figures there may describe the generator; check with --control URL" +
           (step.threads_below_cpus ? " or add --threads" : "") + "\n";
  }
  if (generator.saturated.requests > 0) {
    out += "warning: hammer itself sent " + std::to_string(generator.saturated.requests) +
           " requests late with a connection idle (at " +
           (generator.saturated.levels.size() == 1 ? "level " : "levels ") +
           levels_list(generator.saturated.levels) +
           "); the latencies there include its own delay: a loaded machine" +
           (generator.saturated.threads_can_grow ? ", or too few --threads" : "") + "\n";
  }
  // The same rule as one run's: lateness that moves no reported percentile is only noted.
  if (generator.late.requests > 0) {
    out += "note: hammer itself sent " + std::to_string(generator.late.requests) +
           " requests late with a connection idle (at " + levels_list(generator.late.levels) +
           "), too few or too little to move a reported percentile by a tenth\n";
  }
  if (generator.busy.empty() && generator.busiest) {
    const StepSummary& busiest = result.steps[*generator.busiest];
    // The busiest by its share of the cores it could use, which the cpu column (cores used)
    // does not show: "at most 0.37" read as wrong beside a 0.39 at a level with 2 usable
    // cores (a new user's trial).
    out += "Generator CPU: its busiest step used " + format_fixed(busiest.cpu_cores, 2) + " of " +
           usable_cores_text(busiest.usable_cores) + " (at " + level_text(config, busiest.level) +
           "), the most of any step's share, below the " + percent_text(kGeneratorBusyShare) +
           " that would make it suspect.\n";
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

}  // namespace hammer
