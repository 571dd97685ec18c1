// SPDX-License-Identifier: MIT
#pragma once
// A shard's share of the fleet. With --shard I/N, -c and --rate describe the whole fleet; this
// process runs N-th of them: connections split as -c is split over threads (20 over 3 is
// 7+7+6), and the open-loop schedule's slots dealt round robin (schedule/slot_partition.h), so
// its rate is rate / N. Without --shard (1/1) the share is everything.
#include <cstdint>

#include "core/config.h"

namespace hammer {

/// Connections this process opens: shard I of N takes total / N, the first total % N shards
/// one more.
inline int64_t shard_connections(const Config& config) {
  const int64_t index = config.shard.index - 1;
  const int64_t count = config.shard.count;
  return config.connections / count + (index < config.connections % count ? 1 : 0);
}

/// Requests/s this process schedules: the fleet's rate over the shard count (0 in closed loop).
inline double shard_rate(const Config& config) {
  return config.rate / static_cast<double>(config.shard.count);
}

/// The config as this process alone runs it: -c and --rate replaced by the shard's share, so
/// that per-process readings (verdicts: "-c 7 cannot carry 667 req/s") describe what it ran.
/// Identity without --shard.
inline Config shard_view(const Config& config) {
  Config view = config;
  view.connections = shard_connections(config);
  view.rate = shard_rate(config);
  return view;
}

}  // namespace hammer
