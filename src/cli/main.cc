// SPDX-License-Identifier: MIT
// hammer: parse -> run -> merge -> report -> exit code (design.md §5). Only this file prints
// errors and chooses the exit status; everything below it returns what went wrong.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/usage.h"
#include "report/json_report.h"
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
int run_sweep_command(const hammer::Config& config) {
  using namespace hammer;
  bool control_header_printed = false;
  if (!config.json) {
    std::fputs(render_sweep_header(config).c_str(), stdout);
    std::fflush(stdout);
  }
  Config control_rows = config;
  control_rows.slos.clear();
  auto result = run_sweep(config, [&](const StepSummary& step, bool control) {
    if (config.json) return;
    if (control && !control_header_printed) {
      std::fputs(render_control_header(config).c_str(), stdout);
      control_header_printed = true;
    }
    std::fputs(render_sweep_row(control ? control_rows : config, step).c_str(), stdout);
    std::fflush(stdout);
  });
  if (!result) return fail(result.error().exit_code, result.error().message);
  const std::string report =
      config.json ? render_sweep_json(config, *result) : render_sweep_summary(config, *result);
  std::fputs(report.c_str(), stdout);
  std::fflush(stdout);
  const bool any_worked = std::any_of(result->steps.begin(), result->steps.end(),
                                      [](const StepSummary& step) { return !step.failed; });
  if (!any_worked) return kExitRunFailed;
  if (!config.slos.empty() && !(result->capacity && result->capacity->found)) {
    return kExitSloMissed;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hammer;
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = parse_options(args);
  if (!parsed) return fail(kExitBadInput, parsed.error().message);
  if (parsed->command == Command::help) {
    std::fputs(usage_text().c_str(), stdout);
    return kExitOk;
  }
  if (parsed->command == Command::version) {
    std::printf("hammer %s\n", HAMMER_VERSION);
    return kExitOk;
  }
  const Config& config = parsed->config;
  if (config.sweep.active()) return run_sweep_command(config);

  const bool progress = progress_wanted(config);
  auto result = run_load(config, progress ? ProgressFn(print_progress) : ProgressFn());
  if (progress) clear_progress();
  if (!result) return fail(result.error().exit_code, result.error().message);

  const std::vector<Verdict> verdicts = compute_verdicts(config, *result);
  const std::vector<SloOutcome> slo = evaluate_slos(config.slos, config, *result);
  const ReportInput input{config, *result, verdicts, {}, config.slos.empty() ? nullptr : &slo};
  std::string report = config.json ? render_json_report(input) : render_text_report(input);
  if (!config.json) report += render_slo_lines(slo);
  std::fputs(report.c_str(), stdout);
  std::fflush(stdout);
  if (run_failed(*result)) return kExitRunFailed;
  return slos_pass(slo) ? kExitOk : kExitSloMissed;
}
