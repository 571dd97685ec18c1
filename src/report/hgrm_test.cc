// SPDX-License-Identifier: MIT
// .hgrm against the Java reference: tests/fixtures/hgrm/NAME.hgrm is what HdrHistogram (Java,
// Debian's libhdrhistogram-java) prints for NAME.b64; hammer's writer must print the same
// bytes. The inputs span geometries (lowest 1 and 1000, 2 and 3 figures), huge counts, values
// at both ends of the range, an empty histogram and a real run. tests/hgrm runs the reference
// live against a fresh run as well.
#include "report/hgrm.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "stats/histogram_v2.h"

namespace hammer {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(HAMMER_SOURCE_DIR) + "/tests/fixtures/hgrm/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

class HgrmReferenceTest : public ::testing::TestWithParam<const char*> {};

TEST_P(HgrmReferenceTest, MatchesTheJavaReferenceByteForByte) {
  const std::string name = GetParam();
  auto histogram = decode_v2_base64(fixture(name + ".b64"));
  ASSERT_TRUE(histogram) << histogram.error();
  EXPECT_EQ(render_hgrm(*histogram), fixture(name + ".hgrm"));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HgrmReferenceTest,
                         ::testing::Values("js_big_counts", "js_empty", "js_exact_values",
                                           "js_figures2_to_3600s", "js_lcg_10k_1ns_to_10s",
                                           "js_lowest_1000", "js_range_ends", "run_connect",
                                           "run_corrected", "run_uncorrected"));

TEST(HgrmTest, LevelsHalveTheirStepEachHalfDistanceAndEndAt100Percent) {
  Histogram histogram;
  for (int64_t i = 1; i <= 10'000; ++i) histogram.record(i * 1'000);
  const std::string text = render_hgrm(histogram);
  // 0, 10 ... 50 (steps of 10), 55 ... 75 (5), 77.5 ... (2.5): the reference's ticks.
  for (const char* level : {" 0.000000000000 ", " 0.500000000000 ", " 0.550000000000 ",
                            " 0.775000000000 ", " 0.999023437500 "}) {
    EXPECT_NE(text.find(level), std::string::npos) << level << "\n" << text;
  }
  EXPECT_NE(text.find("      10.002 1.000000000000      10000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#[Max     =       10.002, Total count    =        10000]"),
            std::string::npos);
}

}  // namespace
}  // namespace hammer
