// SPDX-License-Identifier: MIT
// A capacity search cut by SIGINT or SIGTERM at any moment ends well: during a step, between
// two, during a step's connect, during the --control run, once or twice quickly. Each cut run
// prints every step it finished and marks the one the signal cut, writes its -o file, and exits
// by the README's rules (0, 2 or 3, never killed). Before run/interrupt.h, a signal that landed
// between two steps met the default action: only the header was printed, nothing written,
// and the process died of the signal (exit 130 under `timeout --preserve-status`).
//
// The steps are 300 ms, so one search (up to 8 steps and a control run) lasts a few seconds;
// the 20 cuts run four at a time, each against servers of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

struct Servers {
  ServerProcess capacity{{test_server_binary(), "--port", "0", "--mode", "capacity",
                          "--service-us", "1000", "--service-kind", "paced"}};
  ServerProcess control{{test_server_binary(), "--port", "0"}};
};

std::vector<std::string> search_args(const Servers& servers, const std::string& output) {
  return {hammer_binary(), "--rate", "200:5000", "--slo", "p99=50ms", "-c", "20", "-d", "300ms",
          "--timeout", "1s", "--control", servers.control.url(), "-o", output,
          servers.capacity.url()};
}

// The text rows of a sweep: a level right-aligned in the first 8 columns (with the noisy
// mark, ~, when its repeats left it unsettled), then the figures.
int text_rows(const std::string& out) {
  int rows = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() <= 8 || line[8] != ' ') continue;
    const size_t digits = line.find_first_not_of(' ');
    if (digits >= 8) continue;
    std::string level = line.substr(digits, 8 - digits);
    if (level.ends_with('~')) level.pop_back();
    if (level.find_first_not_of("0123456789.") == std::string::npos) ++rows;
  }
  return rows;
}

int count_of(const std::string& text, const std::string& what) {
  int count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

struct Cut {
  std::vector<TimedSignal> signals;
  std::string what;  // for failure messages
};

// What one cut run must show. Returns whether the signal cut the search (it may land after
// a quick run ended).
bool check_cut_run(const Cut& cut, const Finished& run, const std::string& output) {
  const std::string context = cut.what + "\n--- stdout:\n" + run.out + "\n--- stderr:\n" + run.err;
  EXPECT_FALSE(run.timed_out) << context;
  EXPECT_GE(run.exit_code, 0) << "killed by the signal: " << context;
  std::string error;
  const auto document = parse_json(read_file(output), &error);
  EXPECT_TRUE(document.has_value()) << "-o " << output << ": " << error << "\n" << context;
  if (!document) return false;
  const JsonValue* sweep = document->find("sweep");
  if (sweep == nullptr) {
    ADD_FAILURE() << "no sweep in the -o document: " << context;
    return false;
  }
  const JsonValue* interrupted = sweep->find("interrupted");
  EXPECT_TRUE(interrupted != nullptr && interrupted->kind == JsonValue::Kind::boolean) << context;
  const bool cut_short = interrupted != nullptr && interrupted->boolean;

  // Every step run, measured and control, in the order run; at most one cut, the last.
  std::vector<const JsonValue*> steps;
  for (const JsonValue& step : sweep->find("steps")->items) steps.push_back(&step);
  const size_t measured = steps.size();
  const JsonValue* control = sweep->find("control");
  if (control != nullptr && control->kind == JsonValue::Kind::object) {
    for (const JsonValue& step : control->find("steps")->items) steps.push_back(&step);
  }
  int cut_steps = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const JsonValue* flag = steps[i]->find("interrupted");
    if (flag == nullptr || !flag->boolean) continue;
    ++cut_steps;
    EXPECT_EQ(i + 1, steps.size()) << "a step after the cut one ran: " << context;
    EXPECT_TRUE(cut_short) << "a step was cut but the sweep says it was not: " << context;
  }
  EXPECT_LE(cut_steps, 1) << context;
  // The text shows the same steps, the cut one marked, and the note.
  EXPECT_EQ(text_rows(run.out), static_cast<int>(steps.size())) << context;
  EXPECT_EQ(count_of(run.out, "  interrupted after "), cut_steps) << context;
  EXPECT_EQ(count_of(run.out, "note: interrupted (Ctrl-C or SIGTERM)"), cut_short ? 1 : 0)
      << context;
  if (!cut_short) {
    // Not cut: the signal came after the last step; the search and its control run are whole.
    EXPECT_EQ(steps.size(), measured + 1) << "no control step in an uncut run: " << context;
  }

  // The README's exit status: 2 when no step worked, 3 when none met every SLO, else 0.
  bool any_worked = false;
  for (size_t i = 0; i < measured; ++i) {
    bool failed = false;
    for (const JsonValue& miss : steps[i]->find("misses")->items) {
      failed = failed || miss.text == "failed";
    }
    any_worked = any_worked || !failed;
  }
  const JsonValue* found = sweep->find("capacity.found");
  const bool met = found != nullptr && found->kind == JsonValue::Kind::boolean && found->boolean;
  const int expected_exit = !any_worked ? 2 : met ? 0 : 3;
  EXPECT_EQ(run.exit_code, expected_exit) << context;
  return cut_short;
}

