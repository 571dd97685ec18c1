// SPDX-License-Identifier: MIT
#include "cli/options.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/options_testing.h"
#include "core/build_features.h"
#include "run/phases.h"
#include "schedule/slot_partition.h"

namespace hammer {
namespace {

using namespace options_testing;

TEST(OptionsTest, AMeasuredPartWithOneSlotIsEnoughAndAShardMayHaveNone) {
  // Slot 0 is due at the start: any rate has one in a run without a warm-up.
  EXPECT_EQ(config_of({"-r", "0.001", "-d", "1ms", kUrl}).rate, 0.001);
  // 0.5 req/s over a 1 s warm-up then 2 s: the slot at 2 s is measured.
  EXPECT_EQ(config_of({"-r", "0.5", "-W", "1s", "-d", "2s", kUrl}).warmup_ns, 1'000'000'000);
  // The fleet has one slot; shard 2/2's share is empty, and it still runs (no_work verdict).
  EXPECT_EQ(config_of({"--shard", "2/2", "-c", "2", "-r", "1", "-d", "1", kUrl}).shard.index, 2);
}

// -n: closed loop the count ends the run (the duration is only the 24h bound); open loop the
// measured part is exactly N slots, N / rate long, after any ramp and warm-up.
TEST(OptionsTest, ARequestCountReplacesTheDuration) {
  EXPECT_EQ(config_of({kUrl}).requests_count, 0);
  const Config closed = config_of({"-n", "1000", kUrl});
  EXPECT_EQ(closed.requests_count, 1000);
  EXPECT_TRUE(closed.counted_closed_loop());
  EXPECT_EQ(closed.duration_ns, kMaxDurationNs);
  EXPECT_EQ(config_of({"--requests-count", "10k", kUrl}).requests_count, 10'000);
  EXPECT_EQ(config_of({"-n1000", kUrl}).requests_count, 1000);
  EXPECT_EQ(config_of({"--requests-count=1.5k", kUrl}).requests_count, 1500);

  const Config open = config_of({"-n", "1000", "-r", "2000", kUrl});
  EXPECT_FALSE(open.counted_closed_loop());
  EXPECT_EQ(open.duration_ns, 500'000'000);  // slot 1000 is due at 0.5 s: slots 0..999 before
  // A rate whose slots fall between nanoseconds: still exactly N measured slots.
  for (const char* rate : {"3", "7", "1234.5", "333333"}) {
    for (const char* count : {"1", "2", "1000", "99991"}) {
      for (std::vector<std::string> extra : std::vector<std::vector<std::string>>{
               {}, {"-W", "1.3s"}, {"--ramp", "2s"}, {"--ramp", "1s", "-W", "0.7s"}}) {
        std::vector<std::string> args = {"-n", count, "-r", rate};
        args.insert(args.end(), extra.begin(), extra.end());
        args.push_back(kUrl);
        const Config config = config_of(args);
        Phases phases(config);
        phases.start_at(0);
        EXPECT_EQ(phases.slots_in(Phase::measured, SlotPartition{0, 1}), config.requests_count)
            << rate << " " << count << " " << extra.size();
      }
    }
  }
  // Poisson arrivals: exactly N too, whatever the seed's gaps (N / rate of time would hold
  // about N: 246 to 335 for -n 300 over six seeds), with a ramp and a warm-up, over threads.
  for (const char* seed : {"1", "2", "3", "4", "5", "8", "123456789"}) {
    for (std::vector<std::string> extra : std::vector<std::vector<std::string>>{
             {}, {"-W", "0.5s"}, {"--ramp", "0.5s", "-W", "0.5s"}}) {
      std::vector<std::string> args = {"-n", "300", "-r", "300", "--arrival", "poisson",
                                       "--seed", seed};
      args.insert(args.end(), extra.begin(), extra.end());
      args.push_back(kUrl);
      const Config config = config_of(args);
      Phases phases(config);
      phases.start_at(0);
      EXPECT_EQ(phases.slots_in(Phase::measured, SlotPartition{0, 1}), 300)
          << seed << " " << extra.size();
      EXPECT_EQ(phases.slots_in(Phase::measured, SlotPartition{0, 3}) +
                    phases.slots_in(Phase::measured, SlotPartition{1, 3}) +
                    phases.slots_in(Phase::measured, SlotPartition{2, 3}),
                300)
          << seed << " " << extra.size();
    }
  }
  // The fleet's N: the shards' shares of the one schedule add up to it.
  int64_t fleet = 0;
  for (const char* shard : {"1/3", "2/3", "3/3"}) {
    const Config config = config_of({"--shard", shard, "-c", "3", "-n", "1000", "-r", "100", kUrl});
    Phases phases(config);
    phases.start_at(0);
    fleet += phases.slots_in(Phase::measured, slots_for(config.shard.index - 1, 3, 0, 1));
  }
  EXPECT_EQ(fleet, 1000);
}

TEST(OptionsTest, DefaultsFollowTheDesignTable) {
  const Config config = config_of({kUrl});
  EXPECT_EQ(config.url, kUrl);
  EXPECT_EQ(config.connections, 50);
  EXPECT_EQ(config.threads, 4);
  EXPECT_EQ(config.duration_ns, 10'000'000'000);
  EXPECT_EQ(config.rate, 0);
  EXPECT_FALSE(config.open_loop());
  EXPECT_FALSE(config.closed_loop_stopwatch);
  EXPECT_EQ(config.method, "GET");
  EXPECT_TRUE(config.headers.empty());
  EXPECT_TRUE(config.body.empty());
  EXPECT_TRUE(config.body_path.empty());
  EXPECT_EQ(config.timeout_ns, 10'000'000'000);
  EXPECT_FALSE(config.print_latency);
  EXPECT_FALSE(config.json);
  EXPECT_EQ(config.target.host, "127.0.0.1");
  EXPECT_EQ(config.target.port, 8080);
  EXPECT_EQ(config.target.port_text, "8080");
  EXPECT_EQ(config.target.path, "/");
  EXPECT_EQ(config.target.host_header, "127.0.0.1:8080");
}

TEST(OptionsTest, DefaultThreadsNeverExceedConnections) {
  EXPECT_EQ(config_of({"-c", "1", kUrl}).threads, 1);
  EXPECT_EQ(config_of({"-c", "3", kUrl}).threads, 3);
  EXPECT_EQ(config_of({"-c", "4", kUrl}).threads, 4);
  EXPECT_EQ(config_of({"-c", "1000", kUrl}).threads, 4);
}

// min(4, connections, CPUs): a 2-core laptop's -c 5 runs 2 threads, not 4 taking turns.
TEST(OptionsTest, DefaultThreadsNeverExceedTheCpusAvailable) {
  EXPECT_EQ(config_of({"-c", "5", kUrl}, 2).threads, 2);
  EXPECT_EQ(config_of({"-c", "5", kUrl}, 1).threads, 1);
  EXPECT_EQ(config_of({"-c", "1", kUrl}, 2).threads, 1);
  EXPECT_EQ(config_of({"-c", "5", kUrl}, 64).threads, 4);
  EXPECT_EQ(config_of({"-c", "1,10", kUrl}, 2).threads, 2);  // a sweep's largest level
  const Config defaulted = config_of({"-c", "5", kUrl}, 2);
  EXPECT_FALSE(defaulted.threads_given);
  EXPECT_EQ(defaulted.cpus_available, 2);
  // Above the CPUs when asked for: allowed, and the report notes it.
  const Config asked = config_of({"-c", "5", "-t", "3", kUrl}, 1);
  EXPECT_EQ(asked.threads, 3);
  EXPECT_TRUE(asked.threads_given);
  EXPECT_EQ(asked.cpus_available, 1);
}

TEST(OptionsTest, ExplicitThreadsKeepEveryConnection) {
  const Config config = config_of({"-c", "10", "-t", "4", kUrl});
  EXPECT_EQ(config.connections, 10);
  EXPECT_EQ(config.threads, 4);
  EXPECT_EQ(config_of({"-c", "8", "-t", "8", kUrl}).threads, 8);
  EXPECT_EQ(config_of({"-t", "16", kUrl}).threads, 16);  // below the default 50 connections
}

TEST(OptionsTest, BoundsAreInclusive) {
  EXPECT_EQ(config_of({"-c", "1000000", "-t", "1024", kUrl}).connections, 1'000'000);
  EXPECT_EQ(config_of({"-c", "1000000", "-t", "1024", kUrl}).threads, 1024);
  EXPECT_EQ(config_of({"-d", "24h", kUrl}).duration_ns, 86'400'000'000'000);
  EXPECT_EQ(config_of({"-r", "10M", kUrl}).rate, 10'000'000);
  EXPECT_EQ(config_of({"-r", "0.001", kUrl}).rate, 0.001);
  EXPECT_EQ(config_of({"--timeout", "60s", kUrl}).timeout_ns, 60'000'000'000);
}

TEST(OptionsTest, DurationTakesSecondsByDefaultAndUnits) {
  EXPECT_EQ(config_of({"-d", "10", kUrl}).duration_ns, 10'000'000'000);
  EXPECT_EQ(config_of({"-d", "10s", kUrl}).duration_ns, 10'000'000'000);
  EXPECT_EQ(config_of({"-d", "500ms", kUrl}).duration_ns, 500'000'000);
  EXPECT_EQ(config_of({"-d", "2m", kUrl}).duration_ns, 120'000'000'000);
  EXPECT_EQ(config_of({"-d", "1.5s", kUrl}).duration_ns, 1'500'000'000);
  EXPECT_EQ(config_of({"--duration=0.5", kUrl}).duration_ns, 500'000'000);
}

TEST(OptionsTest, RateAcceptsThousandsAndMillionsSuffixesAndTurnsOnOpenLoop) {
  EXPECT_EQ(config_of({"-r", "2000", kUrl}).rate, 2000);
  EXPECT_EQ(config_of({"-r", "2k", kUrl}).rate, 2000);
  EXPECT_EQ(config_of({"-r", "1.5k", kUrl}).rate, 1500);
  EXPECT_EQ(config_of({"-r", "2K", kUrl}).rate, 2000);
  EXPECT_EQ(config_of({"-r", "1M", kUrl}).rate, 1'000'000);
  EXPECT_EQ(config_of({"-r", "0.5", kUrl}).rate, 0.5);
  EXPECT_TRUE(config_of({"--rate=2k", kUrl}).open_loop());
}

TEST(OptionsTest, ClosedLoopIsAcceptedWithOrWithoutRate) {
  const Config open = config_of({"-r", "2k", "--closed-loop", kUrl});
  EXPECT_TRUE(open.open_loop());
  EXPECT_TRUE(open.closed_loop_stopwatch);
  const Config closed = config_of({"--closed-loop", kUrl});
  EXPECT_FALSE(closed.open_loop());
  EXPECT_TRUE(closed.closed_loop_stopwatch);
}

TEST(OptionsTest, TimeoutTakesMillisecondsByDefaultAndUnits) {
  EXPECT_EQ(config_of({"--timeout", "2000", kUrl}).timeout_ns, 2'000'000'000);
  EXPECT_EQ(config_of({"--timeout", "2s", kUrl}).timeout_ns, 2'000'000'000);
  EXPECT_EQ(config_of({"--timeout=500ms", kUrl}).timeout_ns, 500'000'000);
  EXPECT_EQ(config_of({"--timeout", "1.5", kUrl}).timeout_ns, 1'500'000);
}

TEST(OptionsTest, MethodIsKeptAsTyped) {
  EXPECT_EQ(config_of({"-m", "POST", kUrl}).method, "POST");
  EXPECT_EQ(config_of({"-mHEAD", kUrl}).method, "HEAD");
  EXPECT_EQ(config_of({"--method=PURGE", kUrl}).method, "PURGE");
}

TEST(OptionsTest, HeadersRepeatInOrderAndAreNormalised) {
  const Config config = config_of({"-H", "X-A:1", kUrl, "--header", "X-B:   two  ", "-HX-Empty:",
                                   "--header=Authorization: Bearer a:b", "-H", "-x: dash"});
  EXPECT_EQ(config.headers,
            (std::vector<std::string>{"X-A: 1", "X-B: two", "X-Empty:",
                                      "Authorization: Bearer a:b", "-x: dash"}));
}

// http/request's serializer honours the user's framing headers instead of adding its own, so
// the command line passes them through when they agree with the body (issue 10 item 6: when
// they contradict it, the bad-flag table above).
TEST(OptionsTest, FramingHeadersThatAgreeWithTheBodyArePassedThrough) {
  EXPECT_EQ(config_of({"-H", "Content-Length: 0", kUrl}).headers,
            (std::vector<std::string>{"Content-Length: 0"}));
  char path[] = "/tmp/hammer-options-body-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string chunks = "3\r\nabc\r\n0\r\n\r\n";
  ASSERT_EQ(write(fd, chunks.data(), chunks.size()), static_cast<ssize_t>(chunks.size()));
  close(fd);
  const Config chunked =
      config_of({"-m", "POST", "-H", "transfer-encoding:chunked", "--body", path, kUrl});
  EXPECT_EQ(chunked.headers, (std::vector<std::string>{"transfer-encoding: chunked"}));
  EXPECT_EQ(chunked.body, chunks);
  // The same body with a Content-Length that is not its length: exit 1 naming the flags.
  auto contradiction = parse_options({"-H", "Content-Length: 3", "--body", path, kUrl});
  ASSERT_FALSE(contradiction.has_value());
  EXPECT_EQ(contradiction.error().message,
            std::string("--header: Content-Length 3 contradicts the body of 13 bytes (--body '") +
                path + "')");
  std::remove(path);
}

// --precise-dispatch spins to each slot of the open-loop schedule; without --rate there is no
// schedule, and the flag was accepted and did nothing.
TEST(OptionsTest, PreciseDispatchWithoutARateIsRefused) {
  EXPECT_EQ(error_of({"-c", "10", "--precise-dispatch", kUrl}),
            "--precise-dispatch: spins to each slot of an open-loop schedule, which needs --rate "
            "(closed loop sends as soon as an answer lands)");
  EXPECT_EQ(error_of({"-c", "1,2", "--precise-dispatch", kUrl}),
            "--precise-dispatch: spins to each slot of an open-loop schedule, which needs --rate "
            "(closed loop sends as soon as an answer lands)");
  EXPECT_TRUE(config_of({"-r", "100", "--precise-dispatch", kUrl}).precise_dispatch);
  EXPECT_TRUE(config_of({"-r", "100,200", "--precise-dispatch", kUrl}).precise_dispatch);
}

// --dispatch-precision T: the open-loop precision budget (a bare number is ms; 0 allowed);
// --precise-dispatch is a budget of 0, so the two agree only at 0.
TEST(OptionsTest, DispatchPrecisionIsTheBudgetOfAnOpenLoopSchedule) {
  EXPECT_EQ(config_of({"-r", "100", kUrl}).dispatch_budget_ns(), kDefaultDispatchPrecisionNs);
  EXPECT_EQ(config_of({"-r", "100", "--dispatch-precision", "1ms", kUrl}).dispatch_budget_ns(),
            1'000'000);
  EXPECT_EQ(config_of({"-r", "100", "--dispatch-precision", "2", kUrl}).dispatch_budget_ns(),
            2'000'000);
  EXPECT_EQ(config_of({"-r", "100", "--dispatch-precision", "200us", kUrl}).dispatch_budget_ns(),
            200'000);
  EXPECT_EQ(config_of({"-r", "100", "--dispatch-precision", "0", kUrl}).dispatch_budget_ns(), 0);
  EXPECT_EQ(config_of({"-r", "100", "--precise-dispatch", kUrl}).dispatch_budget_ns(), 0);
  EXPECT_EQ(
      config_of({"-r", "100", "--precise-dispatch", "--dispatch-precision", "0", kUrl})
          .dispatch_budget_ns(),
      0);
  EXPECT_EQ(error_of({"-r", "100", "--precise-dispatch", "--dispatch-precision", "1ms", kUrl}),
            "--dispatch-precision: --precise-dispatch wakes for every slot (a budget of 0); drop "
            "one of them");
  EXPECT_EQ(error_of({"-c", "10", "--dispatch-precision", "1ms", kUrl}),
            "--dispatch-precision: the budget for an open-loop schedule's slots, which needs "
            "--rate (closed loop sends as soon as an answer lands)");
}

// A Connection header that agrees with -p and --no-keepalive is passed through as given; one
// in a --requests line that contradicts them is refused with the line.
TEST(OptionsTest, ConnectionHeadersMustAgreeWithPipelineAndNoKeepalive) {
  EXPECT_EQ(config_of({"-p", "4", "-H", "Connection: keep-alive", kUrl}).headers,
            (std::vector<std::string>{"Connection: keep-alive"}));
  EXPECT_EQ(config_of({"--no-keepalive", "-H", "Connection: close", kUrl}).headers,
            (std::vector<std::string>{"Connection: close"}));
  EXPECT_EQ(config_of({"-H", "Connection: close", kUrl}).pipeline, 1);
  char path[] = "/tmp/hammer-options-requests-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string lines =
      "{\"path\": \"/a\"}\n{\"path\": \"/b\", \"headers\": {\"Connection\": \"close\"}}\n";
  ASSERT_EQ(write(fd, lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  close(fd);
  EXPECT_EQ(error_of({"-p", "3", "--requests", path, kUrl}),
            std::string("--pipeline: 3 requests in flight per connection need keep-alive, but "
                        "--requests ") + path + ":2 says 'Connection: close'; drop that header "
                        "or use -p 1");
  EXPECT_EQ(config_of({"--requests", path, kUrl}).requests.size(), 2u);
  // The -H default every line inherits is named as -H.
  EXPECT_EQ(error_of({"-p", "3", "-H", "Connection: close", "--requests", path, kUrl}),
            "--pipeline: 3 requests in flight per connection need keep-alive, but --header says "
            "'Connection: close'; drop that header or use -p 1");
  std::remove(path);
}

// The Unix epoch is an instant like any other (long passed): --start-at 0 is given, and the
// run refuses it as passed. It used to mean "not given" (0 was the sentinel), so the run
// started at once and --start-tolerance with it was refused as meaningless.
TEST(OptionsTest, StartAtTheEpochIsStillGiven) {
  for (const char* epoch : {"0", "1970-01-01T00:00:00Z"}) {
    const Config config = config_of({"--start-at", epoch, "--start-tolerance", "1s", kUrl});
    EXPECT_TRUE(config.start_at.given()) << epoch;
    EXPECT_EQ(config.start_at.unix_ns, 0) << epoch;
    EXPECT_EQ(config.start_at.tolerance_ns, 1'000'000'000) << epoch;
  }
  EXPECT_FALSE(config_of({kUrl}).start_at.given());
}

TEST(OptionsTest, UrlFillsTheTarget) {
  const Config config = config_of({"http://[::1]:9000/a?b=1#frag"});
  EXPECT_EQ(config.url, "http://[::1]:9000/a?b=1#frag");
  EXPECT_EQ(config.target.host, "::1");
  EXPECT_EQ(config.target.port, 9000);
  EXPECT_EQ(config.target.path, "/a?b=1");
  EXPECT_EQ(config.target.host_header, "[::1]:9000");
  EXPECT_EQ(config_of({"http://example.com"}).target.host_header, "example.com");
}

TEST(OptionsTest, NoRetryTurnsResendingOff) {
  EXPECT_TRUE(config_of({kUrl}).retry);
  EXPECT_FALSE(config_of({"--no-retry", kUrl}).retry);
}

TEST(OptionsTest, WarmupTimelineSlowAndKeepAliveFlags) {
  const Config defaults = config_of({kUrl});
  EXPECT_EQ(defaults.warmup_ns, 0);
  EXPECT_FALSE(defaults.print_timeline);
  EXPECT_EQ(defaults.slow_ns, 0);
  EXPECT_TRUE(defaults.keep_alive);
  const Config config =
      config_of({"-W", "3", "--timeline", "--slow", "100", "--no-keepalive", kUrl});
  EXPECT_EQ(config.warmup_ns, 3'000'000'000);
  EXPECT_TRUE(config.print_timeline);
  EXPECT_EQ(config.slow_ns, 100'000'000);
  EXPECT_FALSE(config.keep_alive);
  EXPECT_EQ(config_of({"--warmup=500ms", kUrl}).warmup_ns, 500'000'000);
  EXPECT_EQ(config_of({"-W2s", kUrl}).warmup_ns, 2'000'000'000);
  EXPECT_EQ(config_of({"--slow", "2s", kUrl}).slow_ns, 2'000'000'000);
}

TEST(OptionsTest, AConnectionListIsASweepWithThreadsFollowingTheLargestLevel) {
  const Config config = config_of({"-c", "1,2,5,10,25", kUrl});
  EXPECT_EQ(config.sweep.connections, (std::vector<int64_t>{1, 2, 5, 10, 25}));
  EXPECT_TRUE(config.sweep.active());
  EXPECT_EQ(config.connections, 25);
  EXPECT_EQ(config.threads, 4);  // each step caps it at its own level
  EXPECT_FALSE(config.open_loop());
  EXPECT_EQ(config_of({"-t", "1", "-c", "1,2", kUrl}).threads, 1);
  // A later single value ends the sweep, as a repeated flag keeps its last value.
  EXPECT_FALSE(config_of({"-c", "1,2", "-c", "3", kUrl}).sweep.active());
  EXPECT_FALSE(config_of({kUrl}).sweep.active());
}

TEST(OptionsTest, RateListsRangesAndSearches) {
  Config config = config_of({"--rate", "1000,2k,5000", kUrl});
  EXPECT_EQ(config.sweep.rates, (std::vector<double>{1000, 2000, 5000}));
  EXPECT_EQ(config.rate, 5000);
  EXPECT_TRUE(config.open_loop());
  config = config_of({"--rate", "1k:5k:1k", kUrl});
  EXPECT_EQ(config.sweep.rates, (std::vector<double>{1000, 2000, 3000, 4000, 5000}));
  config = config_of({"--rate", "0.1:0.3:0.1", kUrl});
  EXPECT_EQ(config.sweep.rates.size(), 3u);
  config = config_of({"--rate", "1k:4500:1k", kUrl});  // stop need not land on a step
  EXPECT_EQ(config.sweep.rates, (std::vector<double>{1000, 2000, 3000, 4000}));
  config = config_of({"--rate", "200:3000", "--slo", "p99=30ms", kUrl});
  EXPECT_TRUE(config.sweep.search());
  EXPECT_TRUE(config.sweep.rates.empty());
  EXPECT_EQ(config.sweep.search_low, 200);
  EXPECT_EQ(config.sweep.search_high, 3000);
  EXPECT_EQ(config.rate, 3000);
}

TEST(OptionsTest, AnyPercentileForSloAndPercentiles) {
  Config config = config_of({"--slo", "p95=20ms", "--slo", "p99.99=1s", "--slo", "p75.5=3",
                             kUrl});
  ASSERT_EQ(config.slos.size(), 3u);
  EXPECT_EQ(config.slos[0].key, "p95");
  EXPECT_EQ(config.slos[0].percentile, 95);
  EXPECT_EQ(config.slos[0].limit_ns, 20'000'000);
  EXPECT_EQ(config.slos[1].percentile, 99.99);
  EXPECT_EQ(config.slos[1].limit_ns, 1'000'000'000);
  EXPECT_EQ(config.slos[2].percentile, 75.5);
  EXPECT_TRUE(config_of({kUrl}).percentiles.empty());  // the default spectrum
  config = config_of({"--percentiles", "99.99,50,90,95,99,99.9", kUrl});
  EXPECT_EQ(config.percentiles, (std::vector<double>{50, 90, 95, 99, 99.9, 99.99}));  // rising
  EXPECT_EQ(config_of({"--percentiles=99.9999", kUrl}).percentiles,
            std::vector<double>{99.9999});
}

// "--slo p99=50ms,errors=1%" is two limits, as --percentiles takes a list; it was refused
// with "p99 takes a duration > 0", blaming a limit that was fine.
TEST(OptionsTest, OneSloValueMayListSeveralLimits) {
  const Config config = config_of({"--slo", "p99=50ms,errors=1%", "--slo", "max=1s", kUrl});
  ASSERT_EQ(config.slos.size(), 3u);
  EXPECT_EQ(config.slos[0].key, "p99");
  EXPECT_EQ(config.slos[0].limit_ns, 50'000'000);
  EXPECT_EQ(config.slos[1].key, "errors");
  EXPECT_DOUBLE_EQ(config.slos[1].error_rate, 0.01);
  EXPECT_EQ(config.slos[2].key, "max");
}

TEST(OptionsTest, SloLimitsAndTheControlUrl) {
  const Config config = config_of({"--slo", "p99=50ms", "--slo", "p99.9=1s", "--slo", "p50=2",
                                   "--slo", "max=10s", "--slo=errors=0.5%", "--slo", "p90=1us",
                                   "-c", "1,10", "--control", "http://127.0.0.1:9/empty", kUrl});
  ASSERT_EQ(config.slos.size(), 6u);
  EXPECT_EQ(config.slos[0].key, "p99");
  EXPECT_EQ(config.slos[0].percentile, 99);
  EXPECT_EQ(config.slos[0].limit_ns, 50'000'000);
  EXPECT_EQ(config.slos[0].limit_text, "50ms");
  EXPECT_EQ(config.slos[1].percentile, 99.9);
  EXPECT_EQ(config.slos[1].limit_ns, 1'000'000'000);
  EXPECT_EQ(config.slos[2].limit_ns, 2'000'000);  // a bare number is milliseconds
  EXPECT_EQ(config.slos[3].percentile, 100);
  EXPECT_TRUE(config.slos[4].is_error_rate());
  EXPECT_DOUBLE_EQ(config.slos[4].error_rate, 0.005);
  EXPECT_EQ(config.slos[5].limit_ns, 1'000);
  EXPECT_EQ(config.sweep.control_url, "http://127.0.0.1:9/empty");
  EXPECT_EQ(config.sweep.control_target.port, 9);
  EXPECT_EQ(config.sweep.control_target.path, "/empty");
  EXPECT_FALSE(config_of({"--slo", "p99=1s", kUrl}).sweep.active());  // a gate, not a sweep
}

TEST(OptionsTest, FlagsSetTheirBooleans) {
  const Config config = config_of({"--latency", kUrl, "--json"});
  EXPECT_TRUE(config.print_latency);
  EXPECT_TRUE(config.json);
}

class BodyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "hammer_options_test_body_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  void TearDown() override { std::remove(path_.c_str()); }
  void write(const std::string& contents) {
    std::ofstream(path_, std::ios::binary) << contents;
  }
  std::string path_;
};

TEST_F(BodyFileTest, BodyIsReadAtParseTimeByteForByte) {
  const std::string contents("{\"a\": 1}\r\n\0binary\xff", 18);
  write(contents);
  const Config config = config_of({"--body", path_, kUrl});
  EXPECT_EQ(config.body, contents);
  EXPECT_EQ(config.body_path, path_);
  EXPECT_EQ(config_of({"--body=" + path_, kUrl}).body, contents);
}

TEST_F(BodyFileTest, AnEmptyBodyFileGivesAnEmptyBody) {
  write("");
  const Config config = config_of({"--body", path_, kUrl});
  EXPECT_TRUE(config.body.empty());
  EXPECT_EQ(config.body_path, path_);
}

TEST_F(BodyFileTest, ABodyOverTheLimitIsRefusedNamingTheFile) {
  write("");
  ASSERT_EQ(::truncate(path_.c_str(), kMaxBodyBytes + 1), 0);  // sparse: costs no disk or time
  EXPECT_EQ(error_of({"--body", path_, kUrl}),
            "--body: '" + path_ + "' is larger than the 64MB limit");
}

// A pipe has no size: the body is read to end of file, so `--body /dev/stdin` works.
TEST(OptionsTest, BodyIsReadFromAPipeToEndOfFile) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string contents = "streamed body";
  ASSERT_EQ(::write(fds[1], contents.data(), contents.size()),
            static_cast<ssize_t>(contents.size()));
  ::close(fds[1]);
  const Config config = config_of({"--body", "/dev/fd/" + std::to_string(fds[0]), kUrl});
  ::close(fds[0]);
  EXPECT_EQ(config.body, contents);
}

// wrk users write "-c 1k" and "-c 10k" (wrk's counts take SI suffixes, as hammer's -r does).
TEST(OptionsTest, ConnectionsTakeKAndMSuffixesAsWrksDo) {
  const auto connections = [](std::vector<std::string> args) {
    args.push_back(kUrl);
    return config_of(args).connections;
  };
  EXPECT_EQ(connections({"-c", "1k"}), 1000);
  EXPECT_EQ(connections({"-c10k"}), 10000);
  EXPECT_EQ(connections({"--connections=1.5k"}), 1500);
  EXPECT_EQ(connections({"-c", "1k,2k"}), 2000) << "a sweep's levels too";
  EXPECT_EQ(error_of({"-c", "2M", kUrl}), "--connections: must be at most 1000000, got '2M'");
  EXPECT_EQ(error_of({"-c", "0k", kUrl}),
            "--connections: expected a whole number >= 1, got '0k'");
  EXPECT_EQ(error_of({"-c", "1.0005k", kUrl}),
            "--connections: expected a whole number >= 1, got '1.0005k'");
}

TEST(OptionsTest, ProgressFdTakesAnOpenDescriptor) {
  EXPECT_EQ(config_of({kUrl}).progress_fd, -1);
  EXPECT_EQ(config_of({kUrl, "--progress-fd", "2"}).progress_fd, 2);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  EXPECT_EQ(config_of({kUrl, "--progress-fd=" + std::to_string(pipe_fds[1])}).progress_fd,
            pipe_fds[1]);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST(OptionsTest, ArrivalIsConstantUnlessPoissonIsAskedForWithItsSeed) {
  const Config plain = config_of({kUrl, "--rate", "100"});
  EXPECT_EQ(plain.arrival.kind, Arrival::constant);
  EXPECT_EQ(plain.arrival.seed, 1u);
  const Config poisson =
      config_of({kUrl, "--rate", "100", "--arrival", "poisson", "--seed", "18446744073709551615"});
  EXPECT_EQ(poisson.arrival.kind, Arrival::poisson);
  EXPECT_EQ(poisson.arrival.seed, UINT64_MAX);
  EXPECT_EQ(config_of({kUrl, "--rate", "100", "--arrival", "constant", "--seed", "0"}).arrival.seed,
            0u);
  // With a ramp and a warm-up too.
  const Config ramped = config_of(
      {kUrl, "--rate", "100", "--arrival", "poisson", "--ramp", "2s", "--warmup", "1s"});
  EXPECT_EQ(ramped.arrival.kind, Arrival::poisson);
  EXPECT_EQ(ramped.ramp_ns, 2'000'000'000);
}

TEST(OptionsTest, LongOptionNamesListEveryFlagOfTheDesign) {
  const std::vector<std::string_view> names(long_option_names().begin(),
                                            long_option_names().end());
  // The design's flags, in the design's order; flags that later issues add follow them.
  const std::vector<std::string_view> design = {
      "--connections", "--threads", "--duration", "--rate", "--closed-loop", "--method",
      "--header", "--body", "--timeout", "--latency", "--json", "--version", "--help"};
  ASSERT_GE(names.size(), design.size());
  EXPECT_EQ(std::vector<std::string_view>(names.begin(), names.begin() + design.size()), design);
  for (std::string_view added : {"--warmup", "--timeline", "--slow", "--no-keepalive"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), added), names.end()) << added;
  }
}

}  // namespace
}  // namespace hammer
