// SPDX-License-Identifier: MIT
// hammer: parse -> run -> merge -> report -> exit code (design.md §5). Only this file prints
// errors and chooses the exit status; everything below it returns what went wrong.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cli/completions.h"
#include "cli/man_page.h"
#include "cli/compare_command.h"
#include "cli/merge_options.h"
#include "cli/metrics_listen.h"
#include "cli/report_command.h"
#include "cli/options.h"
#include "cli/stdout_writer.h"
#include "cli/progress_output.h"
#include "cli/usage.h"
#include "core/exit_code.h"
#include "core/shard_share.h"
#include "document/run_document.h"
#include "merge/interval_log_merge.h"
#include "merge/merge.h"
#include "report/fleet_report.h"
#include "report/interval_log_report.h"
#include "net/io_engine.h"
#include "platform/files.h"
#include "platform/system.h"
#include "report/json_report.h"
#include "report/progress_json.h"
#include "report/output_files.h"
#include "report/output_formats.h"
#include "report/slo_report.h"
#include "report/sweep_report.h"
#include "report/text_report.h"
#include "run/connection_transport.h"
#include "run/interrupt.h"
#include "run/run.h"
#include "run/wall_clock.h"
#include "run/verdicts.h"
#include "sweep/slo.h"
#include "sweep/sweep.h"

namespace {

using hammer::ExitCode;

ExitCode fail(ExitCode code, const std::string& message) {
  std::fprintf(stderr, "hammer: %s\n", message.c_str());
  return code;
}

// The live progress line: rewritten in place once a second, only on a terminal (a log or a pipe
// gets nothing) and never with --json (one document, nothing else).
bool progress_wanted(const hammer::Config& config) {
  return !config.json && hammer::stderr_is_terminal();
}

void print_progress(const hammer::Progress& progress) {
  const bool warming = progress.elapsed_ns < progress.warmup_ns;
  if (progress.requests_count > 0) {
    // -n in closed loop: no planned end time, the count is the end (answers, warm-up's too).
    std::fprintf(stderr,
                 "\r\033[Khammer: %s%.0fs, %lld answered of -n %lld, %.0f req/s, %lld errors",
                 warming ? "warm-up, " : "", static_cast<double>(progress.elapsed_ns) / 1e9,
                 static_cast<long long>(progress.completed),
                 static_cast<long long>(progress.requests_count), progress.per_second,
                 static_cast<long long>(progress.errors));
    std::fflush(stderr);
    return;
  }
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

// -o files, each written whatever became of the others; one line per file that could not be
// written. Returns false when any failed (the caller exits 2).
bool write_output_files(const std::vector<hammer::RenderedFile>& files) {
  const auto failures = hammer::write_files(files);
  for (const hammer::WriteFailure& failure : failures) {
    std::fprintf(stderr, "hammer: --output: cannot write '%s': %s\n", failure.path.c_str(),
                 failure.reason.c_str());
  }
  return failures.empty();
}

// A sweep: each step is a whole run; in text mode its row is printed as it finishes, in JSON
// one document at the end. Exit 2 when no step worked, 3 when --slo was given and no level
// met every limit.
ExitCode run_sweep_command(const hammer::Config& config, hammer::StdoutWriter& out) {
  using namespace hammer;
  ProgressOutput progress_output(config.progress_fd);
  StepPosition position;
  bool control_header_printed = false;
  // The table's header comes with the first step: a sweep refused before it (--control
  // unreachable) prints only its one-line error.
  bool header_printed = false;
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
    out.write(render_sweep_row(config, step, control ? StepRole::control : StepRole::measured));
  }, on_step_start, config.progress_fd >= 0 ? ProgressFn(on_progress) : ProgressFn());
  if (!result) return fail(result.error().exit_code, result.error().message);
  const std::string json =
      config.json || !config.outputs.empty() ? render_sweep_json(config, *result) : "";
  const std::string report = config.json ? json : render_sweep_summary(config, *result);
  out.write(report);
  const bool files_written = write_output_files(render_sweep_outputs(config, *result, json));
  const bool any_worked = std::any_of(result->steps.begin(), result->steps.end(),
                                      [](const StepSummary& step) { return !step.failed; });
  // A sweep cut short by a step that could not start did not do its job, though what it
  // measured was printed.
  if (!any_worked || !result->stopped.empty() || !files_written) return ExitCode::run_failed;
  if (!config.slos.empty() && !(result->capacity && result->capacity->found)) {
    return ExitCode::slo_missed;
  }
  return ExitCode::ok;
}

// Every exit after something was printed on stdout goes through here: the close is the last
// chance for a buffered write to fail, and a report that could not be written is exit 2.
ExitCode finish(hammer::StdoutWriter& out, ExitCode code) {
  if (!out.close()) return fail(ExitCode::run_failed, out.error());
  return code;
}

