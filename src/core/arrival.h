// SPDX-License-Identifier: MIT
#pragma once
// --arrival and --seed: the open-loop schedule's shape (schedule/arrivals.cc draws it).
#include <cstdint>

namespace hammer {

enum class Arrival : uint8_t { constant, poisson };

/// The arrival process of an open-loop run. constant ignores the seed.
struct ArrivalProcess {
  Arrival kind = Arrival::constant;
  uint64_t seed = 1;  // --seed; the default makes every run's Poisson schedule the same
};

/// Its --arrival spelling, in the reports and the JSON document.
constexpr const char* arrival_name(Arrival kind) {
  return kind == Arrival::poisson ? "poisson" : "constant";
}

}  // namespace hammer
