// SPDX-License-Identifier: MIT
// A sweep that states noise as a finding misleads more than one that says nothing: so every
// level the host left unsettled is marked where its figures are shown, and a reading placed
// by such a level is not given as a finding at all.
#include "report/sweep_noise_text.h"

#include <algorithm>
#include <cstdio>

#include "report/format.h"
#include "report/sweep_parts.h"

namespace hammer {
namespace {

using sweep_parts::level_text;

// A wall-clock budget as people read one: "45s", "12m30s", "1h05m".
std::string budget_text(int64_t ns) {
  const int64_t seconds = (ns + 999'999'999) / 1'000'000'000;
  char buffer[48];
  if (seconds < 60) {
    std::snprintf(buffer, sizeof buffer, "%llds", static_cast<long long>(seconds));
  } else if (seconds < 3600) {
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", static_cast<long long>(seconds / 60),
                  static_cast<long long>(seconds % 60));
  } else {
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", static_cast<long long>(seconds / 3600),
                  static_cast<long long>(seconds / 60 % 60));
  }
  return buffer;
}

bool noisy_at(const SweepResult& result, double level) {
  return std::any_of(result.steps.begin(), result.steps.end(), [&](const StepSummary& step) {
    return step.level == level && step.noisy;
  });
}

// "1 connection, 2 connections and 4 connections": each level named whole.
std::string levels_text(const Config& config, const std::vector<double>& levels) {
  std::string text;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) text += i + 1 == levels.size() ? " and " : ", ";
    text += level_text(config, levels[i]);
  }
  return text;
}

std::vector<double> noisy_levels(const SweepResult& result) {
  std::vector<double> levels;
  for (const StepSummary& step : result.steps) {
    if (step.noisy) levels.push_back(step.level);
  }
  std::sort(levels.begin(), levels.end());
  return levels;
}

}  // namespace

std::string sweep_budget_line(const Config& config) {
  const int64_t runs = sweep_max_runs(config);
  return "  at most " + std::to_string(runs) + (runs == 1 ? " run" : " runs") + ", up to " +
         budget_text(sweep_max_duration_ns(config)) + ": a level is run up to " +
         std::to_string(kMaxRepeats) +
         " more times when the host stalls or its p99 does not reproduce\n";
}

std::string level_cell_text(const StepSummary& step) {
  return format_number(step.level) + (step.noisy ? std::string(kNoisyMark) : "");
}

std::string runs_text(const StepSummary& step) {
  if (step.noisy) {
    return "  noisy after " + std::to_string(step.runs) + (step.runs == 1 ? " run" : " runs");
  }
  if (step.runs > 1) return "  " + std::to_string(step.runs) + " runs";
  return "";
}

std::string noise_legend(const Config& config, const SweepResult& result) {
  std::string out;
  const std::vector<double> noisy = noisy_levels(result);
  if (!noisy.empty()) {
    out += std::string(kNoisyMark) + " noisy: " + levels_text(config, noisy) +
           (noisy.size() == 1 ? " was" : " were") +
           " still unsettled after its repeats (host stalls, or p99s more than " +
           format_fixed(kReproduceFactor, 1) +
           "x apart); the row shows its quietest run. Repeat on a quieter machine.\n";
  }
  std::vector<double> settled;
  for (const StepSummary& step : result.steps) {
    if (step.runs > 1 && !step.noisy) settled.push_back(step.level);
  }
  std::sort(settled.begin(), settled.end());
  if (!settled.empty()) {
    out += "note: " + levels_text(config, settled) +
           (settled.size() == 1 ? " was" : " were") +
           " run again after the host stalled, and reproduced; the row shows the quietest run\n";
  }
  return out;
}

std::string with_noise(const Config& config, const SweepResult& result, std::string_view name,
                       const std::string& sentence, ReadingNoise noise,
                       std::span<const double> deciding) {
  switch (noise) {
    case ReadingNoise::clean:
      return sentence;
    case ReadingNoise::rests_on_noisy: {
      const std::vector<double> noisy = noisy_levels(result);
      std::string text = sentence;
      if (!text.empty() && text.back() == '\n') text.pop_back();
      return text + " It rests on " + (noisy.size() == 1 ? "a noisy level: " : "noisy levels: ") +
             levels_text(config, noisy) + ".\n";
    }
    case ReadingNoise::unreadable: {
      std::vector<double> placing(deciding.begin(), deciding.end());
      std::vector<double> noisy;
      for (double level : placing) {
        if (noisy_at(result, level)) noisy.push_back(level);
      }
      std::string text = std::string(name) + ": cannot be read: it rests on " +
                         levels_text(config, placing) + ", and " + levels_text(config, noisy) +
" stayed noisy after " +
                         (noisy.size() == 1 ? "its" : "their") + " repeats; repeat the " + (result.search ? "search" : "sweep") +
                         " on a quieter machine.\n";
      return text;
    }
  }
  return sentence;
}

}  // namespace hammer
