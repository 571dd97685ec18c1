// SPDX-License-Identifier: MIT
#include "run/result.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

RunResult part(int64_t index) {
  RunResult result;
  result.scheduled = 10 * index;
  result.sent = 9 * index;
  result.completed = 8 * index;
  result.unsent = index;
  result.errors[static_cast<int>(ErrorKind::timeout)] = index;
  result.status_codes[200] = 8 * index;
  result.status_classes[1] = 8 * index;
  result.reconnects = index;
  result.unsolicited = 2 * index;
  result.in_flight_at_stop = index;
  result.first_socket_error = "read: part " + std::to_string(index);
  result.uncorrected.record(1'000 * index);
  result.lag.threshold_ns = 1'000'000;
  result.lag.dispatched = 9 * index;
  result.lag.max_ns = 100 * index;
  result.lag.peak_backlog = 5 - index;
  result.lag.behind_server = index;
  result.lag.histogram.record(100 * index);
  return result;
}

TEST(RunResultTest, AddingPartsSumsCountsKeepsMaximaAndTheFirstReason) {
  RunResult total;
  total.add(part(1));
  total.add(part(2));
  EXPECT_EQ(total.scheduled, 30);
  EXPECT_EQ(total.sent, 27);
  EXPECT_EQ(total.completed, 24);
  EXPECT_EQ(total.unsent, 3);
  EXPECT_EQ(total.error_count(ErrorKind::timeout), 3);
  EXPECT_EQ(total.status_codes[200], 24);
  EXPECT_EQ(total.status_classes[1], 24);
  EXPECT_EQ(total.connection_events(), 3 + 6);
  EXPECT_EQ(total.in_flight_at_stop, 3);
  EXPECT_EQ(total.first_socket_error, "read: part 1");
  EXPECT_EQ(total.uncorrected.total_count(), 2);
  EXPECT_EQ(total.lag.dispatched, 27);
  EXPECT_EQ(total.lag.max_ns, 200);
  EXPECT_EQ(total.lag.peak_backlog, 4);  // the larger of 4 and 3, not their sum
  EXPECT_EQ(total.lag.behind_server, 3);
  EXPECT_EQ(total.lag.histogram.total_count(), 2);
  EXPECT_EQ(total.warmup, nullptr);
}

TEST(RunResultTest, AWarmUpInAnyPartMakesOneInTheTotal) {
  RunResult with_warmup = part(1);
  with_warmup.warmup = std::make_shared<RunResult>(part(3));
  RunResult total;
  total.add(part(2));
  total.add(with_warmup);
  ASSERT_NE(total.warmup, nullptr);
  EXPECT_EQ(total.warmup->completed, 24);
  EXPECT_NE(total.warmup.get(), with_warmup.warmup.get()) << "the total owns its own copy";
}

}  // namespace
}  // namespace hammer
