// SPDX-License-Identifier: MIT
// The completion scripts list every flag of the table and complete what a user types: the bash
// script is run in a real bash, as bash-completion would call it.
#include "cli/completions.h"

#include <gtest/gtest.h>
#include <unistd.h>

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
