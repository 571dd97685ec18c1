// SPDX-License-Identifier: MIT
#pragma once
// The values of the flags that more than one command takes (-o, --slo, --start-tolerance):
// one parser each, so the run, `hammer merge` and `hammer report` accept the same spellings,
// apply the same limits and refuse a bad value in the same words.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cli/usage_error.h"
#include "core/config.h"
#include "time/time_units.h"

namespace hammer {

/// What a command's -o may name. Every command refuses an unknown extension and a file given
/// twice; `only` narrows the formats to one (hammer report writes .html), refused in
/// `only_reason`'s words ("renders HTML; expected a FILE.html").
struct OutputRule {
  std::optional<OutputFormat> only;
  std::string_view only_reason;
};

/// One -o FILE: the extension chooses the format; the same file however spelled ("a.json",
/// "./a.json") is refused, as its second write would replace the first.
std::optional<UsageError> add_output(std::string_view value, const OutputRule& rule,
                                     std::vector<OutputFile>& outputs);

/// After the flags: every -o file is written once the work is done, so a directory that is
/// not there would cost the whole run (or merge); refused now.
std::optional<UsageError> check_output_directories(const std::vector<OutputFile>& outputs);

/// -o FILE.hgrm in open loop also writes the other stopwatch's histogram beside it: an -o
/// that names that file is refused (a run's and a merge's outputs alike, once the mode is known).
std::optional<UsageError> check_hgrm_companions(const Config& config);

/// One --slo value (KEY=LIMIT, or several separated by commas): each limit added to `slos`;
/// a key already given, in this value or an earlier --slo, is refused.
std::optional<UsageError> add_slo_limits(std::string_view value, std::vector<SloLimit>& slos);

/// The longest --start-tolerance: a start a day late is a mistake, not a tolerance.
inline constexpr int64_t kMaxStartToleranceNs = 24 * kNanosPerHour;

/// --start-tolerance T: a duration from 0 to 24h; a bare number is seconds.
std::optional<UsageError> parse_start_tolerance(std::string_view value, int64_t& tolerance_ns);

}  // namespace hammer
