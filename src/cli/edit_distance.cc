// SPDX-License-Identifier: MIT
// The textbook dynamic programme over three rows (the two previous ones are needed to see a
// transposition); inputs are option names, so the cost is irrelevant next to clarity.
#include "cli/edit_distance.h"

#include <algorithm>
#include <vector>

namespace hammer {

int64_t edit_distance(std::string_view from, std::string_view to) {
  const size_t width = to.size() + 1;
  std::vector<int64_t> before_previous(width), previous(width), current(width);
  for (size_t j = 0; j < width; ++j) previous[j] = static_cast<int64_t>(j);
  for (size_t i = 1; i <= from.size(); ++i) {
    current[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j < width; ++j) {
      const int64_t substitution = from[i - 1] == to[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution});
      if (i > 1 && j > 1 && from[i - 1] == to[j - 2] && from[i - 2] == to[j - 1]) {
        current[j] = std::min(current[j], before_previous[j - 2] + 1);
      }
    }
    std::swap(before_previous, previous);
    std::swap(previous, current);
  }
  return previous[to.size()];
}

std::optional<std::string_view> closest_match(std::string_view word,
                                              std::span<const std::string_view> candidates,
                                              int64_t max_distance) {
  std::optional<std::string_view> best;
  int64_t best_distance = max_distance + 1;
  for (std::string_view candidate : candidates) {
    const int64_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace hammer
