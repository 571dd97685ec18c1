// SPDX-License-Identifier: MIT
#include "cli/compare_command.h"

#include <array>
#include <charconv>

#include "cli/arg_tokenizer.h"
#include "cli/percentile_flag.h"
#include "cli/shared_flags.h"
#include "core/percentiles.h"
#include "document/run_document.h"
#include "json/json_value.h"
#include "platform/files.h"
#include "report/compare_html.h"
#include "report/compare_report.h"

namespace hammer {
namespace {

UsageError compare_error(const std::string& message) { return {"compare: " + message}; }

constexpr std::array kCompareFlags = {flag_spec(Flag::fail_if), flag_spec(Flag::json),
                                      flag_spec(Flag::output), flag_spec(Flag::help)};

// As load_run_document bounds a saved run.
constexpr int64_t kMaxDocumentBytes = 256LL * 1024 * 1024;

// The lead stopwatch's histogram and measured seconds of a saved run.
Expected<CompareSide, std::string> side_of(const RunDocument& document) {
  const RunResult& result = document.result;
  const bool corrected = document.config.corrected_stopwatch_leads();
  CompareSide side;
  side.whole = corrected ? result.corrected : result.uncorrected;
  if (result.host.measured()) {
    side.host_oversleeps = result.host.oversleeps;
    side.host_interval_ns = result.host.interval_ns;
    side.host_long_stalls = result.host.long_count;
    side.host_lost_ns = result.host.long_sum_ns;
    side.host_max_stall_ns = result.host.max_ns;
  }
  // Timed-out requests have no latency: the percentiles they reach are only the timeout, as
  // the run's own report prints them.
  side.timed_out = result.error_count(ErrorKind::timeout);
  side.timeout_ns = document.config.timeout_ns;
  const Timeline& timeline = result.timeline;
  for (int32_t row = 0; row < static_cast<int32_t>(timeline.rows().size()); ++row) {
    const Timeline::Row& second = timeline.rows()[static_cast<size_t>(row)];
    if (second.warmup) continue;
    side.seconds.push_back(timeline.row_histogram(row));
    side.seconds_timed_out.push_back(second.timed_out);
  }
  if (side.whole.total_count() == 0) {
    return unexpected(document.source + ": no latency recorded (nothing to compare)");
  }
  return side;
}

}  // namespace

std::span<const FlagSpec> compare_flags() { return kCompareFlags; }

Expected<FailIf, std::string> parse_fail_if(std::string_view text) {
  const std::string expected = "expected pNN+X% (e.g. p99+10%)";
  const size_t plus = text.find('+');
  if (text.size() < 4 || text.front() != 'p' || plus == std::string_view::npos ||
      text.back() != '%') {
    return unexpected(expected);
  }
  auto percentile = parse_percentile(text.substr(1, plus - 1));
  if (!percentile) return unexpected(percentile.error());
  const std::string_view number = text.substr(plus + 1, text.size() - plus - 2);
  double percent = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), percent);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size() ||
      !(percent >= 0) || percent > 1e6) {
    return unexpected(expected);
  }
  return FailIf{*percentile, percent};
}

Expected<CompareOptions, UsageError> parse_compare_options(const std::vector<std::string>& args) {
  CompareOptions options;
  std::vector<std::string> inputs;
  const OutputRule html_only{OutputFormat::html, "renders HTML; expected a FILE.html"};
  ArgTokenizer arguments(args, CommandFlags{"hammer compare", kCompareFlags});
  for (;;) {
    auto argument = arguments.next();
    if (!argument) return unexpected(compare_error(argument.error().message));
    if (!*argument) break;
    const std::string_view value = (*argument)->value;
    if ((*argument)->flag == nullptr) {
      inputs.emplace_back(value);
      continue;
    }
    switch ((*argument)->flag->flag) {
      case Flag::help:
        options.help = true;
        return options;
      case Flag::json:
        options.json = true;
        break;
      case Flag::output:
        if (auto failure = add_output(value, html_only, options.outputs)) {
          return unexpected(compare_error(failure->message));
        }
        break;
      default: {  // --fail-if
        auto rule = parse_fail_if(value);
        if (!rule) {
          return unexpected(compare_error("--fail-if: " + rule.error() + ", got '" +
                                          std::string(value) + "'"));
        }
        options.fail_ifs.push_back(*rule);
        break;
      }
    }
  }
  if (inputs.size() != 2) {
    return unexpected(compare_error("expected two saved runs, got " +
                                    std::to_string(inputs.size()) +
                                    " (usage: hammer compare A.json B.json)"));
  }
  if (auto failure = check_output_directories(options.outputs)) {
    return unexpected(compare_error(failure->message));
  }
  options.a = inputs[0];
  options.b = inputs[1];
  return options;
}

