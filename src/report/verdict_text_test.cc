// SPDX-License-Identifier: MIT
// Each verdict's words: its JSON code and its sentence, figures in place.
#include "report/verdict_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hammer {
namespace {

struct Row {
  Verdict verdict;
  std::string_view code;
  std::string sentence;
};

TEST(VerdictTextTest, EachVerdictHasItsCodeAndItsSentence) {
  const std::vector<Row> rows = {
      {InterruptedBeforeMeasuringVerdict{true, 120}, "interrupted_before_measuring",
       "interrupted during the warm-up: nothing was measured (the warm-up's own figures are in "
       "its own section)"},
      {InterruptedBeforeMeasuringVerdict{false, 0}, "interrupted_before_measuring",
       "interrupted before the first request: nothing was measured"},
      {InterruptedBeforeMeasuringVerdict{false, 0, true}, "interrupted_before_measuring",
       "interrupted during the ramp: nothing was measured (the ramp's own figures are in its "
       "own section)"},
      {InterruptedUnansweredVerdict{4, 0, 1'500'000'000}, "interrupted_unanswered",
       "interrupted after 1.50s: 4 requests were in flight, none answered; nothing was "
       "measured"},
      {InterruptedUnansweredVerdict{1, 0, 1'500'000'000}, "interrupted_unanswered",
       "interrupted after 1.50s: 1 request was in flight, not answered; nothing was measured"},
      {InterruptedUnansweredVerdict{4, 11, 1'500'000'000}, "interrupted_unanswered",
       "interrupted after 1.50s: 4 requests were in flight, none answered, and 11 more were due "
       "but not sent (every connection was waiting); nothing was measured"},
      {NoWorkVerdict{2, 2}, "no_work",
       "shard 2/2 had no requests to send: at this --rate and -d the fleet's schedule gave it "
       "no slot (its figures are empty; this is not a failure)"},
      {NoWorkVerdict{3, 3, true}, "no_work",
       "shard 3/3 had no requests to send: at this --rate and -n the fleet's schedule gave it "
       "no slot (its figures are empty; this is not a failure)"},
      {ServerStoppedAnsweringVerdict{700'000'000, 2'000'000'000, true, 2600, 4000, 0.65, 2500,
                                     true},
       "server_stopped_answering",
       "the run did not work: the server stopped answering 700.00ms into the 2.00s run; none of "
       "the 2600 requests due after that (65.0% of 4000) was answered (2500 could not be sent: "
       "no connection up); the figures describe the run until then, not a server over "
       "capacity"},
      {ServerStoppedAnsweringVerdict{1'900'000'000, 2'000'000'000, true, 200, 4000, 0.05, 0,
                                     false},
       "server_stopped_answering",
       "warning: the server stopped answering 1.90s into the 2.00s run; none of the 200 "
       "requests due after that (5.0% of 4000) was answered; the figures describe the run "
       "until then, not a server over capacity"},
      {ServerStoppedAnsweringVerdict{700'000'000, 2'000'000'000, false, 0, 0, 0.65, 0, true},
       "server_stopped_answering",
       "the run did not work: the server stopped answering 700.00ms into the 2.00s run; no "
       "answer in its last 1.30s (65.0% of the run); the figures describe the run until then, "
       "not a server over capacity"},
      {RunFailedVerdict{0, 0, 0, 300'000'000, 0, 120}, "run_failed",
       "the run did not work: no request could be sent (120 connects failed, none succeeded)"},
      {RunFailedVerdict{0, 0, 0, 300'000'000, 0, 0, 20, 40}, "run_failed",
       "the run did not work: no request of the measured part could be sent: every connection "
       "was still busy with an earlier request that got no answer (40 due, 20 connects "
       "succeeded)"},
      {RunFailedVerdict{0, 0, 0, 300'000'000, 0, 0, 2, 0}, "run_failed",
       "the run did not work: no request of the measured part could be sent: every connection "
       "was still busy with an earlier request that got no answer (2 connects succeeded)"},
      {RunFailedVerdict{0, 40, 40, 300'000'000}, "run_failed",
       "the run did not work: 0 responses against 40 failed requests (40 timed out after "
       "300.00ms); these latencies describe nothing"},
      {CensoredTailVerdict{40, 2000, 2'000'000'000, 98.0, {99, 99.9, 99.99}}, "censored_tail",
       "warning: 40 of 2,000 requests (2.0%) timed out after 2.00s and have no latency: every "
       "percentile above 98% (here p99, p99.9, p99.99 and max) is only known to be over 2.00s, "
       "shown as > 2.00s"},
      {CensoredTailVerdict{1, 100'000, 2'000'000'000, 99.999, {}}, "censored_tail",
       "warning: 1 of 100,000 requests (0.001%) timed out after 2.00s and have no latency: "
       "every percentile above 99.999% (here max) is only known to be over 2.00s, shown as > "
       "2.00s"},
      {RunFailedVerdict{3, 40, 2, 300'000'000}, "run_failed",
       "the run did not work: 3 responses against 40 failed requests"},
      {RunFailedVerdict{0, 2, 2, 1'000'000'000, 2, 0, 2, 8, 8}, "run_failed",
       "the run did not work: 0 responses against 2 failed requests (2 timed out after 1.00s); "
       "these latencies describe nothing; 8 more were due and never sent, every connection "
       "waiting on an earlier one"},
      {MostlyNon2xxVerdict{{200, 210, {{503, 180}, {404, 15}, {500, 4}, {429, 1}}}},
       "mostly_non_2xx",
       "the run did not work: the server answered 200 of 210 requests with an error status (503 "
       "\u00d7180, 404 \u00d715, 500 \u00d74, ...); these latencies describe error responses, "
       "not the service"},
      {Non2xxResponsesVerdict{{20, 1000, {{404, 20}}}}, "non_2xx_responses",
       "warning: 20 of 1000 responses (2.0%) had an error status (404 \u00d720); the latencies "
       "below include them"},
      {FailedRequestsVerdict{697, 1394, 697, 0, 0, 0}, "failed_requests",
       "warning: 697 of 1,394 requests (50.0%) failed without an answer (read 697); the "
       "latencies below describe only the answered"},
      {FailedRequestsVerdict{1205, 20000, 0, 3, 2, 1200}, "failed_requests",
       "warning: 1,205 of 20,000 requests (6.0%) failed without an answer (write 3, parse 2, no "
       "connection up 1,200); the latencies below describe only the answered"},
      {TooFewConnectionsVerdict{1, 4000, 500'000, 2.0, 3, false}, "too_few_connections",
       "too few connections: -c 1 cannot carry 4000 req/s at 500.00us per request; about 3 "
       "connections would (Little's law: rate x latency)"},
      {TooFewConnectionsVerdict{1, 4000, 5'000'000, 5.0, 6, false, 4}, "too_few_connections",
       "too few connections: -c 1 -p 4 cannot carry 4000 req/s at 5.00ms per request; about 6 "
       "connections would (Little's law: rate x latency / 4 in flight per connection)"},
      {TooFewConnectionsVerdict{100, 9'000'000, 112'000'000, 1'008'000, 1'000'000, true},
       "too_few_connections",
       "too few connections: -c 100 cannot carry 9000000 req/s at 112.00ms per request; it "
       "would take about 1008000 connections (Little's law: rate x latency), more than -c "
       "allows (1000000): lower --rate, or split it over several hammers"},
      {OverCapacityVerdict{1623.4, 3000, 812, 90, 0}, "over_capacity",
       "over capacity: the server sustained 1623 req/s of the 3000 scheduled and the backlog "
       "kept growing (812 requests never sent); latencies now depend on the run's length, not "
       "the server"},
      {OverCapacityVerdict{100, 200, 40, 90, 400'000'000}, "over_capacity",
       "over capacity: the server sustained 100 req/s of the 200 scheduled (over the time "
       "hammer was running; it was not for 400.00ms) and the backlog kept growing (40 requests "
       "never sent); latencies now depend on the run's length, not the server"},
      {GeneratorSaturatedVerdict{50, 1000, 3'000'000, 2, 8, true, {99, 4'000'000, 3'000'000}, 0},
       "generator_saturated",
       "warning: hammer itself sent 50 requests late while a connection was idle (max lag "
       "3.00ms), which can account for up to 3.00ms of p99 (4.00ms); these numbers describe "
       "the generator, not the server: lower --rate or add --threads"},
      {GeneratorSaturatedVerdict{80, 400, 400'000'000, 2, 8, true, {99.9, 401'000'000, 400'000'000}, 80},
       "generator_saturated",
       "warning: hammer itself sent 80 requests late that came due while hammer was not running "
       "(max lag 400.00ms), which can account for up to 400.00ms of p99.9 (401.00ms); these "
       "numbers describe the generator, not the server: lower --rate or add --threads"},
      {GeneratorSaturatedVerdict{85, 1000, 17'600'000, 2, 8, false, {99, 18'000'000, 17'000'000},
                                 0, true, 17'500'000, 0.111},
       "generator_saturated",
       "warning: hammer itself sent 85 requests late while a connection was idle (max lag "
       "17.60ms), which can account for up to 17.00ms of p99 (18.00ms); these numbers "
       "describe the generator, not the server: hammer was held off the CPU (the host stalled "
       "for up to 17.50ms; its busiest thread ran 11.1% of the time), which a lower --rate or "
       "more --threads would not help: free the machine, or run again"},
      {GeneratorSaturatedVerdict{80, 400, 400'000'000, 2, 8, false, {}, 80, true, 0, 0.02},
       "generator_saturated",
       "warning: hammer itself sent 80 requests late that came due while hammer was not running "
       "(max lag 400.00ms); these numbers describe the generator, not the server: hammer was "
       "held off the CPU (its busiest thread ran 2.0% of the time), which a lower --rate or "
       "more --threads would not help: free the machine, or run again"},
      {GeneratorSaturatedVerdict{60, 1000, 9'000'000, 2, 8, false, {99.99, 9'500'000, 9'000'000},
                                 0, false, 0, 0.026, true},
       "generator_saturated",
       "warning: hammer itself sent 60 requests late while a connection was idle (max lag "
       "9.00ms), which can account for up to 9.00ms of p99.99 (9.50ms); these numbers "
       "describe the generator, not the server: hammer was not busy (its busiest thread ran 2.6% "
       "of the time), so a lower --rate or more --threads is unlikely to help: its threads were "
       "woken late, as on a busy machine; free the machine, or run again"},
      {GeneratorLateVerdict{{30, 1000, 3'000'000, 2, 8, true, {}, 10}}, "generator_late",
       "note: hammer itself sent 30 of 1000 requests late while a connection was idle or hammer "
       "was not running (10 of them; max lag 3.00ms); too few, or too little, to move a "
       "reported percentile by a tenth: the corrected latencies include that lag"},
      {GeneratorSaturatedVerdict{50, 1000, 3'000'000, 2, 8, true, {}, 0}, "generator_saturated",
       "warning: hammer itself sent 50 requests late while a connection was idle (max lag "
       "3.00ms); these numbers describe the generator, not the server: lower --rate or add "
       "--threads"},
      {GeneratorSaturatedVerdict{50, 1000, 3'000'000, 4, 2, false, {}, 0}, "generator_saturated",
       "warning: hammer itself sent 50 requests late while a connection was idle (max lag "
       "3.00ms); these numbers describe the generator, not the server: lower --rate (its 4 "
       "threads already cover the machine's 2 CPUs; more would only share them), or free the "
       "machine"},
      {GeneratorSaturatedVerdict{50, 1000, 3'000'000, 4, 0, false, {}, 0}, "generator_saturated",
       "warning: hammer itself sent 50 requests late while a connection was idle (max lag "
       "3.00ms); these numbers describe the generator, not the server: lower --rate"},
      {ServerBehindVerdict{7}, "server_behind",
       "note: 7 requests left late because every connection was busy waiting on the server; "
       "the corrected latencies include that wait"},
      {TimerFloorVerdict{1'000'000, 430'000, 900, 1'900'000}, "timer_floor",
       "note: this platform's timers limit dispatch precision: the poller sleeps in steps of "
       "1.00ms, and requests that found a connection idle still left 430.00us after their slot "
       "on average (max lag 1.90ms); the corrected latencies include that lag"},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(verdict_code_name(verdict_code(row.verdict)), row.code);
    EXPECT_EQ(verdict_sentence(row.verdict), row.sentence) << row.code;
  }
}

TEST(VerdictTextTest, JsonCarriesCodeTextAndNamedFigures) {
  const Verdict verdict = OverCapacityVerdict{1500.5, 2000, 300, 40, 0};
  JsonWriter json;
  write_verdict_json(verdict, json);
  EXPECT_EQ(json.str(),
            "{\"code\":\"over_capacity\",\"text\":\"" + verdict_sentence(verdict) +
                "\",\"figures\":{\"sustained_rate\":1500.5,\"rate\":2000,\"unsent\":300,"
                "\"peak_backlog\":40,\"absent_ns\":0}}");
}

}  // namespace
}  // namespace hammer

namespace hammer {
namespace {

TEST(VerdictTextTest, HostStalledNamesTheStallAndThePercentilesItCouldHaveMade) {
  HostStalledVerdict verdict;
  verdict.max_stall_ns = 312'000'000;
  verdict.max_stall_at_ns = 1'200'000'000;
  verdict.long_stalls = 2;
  verdict.lost_ns = 330'000'000;
  verdict.observed_ns = 10'000'000'000;
  verdict.moved = {{95, 12'000'000}, {99, 290'000'000}};
  EXPECT_EQ(verdict_code_name(verdict_code(Verdict{verdict})), "host_stalled");
  EXPECT_EQ(verdict_code_from_name("host_stalled"), VerdictCode::host_stalled);
  EXPECT_EQ(verdict_code_from_name("timer_floor"), VerdictCode::timer_floor);
  EXPECT_EQ(verdict_sentence(verdict),
            "warning: the host stalled: hammer's threads were held up to 312.00ms (1.20s into "
            "the run; 2 stalls over 10 ms, 330.00ms lost, 3.3% of the run); stalls that long "
            "could have made the corrected p95 (12.00ms) and p99 (290.00ms): they describe "
            "this machine, not the server; repeat the run on a quieter machine");
}

// Frozen for long enough, whatever the percentiles: the sentence says how long, and that the
// throughput and backlog are the machine's too (the over-capacity rule left that time out).
TEST(VerdictTextTest, HostStalledWithNoPercentileSaysHowLongTheHostWasFrozen) {
  HostStalledVerdict verdict;
  verdict.max_stall_ns = 465'000'000;
  verdict.max_stall_at_ns = 3'230'000'000;
  verdict.long_stalls = 81;
  verdict.lost_ns = 3'290'000'000;
  verdict.observed_ns = 4'140'000'000;
  verdict.frozen_ns = 2'900'000'000;
  verdict.frozen_share = 0.70;
  EXPECT_EQ(verdict_sentence(verdict),
            "warning: the host stalled: hammer's threads were held up to 465.00ms (3.23s into "
            "the run; 81 stalls over 10 ms, 3.29s lost, 79.5% of the run); frozen "
            "2.90s (70.0% of the measured time) in stalls of 50 ms and more, when hammer "
            "could neither send nor read: its throughput, backlog and latencies describe this "
            "machine as much as the server; repeat the run on a quieter machine");
}

TEST(VerdictTextTest, GeneratorBoundSuggestsThreadsOnlyWhileCoresAreLeft) {
  GeneratorBoundVerdict verdict{0.96, 0.97, 1, 2, true};
  EXPECT_EQ(verdict_code_name(verdict_code(Verdict{verdict})), "generator_bound");
  EXPECT_EQ(verdict_sentence(verdict),
            "warning: hammer's workers were on a CPU 96.0% of the run (busiest 97.0%): in a "
            "closed loop the request rate is then the generator's limit as much as the "
            "server's; add --threads, or spread the load over more machines");
  verdict.threads = 2;
  verdict.more_threads_help = false;
  EXPECT_NE(verdict_sentence(verdict).find("already cover the machine's 2 CPUs"),
            std::string::npos);
}

}  // namespace
}  // namespace hammer
