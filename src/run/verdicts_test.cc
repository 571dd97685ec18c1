// SPDX-License-Identifier: MIT
// The verdict rules on fabricated results: one row per threshold, on each side of it, and the
// cases where a verdict once named the wrong cause (issue 10 item 11).
#include "run/verdicts.h"

#include "run/verdicts_testing.h"
#include "stats/censored_tail.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

namespace hammer {
namespace {

using T = VerdictThresholds;

using verdicts_testing::codes_of;
using verdicts_testing::Fabricated;

struct Row {
  std::string why;
  Fabricated run;
  std::vector<VerdictCode> expected;
};

TEST(VerdictRulesTest, EachThresholdDecidesOnItsSide) {
  const int64_t ms = 1'000'000;
  std::vector<Row> rows;
  {
    Row row{"on schedule: nothing to say", Fabricated(1000, 10, ms, ms), {}};
    rows.push_back(row);
  }
  {
    // 2% of 1000 late with every connection busy is not yet a growing backlog: a note.
    Row row{"server late at 2%: a note", Fabricated(1000, 10, ms, ms),
            {VerdictCode::server_behind}};
    row.run.result.lag.behind_server = 20;
    rows.push_back(row);
  }
  {
    // Over 2%: the backlog grew. 2 ms at 1000 req/s needs 2 connections; 10 are plenty, and
    // the server sustained the rate: no verdict on the cause, the note stays.
    Row row{"server late at 2.1%, rate sustained", Fabricated(1000, 10, 2 * ms, 2 * ms),
            {VerdictCode::server_behind}};
    row.run.result.lag.behind_server = 21;
    rows.push_back(row);
  }
  {
    Row row{"backlog grew, sustained just under 95%: over capacity",
            Fabricated(1000, 10, 2 * ms, 2 * ms), {VerdictCode::over_capacity}};
    row.run.result.lag.behind_server = 21;
    row.run.result.completed = 949;
    rows.push_back(row);
  }
  {
    // unsent over max(10, 1%): the backlog was left, whatever was sustained.
    Row row{"11 of 1000 unsent: over capacity", Fabricated(1000, 10, 2 * ms, 2 * ms),
            {VerdictCode::over_capacity}};
    row.run.result.unsent = 11;
    rows.push_back(row);
  }
  {
    Row row{"10 of 1000 unsent: within the allowance", Fabricated(1000, 10, 2 * ms, 2 * ms),
            {}};
    row.run.result.unsent = 10;
    rows.push_back(row);
  }
  {
    // Issue 10 (QA): requests due with no connection up are failed requests, not a backlog:
    // they say nothing of the server's capacity.
    Row row{"100 unsent with no connection up: no backlog verdict, but failed requests",
            Fabricated(1000, 10, 2 * ms, 2 * ms), {VerdictCode::failed_requests}};
    row.run.result.unsent = row.run.result.unsent_no_connection = 100;
    rows.push_back(row);
  }
  {
    Row row{"11 unsent behind busy connections beside 100 with none up: over capacity",
            Fabricated(1000, 10, 2 * ms, 2 * ms),
            {VerdictCode::failed_requests, VerdictCode::over_capacity}};
    row.run.result.unsent = 111;
    row.run.result.unsent_no_connection = 100;
    rows.push_back(row);
  }
  {
    // 5 ms at 4000 req/s needs 20 connections; no queueing (median = fastest).
    Row row{"need 20, have 10, no queueing: too few connections",
            Fabricated(4000, 10, 5 * ms, 5 * ms), {VerdictCode::too_few_connections}};
    row.run.result.unsent = 100;
    rows.push_back(row);
  }
  {
    // The same, but the median is over 4x the fastest: the server queues, more connections
    // would only queue more.
    Row row{"median over 4x the fastest: the server queues: over capacity",
            Fabricated(4000, 10, 5 * ms, ms), {VerdictCode::over_capacity}};
    row.run.result.unsent = 100;
    rows.push_back(row);
  }
  {
    Row row{"median under 4x the fastest: not queueing", Fabricated(4000, 10, 3'900'000, ms),
            {VerdictCode::too_few_connections}};
    row.run.result.unsent = 100;
    rows.push_back(row);
  }
  {
    // Issue 10 item 11: -r 3000 -c 1 against a fast server, latencies spread by the machine.
    // One connection cannot queue at the server: too few connections, not over capacity.
    Row row{"-c 1 with a wide spread: too few connections",
            Fabricated(3000, 1, 600'000, 50'000), {VerdictCode::too_few_connections}};
    row.run.result.unsent = 1377;
    row.run.result.completed = 1623;
    rows.push_back(row);
  }
  {
    // -c 1 -p 8 against a server doing 2,000 req/s offered 4,000: the eight pipelined requests
    // queue at the server (median 4 ms, fastest 0.5 ms). It was called "too few connections:
    // about 20 would", as if one connection could not queue.
    Row row{"-c 1 -p 8, median 8x the fastest: the server queues: over capacity",
            Fabricated(4000, 1, 4 * ms, ms / 2), {VerdictCode::over_capacity}};
    row.run.config.pipeline = 8;
    row.run.result.unsent = 2000;
    row.run.result.completed = 2000;
    rows.push_back(row);
  }
  {
    // 1.9 ms at 4000 req/s is 7.6 in flight: one connection carrying 8 does, no verdict on
    // the connections (the backlog is the server's).
    Row row{"-c 1 -p 8 carries 8 in flight: not too few connections",
            Fabricated(4000, 1, 1'900'000, 1'900'000), {VerdictCode::over_capacity}};
    row.run.config.pipeline = 8;
    row.run.result.unsent = 100;
    rows.push_back(row);
  }
  {
    Row row{"-c 1 -p 4 with 8 in flight needed: too few connections",
            Fabricated(4000, 1, 2 * ms, 2 * ms), {VerdictCode::too_few_connections}};
    row.run.config.pipeline = 4;
    row.run.result.unsent = 100;
    rows.push_back(row);
  }
  {
    // hammer's own lateness: a warning where it can move a reported corrected percentile by
    // more than a tenth (kGeneratorShiftShare), a note where it is only common.
    Row row{"hammer 3 ms late for 10 of 1000 answered in 1 ms: p99.9 is its (4 ms, not 1)",
            Fabricated(1000, 10, ms, ms), {VerdictCode::generator_saturated}};
    row.run.corrected_spread(990, ms, 10, 3 * ms, ms);
    rows.push_back(row);
  }
  {
    Row row{"hammer late for 9: under the minimum of 10, whatever it moves",
            Fabricated(1000, 10, ms, ms), {}};
    row.run.corrected_spread(991, ms, 9, 3 * ms, ms);
    rows.push_back(row);
  }
  {
    // A pausing server's tail (7% at 200 ms) above hammer's 3 ms lateness on 30 requests:
    // those sit between p90 (1 ms) and p95 (200 ms) and move neither.
    Row row{"hammer late for 30 of 1000, far below the tail it would be blamed for: a note",
            Fabricated(1000, 10, ms, ms), {VerdictCode::generator_late}};
    row.run.corrected_spread(900, ms, 30, 3 * ms, 200 * ms);
    rows.push_back(row);
  }
  {
    // An older document without generator_late_latency: the 30 may sit anywhere, but at most
    // 3 ms of 200 ms (p95) or nothing of 1 ms (p90, with 3% more below it all at 1 ms) is
    // theirs.
    Row row{"the same from an older document: the worst case still moves nothing by a tenth",
            Fabricated(1000, 10, ms, ms), {VerdictCode::generator_late}};
    row.run.corrected_spread(900, ms, 30, 3 * ms, 200 * ms);
    row.run.result.lag.generator_late_latency.reset();
    rows.push_back(row);
  }
  {
    Row row{"hammer late for 10 of 1000, moving nothing: not over 1%, no note",
            Fabricated(1000, 10, ms, ms), {}};
    row.run.corrected_spread(920, ms, 10, 3 * ms, 200 * ms);
    rows.push_back(row);
  }
  {
    // The harmless-lateness note leaves the server's own note standing.
    Row row{"a note on hammer's lateness and one on the server's",
            Fabricated(1000, 10, ms, ms),
            {VerdictCode::generator_late, VerdictCode::server_behind}};
    row.run.corrected_spread(900, ms, 30, 3 * ms, 200 * ms);
    row.run.result.lag.behind_server = 5;
    rows.push_back(row);
  }
  {
    // Stopped 0.7 s in a 1 s run at 200 req/s: 140 slots came due while hammer was not running
    // and were never sent; only 96 req/s were answered over the whole second. Not a backlog.
    Row row{"the slots due while hammer was absent are no backlog", Fabricated(200, 4, ms, ms),
            {}};
    row.run.result.unsent = 140;
    row.run.result.unsent_absent = 140;
    row.run.result.completed = 96;
    row.run.result.lag.absent_ns = 700 * ms;
    rows.push_back(row);
  }
  {
    Row row{"the same, one more unsent behind busy connections than the allowance: over capacity",
            Fabricated(200, 4, ms, ms), {VerdictCode::over_capacity}};
    row.run.result.unsent = 140;
    row.run.result.unsent_absent = 129;
    row.run.result.completed = 96;
    row.run.result.lag.absent_ns = 700 * ms;
    rows.push_back(row);
  }
  {
    Row row{"no answer at all: the run failed", Fabricated(1000, 10, ms, ms),
            {VerdictCode::run_failed}};
    row.run.result.completed = 0;
    row.run.result.uncorrected.reset();  // no answer: no latency on either stopwatch
    row.run.result.corrected.reset();
    row.run.result.errors[static_cast<int>(ErrorKind::timeout)] = 1000;
    rows.push_back(row);
  }

  {
    // A server that closes after each answer: every other request fails unanswered, which
    // no_working_answers (more failed than answered) does not catch. Said above the latencies.
    Row row{"half the requests closed unanswered: failed requests", Fabricated(1000, 10, ms, ms),
            {VerdictCode::failed_requests}};
    row.run.result.completed = 500;
    row.run.result.errors[static_cast<int>(ErrorKind::read)] = 500;
    rows.push_back(row);
  }
  {
    // Over 1% of those that ended (10 of 1000 + 10 is not): above kFailedShare.
    Row row{"11 of 1011 failed: failed requests", Fabricated(1000, 10, ms, ms),
            {VerdictCode::failed_requests}};
    row.run.result.errors[static_cast<int>(ErrorKind::write)] = 6;
    row.run.result.errors[static_cast<int>(ErrorKind::parse)] = 5;
    rows.push_back(row);
  }
  {
    Row row{"10 of 1010 failed: under 1%, counted, not said", Fabricated(1000, 10, ms, ms), {}};
    row.run.result.errors[static_cast<int>(ErrorKind::read)] = 10;
    rows.push_back(row);
  }
  {
    // Timeouts are censored_tail's: they are not counted again as failed requests.
    Row row{"timeouts only: the censored tail, no failed-requests warning",
            Fabricated(1000, 10, ms, ms), {VerdictCode::censored_tail}};
    row.run.result.completed = 900;
    row.run.result.errors[static_cast<int>(ErrorKind::timeout)] = 100;
    rows.push_back(row);
  }
  {
    // Nothing sent and nothing failed: no connect ever succeeded (connects are not failures
    // of a request, but a run that could send nothing did not work).
    Row row{"no request could be sent: the run failed", Fabricated(1000, 10, ms, ms),
            {VerdictCode::run_failed}};
    row.run.result.completed = row.run.result.sent = row.run.result.lag.dispatched = 0;
    row.run.result.uncorrected.reset();
    row.run.result.errors[static_cast<int>(ErrorKind::connect)] = 400;
    rows.push_back(row);
  }
  {
    // Issue 10 (QA): Ctrl-C while every request sent was still waiting is said as that, not
    // as "0 responses against 0 failed requests"; no backlog verdict follows it.
    Row row{"interrupted with everything in flight", Fabricated(1000, 4, ms, ms),
            {VerdictCode::interrupted_unanswered}};
    row.run.result.interrupted = true;
    row.run.result.completed = 0;
    row.run.result.uncorrected.reset();
    row.run.result.sent = row.run.result.in_flight_at_stop = 4;
    row.run.result.unsent = 600;
    rows.push_back(row);
  }
  {
    Row row{"interrupted with requests in flight after some timed out: the run failed",
            Fabricated(1000, 4, ms, ms), {VerdictCode::run_failed}};
    row.run.result.interrupted = true;
    row.run.result.completed = 0;
    row.run.result.uncorrected.reset();
    row.run.result.corrected.reset();
    row.run.result.sent = 8;
    row.run.result.in_flight_at_stop = 4;
    row.run.result.errors[static_cast<int>(ErrorKind::timeout)] = 4;
    rows.push_back(row);
  }
  {
    // Issue 10 (QA): --shard 2/2 -r 1 -d 1: the fleet's one slot went to shard 1.
    Row row{"a shard whose share of the schedule is empty has no work",
            Fabricated(1000, 10, ms, ms), {VerdictCode::no_work}};
    row.run.config.shard = ShardSpec{2, 2, true};
    row.run.result = RunResult{};
    rows.push_back(row);
  }
  {
    Row row{"an unsharded run with nothing sent is no 'no work': it failed",
            Fabricated(1000, 10, ms, ms), {VerdictCode::run_failed}};
    row.run.result = RunResult{};
    rows.push_back(row);
  }

  // Issue 10 (QA): a server that stops answering mid-run is not over capacity. 1000 due over
  // 1 s; `due_after` of them came due after the last answer.
  const auto stopped = [](int64_t due_after) {
    Fabricated run(1000, 10, ms, ms);
    run.result.due_after_last_answer = due_after;
    run.result.last_answer_ns = (1000 - due_after) * ms;
    run.result.unanswered_tail_ns = due_after * ms;
    run.result.completed = 1000 - due_after;
    run.result.sent = run.result.completed;
    run.result.unsent = run.result.unsent_no_connection = due_after;
    return run;
  };
  rows.push_back({"10 of 1000 due after the last answer: the last requests' latency",
                  stopped(10), {}});
  rows.push_back({"11 of 1000 due after the last answer: the server stopped (a warning)",
                  stopped(11), {VerdictCode::server_stopped_answering}});
  {
    // Killed at 0.7 s of 2 s, -r 2000 -c 4: 2,600 of 4,000 never answered, a backlog left
    // behind, the rate not sustained; once it read "over capacity ... exit 0".
    Row row{"65% due after the last answer, a backlog and the rate not sustained: stopped, "
            "not over capacity",
            stopped(650), {VerdictCode::server_stopped_answering}};
    row.run.result.unsent_no_connection = 500;  // 150 left behind busy connections
    row.run.result.lag.behind_server = 100;
    rows.push_back(row);
  }
  {
    // 650 ms without an answer before Ctrl-C, --timeout 2 s: the requests cut off may just
    // have been slow.
    Row row{"interrupted within --timeout of the last answer: not judged", stopped(650),
            {VerdictCode::over_capacity}};
    row.run.result.interrupted = true;
    row.run.result.unsent_no_connection = 0;  // a backlog behind busy connections
    row.run.result.completed = 350;
    rows.push_back(row);
  }
  {
    Row row{"interrupted after a silence longer than --timeout: the server had stopped",
            stopped(650), {VerdictCode::server_stopped_answering}};
    row.run.config.timeout_ns = 500 * ms;
    row.run.result.interrupted = true;
    row.run.result.unsent_no_connection = 0;
    row.run.result.in_flight_at_stop = 4;  // a frozen server: its requests still waited
    row.run.result.completed = 350;
    rows.push_back(row);
  }

  for (const Row& row : rows) {
    const std::vector<Verdict> verdicts = compute_verdicts(row.run.config, row.run.result, 2);
    EXPECT_EQ(codes_of(verdicts), row.expected) << row.why;
  }
}

}  // namespace
}  // namespace hammer
