// SPDX-License-Identifier: MIT
#pragma once
// The values of the run's own flags, one checker each: what options.cc's table calls for a
// flag's value. Each returns nothing when the value is good (and stores it), or one line
// naming the flag and the value, with the bound when it is out of range. Nothing is clamped.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/usage_error.h"
#include "core/config.h"
#include "core/shard_share.h"

namespace hammer {

/// A whole number in 1..max ("-c 10", "-p 4").
/// --seed: any whole number 0 .. 2^64 - 1.
std::optional<UsageError> parse_seed(std::string_view flag, std::string_view value,
                                     uint64_t& out);
std::optional<UsageError> parse_whole(std::string_view flag, std::string_view value, int64_t max,
                                      int64_t& out);

/// A duration > 0 and at most max_ns (`max_text` says it); a bare number is `default_unit`.
/// `examples` is shown when the value is not a duration.
std::optional<UsageError> parse_duration_flag(std::string_view flag, std::string_view value,
                                              int64_t default_unit, std::string_view examples,
                                              int64_t max_ns, std::string_view max_text,
                                              int64_t& out);

/// --rate N: requests per second, from kMinRate to kMaxRate (options.h).
std::optional<UsageError> parse_rate_flag(std::string_view value, double& out);

/// --shard I/N: 1 <= I <= N <= kMaxShards, both whole numbers.
std::optional<UsageError> parse_shard(std::string_view value, ShardSpec& shard);

/// -H "K: V": checked by http/request's rules, normalised to one space after the colon.
std::optional<UsageError> parse_header(std::string_view value, std::vector<std::string>& headers);

/// --body FILE: read now, at most kMaxBodyBytes, with a hint for curl's habits.
std::optional<UsageError> read_body(std::string_view path, SharedText& body);

/// --progress-fd FD: a descriptor this process has open, not stdin nor stdout.
std::optional<UsageError> parse_progress_fd(std::string_view value, int& out);

/// --metrics-listen HOST:PORT, [V6]:PORT or :PORT (every address); PORT 0..65535.
std::optional<UsageError> parse_metrics_listen(std::string_view value, Target& out);

/// --cacert, --cert, --key FILE: readable now (its contents are TLS's to check later).
std::optional<UsageError> check_readable(std::string_view flag, std::string_view path,
                                         std::string& out);

/// --tls-min, --tls-max: 1.2 or 1.3.
std::optional<UsageError> parse_tls_version(std::string_view flag, std::string_view value,
                                            TlsVersion& out);

}  // namespace hammer
