// SPDX-License-Identifier: MIT
// host_stalled and generator_bound on fabricated results: a stall is named only when it could
// have made a reported percentile, the generator only above 90% of its time on a CPU.
#include "run/host_verdicts.h"

#include "stats/censored_tail.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <variant>

namespace hammer {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSecond = 1'000 * kMs;

// An open-loop run of 10 s at 1000 req/s, every request answered in 1 ms (corrected), beside a
// hiccup meter that saw `stalls` (length, from t0).
struct StalledRun {
  Config config;
  RunResult result;

  explicit StalledRun(std::vector<HostStall> stalls, bool open_loop = true) {
    config.rate = open_loop ? 1000 : 0;
    config.connections = 10;
    config.threads = 2;
    config.duration_ns = 10 * kSecond;
    result.elapsed_ns = 10 * kSecond;
    result.completed = result.sent = 10'000;
    (open_loop ? result.corrected : result.uncorrected).record_n(1 * kMs, result.completed);
    HostReading& host = result.host;
    host.meters = 1;
    host.interval_ns = 2 * kMs;
    host.observed_ns = result.elapsed_ns;
    for (const HostStall& stall : stalls) host.record_oversleep(stall.at_ns, stall.length_ns);
  }
};

std::vector<double> moved_of(const std::optional<HostStalledVerdict>& verdict) {
  std::vector<double> qs;
  if (verdict) {
    for (const PercentileFigure& moved : verdict->moved) qs.push_back(moved.q);
  }
  return qs;
}

TEST(HostStalledTest, AQuietHostSaysNothing) {
  StalledRun run({});
  EXPECT_FALSE(host_stalled_verdict(run.config, run.result));
  // Stalls of 10-49 ms, as a busy CI machine has them all the time, say nothing either,
  // however many: each is below the 50 ms a stall needs to count.
  StalledRun busy({{1 * kSecond, 40 * kMs}, {2 * kSecond, 45 * kMs}, {3 * kSecond, 49 * kMs},
            {4 * kSecond, 30 * kMs}});
  EXPECT_FALSE(host_stalled_verdict(busy.config, busy.result));
}

TEST(HostStalledTest, OpenLoopAStallNamesThePercentilesItsDelayedSlotsCanMake) {
  // 300 ms frozen in 10 s: 3% of the slots came due in it, each waiting 0-300 ms. Above p99's
  // 1 ms that is ~2.99% of the slots: p99 can be the stall's, p95 (5% above it) cannot.
  StalledRun run({{4 * kSecond, 300 * kMs}});
  const auto verdict = host_stalled_verdict(run.config, run.result);
  ASSERT_TRUE(verdict);
  EXPECT_EQ(moved_of(verdict), (std::vector<double>{99}));
  EXPECT_EQ(verdict->max_stall_ns, 300 * kMs);
  EXPECT_EQ(verdict->max_stall_at_ns, 4 * kSecond);
  EXPECT_EQ(verdict->lost_ns, 300 * kMs);
  EXPECT_TRUE(verdict->corrected);
  // With --latency the spectrum printed goes on: p99.9 and p99.99 are the stall's too.
  run.config.print_latency = true;
  EXPECT_EQ(moved_of(host_stalled_verdict(run.config, run.result)),
            (std::vector<double>{99, 99.9, 99.99}));
}

// The figures quoted are the table's: of every request that ended, timed-out ones slower
// than any answer; a censored one ("> 100.00ms") is a bound no stall made, never quoted (a new
// user's trial read "p99 (82.97ms)" beside the table's "99% > 100.00ms").
TEST(HostStalledTest, TheFiguresQuotedAreTheTablesAndNoCensoredOne) {
  StalledRun run({{4 * kSecond, 300 * kMs}});
  run.config.print_latency = true;
  run.config.timeout_ns = 100 * kMs;
  run.result.errors[static_cast<int>(ErrorKind::timeout)] = 5;  // 5 of 10,005: p99.99 censored
  const auto verdict = host_stalled_verdict(run.config, run.result);
  ASSERT_TRUE(verdict);
  const CensoredTail tail = censored_tail(run.result.corrected, 5, 100 * kMs);
  EXPECT_EQ(moved_of(verdict), (std::vector<double>{99, 99.9}));
  for (const PercentileFigure& moved : verdict->moved) {
    const TailFigure shown = tail.at(run.result.corrected, moved.q);
    EXPECT_FALSE(shown.censored) << moved.q;
    EXPECT_EQ(moved.value_ns, shown.value_ns) << moved.q;
  }
}

TEST(HostStalledTest, OpenLoopStallsShorterThanAPercentileNeverMakeIt) {
  // 60 ms stalls, but every answer took 200 ms of the server's: the stalls account for less
  // than half of any figure, so they made no reported percentile. One of them is 0.6% of the
  // run: nothing to say.
  StalledRun once({{4 * kSecond, 60 * kMs}});
  once.result.corrected.reset();
  once.result.corrected.record_n(200 * kMs, once.result.completed);
  EXPECT_FALSE(host_stalled_verdict(once.config, once.result));
  // Ten of them add to 6% of the run: the host was frozen for long enough that the verdict
  // stands, naming no percentile.
  StalledRun run({{1 * kSecond, 60 * kMs}, {2 * kSecond, 60 * kMs}, {3 * kSecond, 60 * kMs},
           {4 * kSecond, 60 * kMs}, {5 * kSecond, 60 * kMs}, {6 * kSecond, 60 * kMs},
           {7 * kSecond, 60 * kMs}, {8 * kSecond, 60 * kMs}, {9 * kSecond, 60 * kMs},
           {9 * kSecond + 500 * kMs, 60 * kMs}});
  run.result.corrected.reset();
  run.result.corrected.record_n(200 * kMs, run.result.completed);
  const auto verdict = host_stalled_verdict(run.config, run.result);
  ASSERT_TRUE(verdict);
  EXPECT_TRUE(verdict->moved.empty());
  EXPECT_EQ(verdict->frozen_ns, 600 * kMs);
  EXPECT_DOUBLE_EQ(verdict->frozen_share, 0.06);
}

// Frozen time is what the stalls of 50 ms and more cover within the measured part, per meter:
// a stall that began in the warm-up counts from the measured start on, one past the end up to
// it, and shards' stalls are averaged over their meters.
TEST(HostStalledTest, FrozenTimeIsClippedToTheMeasuredPartAndSharedByMeters) {
  StalledRun run({{900 * kMs, 300 * kMs}, {10 * kSecond + 900 * kMs, 300 * kMs}});
  run.config.warmup_ns = 1 * kSecond;  // measured from 1 s to 11 s
  EXPECT_EQ(host_frozen_ns(run.config, run.result), 200 * kMs + 100 * kMs);
  run.result.host.meters = 2;
  EXPECT_EQ(host_frozen_ns(run.config, run.result), 150 * kMs);
  run.result.host.meters = 0;
  EXPECT_EQ(host_frozen_ns(run.config, run.result), 0);
}

TEST(HostStalledTest, ClosedLoopOneStallDelaysOnlyTheRequestsInFlight) {
  // 5 connections, 10,000 answers: one stall delays 5 of them (0.05%): p99.99 only, which
  // the short report does not print. (100 ms is 1% of the run: not yet frozen for long.)
  StalledRun run({{4 * kSecond, 100 * kMs}}, /*open_loop=*/false);
  run.config.connections = 5;
  EXPECT_FALSE(host_stalled_verdict(run.config, run.result));
  run.config.print_latency = true;
  EXPECT_EQ(moved_of(host_stalled_verdict(run.config, run.result)),
            (std::vector<double>{99.99}));
  EXPECT_FALSE(host_stalled_verdict(run.config, run.result)->corrected);
  // Thirty such stalls: 150 requests, 1.5%: p99 too.
  std::vector<HostStall> many;
  for (int i = 0; i < 30; ++i) many.push_back({i * 300 * kMs, 100 * kMs});
  StalledRun often(many, /*open_loop=*/false);
  often.config.connections = 5;
  EXPECT_EQ(moved_of(host_stalled_verdict(often.config, often.result)),
            (std::vector<double>{99}));
}

TEST(HostStalledTest, OnlyStallsThatReachTheMeasuredPartCount) {
  StalledRun run({{500 * kMs, 300 * kMs}});
  run.config.warmup_ns = 1 * kSecond;  // the stall ended inside the warm-up
  EXPECT_FALSE(host_stalled_verdict(run.config, run.result));
  run.result.host.long_stalls = {{900 * kMs, 300 * kMs}};  // ... reaches 200 ms into it
  EXPECT_TRUE(host_stalled_verdict(run.config, run.result));
}

TEST(HostStalledTest, AMergedFleetsStallHeldBackOnlyItsOwnShardsSlots) {
  // Two shards; one stalled 300 ms: 1.5% of the fleet's slots, still above p99's 1%. Three:
  // 1% at most, so p99 is not the stall's.
  StalledRun run({{4 * kSecond, 300 * kMs}});
  run.result.host.meters = 2;
  EXPECT_EQ(moved_of(host_stalled_verdict(run.config, run.result)), (std::vector<double>{99}));
  run.result.host.meters = 3;
  EXPECT_FALSE(host_stalled_verdict(run.config, run.result));
}

TEST(HostStalledTest, NoMeterNoVerdict) {
  StalledRun run({{4 * kSecond, 300 * kMs}});
  run.result.host.meters = 0;  // an older document
  EXPECT_FALSE(host_stalled_verdict(run.config, run.result));
}

TEST(GeneratorBoundTest, AClosedLoopAboveNinetyPercentOfItsTimeOnACpu) {
  StalledRun run({}, /*open_loop=*/false);
  run.result.generator_cpu.add_worker(900 * kMs, 1'000 * kMs);
  EXPECT_FALSE(generator_bound_verdict(run.config, run.result, 4));  // 90%: not above
  run.result.generator_cpu = GeneratorCpu();
  run.result.generator_cpu.add_worker(950 * kMs, 1'000 * kMs);
  run.result.generator_cpu.add_worker(910 * kMs, 1'000 * kMs);
  const auto verdict = generator_bound_verdict(run.config, run.result, 4);
  ASSERT_TRUE(verdict);
  EXPECT_DOUBLE_EQ(verdict->share, 0.93);
  EXPECT_DOUBLE_EQ(verdict->busiest_share, 0.95);
  EXPECT_TRUE(verdict->more_threads_help);  // 2 threads, 4 CPUs
  EXPECT_FALSE(generator_bound_verdict(run.config, run.result, 2)->more_threads_help);
}

TEST(GeneratorBoundTest, NeverInAnOpenLoopOrUnmeasured) {
  StalledRun open({});
  open.result.generator_cpu.add_worker(990 * kMs, 1'000 * kMs);
  EXPECT_FALSE(generator_bound_verdict(open.config, open.result, 4));  // dispatch lag says it
  StalledRun unmeasured({}, /*open_loop=*/false);
  EXPECT_FALSE(generator_bound_verdict(unmeasured.config, unmeasured.result, 4));
}

TEST(HostVerdictsTest, ComputeVerdictsAddsThemAfterTheOthers) {
  StalledRun run({{4 * kSecond, 300 * kMs}});
  run.result.scheduled = run.result.completed;
  run.result.lag.dispatched = run.result.sent;
  run.result.status_classes[1] = run.result.completed;
  const std::vector<Verdict> verdicts = compute_verdicts(run.config, run.result, 2);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdict_code(verdicts[0]), VerdictCode::host_stalled);
}

}  // namespace
}  // namespace hammer
