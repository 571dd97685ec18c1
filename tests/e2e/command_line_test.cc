// SPDX-License-Identifier: MIT
// Issue 24: one tokenizer for `hammer`, `hammer merge` and `hammer report`. The same mistake
// on any of their command lines is the same one line on stderr (each subcommand names itself
// first) and exit 1, before anything is read, connected or written.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// Nothing listens here: a run that got past its flags would fail with exit 2, not 1.
constexpr const char* kUrl = "http://127.0.0.1:9/";

struct Refused {
  std::vector<std::string> args;  // given to each command after its own operand
  std::string line;               // stderr, after "hammer: " and the subcommand's "merge: "
};

void expect_refused_alike(const Refused& refused, bool run_and_merge_only) {
  struct Command {
    std::vector<std::string> head;
    std::string prefix;
  };
  std::vector<Command> commands = {{{kUrl}, "hammer: "},
                                   {{"merge", "a.json"}, "hammer: merge: "}};
  if (!run_and_merge_only) commands.push_back({{"report", "a.json"}, "hammer: report: "});
  for (const Command& command : commands) {
    std::vector<std::string> args = command.head;
    args.insert(args.end(), refused.args.begin(), refused.args.end());
    const Finished done = run_hammer(args);
    EXPECT_EQ(done.exit_code, 1) << args.front() << ": " << done.err;
    EXPECT_EQ(done.err, command.prefix + refused.line + "\n") << args.front();
    EXPECT_EQ(done.out, "") << args.front();
  }
}

TEST(CommandLineTest, TheSameMistakeIsTheSameLineFromEveryCommand) {
  for (const Refused& refused : std::vector<Refused>{
           {{"-o"}, "--output: missing value"},
           {{"--outptu", "r.html"}, "unknown option '--outptu'; did you mean '--output'?"},
           {{"-output", "r.html"}, "unknown option '-output'; did you mean '--output'?"},
           {{"-O", "r.html"}, "unknown option '-O'; did you mean '-o' (--output)?"},
           {{"--help=1"}, "--help: takes no value, got '--help=1'"},
           {{"-o", "r.html", "--output=./r.html"},
            "--output: the same file is given twice, got './r.html'"},
           {{"-o", "/nonexistent/dir/r.html"},
            "--output: cannot write '/nonexistent/dir/r.html': no directory '/nonexistent/dir'"},
       }) {
    expect_refused_alike(refused, /*run_and_merge_only=*/false);
  }
}

// --start-tolerance and --slo: the run's parser and limits in merge too (merge had no 24h cap).
TEST(CommandLineTest, TheRunAndMergeReadStartToleranceAndSloAlike) {
  for (const Refused& refused : std::vector<Refused>{
           {{"--start-tolerance", "25h"},
            "--start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, 500ms), got "
            "'25h'"},
           {{"--start-tolerance=soon"},
            "--start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, 500ms), got "
            "'soon'"},
           {{"--slo", "p99=1s", "--slo", "p99=2s"}, "--slo: p99 is given twice, got 'p99=2s'"},
           {{"--json=yes"}, "--json: takes no value, got '--json=yes'"},
       }) {
    expect_refused_alike(refused, /*run_and_merge_only=*/true);
  }
}

// -h stops every command where it stands and prints its own help; after "--" it is a name.
TEST(CommandLineTest, HelpIsReadAlikeByEveryCommand) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-h", "--no-such-flag"},
                                             {"merge", "--help", "--no-such-flag"},
                                             {"report", "-h", "--no-such-flag"}}) {
    const Finished done = run_hammer(args);
    EXPECT_EQ(done.exit_code, 0) << args.front() << ": " << done.err;
    EXPECT_TRUE(done.out.starts_with("Usage: hammer")) << done.out;
  }
  const Finished named = run_hammer({"report", "--", "-h"});
  EXPECT_EQ(named.exit_code, 1);
  EXPECT_EQ(named.err, "hammer: report: '-h': cannot read: No such file or directory\n");
}

}  // namespace
}  // namespace hammer::test
