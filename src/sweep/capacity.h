// SPDX-License-Identifier: MIT
#pragma once
// The capacity search: the highest rate in [low, high] at which a step meets every --slo limit
// with its dispatch lag under the bounds (StepSummary::meets()). A pure function over a
// `measure` callback, so tests drive it with a model of a server instead of a real one.
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "sweep/step.h"

namespace hammer {

struct CapacitySearch {
  double low = 0;
  double high = 0;
  int max_steps = 8;          // each step is a full run of -d seconds
  double resolution = 0.05;   // stop once the bracket is narrower than this share of its base
};

struct CapacityReading {
  bool found = false;          // some rate met every limit
  double rate = 0;             // the highest rate that met them (when found)
  double first_failing = 0;    // the lowest rate above it that did not; 0 when none failed
  bool whole_range = false;    // the top of the range itself met them
  // The search used its max_steps while every rate it tried met the limits, below the top of
  // the range: `rate` is a lower bound of the capacity, not the capacity (nothing failed).
  bool out_of_steps = false;
  int steps = 0;               // rates measured
};

/// The rate a search over [low, ...] measures first: low in whole req/s, at least 1.
double first_search_rate(double low);

/// Measures one rate; nullopt stops the search (the run could not be done).
using MeasureRate = std::function<std::optional<StepSummary>(double rate)>;

/// Probes low; then doubles the rate (capped at high) until a step fails; then bisects the
/// bracket between the last rate that met the limits and the first that did not, until it is
/// within `resolution` or max_steps runs were made. Rates are whole req/s (at least 1 apart).
/// Every step measured is appended to `tried`, in the order run.
CapacityReading search_capacity(const CapacitySearch& search, const MeasureRate& measure,
                                 std::vector<StepSummary>& tried);

/// For a sweep over fixed levels with --slo: the highest level that met every limit, and the
/// lowest level above it that did not. `top_level` is the highest level planned: the range's
/// top met them only when that level ran and met them (a sweep interrupted before it did not).
CapacityReading capacity_from_steps(std::span<const StepSummary> steps, double top_level);

}  // namespace hammer
