// SPDX-License-Identifier: MIT
// See prometheus_text.h. Names follow Prometheus's conventions: a unit suffix (_seconds), a
// _total suffix on counters, base units (seconds, not milliseconds), every label value of a
// family present from the first scrape (zeros included) so that rate() has a start.
#include "report/prometheus_text.h"

#include <cstdio>

namespace hammer {
namespace {

constexpr std::array<std::string_view, kPhaseCount> kPhaseLabels = {"ramp", "warmup", "measured"};

void family(std::string& out, const PrometheusFamily& family) {
  out += "# HELP ";
  out += family.name;
  out += ' ';
  out += family.help;
  out += "\n# TYPE ";
  out += family.name;
  out += ' ';
  out += family.type;
  out += '\n';
}

void append_number(std::string& out, double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  out += text;
}

void sample_name(std::string& out, std::string_view name, std::string_view labels) {
  out += name;
  if (!labels.empty()) {
    out += '{';
    out += labels;
    out += '}';
  }
  out += ' ';
}

void sample(std::string& out, std::string_view name, std::string_view labels, double value) {
  sample_name(out, name, labels);
  append_number(out, value);
  out += '\n';
}

/// Counts are written whole: %g would round a count past 10^9.
void sample(std::string& out, std::string_view name, std::string_view labels, int64_t value) {
  sample_name(out, name, labels);
  out += std::to_string(value);
  out += '\n';
}

/// A label value, escaped as the format asks (backslash, double quote, newline).
std::string label_value(std::string_view value) {
  std::string escaped;
  for (char c : value) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '"') {
      escaped += "\\\"";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string phase_label(int phase) {
  return "phase=\"" + std::string(kPhaseLabels[static_cast<size_t>(phase)]) + "\"";
}

void histogram_samples(std::string& out, std::string_view name, const std::string& labels,
                       const LiveHistogram& histogram) {
  const std::string prefix = labels.empty() ? "" : labels + ",";
  const std::string bucket = std::string(name) + "_bucket";
  for (int k = 0; k < kLiveBucketCount; ++k) {
    std::string le = prefix + "le=\"";
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", static_cast<double>(kLiveBucketBoundsNs[k]) / 1e9);
    le += bound;
    le += '"';
    sample(out, bucket, le, histogram.at_or_below[k]);
  }
  sample(out, bucket, prefix + "le=\"+Inf\"", histogram.count);
  sample(out, std::string(name) + "_sum", labels, histogram.sum_ns / 1e9);
  sample(out, std::string(name) + "_count", labels, histogram.count);
}

/// One family of per-phase counts with one more label: a sample for each phase the run has
/// and each of `names` (status classes, error kinds), zeros included.
template <size_t N>
void phase_counts(std::string& out, const PrometheusFamily& counts, std::string_view label,
                  const std::array<std::string_view, N>& names,
                  std::array<int64_t, N> LivePhase::*member, const LiveFigures& figures) {
  family(out, counts);
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    const LivePhase& figures_of = figures.phases[static_cast<size_t>(phase)];
    if (!figures_of.present) continue;
    for (size_t k = 0; k < N; ++k) {
      sample(out, counts.name,
             phase_label(phase) + "," + std::string(label) + "=\"" + std::string(names[k]) + "\"",
             (figures_of.*member)[k]);
    }
  }
}

}  // namespace

std::string render_prometheus_text(const Config& config, const LiveFigures& figures) {
  std::string out;
  out.reserve(16 * 1024);

  family(out, kInfoFamily);
  sample(out, "hammer_info",
         "url=\"" + label_value(config.url) + "\",mode=\"" +
             (config.open_loop() ? "open" : "closed") + "\",protocol=\"" +
             (config.http2 ? "h2" : "http/1.1") + "\",engine=\"" +
             std::string(engine_name(config.engine)) + "\",version=\"" HAMMER_VERSION "\"",
         int64_t{1});
  if (config.open_loop()) {
    family(out, kTargetRateFamily);
    sample(out, "hammer_target_rate", "", config.rate);
  }

  phase_counts(out, kRequestsFamily, "status", kStatusClassNames, &LivePhase::status_classes,
               figures);
  phase_counts(out, kErrorsFamily, "kind", kErrorKindNames, &LivePhase::errors, figures);
  family(out, kSentFamily);
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    const LivePhase& figures_of = figures.phases[static_cast<size_t>(phase)];
    if (figures_of.present) {
      sample(out, "hammer_requests_sent_total", phase_label(phase),
             figures_of.sent);
    }
  }
  if (figures.open_loop || config.open_loop()) {
    family(out, kScheduledFamily);
    sample(out, "hammer_requests_scheduled_total", "", figures.scheduled);
  }
  family(out, kInFlightFamily);
  sample(out, "hammer_requests_in_flight", "", figures.in_flight);
  family(out, kConnectionsFamily);
  sample(out, "hammer_connections_open", "", figures.connections);

  family(out, kLatencyFamily);
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    const LivePhase& figures_of = figures.phases[static_cast<size_t>(phase)];
    if (!figures_of.present) continue;
    if (config.open_loop()) {
      histogram_samples(out, "hammer_latency_seconds",
                        phase_label(phase) + ",stopwatch=\"corrected\"", figures_of.corrected);
    }
    histogram_samples(out, "hammer_latency_seconds", phase_label(phase) + ",stopwatch=\"uncorrected\"",
                      figures_of.uncorrected);
  }
  if (config.open_loop()) {
    family(out, kLagFamily);
    histogram_samples(out, "hammer_dispatch_lag_seconds", "", figures.dispatch_lag);
    family(out, kBehindFamily);
    sample(out, "hammer_requests_behind_schedule_total", "",
           figures.behind_schedule);
    family(out, kLagThresholdFamily);
    sample(out, "hammer_dispatch_lag_threshold_seconds", "",
           static_cast<double>(figures.lag_threshold_ns) / 1e9);
  }
  return out;
}

}  // namespace hammer
