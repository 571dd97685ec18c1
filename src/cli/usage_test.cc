// SPDX-License-Identifier: MIT
#include "cli/usage.h"

#include <gtest/gtest.h>

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

TEST(UsageTest, HelpShowsTheDefaultsFromConfig) {
  const std::string text = usage_text();
  for (const char* fragment : {"(default 50)", "(default min(4, connections))",
                               "(default 10.00s)", "(default GET)", "(default 2.00s)",
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
