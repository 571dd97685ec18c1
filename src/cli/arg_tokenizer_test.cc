// SPDX-License-Identifier: MIT
// One tokenizer for every command: the same spelling reads the same everywhere, and the same
// mistake gets the same line from `hammer`, `hammer merge` and `hammer report` (each adds
// only its own "merge: " or "report: " in front).
#include "cli/arg_tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/merge_options.h"
#include "cli/options.h"
#include "cli/report_command.h"

namespace hammer {
namespace {

constexpr const char* kUrl = "http://127.0.0.1:8080/";

constexpr std::array kSomeFlags = {flag_spec(Flag::output), flag_spec(Flag::json),
                                   flag_spec(Flag::help)};

// Every argument as "FLAG=VALUE" or "<operand>", or the error.
std::string read_all(const std::vector<std::string>& args) {
  ArgTokenizer arguments(args, CommandFlags{"hammer test", kSomeFlags});
  std::string out;
  for (;;) {
    auto argument = arguments.next();
    if (!argument) return out + "error: " + argument.error().message;
    if (!*argument) return out;
    const Argument& read = **argument;
    // Appended in steps: GCC 12's -Wrestrict misfires on "<" + string.
    if (read.flag == nullptr) {
      out += '<';
      out += read.value;
      out += "> ";
    } else {
      out += read.flag->long_name;
      out += '=';
      out += read.value;
      out += ' ';
    }
  }
}

TEST(ArgTokenizerTest, ReadsEverySpellingOfAFlagAlike) {
  EXPECT_EQ(read_all({"-o", "a.json", "-ob.json", "--output", "c.json", "--output=d.json"}),
            "--output=a.json --output=b.json --output=c.json --output=d.json ");
  EXPECT_EQ(read_all({"--output="}), "--output= ");
  EXPECT_EQ(read_all({"--json", "x", "-", "-h"}), "--json= <x> <-> --help= ");
}

TEST(ArgTokenizerTest, DoubleDashEndsTheFlags) {
  EXPECT_EQ(read_all({"--json", "--", "--json", "-o", "--"}), "--json= <--json> <-o> <--> ");
}

TEST(ArgTokenizerTest, RefusesWhatItCannotRead) {
  EXPECT_EQ(read_all({"x", "-o"}), "<x> error: --output: missing value");
  EXPECT_EQ(read_all({"--output"}), "error: --output: missing value");
  // A value left out before the URL: the URL is not taken for it (a new user's "-c URL" read
  // as a bad sweep, "-H URL" as a missing URL); after an operand, it may be one.
  EXPECT_EQ(read_all({"-o", "http://127.0.0.1:8080/"}),
            "error: --output: missing value (the URL 'http://127.0.0.1:8080/' came in its place)");
  EXPECT_EQ(read_all({"x", "-o", "http://127.0.0.1:8080/"}),
            "<x> --output=http://127.0.0.1:8080/ ");
  EXPECT_EQ(read_all({"--json=1"}), "error: --json: takes no value, got '--json=1'");
  EXPECT_EQ(read_all({"--ouptut", "a.json"}),
            "error: unknown option '--ouptut'; did you mean '--output'?");
  EXPECT_EQ(read_all({"--ouptut=a.json"}),
            "error: unknown option '--ouptut=a.json'; did you mean '--output'?");
  EXPECT_EQ(read_all({"-output", "a.json"}),
            "error: unknown option '-output'; did you mean '--output'?");
  EXPECT_EQ(read_all({"-O", "a.json"}),
            "error: unknown option '-O'; did you mean '-o' (--output)?");
  EXPECT_EQ(read_all({"-hx"}), "error: unknown option '-hx'; see hammer test --help");
  EXPECT_EQ(read_all({"--pdf"}), "error: unknown option '--pdf'; see hammer test --help");
  // Other tools' habits are the run's table's (wrk's -R); here -R is only unknown.
  EXPECT_EQ(read_all({"-R", "10"}), "error: unknown option '-R'; see hammer test --help");
}

// A subcommand's table is rows of the run's: a shared flag is spelled the same.
TEST(ArgTokenizerTest, FlagSpecIsTheRunsRow) {
  for (const FlagSpec& spec : kFlags) {
    EXPECT_EQ(flag_spec(spec.flag).long_name, spec.long_name);
    EXPECT_EQ(flag_spec(spec.flag).short_name, spec.short_name);
  }
}

// The three commands' errors for `args` (the run's with the URL in front, merge's and
// report's with one input), each without its command's prefix.
struct Errors {
  std::string run, merge, report;
};

Errors errors_of(const std::vector<std::string>& args) {
  Errors errors;
  std::vector<std::string> run_args = {kUrl};
  run_args.insert(run_args.end(), args.begin(), args.end());
  if (auto run = parse_options(run_args, 4); !run) errors.run = run.error().message;
  std::vector<std::string> inputs = {"a.json"};
  inputs.insert(inputs.end(), args.begin(), args.end());
  if (auto merge = parse_merge_options(inputs); !merge) {
    errors.merge = merge.error().message;
    EXPECT_TRUE(errors.merge.starts_with("merge: ")) << errors.merge;
    errors.merge.erase(0, 7);
  }
  if (auto report = parse_report_options(inputs); !report) {
    errors.report = report.error().message;
    EXPECT_TRUE(errors.report.starts_with("report: ")) << errors.report;
    errors.report.erase(0, 8);
  }
  return errors;
}

void expect_all(const std::vector<std::string>& args, const std::string& message) {
  const Errors errors = errors_of(args);
  EXPECT_EQ(errors.run, message);
  EXPECT_EQ(errors.merge, message);
  EXPECT_EQ(errors.report, message);
}

TEST(ArgTokenizerTest, TheSameMistakeGetsTheSameLineFromEveryCommand) {
  expect_all({"-o"}, "--output: missing value");
  expect_all({"--output"}, "--output: missing value");
  expect_all({"--outptu", "r.html"}, "unknown option '--outptu'; did you mean '--output'?");
  expect_all({"-output", "r.html"}, "unknown option '-output'; did you mean '--output'?");
  expect_all({"-O", "r.html"}, "unknown option '-O'; did you mean '-o' (--output)?");
  expect_all({"--help=yes"}, "--help: takes no value, got '--help=yes'");
  expect_all({"-o", "r.html", "--output=./r.html"},
             "--output: the same file is given twice, got './r.html'");
  expect_all({"-o", "/nonexistent/dir/r.html"},
             "--output: cannot write '/nonexistent/dir/r.html': no directory '/nonexistent/dir'");
}

// The run and merge share --slo and --start-tolerance: one parser, one set of limits (merge
// had no 24h cap on --start-tolerance, and its own wording).
TEST(ArgTokenizerTest, TheRunAndMergeReadSloAndStartToleranceAlike) {
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--start-tolerance", "25h"},
            "--start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, 500ms), got "
            "'25h'"},
           {{"--start-tolerance=-1s"},
            "--start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, 500ms), got "
            "'-1s'"},
           {{"--start-tolerance"}, "--start-tolerance: missing value"},
           {{"--slo", "p99=50ms", "--slo=p99.0=1s"},
            "--slo: p99.0 is given twice, got 'p99.0=1s'"},
           {{"--slo", "errors=200%"},
            "--slo: errors takes a percentage from 0% to 100% (e.g. errors=1%), got "
            "'errors=200%'"},
           {{"--json=1"}, "--json: takes no value, got '--json=1'"},
       }) {
    const Errors errors = errors_of(args);
    EXPECT_EQ(errors.run, message);
    EXPECT_EQ(errors.merge, message);
  }
}

// -h stops every command where it stands (an error before it still wins); after "--" it is
// an operand like any other.
TEST(ArgTokenizerTest, HelpStopsEveryCommandAlike) {
  EXPECT_EQ(parse_options({"-h", "--no-such-flag"}, 4)->command, Command::help);
  EXPECT_TRUE(parse_merge_options({"-h", "--no-such-flag"})->help);
  EXPECT_TRUE(parse_report_options({"--help", "--no-such-flag"})->help);
  EXPECT_FALSE(parse_merge_options({"--no-such-flag", "-h"}).has_value());
  EXPECT_FALSE(parse_report_options({"--no-such-flag", "-h"}).has_value());
  auto merge = parse_merge_options({"--", "-h"});
  ASSERT_TRUE(merge.has_value()) << merge.error().message;
  EXPECT_FALSE(merge->help);
  EXPECT_EQ(merge->inputs, (std::vector<std::string>{"-h"}));
  auto report = parse_report_options({"--", "-h"});
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_FALSE(report->help);
}

}  // namespace
}  // namespace hammer
