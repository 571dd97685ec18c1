// SPDX-License-Identifier: MIT
// design.md §5: allocation is O(connections), not O(requests). A whole run of tens of thousands
// of requests, setup included, must make fewer than 200 allocations: a single allocation per
// request anywhere on the send/receive/parse/record path would blow through that at once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "alloc/alloc_counter.h"
#include "cli/options.h"
#include "run/live_metrics.h"
#include "run/run.h"
#include "support/subprocess.h"

namespace hammer::test {
namespace {

// The e2e stage runs once per engine (scripts/test.sh): HAMMER_ENGINE picks this run's.
void use_engine_from_environment(Config& config) {
  if (const char* engine = std::getenv("HAMMER_ENGINE"); engine != nullptr && *engine != '\0') {
    auto kind = parse_engine("HAMMER_ENGINE", engine);
    ASSERT_TRUE(kind.has_value()) << kind.error().message;
    config.engine = *kind;
  }
}

TEST(HotPathAllocationTest, ARunOfManyRequestsAllocatesOnlyAtSetup) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  // Long enough for ~90,000 requests in a release build; sanitizer builds manage fewer, and
  // the bound holds whatever the count, which is the point.
  auto parsed = parse_options({"-c", "10", "-t", "2", "-d", "3", server.url()});
  ASSERT_TRUE(parsed.has_value());
  ASSERT_NO_FATAL_FAILURE(use_engine_from_environment(parsed->config));

  start_counting_allocations();
  auto result = run_load(parsed->config);
  const int64_t allocations = stop_counting_allocations();

