// SPDX-License-Identifier: MIT
#include "cli/metrics_listen.h"

#include <gtest/gtest.h>

#include "cli/options_testing.h"

namespace hammer {
namespace {

using options_testing::config_of;
using options_testing::kUrl;

TEST(MetricsListenTest, TheAddressTakesAHostABracketedIpv6OrOnlyAPort) {
  const Config v4 = config_of({"--metrics-listen", "127.0.0.1:9464", kUrl});
  EXPECT_EQ(v4.metrics_listen.host, "127.0.0.1");
  EXPECT_EQ(v4.metrics_listen.port, 9464);
  const Config v6 = config_of({"--metrics-listen", "[::1]:9100", kUrl});
  EXPECT_EQ(v6.metrics_listen.host, "::1");
  EXPECT_EQ(v6.metrics_listen.port, 9100);
  const Config any = config_of({"--metrics-listen=:0", kUrl});
  EXPECT_EQ(any.metrics_listen.host, "");
  EXPECT_EQ(any.metrics_listen.port_text, "0");
  EXPECT_TRUE(config_of({kUrl}).metrics_listen.port_text.empty());
}

TEST(MetricsListenTest, NoFlagNoServer) {
  const Config config = config_of({kUrl});
  const LiveMetricsBoard board;
  auto server = start_metrics_server(config, board);
  ASSERT_TRUE(server);
  EXPECT_EQ(server->get(), nullptr);
}

TEST(MetricsListenTest, APortAnotherServerHoldsIsOneLineAndExitTwo) {
  const Config first = config_of({"--metrics-listen", "127.0.0.1:0", kUrl});
  const LiveMetricsBoard board;
  auto holder = start_metrics_server(first, board);
  ASSERT_TRUE(holder) << holder.error().message;
  const std::string taken = format_address((*holder)->address());
  const Config second = config_of({"--metrics-listen", taken, kUrl});
  auto refused = start_metrics_server(second, board);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().exit_code, ExitCode::run_failed);
  EXPECT_EQ(refused.error().message,
            "--metrics-listen: " + taken + ": Address already in use");
}

TEST(MetricsListenTest, AHostThatDoesNotResolveIsOneLine) {
  const Config config = config_of({"--metrics-listen", "no-such-host.invalid:9464", kUrl});
  const LiveMetricsBoard board;
  auto refused = start_metrics_server(config, board);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message.rfind("--metrics-listen: cannot resolve 'no-such-host.invalid'", 0),
            0u)
      << refused.error().message;
}

}  // namespace
}  // namespace hammer
