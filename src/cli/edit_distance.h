// SPDX-License-Identifier: MIT
#pragma once
// Spelling suggestions for unknown options ("did you mean '--connections'?"), as ninja's
// edit_distance.cc does for unknown tools. Optimal-string-alignment distance: insertions,
// deletions, substitutions and swaps of two neighbours each cost 1, because the commonest
// typos in a flag name are one missing, doubled or transposed letter.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace hammer {

/// Edits needed to turn `from` into `to`; a transposition of adjacent characters is one edit.
/// Case-sensitive. O(|from| * |to|) time; allocates one row buffer.
int64_t edit_distance(std::string_view from, std::string_view to);

/// The candidate closest to `word` when it is at most `max_distance` edits away, else nullopt.
/// Ties go to the earlier candidate. The view points into `candidates`.
std::optional<std::string_view> closest_match(std::string_view word,
                                              std::span<const std::string_view> candidates,
                                              int64_t max_distance);

}  // namespace hammer
