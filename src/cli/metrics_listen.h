// SPDX-License-Identifier: MIT
#pragma once
// --metrics-listen for the run command: the server that answers Prometheus's scrapes from the
// run's LiveMetricsBoard, started before the run connects and stopped after the report.
#include <memory>

#include "core/config.h"
#include "core/expected.h"
#include "metrics/metrics_server.h"
#include "run/live_metrics.h"
#include "run/run.h"

namespace hammer {

/// Null without --metrics-listen; else the server (its URL said on stderr), or why it cannot
/// listen ("--metrics-listen: 127.0.0.1:9464: Address already in use", exit 2). `config` and
/// `board` outlive the server.
Expected<std::unique_ptr<MetricsServer>, RunError> start_metrics_server(
    const Config& config, const LiveMetricsBoard& board);

/// After the run: a note on stderr when nothing scraped the metrics while it lasted (a
/// Prometheus pointed elsewhere, or a scrape interval longer than the run).
void note_if_never_scraped(const MetricsServer* server);

}  // namespace hammer
