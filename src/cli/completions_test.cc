// SPDX-License-Identifier: MIT
// The completion scripts list every flag of the table and complete what a user types: the bash
// script is run in a real bash, as bash-completion would call it.
#include "cli/completions.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "support/subprocess.h"

namespace hammer {
namespace {

class TempDir {
 public:
  TempDir() {
    std::string pattern = ::testing::TempDir() + "hammer-completion-XXXXXX";
    path_ = ::mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempDir() {
    if (!path_.empty()) test::run_process({"/bin/rm", "-rf", path_}, 10);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string shell_quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What _hammer offers for the command line `words` (the last word is the one being completed),
// one candidate per element, sorted.
std::vector<std::string> bash_complete(const std::string& script_dir,
                                       const std::vector<std::string>& words) {
  // Appended piece by piece: GCC 12's -Wrestrict misfires on "literal" + std::string.
  std::string program = "source ";
  program.append(shell_quoted(script_dir + "/hammer")).append("\nCOMP_WORDS=(");
  for (const std::string& word : words) program.append(" ").append(shell_quoted(word));
  program.append(")\nCOMP_CWORD=").append(std::to_string(words.size() - 1));
  program.append("\n_hammer\nprintf '%s\\n' \"${COMPREPLY[@]}\" | sort\n");
  const test::Finished done = test::run_process({"/bin/bash", "--norc", "-c", program}, 20);
  EXPECT_EQ(done.exit_code, 0) << done.err;
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < done.out.size()) {
    const size_t end = done.out.find('\n', start);
    if (end > start) lines.push_back(done.out.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

class BashCompletionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    std::ofstream(dir_.path() + "/hammer") << bash_completion();
    std::ofstream(dir_.path() + "/body.json") << "{}";
  }
  TempDir dir_;
};

TEST_F(BashCompletionTest, EveryFlagOfTheTableCompletesFromItsPrefix) {
  for (const FlagSpec& spec : kFlags) {
    const std::string name(spec.long_name);
    const auto offered = bash_complete(dir_.path(), {"hammer", name.substr(0, name.size() - 1)});
    EXPECT_NE(std::find(offered.begin(), offered.end(), name), offered.end()) << name;
    if (spec.short_name != '\0') {
      const std::string dash_short = std::string("-") + spec.short_name;
      const auto all = bash_complete(dir_.path(), {"hammer", "-"});
      EXPECT_NE(std::find(all.begin(), all.end(), dash_short), all.end()) << dash_short;
    }
  }
}

TEST_F(BashCompletionTest, ValuesAreCompletedByKind) {
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "--con"}),
            (std::vector<std::string>{"--connections", "--control"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "--generate", ""}),
            (std::vector<std::string>{"bash", "man", "zsh"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "-m", "PO"}),
            (std::vector<std::string>{"POST"}));
  const std::string body = dir_.path() + "/bo";
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "--body", body}),
            (std::vector<std::string>{dir_.path() + "/body.json"}));
  // --body=FILE: bash splits the word at '='.
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "--body", "=", body}),
            (std::vector<std::string>{dir_.path() + "/body.json"}));
  // A value that is a number offers nothing, not flags and not files.
  EXPECT_TRUE(bash_complete(dir_.path(), {"hammer", "-c", ""}).empty());
  EXPECT_TRUE(bash_complete(dir_.path(), {"hammer", "--connections", "-"}).empty());
  EXPECT_TRUE(bash_complete(dir_.path(), {"hammer", "http://127.0.0.1/", "x"}).empty());
}

TEST_F(BashCompletionTest, SubcommandsCompleteWithTheirOwnFlagsAndFiles) {
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "rep"}), (std::vector<std::string>{"report"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "m"}), (std::vector<std::string>{"merge"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", ""}),
            (std::vector<std::string>{"compare", "merge", "report"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "compare", "-"}),
            (std::vector<std::string>{"--fail-if", "--help", "--json", "--output", "-h", "-o"}));
  // merge's flags, not the run's.
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "merge", "-"}),
            (std::vector<std::string>{"--help", "--json", "--output", "--slo",
                                      "--start-tolerance", "-h", "-o"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "merge", "s1.json", "--st"}),
            (std::vector<std::string>{"--start-tolerance"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "report", "-"}),
            (std::vector<std::string>{"--help", "--output", "-h", "-o"}));
  // A subcommand's file arguments: saved runs, directories to reach them; not other files.
  std::ofstream(dir_.path() + "/run.hlog") << "";
  std::ofstream(dir_.path() + "/notes.txt") << "";
  ::mkdir((dir_.path() + "/runs").c_str(), 0700);
  const std::string in = dir_.path() + "/";
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "report", in}),
            (std::vector<std::string>{in + "body.json", in + "runs"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "report", in + "body.json", in}),
            (std::vector<std::string>{in + "body.json", in + "runs"}));
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "merge", in}),
            (std::vector<std::string>{in + "body.json", in + "run.hlog", in + "runs"}));
  // A flag's value is still completed by its kind: -o takes any file.
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "report", "a.json", "-o", in + "no"}),
            (std::vector<std::string>{in + "notes.txt"}));
  // A run's later words are not subcommands, and a subcommand's name later is a plain word.
  EXPECT_TRUE(bash_complete(dir_.path(), {"hammer", "-c", "10", "rep"}).empty());
  EXPECT_EQ(bash_complete(dir_.path(), {"hammer", "-"}).size(),
            bash_complete(dir_.path(), {"hammer", "-c", "10", "-"}).size());
}

