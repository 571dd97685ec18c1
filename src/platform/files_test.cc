// SPDX-License-Identifier: MIT
#include "platform/files.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hammer {
namespace {

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hammer_atomic_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const std::string& name : entries()) ::unlink((dir_ + "/" + name).c_str());
    ::chmod(dir_.c_str(), 0700);
    ::rmdir(dir_.c_str());
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    if (DIR* dir = ::opendir(dir_.c_str())) {
      while (dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      ::closedir(dir);
    }
    return names;
  }
  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream contents;
    contents << in.rdbuf();
    return contents.str();
  }
  std::string dir_;
};

TEST_F(AtomicFileTest, WritesTheWholeContentsAndLeavesNoTemporaryFile) {
  const std::string path = dir_ + "/run.json";
  const std::string contents(300'000, 'x');
  EXPECT_EQ(write_file_atomically(path, contents), std::nullopt);
  EXPECT_EQ(read(path), contents);
  EXPECT_EQ(entries(), std::vector<std::string>{"run.json"});
}

TEST_F(AtomicFileTest, ReplacesAnExistingFileAndGivesItAnOrdinaryMode) {
  const std::string path = dir_ + "/run.csv";
  ASSERT_EQ(write_file_atomically(path, "old, longer contents\n"), std::nullopt);
  ASSERT_EQ(write_file_atomically(path, "new\n"), std::nullopt);
  EXPECT_EQ(read(path), "new\n");
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask) << "not mkstemp's 0600";
}

TEST_F(AtomicFileTest, AMissingDirectoryIsTheSystemsReason) {
  EXPECT_EQ(write_file_atomically(dir_ + "/no/such/dir/run.json", "{}"),
            std::optional<std::string>("No such file or directory"));
}

TEST_F(AtomicFileTest, ADirectoryIsNotOverwritten) {
  EXPECT_EQ(write_file_atomically(dir_, "{}"), std::optional<std::string>("Is a directory"));
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFileTest, AFailureLeavesThePreviousFileAndNoTemporaryFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into a read-only directory";
  const std::string path = dir_ + "/run.json";
  ASSERT_EQ(write_file_atomically(path, "previous"), std::nullopt);
  ASSERT_EQ(::chmod(dir_.c_str(), 0500), 0);
  EXPECT_EQ(write_file_atomically(path, "next"), std::optional<std::string>("Permission denied"));
  ::chmod(dir_.c_str(), 0700);
  EXPECT_EQ(read(path), "previous");
  EXPECT_EQ(entries(), std::vector<std::string>{"run.json"});
}

// A write that fails halfway, after the temporary file exists (a full disk, a quota): the
// file size limit makes one for any user, root included (root ignores a read-only directory).
TEST_F(AtomicFileTest, AWriteThatFailsHalfwayLeavesThePreviousFileAndNoTemporaryFile) {
  const std::string path = dir_ + "/run.json";
  ASSERT_EQ(write_file_atomically(path, "previous"), std::nullopt);
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = 4096;
  // Past the limit write() fails with EFBIG instead of the process dying of SIGXFSZ.
  void (*saved_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::optional<std::string> error =
      write_file_atomically(path, std::string(100'000, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, saved_handler);
  EXPECT_EQ(error, std::optional<std::string>("File too large"));
  EXPECT_EQ(read(path), "previous");
  EXPECT_EQ(entries(), std::vector<std::string>{"run.json"});
}

TEST_F(AtomicFileTest, AFileWhereADirectoryShouldBeIsTheSystemsReason) {
  const std::string file = dir_ + "/plain";
  ASSERT_EQ(write_file_atomically(file, "x"), std::nullopt);
  EXPECT_EQ(write_file_atomically(file + "/run.json", "{}"),
            std::optional<std::string>("Not a directory"));
  EXPECT_EQ(entries(), std::vector<std::string>{"plain"});
}

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
