// SPDX-License-Identifier: MIT
// design.md §5: allocation is O(connections), not O(requests). A whole run of tens of thousands
// of requests, setup included, must make fewer than 200 allocations: a single allocation per
// request anywhere on the send/receive/parse/record path would blow through that at once.
#include <gtest/gtest.h>

#include <cstdlib>

#include "alloc/alloc_counter.h"
#include "cli/options.h"
#include "run/run.h"
#include "support/subprocess.h"

namespace hammer::test {
namespace {

TEST(HotPathAllocationTest, ARunOfManyRequestsAllocatesOnlyAtSetup) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "fast"});
  ASSERT_TRUE(server.ready());
  // Long enough for ~90,000 requests in a release build; sanitizer builds manage fewer, and
  // the bound holds whatever the count, which is the point.
  auto parsed = parse_options({"-c", "10", "-t", "2", "-d", "3", server.url()});
  ASSERT_TRUE(parsed.has_value());
  // The e2e stage runs once per engine (scripts/test.sh): HAMMER_ENGINE picks this run's.
  if (const char* engine = std::getenv("HAMMER_ENGINE"); engine != nullptr && *engine != '\0') {
    auto kind = parse_engine("HAMMER_ENGINE", engine);
    ASSERT_TRUE(kind.has_value()) << kind.error().message;
    parsed->config.engine = *kind;
  }

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

// The paths a plain GET does not take: a body sent with its head (one two-part send), and
// requests that a polite close (Connection: close every 100th answer) sends again, -p 8.
TEST(HotPathAllocationTest, BodiesAndResendsAllocateNothingPerRequest) {
  ServerProcess server({test_server_binary(), "--port", "0", "--close-every", "100"});
  ASSERT_TRUE(server.ready());
  auto parsed = parse_options({"-c", "4", "-t", "1", "-d", "2", "-p", "8", "-m", "PUT",
                               server.url()});
  ASSERT_TRUE(parsed.has_value());
  parsed->config.body = std::string("{\"hello\": \"world\"}\n");
  if (const char* engine = std::getenv("HAMMER_ENGINE"); engine != nullptr && *engine != '\0') {
    auto kind = parse_engine("HAMMER_ENGINE", engine);
    ASSERT_TRUE(kind.has_value()) << kind.error().message;
    parsed->config.engine = *kind;
  }

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

}  // namespace
}  // namespace hammer::test
