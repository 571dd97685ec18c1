// SPDX-License-Identifier: MIT
#pragma once
// --metrics-listen: the Prometheus text exposition format (version 0.0.4) of a run's live
// figures, what GET /metrics answers. Every series and its labels are listed in docs/metrics.md;
// deploy/grafana-dashboard.json reads them.
#include <array>
#include <string>
#include <string_view>

#include "core/config.h"
#include "run/live_metrics.h"

namespace hammer {

/// The Content-Type a scrape is answered with.
inline constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

/// One family of series: what GET /metrics serves and the man page's METRICS section lists.
struct PrometheusFamily {
  std::string_view name;
  std::string_view type;    // counter, gauge, histogram
  std::string_view labels;  // as the man page lists them; empty: none
  std::string_view help;    // the # HELP line
};

inline constexpr PrometheusFamily kInfoFamily{
    "hammer_info", "gauge", "url, mode (open|closed), protocol, engine, version",
    "The run hammer is making: its target, mode, protocol and engine (always 1)."};
inline constexpr PrometheusFamily kTargetRateFamily{
    "hammer_target_rate", "gauge", "", "Open loop: requests per second asked for (-r)."};
inline constexpr PrometheusFamily kRequestsFamily{
    "hammer_requests_total", "counter", "phase (ramp|warmup|measured), status (1xx..5xx)",
    "Responses received, by phase and status class."};
inline constexpr PrometheusFamily kErrorsFamily{
    "hammer_errors_total", "counter",
    "phase, kind (connect|read|write|timeout|parse|tls)",
    "Requests that got no valid answer, by phase and kind; kind=\"connect\" counts failed "
    "connects."};
inline constexpr PrometheusFamily kSentFamily{
    "hammer_requests_sent_total", "counter", "phase", "Requests written to a socket, by phase."};
inline constexpr PrometheusFamily kScheduledFamily{
    "hammer_requests_scheduled_total", "counter", "",
    "Open loop: requests whose intended send time has come, every phase."};
inline constexpr PrometheusFamily kInFlightFamily{
    "hammer_requests_in_flight", "gauge", "", "Requests sent and not yet answered or failed."};
inline constexpr PrometheusFamily kConnectionsFamily{
    "hammer_connections_open", "gauge", "", "Connections up now."};
inline constexpr PrometheusFamily kLatencyFamily{
    "hammer_latency_seconds", "histogram", "phase, stopwatch (corrected|uncorrected), le",
    "Latency by phase and stopwatch: corrected (from each request's intended time, open loop) "
    "and uncorrected (from its send)."};
inline constexpr PrometheusFamily kLagFamily{
    "hammer_dispatch_lag_seconds", "histogram", "le",
    "Open loop, measured part: how late each request left after its intended time."};
inline constexpr PrometheusFamily kBehindFamily{
    "hammer_requests_behind_schedule_total", "counter", "",
    "Open loop, measured part: requests that left later than the lag threshold."};
inline constexpr PrometheusFamily kLagThresholdFamily{
    "hammer_dispatch_lag_threshold_seconds", "gauge", "",
    "Open loop: the lateness above which a request counts as behind schedule."};
/// In the page's order.
inline constexpr std::array<PrometheusFamily, 12> kPrometheusFamilies = {
    kInfoFamily,     kTargetRateFamily, kRequestsFamily,    kErrorsFamily,
    kSentFamily,     kScheduledFamily,  kInFlightFamily,    kConnectionsFamily,
    kLatencyFamily,  kLagFamily,        kBehindFamily,      kLagThresholdFamily};

/// The whole page: hammer_info, then the counters, gauges and histograms of `figures`. Phases
/// the run does not have are left out; the corrected stopwatch and the dispatch lag only in
/// open loop.
std::string render_prometheus_text(const Config& config, const LiveFigures& figures);

}  // namespace hammer