TEST(InterruptTest, ACapacitySearchCutAtAnyMomentPrintsWritesAndExitsAsDocumented) {
  // One whole search first: how long it lasts here, now, so the cuts spread over all of it.
  const std::string directory = private_directory();
  double whole_s = 0;
  {
    Servers servers;
    ASSERT_TRUE(servers.capacity.ready() && servers.control.ready());
    const std::string output = directory + "interrupt_whole.json";
    const Finished whole = run_process(search_args(servers, output), 60);
    ASSERT_FALSE(whole.timed_out) << whole.err;
    ASSERT_TRUE(whole.exit_code == 0 || whole.exit_code == 3) << whole.err << whole.out;
    whole_s = whole.wall_s;
  }

  // 20 moments: the first hundreds of ms (the control probe, the first connect, the first
  // step) densely, then spread to the end, control run included. Every third sends a second
  // signal 15 ms after the first (which ends the grace at once); every other is SIGTERM.
  std::vector<Cut> cuts;
  const std::vector<double> early_s = {0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.3};
  for (size_t i = 0; i < 20; ++i) {
    const double spread = static_cast<double>(i - std::min(i, early_s.size())) /
                          static_cast<double>(20 - early_s.size() - 1);
    const double at_s = i < early_s.size() ? early_s[i] : 0.4 + (whole_s * 0.95 - 0.4) * spread;
    const int signal_number = i % 2 == 0 ? SIGINT : SIGTERM;
    Cut cut;
    cut.signals.push_back({signal_number, at_s});
    if (i % 3 == 2) cut.signals.push_back({signal_number, at_s + 0.015});
    char what[120];
    std::snprintf(what, sizeof what, "cut %zu: %s at %.3fs%s (a whole search took %.2fs)", i,
                  signal_number == SIGINT ? "SIGINT" : "SIGTERM", at_s,
                  cut.signals.size() > 1 ? " twice" : "", whole_s);
    cut.what = what;
    cuts.push_back(std::move(cut));
  }

  constexpr size_t kParallel = 4;
  std::mutex mutex;
  std::vector<Finished> runs(cuts.size());
  // One byte per thread (not std::vector<bool>, whose bits share words across threads).
  std::vector<char> ready(kParallel, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kParallel; ++t) {
    threads.emplace_back([&, t] {
      Servers servers;
      {
        const std::lock_guard<std::mutex> lock(mutex);
        ready[t] = servers.capacity.ready() && servers.control.ready() ? 1 : 0;
      }
      if (ready[t] == 0) return;
      for (size_t i = t; i < cuts.size(); i += kParallel) {
        const std::string output = directory + "interrupt_cut_" + std::to_string(i) + ".json";
        std::remove(output.c_str());
        runs[i] = run_process(search_args(servers, output), 60, cuts[i].signals);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t t = 0; t < kParallel; ++t) ASSERT_TRUE(ready[t]) << "servers did not start";

  int cut_short = 0;
  for (size_t i = 0; i < cuts.size(); ++i) {
    const std::string output = directory + "interrupt_cut_" + std::to_string(i) + ".json";
    if (check_cut_run(cuts[i], runs[i], output)) ++cut_short;
    std::remove(output.c_str());
  }
  // The cuts land within the time a lone search took, and four at once run slower: nearly
  // all of them cut a search under way.
  EXPECT_GE(cut_short, 15) << "of 20";
}

}  // namespace
}  // namespace hammer::test
