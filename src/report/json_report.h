// SPDX-License-Identifier: MIT
#pragma once
// The --json report: one document, schema documented in docs/json.md.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "report/json_writer.h"
#include "report/report_input.h"

namespace hammer {

/// Bumped on any incompatible change to the document (a member removed, renamed or retyped);
/// adding members is compatible and keeps it.
inline constexpr int kJsonSchemaVersion = 1;

/// The whole JSON document (docs/json.md), indented, ending in '\n'. Times are integer
/// nanoseconds; figures that do not exist in this mode (corrected latency and dispatch lag in
/// closed loop) are null rather than zero.
std::string render_json_report(const ReportInput& input);

/// The members every document starts with, single run or sweep: `hammer` (version, schema)
/// and `config`. `json` must be inside the document's top-level object.
void write_document_header(const Config& config, JsonWriter& json);

/// A figure's name in a `censored` list (docs/json.md): a percentile label ("99", "99.9") or
/// "max", and the figure.
struct NamedTailFigure {
  std::string_view name;
  TailFigure figure;
};
/// The member "censored": the names of the figures that timeouts censor (their values are the
/// timeout, a bound the true figure exceeds), [] when none is or `any` is false (no figures).
void write_censored_names(JsonWriter& json, bool any, const std::vector<NamedTailFigure>& figures);

/// `name`: an object of counts keyed by `names` in their order (kErrorKindNames with a result's
/// errors, kStatusClassNames with its status_classes).
template <size_t N>
void write_named_counts(std::string_view name, const std::array<std::string_view, N>& names,
                        const std::array<int64_t, N>& counts, JsonWriter& json) {
  json.key(name).begin_object();
  for (size_t index = 0; index < N; ++index) json.member(names[index], counts[index]);
  json.end_object();
}

/// The short latency object of a requests-file line or a phase: count, p50/p99/max (null when
/// the histogram is empty), censored and hdr. `tail` is the histogram's censoring (tail_of).
void write_short_latency(const CensoredTail& tail, const Histogram& histogram, JsonWriter& json);

/// A histogram's object (count, min/max/mean/stdev, percentiles_ns, censored, hdr).
/// `timed_out`: the requests whose latency it would hold had they been answered (the run's
/// timeouts for latency; 0 for connect and handshake times, which no request timeout censors).
void write_histogram(const Config& config, int64_t timed_out, const Histogram& histogram,
                     JsonWriter& json);

/// `status` (by class) and `status_codes` (by code) of `result`: the whole run's, a phase's.
void write_status_json(const RunResult& result, JsonWriter& json);

}  // namespace hammer
