// SPDX-License-Identifier: MIT
#include "cli/compare_command.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

TEST(CompareCommandTest, FailIfReadsAPercentileAndAPercent) {
  auto rule = parse_fail_if("p99+10%");
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->percentile, 99);
  EXPECT_EQ(rule->percent, 10);
  auto fine = parse_fail_if("p99.9+2.5%");
  ASSERT_TRUE(fine);
  EXPECT_EQ(fine->percentile, 99.9);
  EXPECT_EQ(fine->percent, 2.5);
  for (const char* bad : {"p99", "99+10%", "p99+10", "p99+%", "p99+-1%", "p+10%", "p99+x%"}) {
    EXPECT_FALSE(parse_fail_if(bad)) << bad;
  }
}

TEST(CompareCommandTest, TakesExactlyTwoRunsAndRepeatsFailIf) {
  auto options = parse_compare_options(
      {"a.json", "b.json", "--fail-if", "p99+10%", "--fail-if=p50+5%", "--json"});
  ASSERT_TRUE(options) << options.error().message;
  EXPECT_EQ(options->a, "a.json");
  EXPECT_EQ(options->b, "b.json");
  ASSERT_EQ(options->fail_ifs.size(), 2u);
  EXPECT_EQ(options->fail_ifs[1].percentile, 50);
  EXPECT_TRUE(options->json);
  auto three = parse_compare_options({"a.json", "b.json", "c.json"});
  ASSERT_FALSE(three);
  EXPECT_EQ(three.error().message,
            "compare: expected two saved runs, got 3 (usage: hammer compare A.json B.json)");
  auto bad = parse_compare_options({"a.json", "b.json", "--fail-if", "p99"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "compare: --fail-if: expected pNN+X% (e.g. p99+10%), got 'p99'");
}

TEST(CompareCommandTest, OutputIsAnHtmlPageInADirectoryThatExists) {
  auto options = parse_compare_options({"a.json", "b.json", "-o", "page.html",
                                        "--output=second.HTML"});
  ASSERT_TRUE(options) << options.error().message;
  ASSERT_EQ(options->outputs.size(), 2u);
  EXPECT_EQ(options->outputs[0].path, "page.html");
  auto json = parse_compare_options({"a.json", "b.json", "-o", "page.json"});
  ASSERT_FALSE(json);
  EXPECT_NE(json.error().message.find("renders HTML; expected a FILE.html"), std::string::npos)
      << json.error().message;
  EXPECT_EQ(json.error().message.rfind("compare: ", 0), 0u) << json.error().message;
  auto nowhere = parse_compare_options({"a.json", "b.json", "-o", "/no/such/dir/page.html"});
  ASSERT_FALSE(nowhere);
  EXPECT_NE(nowhere.error().message.find("/no/such/dir"), std::string::npos)
      << nowhere.error().message;
  EXPECT_EQ(nowhere.error().message.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace hammer
