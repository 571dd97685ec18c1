// SPDX-License-Identifier: MIT
#include "core/read_bounded_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace hammer {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()))).string();
}

TEST(ReadBoundedFileTest, ReadsAWholeFileUpToTheLimit) {
  const std::string path = temp_path("hammer_read_bounded_");
  std::ofstream(path, std::ios::binary) << std::string(100'000, 'x');
  const auto contents = read_bounded_file(path, 100'000, "100kB");
  std::remove(path.c_str());
  ASSERT_TRUE(contents.has_value()) << contents.error();
  EXPECT_EQ(contents->size(), 100'000u);
}

TEST(ReadBoundedFileTest, AFileOverTheLimitIsRefusedByName) {
  const std::string path = temp_path("hammer_read_bounded_big_");
  std::ofstream(path, std::ios::binary) << std::string(100'001, 'x');
  const auto contents = read_bounded_file(path, 100'000, "100kB");
  std::remove(path.c_str());
  ASSERT_FALSE(contents.has_value());
  EXPECT_EQ(contents.error(), "larger than 100kB");
}

TEST(ReadBoundedFileTest, AnEndlessFileStopsAtTheLimit) {
  const auto contents = read_bounded_file("/dev/zero", 1'000'000, "1MB");
  ASSERT_FALSE(contents.has_value());
  EXPECT_EQ(contents.error(), "larger than 1MB");
}

TEST(ReadBoundedFileTest, ADirectoryIsNotReadAsAnEmptyFile) {
  const auto contents = read_bounded_file(std::filesystem::temp_directory_path().string(),
                                          1'000'000, "1MB");
  ASSERT_FALSE(contents.has_value());
  EXPECT_EQ(contents.error(), "cannot read: Is a directory");
}

TEST(ReadBoundedFileTest, AMissingFileSaysWhy) {
  const auto contents = read_bounded_file("/nonexistent/file.json", 1'000'000, "1MB");
  ASSERT_FALSE(contents.has_value());
  EXPECT_EQ(contents.error(), "cannot read: No such file or directory");
}

}  // namespace
}  // namespace hammer
