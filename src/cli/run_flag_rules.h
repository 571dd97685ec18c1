// SPDX-License-Identifier: MIT
#pragma once
// The run's rules between flags, checked after the flag loop (options.cc), each with its own
// line, as h2load's "-r, -D: they are mutually exclusive." and wrk's "number of connections
// must be >= threads": --shard and --start-at against the rest, the open-loop schedule
// against --warmup and --duration, the sweep flags, the https-only flags, Connection headers
// against -p and --no-keepalive, and -o against the inputs and a sweep.
#include <optional>
#include <string_view>

#include "cli/usage_error.h"
#include "core/config.h"

namespace hammer {

/// --start-tolerance needs --start-at; --shard and --metrics-listen need a single run, --shard a
/// connection per shard.
std::optional<UsageError> check_shard(const Config& config, bool start_tolerance_given);

/// -n, --requests-count: not with -d (`duration_given`) nor a sweep. Open loop, sets
/// duration_ns to the span of exactly N slots at --rate after the ramp and warm-up (at most
/// 24h); closed loop, to the bound kMaxDurationNs (the run ends when the N are answered).
std::optional<UsageError> apply_requests_count(Config& config, bool duration_given);

/// Open loop: the measured part (after any --warmup) holds at least one slot, at every level
/// of a rate sweep.
std::optional<UsageError> check_measured_slots(const Config& config);

/// A sweep varies one thing; a capacity search needs --slo; --control needs a sweep and a
/// good URL (stored in config.sweep when it is one).
std::optional<UsageError> check_sweep(Config& config,
                                      std::optional<std::string_view> control_url);

/// The https-only flags need an https:// URL (`tls_flag`: the first one given), --cert needs
/// --key and back, --tls-min <= --tls-max.
std::optional<UsageError> check_tls(const Config& config,
                                    std::optional<std::string_view> tls_flag);

/// A Connection header (-H, or a --requests line's) that contradicts -p or --no-keepalive.
std::optional<UsageError> check_connection_headers(const Config& config);
/// --streams needs --http2; -p (HTTP/1.1 pipelining) and --no-keepalive do not go with it.
std::optional<UsageError> check_http2_flags(const Config& config);

/// An -o file that is the --body or --requests file.
std::optional<UsageError> check_outputs_against_inputs(const Config& config);

/// A sweep's -o in a format that needs histograms (a sweep keeps none).
std::optional<UsageError> check_outputs_of_sweep(const Config& config);

}  // namespace hammer
