// SPDX-License-Identifier: MIT
// Issue 23: a sweep level the host stalled is run again. The test freezes hammer (SIGSTOP,
// then SIGCONT) for 0.3 s inside the first level of a short closed-loop sweep: the hiccup
// meter sees the gap, the level is repeated, and it is marked noisy only if its repeats did not
// settle it. How many repeats a busy machine needs is the machine's; the test judges structure
// (runs counted, marks where and only where the document says noisy), never speed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// The text row of `level`: right-aligned in the first 8 columns, with ~ when noisy.
std::string row_of(const std::string& out, int level, bool noisy) {
  const std::string head = std::to_string(level) + (noisy ? "~" : "");
  const std::string cell = std::string(8 - head.size(), ' ') + head + " ";
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(cell)) return line;
  }
  return "";
}

TEST(SweepNoiseTest, ALevelTheHostStalledIsRepeatedAndMarkedOnlyIfItStaysNoisy) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string saved = private_directory() + "sweep_noise.json";
  // Timed from hammer's SIGINT handler, put in place just before the first level connects: the
  // stop falls 0.5 s to 0.8 s into that level's 1.5 s run, inside it even when the level
  // starts a few hundred ms late on a busy machine.
  const Finished run = run_process(
      {hammer_binary(), "-c", "1,2", "-t", "1", "-d", "1500ms", "-o", saved, server.url()}, 60,
      {{SIGSTOP, 0.5}, {SIGCONT, 0.8}}, SIGINT);
  const std::string document_text = read_file(saved);
  ::unlink(saved.c_str());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  // Before the first level: the most it can take, two levels at three runs of 1.5 s.
  EXPECT_NE(run.out.find("  at most 6 runs, up to 9s: a level is run up to 2 more times"),
            std::string::npos)
      << run.out;

  std::string error;
  const auto document = parse_json(document_text, &error);
  ASSERT_TRUE(document.has_value()) << error << "\n" << document_text;
  const JsonValue* steps = document->find("sweep.steps");
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(steps->items.size(), 2u) << run.out;
  EXPECT_EQ(document->find("sweep.max_runs")->number, 6);

  // The stopped level was run again: the freeze is 20% of its run, over the 1% that disturbs.
  const JsonValue& stopped = steps->items[0];
  EXPECT_GE(stopped.find("runs")->number, 2) << run.out;
  bool any_noisy = false;
  bool any_settled_repeat = false;
  for (const JsonValue& step : steps->items) {
    const double runs = step.find("runs")->number;
    const bool noisy = step.find("noisy")->boolean;
    EXPECT_GE(runs, 1);
    EXPECT_LE(runs, 3);
    EXPECT_EQ(step.find("run_p99_ns")->items.size(), static_cast<size_t>(runs));
    // Noisy only after every repeat was made (nothing cut this sweep short).
    if (noisy) {
      EXPECT_EQ(runs, 3);
    }
    any_noisy = any_noisy || noisy;
    any_settled_repeat = any_settled_repeat || (runs > 1 && !noisy);
    // The row says what the document says: the mark where noisy, the runs where repeated.
    const int level = static_cast<int>(step.find("level")->number);
    const std::string row = row_of(run.out, level, noisy);
    ASSERT_FALSE(row.empty()) << "level " << level << (noisy ? " noisy" : "") << "\n" << run.out;
    if (noisy) {
      EXPECT_TRUE(row.ends_with("  noisy after 3 runs")) << row;
    } else if (runs > 1) {
      EXPECT_TRUE(row.ends_with("  " + std::to_string(static_cast<int>(runs)) + " runs")) << row;
    }
    EXPECT_TRUE(row_of(run.out, level, !noisy).empty()) << run.out;
  }
  // The legend and the note are there exactly when their rows are.
  EXPECT_EQ(run.out.find("\n~ noisy: ") != std::string::npos, any_noisy) << run.out;
  EXPECT_EQ(run.out.find("run again after the host stalled, and reproduced") != std::string::npos,
            any_settled_repeat)
      << run.out;
  const JsonValue* noisy_levels = document->find("sweep.noise.noisy_levels");
  ASSERT_NE(noisy_levels, nullptr);
  EXPECT_EQ(!noisy_levels->items.empty(), any_noisy);
  const JsonValue* repeated = document->find("sweep.noise.repeated_levels");
  ASSERT_NE(repeated, nullptr);
  ASSERT_FALSE(repeated->items.empty());
  EXPECT_EQ(repeated->items[0].number, 1);
}

}  // namespace
}  // namespace hammer::test
