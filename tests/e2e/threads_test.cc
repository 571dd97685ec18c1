// SPDX-License-Identifier: MIT
// The default thread count follows the CPUs the process may use: hammer started under
// `taskset -c 0` (util-linux) has one CPU, so -c 5 runs one thread, not four taking turns on it,
// and says why; an explicit -t above it is allowed and noted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

const char* taskset_path() {
  for (const char* path : {"/usr/bin/taskset", "/bin/taskset"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return nullptr;
}

// hammer on CPU 0 only.
Finished run_on_one_cpu(std::vector<std::string> args) {
  args.insert(args.begin(), {taskset_path(), "-c", "0", hammer_binary()});
  return run_process(args, 30);
}

TEST(ThreadsTest, OneCpuGivesOneThreadByDefaultAndNotesAnExplicitTAboveIt) {
#if HAMMER_PORTABLE
  // macOS has no CPU affinity masks, so its code path (platform/system_posix.cc) counts every
  // online CPU as usable and taskset's one CPU is not what it reads.
  GTEST_SKIP() << "the portable build (macOS's code path) has no CPU affinity to read";
#endif
  if (taskset_path() == nullptr) GTEST_SKIP() << "taskset (util-linux) is not installed";
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready()) << server.startup_output();

  const Finished defaulted = run_on_one_cpu({"-c", "5", "-d", "300ms", "--json", server.url()});
  ASSERT_EQ(defaulted.exit_code, 0) << defaulted.err;
  const JsonValue report = parse_report(defaulted);
  EXPECT_EQ(number_at(report, "config.threads"), 1);
  EXPECT_EQ(number_at(report, "config.cpus_available"), 1);
  ASSERT_NE(report.find("config.threads_from"), nullptr);
  EXPECT_EQ(report.find("config.threads_from")->text, "cpus");
  EXPECT_FALSE(notes_mention(report, "more threads than"));

  const Finished text = run_on_one_cpu({"-c", "5", "-d", "300ms", server.url()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  1 thread (the CPUs available), 5 connections"), std::string::npos)
      << text.out;

  const Finished asked = run_on_one_cpu({"-c", "5", "-t", "3", "-d", "300ms", "--json",
                                         server.url()});
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  const JsonValue asked_report = parse_report(asked);
  EXPECT_EQ(number_at(asked_report, "config.threads"), 3);
  EXPECT_EQ(asked_report.find("config.threads_from")->text, "flag");
  EXPECT_TRUE(notes_mention(asked_report, "-t 3 runs more threads than the 1 CPU available"))
      << asked.out;
}

}  // namespace
}  // namespace hammer::test
