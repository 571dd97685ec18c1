// SPDX-License-Identifier: MIT
#pragma once
// Readings that know their noise (issue 23): a sweep level or capacity-search step whose run
// the host disturbed, or whose p99 a repeat does not give back, is run again, at most
// kMaxRepeats more times; a level still unsettled after them is noisy, and the knee, collapse
// and capacity readings say when they rest on noisy levels or cannot be read at all. Pure
// functions over StepSummary, so tests drive them with made-up runs. The reasons for the
// numbers are in noise.cc.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "sweep/capacity.h"
#include "sweep/knee.h"
#include "sweep/step.h"

namespace hammer {

/// Repeats of a level beyond its first run: every level runs at most 1 + kMaxRepeats times.
inline constexpr int kMaxRepeats = 2;
/// Two runs' p99 reproduce each other when the larger is at most this many times the smaller...
inline constexpr double kReproduceFactor = 1.5;
/// ...or at most this far above it (sub-millisecond tails move by more than 1.5x on any
/// machine, by amounts no reading rests on).
inline constexpr int64_t kReproduceSlackNs = 1'000'000;
/// Stalls of the host (each at least VerdictThresholds::kHostStallVerdictNs) summing over this
/// share of a run's measured time disturb it even when they moved no reported percentile: the
/// share past which the run's own host_stalled verdict stands (run/host_verdicts.cc).
inline constexpr double kHostLostShare = VerdictThresholds::kHostFrozenShare;

/// The host meter says its stalls could have made the run's figures: the run's host_stalled
/// verdict, or stalls of 50 ms and more reaching into its measured part that sum over
/// kHostLostShare of it.
bool host_disturbed(const StepSummary& run);

/// Two runs' p99 agree (kReproduceFactor, kReproduceSlackNs); runs without a latency figure
/// agree only with each other.
bool p99_reproduces(const StepSummary& a, const StepSummary& b);

/// Where a level stands after the runs made so far.
enum class LevelState : uint8_t {
  settled,  // its first run was undisturbed, or an undisturbed run's p99 another run gave back
  repeat,   // not settled, and fewer than 1 + kMaxRepeats runs made: run it again
  noisy,    // not settled after 1 + kMaxRepeats runs
};
LevelState judge_level(std::span<const StepSummary> runs);

/// Which run a level reports, whole (every figure of one run, so they agree with each other):
/// the quietest — undisturbed before disturbed, then the least time lost to host stalls —
/// and among equally quiet runs the one with the higher p99, the conservative reading.
size_t reported_run(std::span<const StepSummary> runs);

/// The level's summary: its reported run, with `runs`, `run_p99_ns` and `noisy` filled in.
/// `unfinished` says the repeats were cut short (Ctrl-C, a repeat that could not start): a
/// level then left unsettled is noisy.
StepSummary settle_level(std::span<const StepSummary> runs, bool unfinished = false);

/// Makes one more run of a level; nullopt when it could not (Ctrl-C, a run that could not
/// start, one cut short: the caller notes why).
using RepeatRun = std::function<std::optional<StepSummary>()>;

/// A level from its first run: repeated through `repeat` while judge_level() asks for it, then
/// settled. A first run Ctrl-C cut is reported as it is (its row says so), never repeated nor
/// noisy.
StepSummary measure_level(StepSummary first, const RepeatRun& repeat);

/// How far a reading (knee, collapse, capacity) can be trusted given the noisy levels.
enum class ReadingNoise : uint8_t {
  clean,           // no noisy level
  rests_on_noisy,  // some level is noisy, but not one that places the reading
  unreadable,      // a level that places the reading is noisy
};
inline constexpr std::array<std::string_view, 3> kReadingNoiseNames = {"clean", "rests_on_noisy",
                                                                       "unreadable"};
inline std::string_view reading_noise_name(ReadingNoise noise) {
  return kReadingNoiseNames[static_cast<size_t>(noise)];
}

/// `deciding`: the levels that place the reading. unreadable when one of them is noisy,
/// rests_on_noisy when another level of `steps` is.
ReadingNoise reading_noise(std::span<const StepSummary> steps, std::span<const double> deciding);

/// The levels that place each reading (noise.cc says why these).
std::vector<double> knee_levels(std::span<const StepSummary> steps, const KneeReading& knee);
std::vector<double> collapse_levels(const CollapseReading& collapse);
std::vector<double> capacity_levels(std::span<const StepSummary> steps,
                                    const CapacityReading& capacity);

/// The most runs a sweep or search can make (every level at 1 + kMaxRepeats runs, plus the
/// --control steps, which are not repeated), and the most time they take: runs x (--ramp +
/// --warmup + -d), connects aside.
int64_t sweep_max_runs(const Config& config);
int64_t sweep_max_duration_ns(const Config& config);

}  // namespace hammer