// hammer report: documents -> report/ (design.md §9): saved runs rendered as HTML.
ExitCode run_report_command(const std::vector<std::string>& args, hammer::StdoutWriter& out) {
  using namespace hammer;
  auto options = parse_report_options(args);
  if (!options) return fail(ExitCode::bad_input, options.error().message);
  if (options->help) {
    out.write(report_usage_text());
    return ExitCode::ok;
  }
  if (options->outputs.empty()) {
    auto text = render_saved_run_text(options->inputs.front());
    if (!text) return fail(ExitCode::bad_input, text.error());
    out.write(*text);
    return ExitCode::ok;
  }
  auto files = render_report_files(*options);
  if (!files) return fail(ExitCode::bad_input, files.error());
  return write_output_files(*files) ? ExitCode::ok : ExitCode::run_failed;
}

// hammer compare: two documents -> compare/ -> report/: B against A, beyond noise or not.
ExitCode run_compare_command(const std::vector<std::string>& args, hammer::StdoutWriter& out) {
  using namespace hammer;
  auto options = parse_compare_options(args);
  if (!options) return fail(ExitCode::bad_input, options.error().message);
  if (options->help) {
    out.write(compare_usage_text());
    return ExitCode::ok;
  }
  auto outcome = run_compare(*options);
  if (!outcome) return fail(ExitCode::bad_input, outcome.error());
  out.write(outcome->report);
  // As a run's -o: stdout is the same with or without the page; a page not written is exit 2.
  if (!write_output_files(outcome->files)) return ExitCode::run_failed;
  return outcome->failed ? ExitCode::slo_missed : ExitCode::ok;
}

// hammer merge: documents -> merge/ -> report/ (design.md §9).
ExitCode run_merge_command(const std::vector<std::string>& args, hammer::StdoutWriter& out) {
  using namespace hammer;
  auto options = parse_merge_options(args);
  if (!options) return fail(ExitCode::bad_input, options.error().message);
  if (options->help) {
    out.write(merge_usage_text());
    return ExitCode::ok;
  }
  if (options->interval_logs) {
    std::vector<IntervalLog> logs;
    for (const std::string& input : options->inputs) {
      auto log = load_interval_log(input);
      if (!log) return fail(ExitCode::bad_input, "merge: " + log.error());
      logs.push_back(std::move(*log));
    }
    const IntervalLog merged = merge_interval_logs(logs);
    const std::string text = write_interval_log(merged);
    ExitCode status = ExitCode::ok;
    for (const OutputFile& output : options->outputs) {
      if (auto error = write_file_atomically(output.path, text)) {
        status = fail(ExitCode::run_failed, "merge: cannot write " + output.path + ": " + *error);
      }
    }
    if (status == ExitCode::ok) {
      out.write("merged " + std::to_string(logs.size()) + " interval logs (" +
                std::to_string(merged.intervals.size()) + " intervals) into " +
                options->outputs.front().path + "\n");
    }
    return status;
  }
  std::vector<RunDocument> documents;
  for (const std::string& input : options->inputs) {
    auto document = load_run_document(input);
    if (!document) return fail(ExitCode::bad_input, "merge: " + document.error());
    documents.push_back(std::move(*document));
  }
  auto merged = merge_shards(documents, options->start_tolerance_ns);
  if (!merged) return fail(ExitCode::bad_input, merged.error().message);
  // The merged run's files, as a run writes its own -o files; an .hgrm's companion is known
  // once the merged mode is.
  merged->config.outputs = options->outputs;
  if (auto clash = check_hgrm_companions(merged->config)) {
    return fail(ExitCode::bad_input, "merge: " + clash->message);
  }
  // The shards ran on other machines, whose CPU counts are not known here (0).
  const std::vector<Verdict> verdicts =
      compute_verdicts(merged->config, merged->result, /*cpus=*/0);
  merged->config.slos = options->slos;
  // The fleet's gate reads the merged histograms, as a single run's reads its own.
  const std::vector<SloOutcome> slo = evaluate_slos(options->slos, merged->config, merged->result);
  ReportInput input{merged->config, merged->result, verdicts, {},
                    options->slos.empty() ? nullptr : &slo};
  input.fleet = &merged->fleet;
  if (merged->fleet.schedules_apart()) {
    std::fprintf(stderr, "hammer: merge: warning: %s\n",
                 schedules_apart_note(merged->fleet).c_str());
  }
  const std::string json = render_json_report(input);
  ExitCode status = ExitCode::ok;
  for (const RenderedFile& file : render_run_outputs(input, json)) {
    const std::optional<std::string> error =
        file.error.empty() ? write_file_atomically(file.path, file.contents) : file.error;
    if (error) status = fail(ExitCode::run_failed, "merge: cannot write " + file.path + ": " + *error);
  }
  std::string report =
      options->json ? json : render_fleet_table(merged->fleet) + render_text_report(input);
  if (!options->json) report += render_slo_lines(slo);
  out.write(report);
  // The fleet's run is judged as a single run is: one that did not do its job (its verdict
  // says "the run did not work") exits 2, whatever the merge itself did; then its SLOs.
  if (status == ExitCode::ok && run_failed(merged->config, merged->result)) return ExitCode::run_failed;
  if (status == ExitCode::ok && !slos_pass(slo)) return ExitCode::slo_missed;
  return status;
}

