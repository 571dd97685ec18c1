// SPDX-License-Identifier: MIT
// Open loop at one wake-up per request (issue 27): a worker wakes for its slots, and the
// responses that arrive between two of them wait for the next one, timed by the kernel's
// receive stamp. Judged on counts and ratios inside one run: a busy machine only merges
// slots into fewer wake-ups, and a stamp is the arrival's whenever hammer reads it.
#include <gtest/gtest.h>

#include <string>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

// Linux builds have receive stamps; the portable build (macOS's code path) wakes per response.
bool engine_sleeps_through_traffic() {
#if defined(__linux__) && !defined(HAMMER_PORTABLE)
  return true;
#else
  return false;
#endif
}

TEST(WakeupsTest, OpenLoopWakesOncePerRequestNotAlsoForEachResponse) {
  if (!engine_sleeps_through_traffic()) GTEST_SKIP() << "no receive stamps in this build";
  // 100 req/s over 10 connections: a free connection for every slot, so nothing waits on a
  // response. Before, each request cost two wake-ups: its slot's and its response's.
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(
      run_against_test_server({"--mode", "fast"}, {"-r", "100", "-c", "10", "-d", "2"}, &report));
  const double completed = number_at(report, "requests.completed");
  ASSERT_GT(completed, 100);
  const double sleeps = number_at(report, "wakes.sleeps");
  EXPECT_LE(sleeps / completed, 1.3) << sleeps << " wake-ups for " << completed << " requests";
  EXPECT_GT(number_at(report, "wakes.through_traffic"), completed / 2);
  // Every answer was timed by its arrival, none at a wake-up.
  EXPECT_GE(number_at(report, "wakes.stamped_reads"), completed);
  EXPECT_EQ(number_at(report, "wakes.unstamped_reads"), 0);
  EXPECT_EQ(report.find("wakes.stamps_refused")->boolean, false);
}

TEST(WakeupsTest, AResponseReadAtTheNextSlotIsTimedByItsArrival) {
  if (!engine_sleeps_through_traffic()) GTEST_SKIP() << "no receive stamps in this build";
  // The server answers 2 ms after each read; slots come every 50 ms (20 req/s), so a response
  // waits ~48 ms in its socket for the next slot's wake-up. Timed at that wake-up, its
  // uncorrected latency would be ~50 ms; by its arrival it is ~2 ms.
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(run_against_test_server({"--mode", "fast", "--read-delay-us", "2000"},
                                                  {"-r", "20", "-c", "4", "-d", "2"}, &report));
  ASSERT_GT(number_at(report, "requests.completed"), 20);
  EXPECT_GT(number_at(report, "wakes.through_traffic"), 0);
  const double slot_ns = 50e6;
  EXPECT_GE(number_at(report, "latency.uncorrected.percentiles_ns.50"), 2e6) << "the server's own 2 ms";
  EXPECT_LT(number_at(report, "latency.uncorrected.percentiles_ns.50"), slot_ns / 2)
      << "timed at the next slot's wake-up, not at the response's arrival";
  EXPECT_LT(number_at(report, "latency.corrected.percentiles_ns.50"), slot_ns / 2);
}

TEST(WakeupsTest, LargeResponsesAreReadAsTheyComeNotLeftToStallTheServer) {
  if (!engine_sleeps_through_traffic()) GTEST_SKIP() << "no receive stamps in this build";
  // 1 MB bodies, far more than a socket's buffer holds: left in it until the next slot
  // (250 ms away at 4 req/s), each would stall the server on a full window and arrive only
  // after that wake-up. From the first large one on, the worker wakes for every response.
  JsonValue report;
  ASSERT_NO_FATAL_FAILURE(run_against_test_server({"--mode", "fast", "--body-bytes", "1000000"},
                                                  {"-r", "4", "-c", "2", "-d", "3"}, &report));
  ASSERT_GE(number_at(report, "requests.completed"), 8);
  EXPECT_EQ(report.find("wakes.large_responses")->boolean, true);
  const double slot_ns = 250e6;
  EXPECT_LT(number_at(report, "latency.uncorrected.percentiles_ns.50"), slot_ns / 2)
      << "the bodies waited for the next slot's wake-up";
  EXPECT_TRUE(notes_mention(report, "KiB or more: hammer woke for each response"));
}

}  // namespace
}  // namespace hammer::test
