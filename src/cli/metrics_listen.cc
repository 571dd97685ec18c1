// SPDX-License-Identifier: MIT
// See metrics_listen.h.
#include "cli/metrics_listen.h"

#include <cstdio>

#include "net/socket.h"
#include "report/prometheus_text.h"

namespace hammer {

Expected<std::unique_ptr<MetricsServer>, RunError> start_metrics_server(
    const Config& config, const LiveMetricsBoard& board) {
  if (config.metrics_listen.port_text.empty()) return std::unique_ptr<MetricsServer>();
  Target where = config.metrics_listen;
  if (where.host.empty()) where.host = "0.0.0.0";  // ":9464": every IPv4 address
  auto address = resolve_target(where);
  if (!address) {
    return unexpected(RunError{ExitCode::run_failed, "--metrics-listen: " + address.error()});
  }
  auto server = MetricsServer::start(*address, std::string(kPrometheusContentType),
                                     [&config, &board] {
                                       return render_prometheus_text(config, board.total());
                                     });
  if (!server) {
    return unexpected(RunError{ExitCode::run_failed, "--metrics-listen: " + server.error()});
  }
  std::fprintf(stderr, "hammer: metrics at %s\n", (*server)->url().c_str());
  return std::move(*server);
}

void note_if_never_scraped(const MetricsServer* server) {
  if (server == nullptr || server->scrapes() > 0) return;
  std::fprintf(stderr, "note: --metrics-listen: nothing scraped %s while the run lasted\n",
               server->url().c_str());
}

}  // namespace hammer