TEST(ZshCompletionTest, DeclaresEveryFlagWithItsValue) {
  const std::string script = zsh_completion();
  EXPECT_TRUE(script.starts_with("#compdef hammer\n"));
  for (const FlagSpec& spec : kFlags) {
    const std::string name(spec.long_name);
    const std::string spelled = spec.takes_value() ? name + "=" : name;
    EXPECT_NE(script.find(spelled + (spec.short_name ? "}'[" : "[")), std::string::npos) << name;
    if (spec.short_name != '\0') {
      EXPECT_NE(script.find(std::string("{-") + spec.short_name), std::string::npos) << name;
    }
  }
  EXPECT_NE(script.find("'--body=[request body read from FILE, at most 64MB]:FILE:_files'"),
            std::string::npos);
  EXPECT_NE(script.find("'*'{-H+,--header=}'[extra request header, repeatable]:\"K\\: V\": '"),
            std::string::npos);
  EXPECT_NE(script.find("'(- *)'{-h,--help}"), std::string::npos);
  EXPECT_NE(script.find("'(-c --connections)'{-c+,--connections=}"), std::string::npos);
}

TEST(ZshCompletionTest, KnowsTheSubcommandsTheirFlagsAndFiles) {
  const std::string script = zsh_completion();
  EXPECT_NE(script.find("  'merge:add the shards"), std::string::npos);
  EXPECT_NE(script.find("  'report:render saved runs"), std::string::npos);
  EXPECT_NE(script.find("_describe -t commands 'hammer subcommand' subcommands"), std::string::npos);
  const size_t merge = script.find("\n    merge)\n");
  const size_t report = script.find("\n    report)\n");
  const size_t compare = script.find("\n    compare)\n");
  const size_t run = script.find("\n_arguments -s -S \\\n");
  ASSERT_NE(merge, std::string::npos);
  ASSERT_NE(report, std::string::npos);
  ASSERT_NE(compare, std::string::npos);
  ASSERT_NE(run, std::string::npos);
  const std::string merge_part = script.substr(merge, report - merge);
  const std::string report_part = script.substr(report, compare - report);
  const std::string compare_part = script.substr(compare, run - compare);
  EXPECT_NE(script.find("  'compare:did B"), std::string::npos);
  EXPECT_NE(compare_part.find("{-o+,--output=}"), std::string::npos);
  EXPECT_NE(compare_part.find("'*--fail-if=["), std::string::npos);
  EXPECT_NE(compare_part.find("'*:saved run (.json):_files -g \"*.json\"'"), std::string::npos);
  EXPECT_NE(merge_part.find("--start-tolerance=["), std::string::npos);
  EXPECT_NE(merge_part.find("'*--slo=["), std::string::npos);
  EXPECT_EQ(merge_part.find("--connections"), std::string::npos);
  EXPECT_NE(merge_part.find(":_files -g \"*.(json|hlog)\"'"), std::string::npos);
  EXPECT_NE(report_part.find("{-o+,--output=}"), std::string::npos);
  EXPECT_EQ(report_part.find("--json"), std::string::npos);
  EXPECT_NE(report_part.find("'*:saved run (.json):_files -g \"*.json\"'"), std::string::npos);
  EXPECT_NE(script.substr(run).find("'1:url:_urls'"), std::string::npos);
}

// zsh itself, when the machine has it: the script parses.
TEST(ZshCompletionTest, ParsesInZsh) {
  if (test::run_process({"/bin/sh", "-c", "command -v zsh"}, 10).exit_code != 0) {
    GTEST_SKIP() << "zsh is not installed";
  }
  TempDir dir;
  std::ofstream(dir.path() + "/_hammer") << zsh_completion();
  const test::Finished done =
      test::run_process({"/bin/sh", "-c", "zsh -n \"$0\"", dir.path() + "/_hammer"}, 10);
  EXPECT_EQ(done.exit_code, 0) << done.err;
}

}  // namespace
}  // namespace hammer
