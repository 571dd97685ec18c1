// SPDX-License-Identifier: MIT
// hammer: parse -> run -> merge -> report -> exit code (design.md §5). Only this file prints
// errors and chooses the exit status; everything below it returns what went wrong.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/completions.h"
#include "cli/man_page.h"
#include "cli/options.h"
#include "cli/stdout_writer.h"
#include "cli/progress_output.h"
#include "cli/usage.h"
#include "report/json_report.h"
#include "report/progress_json.h"
#include "report/sweep_report.h"
#include "report/text_report.h"
#include "run/run.h"
#include "run/verdicts.h"
#include "sweep/slo.h"
#include "sweep/sweep.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1;
constexpr int kExitRunFailed = 2;
constexpr int kExitSloMissed = 3;

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "hammer: %s\n", message.c_str());
  return code;
}

// The live progress line: rewritten in place once a second, only on a terminal (a log or a pipe
// gets nothing) and never with --json (one document, nothing else).
bool progress_wanted(const hammer::Config& config) {
  return !config.json && isatty(STDERR_FILENO) == 1;
}

void print_progress(const hammer::Progress& progress) {
  const bool warming = progress.elapsed_ns < progress.warmup_ns;
  std::fprintf(stderr, "\r\033[Khammer: %s%.0fs / %.0fs, %.0f req/s, %lld errors",
               warming ? "warm-up, " : "", static_cast<double>(progress.elapsed_ns) / 1e9,
               static_cast<double>(progress.total_ns) / 1e9, progress.per_second,
               static_cast<long long>(progress.errors));
  std::fflush(stderr);
}

void clear_progress() {
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

// A sweep: each step is a whole run; in text mode its row is printed as it finishes, in JSON
// one document at the end. Exit 2 when no step worked, 3 when --slo was given and no level
// met every limit.
int run_sweep_command(const hammer::Config& config, hammer::StdoutWriter& out) {
  using namespace hammer;
  ProgressOutput progress_output(config.progress_fd);
  StepPosition position;
  bool control_header_printed = false;
  // The table's header comes with the first step: a sweep refused before it (--control
  // unreachable) prints only its one-line error.
  bool header_printed = false;
  Config control_rows = config;
  control_rows.slos.clear();
  const auto on_step_start = [&](double level, bool control) {
    if (!config.json && !header_printed) {
      out.write(render_sweep_header(config));
      header_printed = true;
    }
    ++position.index;
    position.level = level;
    position.control = control;
  };
  const auto on_progress = [&](const Progress& progress) {
    progress_output.write_line(render_progress_line(progress, &position));
  };
  auto result = run_sweep(config, [&](const StepSummary& step, bool control) {
    progress_output.write_line(render_step_line(step, position));
    if (config.json) return;
    if (control && !control_header_printed) {
      out.write(render_control_header(config));
      control_header_printed = true;
    }
    out.write(render_sweep_row(control ? control_rows : config, step));
  }, on_step_start, config.progress_fd >= 0 ? ProgressFn(on_progress) : ProgressFn());
  if (!result) return fail(result.error().exit_code, result.error().message);
  const std::string report =
      config.json ? render_sweep_json(config, *result) : render_sweep_summary(config, *result);
  out.write(report);
  const bool any_worked = std::any_of(result->steps.begin(), result->steps.end(),
                                      [](const StepSummary& step) { return !step.failed; });
  // A sweep cut short by a step that could not start did not do its job, though what it
  // measured was printed.
  if (!any_worked || !result->stopped.empty()) return kExitRunFailed;
  if (!config.slos.empty() && !(result->capacity && result->capacity->found)) {
    return kExitSloMissed;
  }
  return kExitOk;
}

// Every exit after something was printed on stdout goes through here: the close is the last
// chance for a buffered write to fail, and a report that could not be written is exit 2.
int finish(hammer::StdoutWriter& out, int code) {
  if (!out.close()) return fail(kExitRunFailed, out.error());
  return code;
}

int run(const std::vector<std::string>& args, hammer::StdoutWriter& out) {
  using namespace hammer;
  auto parsed = parse_options(args);
  if (!parsed) return fail(kExitBadInput, parsed.error().message);
  if (parsed->command == Command::help) {
    out.write(usage_text());
    return kExitOk;
  }
  if (parsed->command == Command::generate) {
    const DocKind kind = parsed->generate;
    const std::string text = kind == DocKind::man    ? man_page()
                             : kind == DocKind::bash ? bash_completion()
                                                     : zsh_completion();
    out.write(text);
    return kExitOk;
  }
  if (parsed->command == Command::version) {
    out.write(std::string("hammer ") + HAMMER_VERSION + "\n");
    return kExitOk;
  }
  const Config& config = parsed->config;
  if (config.sweep.active()) return run_sweep_command(config, out);

  const bool progress = progress_wanted(config);
  ProgressOutput progress_output(config.progress_fd);
  // The terminal line changes once a second even when --progress-fd asks for every 100 ms.
  int64_t last_printed_s = -1;
  const auto on_progress = [&](const Progress& update) {
    progress_output.write_line(render_progress_line(update, nullptr));
    if (progress && update.elapsed_ns / 1'000'000'000 != last_printed_s) {
      last_printed_s = update.elapsed_ns / 1'000'000'000;
      print_progress(update);
    }
  };
  auto result = run_load(config, progress || config.progress_fd >= 0 ? ProgressFn(on_progress)
                                                                      : ProgressFn());
  if (progress) clear_progress();
  if (!result) return fail(result.error().exit_code, result.error().message);

  const std::vector<Verdict> verdicts = compute_verdicts(config, *result);
  const std::vector<SloOutcome> slo = evaluate_slos(config.slos, config, *result);
  const ReportInput input{config, *result, verdicts, {}, config.slos.empty() ? nullptr : &slo};
  std::string report = config.json ? render_json_report(input) : render_text_report(input);
  if (!config.json) report += render_slo_lines(slo);
  out.write(report);
  if (run_failed(*result)) return kExitRunFailed;
  return slos_pass(slo) ? kExitOk : kExitSloMissed;
}

}  // namespace

int main(int argc, char** argv) {
  hammer::StdoutWriter out(stdout);
  const int code = run(std::vector<std::string>(argv + 1, argv + argc), out);
  return finish(out, code);
}
