// SPDX-License-Identifier: MIT
// StdoutWriter against real files: a full device (/dev/full: every write fails with ENOSPC)
// and an ordinary temporary file.
#include "cli/stdout_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace hammer {
namespace {

TEST(StdoutWriterTest, AFullDiskIsAFailureWithItsReasonAtTheWriteOrTheClose) {
  std::FILE* full = std::fopen("/dev/full", "w");
  if (full == nullptr) GTEST_SKIP() << "no /dev/full on this system";
  StdoutWriter writer(full);
  EXPECT_FALSE(writer.write("{\"report\": 1}\n"));  // the flush after the write fails
  EXPECT_TRUE(writer.failed());
  EXPECT_EQ(writer.error(), "cannot write to standard output: No space left on device");
  EXPECT_FALSE(writer.write("more"));  // nothing after the first failure
  EXPECT_FALSE(writer.close());
  EXPECT_EQ(writer.error(), "cannot write to standard output: No space left on device");
}

TEST(StdoutWriterTest, AnOrdinaryFileGetsEveryByte) {
  char path[] = "/tmp/hammer-stdout-writer-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::FILE* file = std::fopen(path, "w");
  ASSERT_NE(file, nullptr);
  StdoutWriter writer(file);
  EXPECT_TRUE(writer.write("line one\n"));
  EXPECT_TRUE(writer.write("line two\n"));
  EXPECT_TRUE(writer.close());
  EXPECT_FALSE(writer.failed());
  std::FILE* back = std::fopen(path, "r");
  ASSERT_NE(back, nullptr);
  char buffer[64] = {};
  const size_t got = std::fread(buffer, 1, sizeof buffer - 1, back);
  std::fclose(back);
  std::remove(path);
  EXPECT_EQ(std::string(buffer, got), "line one\nline two\n");
}

}  // namespace
}  // namespace hammer
