// SPDX-License-Identifier: MIT
// The worker's HTTP/1.1 pipeline (-p) and the resends a polite close leaves (RFC 9112 §9.3.2),
// pass by pass on a ManualClock against the loopback stub (worker_test_harness.h), once per
// engine.
#include "run/worker_test_harness.h"

#include <string>

namespace hammer {
namespace {

class WorkerPipelineTest : public WorkerTest {};

INSTANTIATE_TEST_SUITE_P(Engines, WorkerPipelineTest, kEveryEngine, engine_test_name);

// -n REQUESTS in closed loop on `connections`, bounded by 24h that the manual clock never reaches.
Config request_count_config(int64_t connections, int64_t requests) {
  Config config = open_loop_config(0, connections);
  config.rate = 0;
  config.requests_count = requests;
  config.duration_ns = 86'400'000 * kMs;
  return config;
}

// Runs passes, the server answering everything before each, until the run says it is over
// (true) or 2000 passes went by (false); then ends the run.
bool answer_until_the_run_ends(Harness& harness, StubServer& server) {
  bool running = true;
  for (int i = 0; i < 2000 && running; ++i) {
    server.answer_all();
    running = harness.worker.run_pass();
  }
  harness.worker.end_run();
  return !running;
}

TEST_P(WorkerPipelineTest, PipelineClosedLoopKeepsNOutstandingPerConnectionAndRefillsPerResponse) {
  StubServer server;
  Config config = open_loop_config(0, 2);  // rate 0: closed loop
  config.rate = 0;
  config.pipeline = 3;
  Harness harness(config, server);
  harness.begin(1'000 * kMs);
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 6; }));  // 2 connections x 3
  EXPECT_EQ(harness.worker.in_flight(), 6);
  server.answer_all();
  ASSERT_TRUE(harness.pass_until([&] { return harness.worker.result().completed == 6; }));
  // Each response freed one place, refilled at once: 3 in flight per connection again.
  EXPECT_TRUE(harness.pass_until([&] { return server.pump() == 12; }));
  EXPECT_EQ(harness.worker.in_flight(), 6);
  EXPECT_EQ(harness.worker.result().sent, 12);
}

TEST_P(WorkerPipelineTest, PipelineOpenLoopPutsDueRequestsOnAConnectionWithRoomUpToN) {
  StubServer server;
  Config config = open_loop_config(1000, 1);  // one connection, a slot every 1 ms
  config.pipeline = 4;
  Harness harness(config, server);
  harness.begin(1'000 * kMs);
  harness.clock.set(harness.t0 + 5 * kMs + 500 * kUs);  // slots 0..5 due: 6 requests
  ASSERT_TRUE(harness.worker.run_pass());
  // Four go out on the one connection; the other two wait for a place.
  EXPECT_EQ(harness.worker.result().sent, 4);
  EXPECT_EQ(harness.worker.in_flight(), 4);
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 4; }));
  server.answer_all();
  ASSERT_TRUE(harness.pass_until([&] { return harness.worker.result().completed == 4; }));
  EXPECT_TRUE(harness.pass_until([&] { return harness.worker.result().sent == 6; }));
  // Latency runs from the intended time: slot 0 (t0) was answered at t0 + 5.5 ms.
  EXPECT_NEAR(harness.worker.result().corrected.max(), 5'500 * kUs, 10 * kUs);
}

// -p 4 behind an answer with Connection: close: the three requests behind it go again on a new
// connection, each sent (counted) once, none failed, their intended time kept.
TEST_P(WorkerPipelineTest, RequestsBehindAConnectionCloseAnswerAreSentAgainOnANewConnection) {
  StubServer server;
  Config config = open_loop_config(1000, 1);  // one connection, a slot every 1 ms
  config.pipeline = 4;
  Harness harness(config, server);
  harness.begin(1'000 * kMs);
  harness.clock.set(harness.t0 + 3 * kMs + 500 * kUs);  // slots 0..3 due: 4 requests
  ASSERT_TRUE(harness.worker.run_pass());
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 4; }));
  harness.clock.advance(200 * kUs);  // 3.7 ms: slot 4 (4 ms) is not due yet
  server.answer_one_and_close();
  const RunResult& result = harness.worker.result();
  ASSERT_TRUE(harness.pass_until([&] { return result.retried == 3; }));
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 7; }));  // again, elsewhere
  harness.clock.advance(200 * kUs);  // 3.9 ms
  server.answer_all();
  ASSERT_TRUE(harness.pass_until([&] { return result.completed == 4; }));
  EXPECT_EQ(result.sent, 4);
  EXPECT_EQ(result.failed_requests(), 0);
  EXPECT_EQ(harness.worker.in_flight(), 0);
  EXPECT_EQ(result.reconnects, 1);  // hammer replaced a connection with requests on it
  // Slot 3 (t0 + 3 ms), resent at 3.7 ms and answered at 3.9 ms: its corrected latency keeps
  // the intended time (0.9 ms, not 0.2 ms); the uncorrected one times the exchange that
  // answered it (0.2 ms, as every request's here).
  EXPECT_EQ(result.corrected.total_count(), 4);
  EXPECT_NEAR(result.corrected.min(), 900 * kUs, 10 * kUs);
  EXPECT_NEAR(result.uncorrected.max(), 200 * kUs, 10 * kUs);
}

