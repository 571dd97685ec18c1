// SPDX-License-Identifier: MIT
#include "cli/usage.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cli/options.h"

namespace hammer {
namespace {

TEST(UsageTest, HelpListsEveryOptionTheParserKnows) {
  const std::string text = usage_text();
  for (std::string_view name : long_option_names()) {
    EXPECT_NE(text.find(name), std::string::npos) << name;
  }
  EXPECT_TRUE(text.starts_with("Usage: hammer [options] <url>\n"));
  EXPECT_TRUE(text.ends_with("\n"));
}

// Each flag of the table has its line: spellings, value name, then its description's first line
// at column 24.
TEST(UsageTest, EveryFlagOfTheTableHasItsLineWithItsDescription) {
  const std::string text = usage_text();
  for (const FlagSpec& spec : kFlags) {
    const std::string description = flag_description(spec.flag);
    ASSERT_FALSE(description.empty()) << spec.long_name;
    std::string line = "  " + flag_synopsis(spec);
    if (line.size() + 2 > 24) line += "\n";  // a long one gets a line of its own
    line.resize(line.ends_with("\n") ? line.size() + 24 : 24, ' ');
    line += description.substr(0, description.find('\n'));
    EXPECT_NE(text.find("\n" + line + "\n"), std::string::npos) << line;
  }
}

TEST(UsageTest, TheFlagsThatExitComeLast) {
  const std::vector<const FlagSpec*> order = flags_in_help_order();
  ASSERT_EQ(order.size(), kFlags.size());
  const auto first_exit =
      std::find_if(order.begin(), order.end(), [](const FlagSpec* spec) { return spec->exits; });
  EXPECT_TRUE(std::all_of(first_exit, order.end(), [](const FlagSpec* spec) {
    return spec->exits;
  }));
  EXPECT_EQ(order.back()->long_name, "--generate");
}

TEST(UsageTest, TheTableIsConsistent) {
  for (size_t i = 0; i < kFlags.size(); ++i) {
    const FlagSpec& spec = kFlags[i];
    SCOPED_TRACE(std::string(spec.long_name));
    EXPECT_TRUE(spec.long_name.starts_with("--"));
    EXPECT_EQ(spec.takes_value(), !spec.value_name.empty());
    EXPECT_EQ(spec.value_kind == ValueKind::choice, !spec.choices.empty());
    for (size_t j = 0; j < i; ++j) {
      EXPECT_NE(kFlags[j].long_name, spec.long_name);
      EXPECT_TRUE(spec.short_name == '\0' || kFlags[j].short_name != spec.short_name);
      EXPECT_NE(kFlags[j].flag, spec.flag);
    }
  }
}

TEST(UsageTest, HelpShowsTheDefaultsFromConfig) {
  const std::string text = usage_text();
  for (const char* fragment : {"(default 50)", "(default min(4, connections, CPUs available))",
                               "(default 10.00s)", "(default GET)", "(default 10.00s)",
                               "(default off: closed loop)"}) {
    EXPECT_NE(text.find(fragment), std::string::npos) << fragment;
  }
}

TEST(UsageTest, HelpLinesFitEightyColumns) {
  const std::string text = usage_text();
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    EXPECT_LE(end - start, 80u) << text.substr(start, end - start);
    start = end + 1;
  }
}

TEST(UsageTest, VersionIsTheProjectVersion) {
  EXPECT_EQ(version_text(), std::string("hammer ") + HAMMER_VERSION + "\n");
  EXPECT_EQ(version_text(), "hammer 0.1.0\n");
}

}  // namespace
}  // namespace hammer
