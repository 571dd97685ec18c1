// SPDX-License-Identifier: MIT
// What the text report says of a merged fleet (fleet_report.cc): the interrupted shard by
// name and time, a late shard's count in good English, and "the bottleneck" only where a
// shard's own lateness moves its percentiles.
#include "report/fleet_report.h"

#include <gtest/gtest.h>

#include <string>

#include "report/report_test_support.h"
#include "report/text_report.h"

namespace hammer {
namespace {

using testing::FabricatedRun;
using testing::open_loop_run;

using testing::two_shards;

// The text report of `run` merged from `fleet`'s shards.
std::string text_of(const FabricatedRun& run, const FleetSummary& fleet) {
  ReportInput input = run.input();
  input.fleet = &fleet;
  return render_text_report(input);
}

// A merged fleet whose shard 2 was interrupted after 1 s, the other running its 3 s: the note
// names that shard and its time, not the fleet's 3 s as if the whole merged run had stopped.
TEST(FleetReportTest, AMergedRunNamesTheShardThatWasInterrupted) {
  FabricatedRun run = open_loop_run();
  run.result.interrupted = true;
  run.result.elapsed_ns = 3'000'000'000;
  FleetSummary fleet = two_shards([](ShardSummary& shard) {
    shard.elapsed_ns = shard.index == 1 ? 3'000'000'000 : 1'030'000'000;
    shard.interrupted = shard.index == 2;
  });
  const std::string text = text_of(run, fleet);
  EXPECT_NE(text.find("note: interrupted: shard 2/2 (s2.json) after 1.03s;"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("interrupted after 3.00s"), std::string::npos) << text;
}

// A shard that sent one request late with a connection idle: "1 request", not "1 requests".
TEST(FleetReportTest, AShardsLateNoteCountsOneRequestInTheSingular) {
  FabricatedRun run = open_loop_run();
  FleetSummary fleet = two_shards([](ShardSummary& shard) {
    shard.elapsed_ns = 1'000'000'000;
    shard.lag.dispatched = 91;
    shard.lag.behind_generator = shard.index == 1 ? 1 : 7;
  });
  const std::string text = text_of(run, fleet);
  EXPECT_NE(text.find("shard 1/2 (s1.json) sent 1 request late by its own fault"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("shard 2/2 (s2.json) sent 7 requests late by its own fault"),
            std::string::npos)
      << text;
  // Neither moves a percentile of its own: not "the bottleneck".
  EXPECT_EQ(text.find("that generator was the bottleneck"), std::string::npos) << text;
}

// The fleet's note on a late shard follows the verdicts' rule: "the bottleneck" only where
// its own lateness moves one of its reported percentiles.
TEST(FleetReportTest, AShardIsTheBottleneckOnlyWhereItsLatenessMovesAPercentile) {
  FabricatedRun run = open_loop_run();
  FleetSummary fleet = two_shards([](ShardSummary& shard) {
    shard.elapsed_ns = 1'000'000'000;
    shard.lag.dispatched = 100;
    shard.lag.behind_generator = 20;
    shard.lag.generator_max_ns = 30'000'000;
    shard.generator_moves_percentile = shard.index == 2;
  });
  const std::string text = text_of(run, fleet);
  EXPECT_NE(text.find("shard 1/2 (s1.json) sent 20 requests late by its own fault (max lag "
                      "30.00ms): too little to move its percentiles by a tenth"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("shard 2/2 (s2.json) sent 20 requests late by its own fault (max lag "
                      "30.00ms): enough to move its percentiles; that generator was the "
                      "bottleneck"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace hammer
