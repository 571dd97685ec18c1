// SPDX-License-Identifier: MIT
#include "run/host_samples.h"

#include <algorithm>

#include "run/host_meter.h"

namespace hammer {
namespace {

// A long stall as one thread saw it: felt from the moment its sleep should have ended until
// the thread ran again. One freeze of the process, seen by the meter and by two workers, is
// three sightings that end together and overlap; two freezes apart are two.
struct Sighting {
  int64_t felt_from_ns = 0;
  int64_t end_ns = 0;
  HostStall stall;  // as the report keeps it: when the sleep began, and the overrun
};

}  // namespace

void HostSamples::reserve() {
  stalls_.reserve(static_cast<size_t>(HostReading::kMaxStallsKept));
}

bool workers_sample_host(const Config& config) {
  if (!config.open_loop() || config.threads <= 0) return false;
  // A worker's slots are every (shards x threads)-th of the fleet's schedule.
  const double per_worker_rate =
      config.rate / static_cast<double>(std::max<int64_t>(config.shard.count, 1) * config.threads);
  return per_worker_rate * static_cast<double>(HostMeter::kIntervalNs) >= 1e9 &&
         config.dispatch_budget_ns() < HostMeter::kIntervalNs;
}

void absorb_samples(HostReading& reading, const std::vector<const HostSamples*>& samples) {
  if (!reading.measured()) return;
  std::vector<Sighting> sightings;
  int64_t unkept_count = reading.long_count;
  int64_t unkept_sum_ns = reading.long_sum_ns;
  for (const HostStall& stall : reading.long_stalls) {
    const int64_t felt_from_ns = stall.at_ns + reading.interval_ns;
    sightings.push_back({felt_from_ns, felt_from_ns + stall.length_ns, stall});
    --unkept_count;
    unkept_sum_ns -= stall.length_ns;
  }
  for (const HostSamples* worker : samples) {
    unkept_count += worker->count();
    unkept_sum_ns += worker->sum_ns();
    reading.max_ns = std::max(reading.max_ns, worker->max_ns());
    for (const SampledStall& stall : worker->stalls()) {
      sightings.push_back(
          {stall.due_ns, stall.due_ns + stall.length_ns, {stall.began_ns, stall.length_ns}});
      --unkept_count;
      unkept_sum_ns -= stall.length_ns;
    }
  }
  std::sort(sightings.begin(), sightings.end(), [](const Sighting& a, const Sighting& b) {
    return a.felt_from_ns < b.felt_from_ns;
  });
  std::vector<HostStall> stalls;
  int64_t end_ns = 0;
  for (const Sighting& sighting : sightings) {
    if (!stalls.empty() && sighting.felt_from_ns <= end_ns) {
      end_ns = std::max(end_ns, sighting.end_ns);
      if (sighting.stall.length_ns > stalls.back().length_ns) stalls.back() = sighting.stall;
      continue;
    }
    stalls.push_back(sighting.stall);
    end_ns = sighting.end_ns;
  }
  std::stable_sort(stalls.begin(), stalls.end(),
                   [](const HostStall& a, const HostStall& b) { return a.at_ns < b.at_ns; });
  reading.long_count = unkept_count + static_cast<int64_t>(stalls.size());
  reading.long_sum_ns = unkept_sum_ns;
  for (const HostStall& stall : stalls) {
    reading.long_sum_ns += stall.length_ns;
    reading.max_ns = std::max(reading.max_ns, stall.length_ns);
  }
  if (static_cast<int64_t>(stalls.size()) > HostReading::kMaxStallsKept) {
    stalls.resize(static_cast<size_t>(HostReading::kMaxStallsKept));
  }
  reading.long_stalls = std::move(stalls);
}

}  // namespace hammer
