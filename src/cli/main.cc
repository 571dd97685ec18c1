// SPDX-License-Identifier: MIT
// hammer: parse -> run -> merge -> report -> exit code (design.md §5). Only this file prints
// errors and chooses the exit status; everything below it returns what went wrong.
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

  auto result = run_load(config);
  if (!result) return fail(result.error().exit_code, result.error().message);

  const std::vector<Verdict> verdicts = compute_verdicts(config, *result);
  const ReportInput input{config, *result, verdicts, {}};
  const std::string report = config.json ? render_json_report(input) : render_text_report(input);
  std::fputs(report.c_str(), stdout);
  std::fflush(stdout);
  return run_failed(*result) ? kExitRunFailed : kExitOk;
}
