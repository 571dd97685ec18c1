// SPDX-License-Identifier: MIT
// The Host line: the longest stall and when, the long ones counted and summed, and their share
// of the span the meter watched (the run and its drain), named as such.
#include "report/host_report.h"

#include <gtest/gtest.h>

#include <string>

#include "run/host_reading.h"

namespace hammer {
namespace {

// A 3 s run whose drain waited on --timeout 10 s: the meter watched 13 s, and a stall at 5.77 s
// sits in the drain. "5.2% of the run" beside "3.00s" read as a wrong share and a wrong time.
TEST(HostReportTest, TheShareOfTimeLostNamesTheSpanTheMeterWatched) {
  HostReading host;
  host.meters = 1;
  host.observed_ns = 13'000'000'000;
  host.max_ns = 103'940'000;
  host.long_count = 26;
  host.long_sum_ns = 679'680'000;
  host.long_stalls.push_back({5'770'000'000, 103'940'000});
  host.steal_ns = 0;
  EXPECT_EQ(host_line(host),
            "Host           max stall 103.94ms at 5.77s, 26 stalls over 10ms (679.68ms lost, "
            "5.2% of the 13.00s watched, drain included), steal 0ns");
  host.long_count = 0;
  host.long_stalls.clear();
  host.max_ns = 2'000'000;
  EXPECT_EQ(host_line(host), "Host           max stall 2.00ms, no stall over 10ms, steal 0ns");
}

}  // namespace
}  // namespace hammer
