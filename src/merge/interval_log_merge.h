// SPDX-License-Identifier: MIT
#pragma once
// `hammer merge a.hlog b.hlog -o merged.hlog`: interval logs added interval by interval.
#include <vector>

#include "stats/interval_log.h"

namespace hammer {

/// Adds the logs' histograms per tag and per wall-clock interval: each interval is placed by
/// its absolute start (BaseTime + start) in whole intervals (the first log's first interval
/// length, 1 s for hammer's logs) from the earliest log's StartTime, and intervals that land in
/// the same place add up. The merged log starts at the earliest StartTime and is based on it.
IntervalLog merge_interval_logs(const std::vector<IntervalLog>& logs);

}  // namespace hammer