  ASSERT_TRUE(result.has_value()) << result.error().message;
  std::printf("%lld requests, %lld allocations\n", static_cast<long long>(result->completed),
              static_cast<long long>(allocations));
  EXPECT_GT(result->completed, 10'000);
  EXPECT_EQ(result->failed_requests(), 0);
  EXPECT_LT(allocations, 200);
}

// --metrics-listen: the workers publish into the board every 100 ms while a scraper reads it
// all the time; neither side allocates (the page itself is rendered on the server's thread,
// per scrape, not here).
TEST(HotPathAllocationTest, PublishingLiveMetricsAllocatesNothing) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  auto parsed = parse_options({"-c", "10", "-t", "2", "-r", "5000", "-W", "500ms", "-d", "2",
                               server.url()});
  ASSERT_TRUE(parsed.has_value());
  ASSERT_NO_FATAL_FAILURE(use_engine_from_environment(parsed->config));
  LiveMetricsBoard board;
  std::atomic<bool> done{false};
  int64_t scraped = 0;
  start_counting_allocations();
  std::thread scraper([&] {
    while (!done.load()) {
      scraped = board.total().phases[static_cast<int>(Phase::measured)].completed;
      usleep(10'000);
    }
  });
  auto result = run_load(parsed->config, {}, &board);
  done.store(true);
  scraper.join();
  const int64_t allocations = stop_counting_allocations();

  ASSERT_TRUE(result.has_value()) << result.error().message;
  std::printf("%lld requests, %lld allocations, last scrape %lld\n",
              static_cast<long long>(result->completed), static_cast<long long>(allocations),
              static_cast<long long>(scraped));
  EXPECT_EQ(board.total().phases[static_cast<int>(Phase::measured)].completed, result->completed);
  EXPECT_GT(result->completed, 2'000);
  EXPECT_LT(allocations, 200);
}

// --http2 (h2c with prior knowledge, 10 streams per connection) against the HTTP/2 test server:
// the session's streams, frames and HPACK decoding allocate nothing per request either; a
// GOAWAY every 2,000 responses makes the sessions start again on new sockets as the run goes.
TEST(HotPathAllocationTest, AnHttp2RunAllocatesOnlyAtSetup) {
  ServerProcess server({python_binary(), h2_hostile_server_script(), "--port", "0", "--mode",
                        "goaway-after", "--every", "2000"});
  ASSERT_TRUE(server.ready());
  auto parsed = parse_options({"--http2", "--streams", "10", "-c", "4", "-t", "2", "-d", "2",
                               server.url()});
  ASSERT_TRUE(parsed.has_value());
  ASSERT_NO_FATAL_FAILURE(use_engine_from_environment(parsed->config));

  start_counting_allocations();
  auto result = run_load(parsed->config);
  const int64_t allocations = stop_counting_allocations();

  ASSERT_TRUE(result.has_value()) << result.error().message;
  std::printf("%lld streams, %lld allocations, %lld GOAWAY\n",
              static_cast<long long>(result->completed), static_cast<long long>(allocations),
              static_cast<long long>(result->http2.goaways));
  EXPECT_GT(result->completed, 4'000);
  EXPECT_GE(result->http2.goaways, 2);
  EXPECT_LT(allocations, 200);
}

// The paths a plain GET does not take: a body sent with its head (one two-part send), and
// requests that a polite close (Connection: close every 100th answer) sends again, -p 8.
TEST(HotPathAllocationTest, BodiesAndResendsAllocateNothingPerRequest) {
  ServerProcess server({test_server_binary(), "--port", "0", "--close-every", "100"});
  ASSERT_TRUE(server.ready());
  auto parsed = parse_options({"-c", "4", "-t", "1", "-d", "2", "-p", "8", "-m", "PUT",
                               server.url()});
  ASSERT_TRUE(parsed.has_value());
  parsed->config.body = std::string("{\"hello\": \"world\"}\n");
  ASSERT_NO_FATAL_FAILURE(use_engine_from_environment(parsed->config));

  start_counting_allocations();
  auto result = run_load(parsed->config);
  const int64_t allocations = stop_counting_allocations();

  ASSERT_TRUE(result.has_value()) << result.error().message;
  std::printf("%lld requests, %lld resent, %lld allocations\n",
              static_cast<long long>(result->completed), static_cast<long long>(result->retried),
              static_cast<long long>(allocations));
  EXPECT_GT(result->completed, 5'000);
  EXPECT_GT(result->retried, 100);
  EXPECT_EQ(result->failed_requests(), 0);
  EXPECT_LT(allocations, 200);
}

// Templated requests (docs/templates.md): every field kind in the path, a header and the body
// (its Content-Length computed per request), --data rows drawn at random, pipelined, in open
// and closed loop. Rendering fills buffers sized at setup; the run's few setup allocations
// include the CSV's (a small file, so that its rows stay far below the bound).
TEST(HotPathAllocationTest, TemplatedRequestsAllocateNothingPerRequest) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const std::string base = ::testing::TempDir() + "hammer_alloc_templates_" +
                           std::to_string(getpid());
  {
    std::ofstream csv(base + ".csv");
    csv << "key,word\n";
    for (int i = 0; i < 16; ++i) csv << "k" << i << ",\"w, " << i << "\"\n";
    std::ofstream requests(base + ".jsonl");
    requests << "{\"path\": \"/item/{{seq}}/{{csv key}}?r={{random 1 1000}}\", \"method\": "
                "\"POST\", \"headers\": {\"X-Id\": \"{{uuid}}\"}, \"body\": \"{\\\"at\\\": "
                "{{intended_ms}}, \\\"w\\\": \\\"{{csv word}}\\\"}\"}\n";
  }
  for (const bool open_loop : {false, true}) {
    std::vector<std::string> args = {"-c", "4", "-t", "2", "-d", "2", "-p", "4", "--data",
                                     base + ".csv", "--data-order", "random", "--requests",
                                     base + ".jsonl"};
    if (open_loop) args.insert(args.end(), {"-r", "10000"});
    args.push_back(server.url());
    auto parsed = parse_options(args);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
    ASSERT_NO_FATAL_FAILURE(use_engine_from_environment(parsed->config));

    start_counting_allocations();
    auto result = run_load(parsed->config);
    const int64_t allocations = stop_counting_allocations();

    ASSERT_TRUE(result.has_value()) << result.error().message;
    std::printf("templated, %s: %lld requests, %lld allocations\n",
                open_loop ? "open loop" : "closed loop", static_cast<long long>(result->completed),
                static_cast<long long>(allocations));
    EXPECT_GT(result->completed, 5'000);
    EXPECT_EQ(result->failed_requests(), 0);
    EXPECT_EQ(result->status_classes[1], result->completed);  // 2xx: every body framed right
    EXPECT_LT(allocations, 200);
  }
  std::remove((base + ".csv").c_str());
  std::remove((base + ".jsonl").c_str());
}

// Every mode takes its own path through the worker: open loop's idle list and slot dispatch,
// -p's pipeline ring, --requests' line figures, --warmup's and --ramp's phases (and the
// closed-loop ramp's connection timers). Each is a whole run; the bound is the same.
struct Mode {
  const char* name;
  std::vector<std::string> flags;
  int64_t min_completed;  // enough requests that one allocation per request would show
};

class ModeAllocationTest : public ::testing::TestWithParam<Mode> {};

TEST_P(ModeAllocationTest, AllocatesOnlyAtSetup) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  const std::string requests_path = ::testing::TempDir() + "hammer_alloc_requests_" +
                                    std::to_string(getpid()) + "_" + GetParam().name + ".jsonl";
  {
    std::ofstream file(requests_path);
    for (int i = 1; i <= 4; ++i) {
      file << "{\"path\": \"/line" << i << "\", \"headers\": {\"X-Line\": \"" << i << "\"}}\n";
    }
  }
  std::vector<std::string> args = {"-t", "2"};
  for (const std::string& flag : GetParam().flags) {
    args.push_back(flag == "REQUESTS" ? requests_path : flag);
  }
  args.push_back(server.url());
  auto parsed = parse_options(args);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_NO_FATAL_FAILURE(use_engine_from_environment(parsed->config));

  start_counting_allocations();
  auto result = run_load(parsed->config);
  const int64_t allocations = stop_counting_allocations();
  std::remove(requests_path.c_str());

  ASSERT_TRUE(result.has_value()) << result.error().message;
  int64_t completed = result->completed;
  if (result->warmup) completed += result->warmup->completed;
  if (result->ramp) completed += result->ramp->completed;
  std::printf("%s: %lld requests, %lld allocations\n", GetParam().name,
              static_cast<long long>(completed), static_cast<long long>(allocations));
  EXPECT_GT(completed, GetParam().min_completed);
  EXPECT_EQ(result->failed_requests(), 0);
  EXPECT_LT(allocations, 200);
}

INSTANTIATE_TEST_SUITE_P(
    EveryMode, ModeAllocationTest,
    ::testing::Values(
        Mode{"open_loop", {"-c", "10", "-d", "2", "-r", "4000"}, 4'000},
        Mode{"pipeline", {"-c", "4", "-d", "2", "-p", "8"}, 5'000},
        Mode{"requests_file", {"-c", "8", "-d", "2", "--requests", "REQUESTS"}, 5'000},
        Mode{"requests_file_open_loop",
             {"-c", "8", "-d", "2", "-r", "4000", "--requests", "REQUESTS"}, 4'000},
        Mode{"warmup", {"-c", "8", "-d", "1", "--warmup", "1s"}, 5'000},
        Mode{"ramp_closed_loop", {"-c", "8", "-d", "1", "--ramp", "1s"}, 5'000},
        Mode{"ramp_open_loop", {"-c", "8", "-d", "1", "--ramp", "1s", "-r", "4000"}, 3'000},
        Mode{"open_loop_pipeline_warmup",
             {"-c", "4", "-d", "1", "-r", "4000", "-p", "4", "--warmup", "1s"}, 4'000}),
    [](const ::testing::TestParamInfo<Mode>& mode) { return std::string(mode.param.name); });

}  // namespace
}  // namespace hammer::test
