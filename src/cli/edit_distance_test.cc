// SPDX-License-Identifier: MIT
#include "cli/edit_distance.h"

#include <gtest/gtest.h>

#include <array>

namespace hammer {
namespace {

TEST(EditDistanceTest, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0);
  EXPECT_EQ(edit_distance("abc", ""), 3);
  EXPECT_EQ(edit_distance("", "abc"), 3);
  EXPECT_EQ(edit_distance("abc", "abc"), 0);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
  EXPECT_EQ(edit_distance("--conections", "--connections"), 1);
  EXPECT_EQ(edit_distance("--connectionss", "--connections"), 1);
}

TEST(EditDistanceTest, AnAdjacentSwapIsOneEdit) {
  EXPECT_EQ(edit_distance("ab", "ba"), 1);
  EXPECT_EQ(edit_distance("--durtaion", "--duration"), 1);
  EXPECT_EQ(edit_distance("--tiemout", "--timeout"), 1);
  // Optimal string alignment: a swapped pair is not edited again ("ca" -> "abc" is 3).
  EXPECT_EQ(edit_distance("ca", "abc"), 3);
}

TEST(EditDistanceTest, IsSymmetricAndCaseSensitive) {
  EXPECT_EQ(edit_distance("--rate", "--latency"), edit_distance("--latency", "--rate"));
  EXPECT_EQ(edit_distance("JSON", "json"), 4);
}

TEST(EditDistanceTest, ClosestMatchRespectsTheLimitAndPrefersTheFirstTie) {
  constexpr std::array<std::string_view, 3> kNames = {"--rate", "--date", "--latency"};
  EXPECT_EQ(closest_match("--rat", kNames, 2), "--rate");
  EXPECT_EQ(closest_match("--bate", kNames, 2), "--rate");  // one from both; first wins
  EXPECT_EQ(closest_match("--latncy", kNames, 1), "--latency");
  EXPECT_EQ(closest_match("--zzzzzz", kNames, 2), std::nullopt);
  EXPECT_EQ(closest_match("--rate", {}, 2), std::nullopt);
}

}  // namespace
}  // namespace hammer
