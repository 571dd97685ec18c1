// SPDX-License-Identifier: MIT
// hammer: parse -> run -> merge -> report -> exit code (design.md §5). Only this file prints
// errors and chooses the exit status; everything below it returns what went wrong.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/usage.h"
#include "report/json_report.h"
#include "report/text_report.h"
#include "run/run.h"
#include "run/verdicts.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1;
constexpr int kExitRunFailed = 2;

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

  const bool progress = progress_wanted(config);
  auto result = run_load(config, progress ? ProgressFn(print_progress) : ProgressFn());
  if (progress) clear_progress();
  if (!result) return fail(result.error().exit_code, result.error().message);

  const std::vector<Verdict> verdicts = compute_verdicts(config, *result);
  const ReportInput input{config, *result, verdicts, {}};
  const std::string report = config.json ? render_json_report(input) : render_text_report(input);
  std::fputs(report.c_str(), stdout);
  std::fflush(stdout);
  return run_failed(*result) ? kExitRunFailed : kExitOk;
}
