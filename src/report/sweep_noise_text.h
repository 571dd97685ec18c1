// SPDX-License-Identifier: MIT
#pragma once
// The words for a sweep's noise (sweep/noise.h decides it): the most a sweep can take, printed
// before it starts; the mark on a noisy level's row and its legend; and the knee, collapse and
// capacity sentences told when they rest on noisy levels or cannot be read.
#include <span>
#include <string>
#include <string_view>

#include "core/config.h"
#include "sweep/noise.h"
#include "sweep/sweep.h"

namespace hammer {

/// The mark a noisy level's row carries after its level, and the legend explains.
inline constexpr std::string_view kNoisyMark = "~";

/// One header line: "  at most 12 runs, up to 1m12s: a level is run up to 2 more times when
/// the host stalls or its p99 does not reproduce\n".
std::string sweep_budget_line(const Config& config);

/// The level column of a row: the level, and kNoisyMark when it stayed noisy.
std::string level_cell_text(const StepSummary& step);

/// The end of a repeated level's row: "  2 runs", "  noisy after 3 runs"; empty for one run.
std::string runs_text(const StepSummary& step);

/// The lines after the table that explain the marks: the legend when a level is noisy, and
/// which levels were repeated and settled. Empty when every level ran once.
std::string noise_legend(const Config& config, const SweepResult& result);

/// A reading's sentence told its noise: unchanged when clean; "It rests on noisy levels: ..."
/// added when rests_on_noisy; replaced by "<name>: cannot be read: ..." when unreadable, naming
/// `deciding` (the levels that would place it) and which of them stayed noisy.
std::string with_noise(const Config& config, const SweepResult& result, std::string_view name,
                       const std::string& sentence, ReadingNoise noise,
                       std::span<const double> deciding);

}  // namespace hammer