ExitCode run(const std::vector<std::string>& args, hammer::StdoutWriter& out) {
  using namespace hammer;

  if (!args.empty() && args.front() == "report") {
    return run_report_command(std::vector<std::string>(args.begin() + 1, args.end()), out);
  }
  if (!args.empty() && args.front() == "compare") {
    return run_compare_command(std::vector<std::string>(args.begin() + 1, args.end()), out);
  }
  if (!args.empty() && args.front() == "merge") {
    return run_merge_command(std::vector<std::string>(args.begin() + 1, args.end()), out);
  }
  auto parsed = parse_options(args);
  if (!parsed) return fail(ExitCode::bad_input, parsed.error().message);
  if (parsed->command == Command::help) {
    out.write(usage_text());
    return ExitCode::ok;
  }
  if (parsed->command == Command::generate) {
    const DocKind kind = parsed->generate;
    const std::string text = kind == DocKind::man    ? man_page()
                             : kind == DocKind::bash ? bash_completion()
                                                     : zsh_completion();
    out.write(text);
    return ExitCode::ok;
  }
  if (parsed->command == Command::version) {
    out.write(std::string("hammer ") + HAMMER_VERSION + "\n");
    return ExitCode::ok;
  }
  Config& config = parsed->config;
  if (auto refused = https_refusal(config)) return fail(ExitCode::bad_input, refused->message);
  if (config.engine == EngineKind::automatic) {
    if (const char* wanted = std::getenv("HAMMER_ENGINE"); wanted != nullptr && *wanted != '\0') {
      auto kind = parse_engine("HAMMER_ENGINE", wanted);
      if (!kind) return fail(ExitCode::bad_input, kind.error().message);
      config.engine = *kind;
    }
  }
  // Once, before any run: the report names the engine that ran, and why when it fell back.
  config.engine = resolve_engine(config.engine, &config.engine_fallback);
  // --start-at ahead: one line that says until when, or a run waiting for its instant looks
  // hung. A start it cannot keep is refused here, before the line, as run_load() would.
  if (auto refused = check_start_at(config, wall_now_ns())) {
    return fail(refused->exit_code, refused->message);
  }
  if (const int64_t ahead_ns = config.start_at.unix_ns - wall_now_ns();
      config.start_at.given() && ahead_ns >= kNanosPerSecond) {
    std::fprintf(stderr, "hammer: %s\n", render_start_wait_line(config.start_at.unix_ns,
                                                                ahead_ns).c_str());
  }

  // Ctrl-C and SIGTERM are caught from here to the exit, whenever they land (a sweep's step,
  // the gap between two, a connect, the writing of the report): the run ends with its report
  // and -o files, never killed half-way (run/interrupt.h).
  // Declared first, so it acts last: once the scope below has ended, the report and every -o
  // file are written, and a signal that lands while the process exits (a second Ctrl-C; a
  // sanitizer's exit-time leak check takes a while) has nothing left to stop: it is ignored,
  // never the default action that would report the run as killed.
  struct IgnoreLateInterrupts {
    ~IgnoreLateInterrupts() {
      std::signal(SIGINT, SIG_IGN);
      std::signal(SIGTERM, SIG_IGN);
    }
  } const ignore_late_interrupts;
  const InterruptScope interrupts;
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
  // --metrics-listen: serving from before the connects until the report is written, so the
  // last scrape can read the final counts.
  LiveMetricsBoard live_metrics;
  auto metrics_server = start_metrics_server(config, live_metrics);
  if (!metrics_server) return fail(metrics_server.error().exit_code, metrics_server.error().message);
  auto result = run_load(config, progress || config.progress_fd >= 0 ? ProgressFn(on_progress)
                                                                      : ProgressFn(),
                         *metrics_server ? &live_metrics : nullptr);
  if (progress) clear_progress();
  note_if_never_scraped(metrics_server->get());
  if (!result) return fail(result.error().exit_code, result.error().message);

  // A shard's verdicts read its own share (its connections, its slice of the rate).
  const Config share = shard_view(config);
  const std::vector<Verdict> verdicts = compute_verdicts(share, *result, online_cpus());
  const std::vector<SloOutcome> slo = evaluate_slos(config.slos, share, *result);
  const ReportInput input{config, *result, verdicts, {}, config.slos.empty() ? nullptr : &slo};
  const std::string json =
      config.json || !config.outputs.empty() ? render_json_report(input) : "";
  std::string report = config.json ? json : render_text_report(input);
  if (!config.json) report += render_slo_lines(slo);
  out.write(report);
  const bool files_written = write_output_files(render_run_outputs(input, json));
  if (run_failed(share, *result) || !files_written) return ExitCode::run_failed;
  return slos_pass(slo) ? ExitCode::ok : ExitCode::slo_missed;
}

}  // namespace

int main(int argc, char** argv) {
  // Before OpenSSL's first allocation, or it keeps its own allocator (docs/tls.md).
  hammer::install_tls_allocator();
  // A closed stdout must cost the report (exit 2, its reason said), never the -o files.
  hammer::ignore_broken_pipe_signal();
  hammer::StdoutWriter out(stdout);
  const ExitCode code = run(std::vector<std::string>(argv + 1, argv + argc), out);
  return static_cast<int>(finish(out, code));
}