Expected<CompareOutcome, std::string> run_compare(const CompareOptions& options) {
  auto a = load_run_document(options.a);
  if (!a) return unexpected("compare: " + a.error());
  auto b = load_run_document(options.b);
  if (!b) return unexpected("compare: " + b.error());
  auto a_side = side_of(*a);
  if (!a_side) return unexpected("compare: " + a_side.error());
  auto b_side = side_of(*b);
  if (!b_side) return unexpected("compare: " + b_side.error());
  std::vector<double> rows =
      a->config.percentiles.empty() ? default_percentiles() : a->config.percentiles;
  std::vector<double> ruled;
  for (const FailIf& rule : options.fail_ifs) ruled.push_back(rule.percentile);
  rows = union_of_percentiles(rows, ruled);
  const Comparison comparison =
      compare_runs(*a_side, *b_side, rows, CompareSettings{}, options.fail_ifs);
  CompareLabels labels{options.a, options.b,
                       a->config.corrected_stopwatch_leads() ? "corrected" : "uncorrected"};
  if (a->config.corrected_stopwatch_leads() != b->config.corrected_stopwatch_leads()) {
    return unexpected("compare: " + options.a + " leads with the " + labels.stopwatch +
                      " stopwatch and " + options.b +
                      " with the other; compare runs of the same mode (both open loop, or both "
                      "closed)");
  }
  CompareOutcome outcome;
  outcome.report = options.json ? render_compare_json(comparison, labels)
                                : render_compare_text(comparison, labels);
  outcome.failed = comparison.failed();
  if (!options.outputs.empty()) {
    // The page reads members the typed reader does not keep (the config as given): the
    // documents again, as JSON; load_run_document has read both already.
    std::vector<JsonValue> documents;
    for (const std::string& path : {options.a, options.b}) {
      auto text = read_bounded_file(path, kMaxDocumentBytes, "256MB; not a hammer document");
      if (!text) return unexpected("compare: " + path + ": " + text.error());
      auto document = parse_json(*text);
      if (!document) return unexpected("compare: " + path + ": not JSON: " + document.error());
      documents.push_back(std::move(*document));
    }
    auto html = render_compare_html(comparison, labels, documents[0], documents[1]);
    if (!html) return unexpected("compare: " + html.error());
    for (const OutputFile& output : options.outputs) {
      outcome.files.push_back({output.path, *html, ""});
    }
  }
  return outcome;
}

std::string compare_usage_text() {
  return "usage: hammer compare A.json B.json [--fail-if pNN+X%]... [--json] [-o FILE.html]\n"
         "\n"
         "For each percentile A reported (its lead stopwatch), B - A with a 95% interval from\n"
         "1000 bootstrap resamples of each run's measured seconds (seeded: the same files give\n"
         "the same answer), and a verdict: better, worse, or no change beyond noise (a change\n"
         "under 5% of A, or within how far either run's host meter saw its wake-ups spread at\n"
         "that percentile, is no change).\n"
         "\n"
         "Timed-out requests count as the runs' reports count them: a percentile they reach\n"
         "is only \"> TIMEOUT\", a bound.\n"
         "\n"
         "  --fail-if pNN+X%   exit 3 when row pNN is worse beyond noise and B - A is more\n"
         "                     than X% of A, or when the runs cannot show it is not (too few\n"
         "                     seconds or requests, a bound); repeatable, e.g. p99+10%\n"
         "  --json             the comparison as JSON\n"
         "  -o, --output FILE.html\n"
         "                     also write the comparison as a self-contained HTML page: the\n"
         "                     rows and verdicts, both runs' spectra on one chart, the gates,\n"
         "                     both configurations (repeatable; stdout is printed as without)\n"
         "  -h, --help         this text\n"
         "\n"
         "Exit status: 0 compared; 1 bad input (a file, a flag, an -o folder that does not\n"
         "exist: nothing was compared); 2 a page could not be written; 3 a --fail-if gate\n"
         "tripped.\n";
}

}  // namespace hammer