// The server died with requests waiting to go again (a polite close, then refused connects):
// after the deadline no connection can take them, and the run ends there, failing them as read
// errors, rather than wait out the --timeout for a connection that never comes (a new user's
// -d 3 run against a server that stopped lasted 13 s).
TEST_P(WorkerPipelineTest, ResendsNoConnectionCanTakeDoNotHoldTheEndForTheTimeout) {
  StubServer server;
  Config config = open_loop_config(1000, 1);
  config.pipeline = 4;
  config.timeout_ns = 10'000 * kMs;
  Harness harness(config, server);
  harness.begin(10 * kMs);
  harness.clock.set(harness.t0 + 3 * kMs + 500 * kUs);  // slots 0..3 due: 4 requests
  ASSERT_TRUE(harness.worker.run_pass());
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 4; }));
  server.stop_listening();
  server.answer_one_and_close();
  const RunResult& result = harness.worker.result();
  ASSERT_TRUE(harness.pass_until([&] { return result.retried == 3; }));
  // Past the deadline, a millisecond a pass: the reconnects are refused, and the run ends
  // once none is left to try, long before the deadline's 10 s of drain.
  int64_t passes = 0;
  for (; passes < 2000 && harness.worker.run_pass(); ++passes) {
    harness.clock.advance(1 * kMs);
  }
  ASSERT_LT(passes, 2000) << "the run waited for a connection that could not come";
  EXPECT_LT(harness.clock.now_ns(), harness.t0 + 1'000 * kMs);
  harness.worker.end_run();
  EXPECT_EQ(result.completed, 1);
  EXPECT_EQ(result.error_count(ErrorKind::read), 3);
  EXPECT_EQ(harness.worker.in_flight(), 0);
}

TEST_P(WorkerPipelineTest, WithoutRetryRequestsBehindAConnectionCloseAnswerFail) {
  StubServer server;
  Config config = open_loop_config(1000, 1);
  config.pipeline = 4;
  config.retry = false;
  Harness harness(config, server);
  harness.begin(1'000 * kMs);
  harness.clock.set(harness.t0 + 3 * kMs + 500 * kUs);
  ASSERT_TRUE(harness.worker.run_pass());
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 4; }));
  server.answer_one_and_close();
  const RunResult& result = harness.worker.result();
  ASSERT_TRUE(harness.pass_until([&] { return result.error_count(ErrorKind::read) == 3; }));
  EXPECT_EQ(result.completed, 1);
  EXPECT_EQ(result.retried, 0);
  EXPECT_EQ(harness.worker.in_flight(), 0);
}

// A server that closes every connection before answering: each request goes once more, then
// fails; the worker never loops.
TEST_P(WorkerPipelineTest, ARequestIsSentAgainAtMostOnce) {
  StubServer server;
  Harness harness(open_loop_config(1000, 1), server);
  harness.begin(1'000 * kMs);
  harness.clock.set(harness.t0 + 500 * kUs);  // slot 0 due
  ASSERT_TRUE(harness.worker.run_pass());
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 1; }));
  server.close_all();
  const RunResult& result = harness.worker.result();
  ASSERT_TRUE(harness.pass_until([&] { return result.retried == 1; }));
  ASSERT_TRUE(harness.pass_until([&] { return server.pump() == 2; }));
  server.close_all();
  ASSERT_TRUE(harness.pass_until([&] { return result.error_count(ErrorKind::read) == 1; }));
  EXPECT_EQ(result.retried, 1);
  EXPECT_EQ(result.sent, 1);
  EXPECT_EQ(harness.worker.in_flight(), 0);
}

// -n in closed loop: the worker sends its share (all of N, as worker 0 of 1) and no more, over
// every connection and pipeline place, and ends its run once each is answered, long before the
// 24h bound (the manual clock never moves).
TEST_P(WorkerPipelineTest, ARequestCountStopsAtTheShareAndEndsWhenEveryOneIsAnswered) {
  StubServer server;
  Config config = request_count_config(3, 10);
  config.pipeline = 2;
  Harness harness(config, server);
  harness.begin(config.duration_ns);
  EXPECT_TRUE(answer_until_the_run_ends(harness, server));
  const RunResult& result = harness.worker.result();
  EXPECT_EQ(result.sent, 10);
  EXPECT_EQ(result.completed, 10);
  EXPECT_EQ(server.pump(), 10);
  EXPECT_EQ(harness.worker.in_flight(), 0);
}

// The warm-up's requests are not counted: the measured part still sends exactly N after it.
TEST_P(WorkerPipelineTest, ARequestCountCountsOnlyTheMeasuredPart) {
  StubServer server;
  Config config = request_count_config(2, 7);
  config.warmup_ns = 50 * kMs;
  Harness harness(config, server);
  harness.begin(config.warmup_ns + config.duration_ns);
  for (int i = 0; i < 20; ++i) {  // the warm-up: the clock stands in it
    server.answer_all();
    ASSERT_TRUE(harness.worker.run_pass());
  }
  harness.clock.set(harness.t0 + config.warmup_ns);
  EXPECT_TRUE(answer_until_the_run_ends(harness, server));
  const RunResult& result = harness.worker.result();
  ASSERT_NE(result.warmup, nullptr);
  EXPECT_GT(result.warmup->sent, 0);
  EXPECT_EQ(result.sent, 7);
  EXPECT_EQ(result.completed, 7);
  EXPECT_EQ(server.pump(), 7 + result.warmup->sent);
}

}  // namespace
}  // namespace hammer
