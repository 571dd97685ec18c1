// SPDX-License-Identifier: MIT
#pragma once
// ManualClock: a Clock that reads whatever the test set, for driving a worker (or anything
// else that takes a Clock&) through time without sleeping. Single-threaded use.
#include <cstdint>

#include "time/clock.h"

namespace hammer {

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ns = 1'000'000'000) : now_(start_ns) {}
  int64_t now_ns() const override { return now_; }
  void set(int64_t now_ns) { now_ = now_ns; }
  void advance(int64_t delta_ns) { now_ += delta_ns; }

 private:
  int64_t now_;
};

}  // namespace hammer
