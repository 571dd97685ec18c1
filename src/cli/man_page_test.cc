// SPDX-License-Identifier: MIT
#include "cli/man_page.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "cli/merge_options.h"
#include "cli/report_command.h"
#include "cli/usage.h"
#include "support/subprocess.h"

namespace hammer {
namespace {

std::string roff_dashes(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

TEST(ManPageTest, HasTheSectionsAndEveryFlagOfTheTable) {
  const std::string page = man_page();
  for (const char* section : {".TH HAMMER 1 ", "\n.SH NAME\nhammer \\- ", "\n.SH SYNOPSIS\n",
                              "\n.SH DESCRIPTION\n", "\n.SH OPTIONS\n", "\n.SH SWEEPS\n",
                              "\n.SH EXIT STATUS\n"}) {
    EXPECT_NE(page.find(section), std::string::npos) << section;
  }
  for (const FlagSpec& spec : kFlags) {
    std::string tag = "\n.TP\n";
    if (spec.short_name != '\0') tag += std::string("\\fB\\-") + spec.short_name + "\\fR, ";
    tag += "\\fB" + roff_dashes(spec.long_name) + "\\fR";
    if (spec.takes_value()) tag += " \\fI" + roff_dashes(spec.value_name) + "\\fR";
    tag += "\n";
    EXPECT_NE(page.find(tag), std::string::npos) << tag;
    // The description, one line where --help wraps it.
    std::string description = flag_description(spec.flag);
    for (char& c : description) c = c == '\n' ? ' ' : c;
    EXPECT_NE(page.find(tag + roff_dashes(description) + "\n"), std::string::npos)
        << spec.long_name;
  }
  EXPECT_NE(page.find("\n.SH EXIT STATUS\n0 the run completed;"), std::string::npos);
  // hammer merge's own --help, line by line.
  EXPECT_NE(page.find("\n.SH HAMMER MERGE\n.nf\n" + roff_dashes(merge_usage_text().substr(
                          0, merge_usage_text().find('\n'))) + "\n"),
            std::string::npos);
  // hammer report's too.
  EXPECT_NE(page.find("\n.SH HAMMER REPORT\n.nf\n" + roff_dashes(report_usage_text().substr(
                          0, report_usage_text().find('\n'))) + "\n"),
            std::string::npos);
  EXPECT_NE(page.find("\n.B hammer report\n"), std::string::npos);
  EXPECT_EQ(page.find("\n.\n"), std::string::npos);
}

// EXAMPLES: each command README.md shows too (tests/shell/readme_examples_test.py runs those
// as pasted), each set as typed.
TEST(ManPageTest, ExamplesAreTheReadmesAndTheJsonDocumentIsDescribed) {
  const std::string page = man_page();
  std::ifstream readme_file(std::string(HAMMER_SOURCE_DIR) + "/README.md");
  const std::string readme((std::istreambuf_iterator<char>(readme_file)),
                           std::istreambuf_iterator<char>());
  ASSERT_FALSE(readme.empty());
  const size_t examples = page.find("\n.SH EXAMPLES\n");
  const size_t json = page.find("\n.SH JSON DOCUMENT\n");
  ASSERT_NE(examples, std::string::npos);
  ASSERT_NE(json, std::string::npos);
  ASSERT_GE(man_examples().size(), 6u);
  for (const ManExample& example : man_examples()) {
    const std::string command(example.command);
    EXPECT_NE(readme.find("\n    " + command), std::string::npos)
        << command << ": not a README.md example";
    EXPECT_NE(page.find(".nf\n" + roff_dashes(command) + "\n.fi\n", examples), std::string::npos)
        << command;
  }
  // The document itself, not a pointer to a file the reader may not have.
  EXPECT_EQ(page.find("docs/json.md"), std::string::npos);
  for (const char* member : {"\n\\fBhammer\\fR\n", "\n\\fBconfig\\fR\n", "\n\\fBlatency\\fR\n",
                             "\n\\fBrequests\\fR\n", "\n\\fBdispatch_lag\\fR\n",
                             "\n\\fBtimeline\\fR\n", "\n\\fBslo, slo_passed\\fR\n"}) {
    EXPECT_NE(page.find(member, json), std::string::npos) << member;
  }
  EXPECT_NE(page.find("percentiles_ns", json), std::string::npos);
}

// groff, when the machine has it, reads the page without a warning.
TEST(ManPageTest, GroffReadsItWithoutWarnings) {
  if (test::run_process({"/bin/sh", "-c", "command -v groff"}, 10).exit_code != 0) {
    GTEST_SKIP() << "groff is not installed";
  }
  const std::string file = ::testing::TempDir() + "hammer-man-" + std::to_string(::getpid());
  std::ofstream(file) << man_page();
  const test::Finished done =
      test::run_process({"/bin/sh", "-c", "groff -man -Tutf8 -ww -z \"$0\"", file}, 20);
  ::unlink(file.c_str());
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(done.err, "");
}

}  // namespace
}  // namespace hammer
