// SPDX-License-Identifier: MIT
#include "cli/report_command.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hammer {
namespace {

std::vector<std::string> paths_of(const std::vector<OutputFile>& outputs) {
  std::vector<std::string> paths;
  for (const OutputFile& output : outputs) paths.push_back(output.path);
  return paths;
}

std::string error_of(const std::vector<std::string>& args) {
  auto parsed = parse_report_options(args);
  return parsed ? std::string() : parsed.error().message;
}

TEST(ReportCommandTest, ReadsRunsAndHtmlOutputs) {
  auto parsed = parse_report_options({"a.json", "-o", "r.html", "b.json", "--output=R2.HTML",
                                      "-or3.html", "--", "-odd.json"});
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed->inputs, (std::vector<std::string>{"a.json", "b.json", "-odd.json"}));
  EXPECT_EQ(paths_of(parsed->outputs), (std::vector<std::string>{"r.html", "R2.HTML", "r3.html"}));
  EXPECT_TRUE(parse_report_options({"--help"})->help);
}

TEST(ReportCommandTest, OneRunWithoutAnOutputIsPrintedAsText) {
  auto parsed = parse_report_options({"a.json"});
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed->inputs, (std::vector<std::string>{"a.json"}));
  EXPECT_TRUE(parsed->outputs.empty());
}

TEST(ReportCommandTest, RefusesWhatItCannotDoInOneLine) {
  EXPECT_EQ(error_of({}), "report: no saved run given (usage: hammer report RUN.json "
                          "[RUN2.json ...] -o report.html)");
  EXPECT_EQ(error_of({"a.json", "b.json"}),
            "report: comparing 2 runs renders HTML: give -o report.html (one run alone, "
            "without -o, prints its text report)");
  EXPECT_EQ(error_of({"a.json", "-o", "r.json"}),
            "report: --output: renders HTML; expected a FILE.html, got 'r.json'");
  EXPECT_EQ(error_of({"a.json", "-o"}), "report: --output: missing value");
  EXPECT_EQ(error_of({"a.json", "-o", "r.html", "-o", "r.html"}),
            "report: --output: the same file is given twice, got 'r.html'");
  EXPECT_EQ(error_of({"a.json", "--pdf"}),
            "report: unknown option '--pdf'; see hammer report --help");
}

TEST(ReportCommandTest, AnUnreadableInputIsOneLineNamingIt) {
  ReportOptions options;
  options.inputs = {"/nonexistent/run.json"};
  options.outputs = {{"r.html", OutputFormat::html}};
  auto files = render_report_files(options);
  ASSERT_FALSE(files.has_value());
  EXPECT_EQ(files.error(),
            "report: '/nonexistent/run.json': cannot read: No such file or directory");
  options.inputs = {"/tmp"};
  files = render_report_files(options);
  ASSERT_FALSE(files.has_value());
  EXPECT_EQ(files.error(), "report: '/tmp': cannot read: Is a directory");
  options.inputs = {"/dev/null"};
  files = render_report_files(options);
  ASSERT_FALSE(files.has_value());
  EXPECT_TRUE(files.error().starts_with("report: '/dev/null': not JSON: ")) << files.error();
}

}  // namespace
}  // namespace hammer
