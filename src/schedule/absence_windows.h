// SPDX-License-Identifier: MIT
#pragma once
// AbsenceWindows: the spans of time a worker was not running its loop (it overslept its wait,
// or a pass ran long: the process was stopped, the host froze, hammer's own CPU was short), so
// that a slot which came due inside one is charged to the generator, not the server, however
// busy its connections were by the time it finally left (DispatchLagRecorder).
//
// A small fixed ring, no allocation. The worker appends windows in time order as it notices
// them; the recorder asks about slots in intended order (the schedule is first in, first out),
// so one cursor that only moves forward answers each question in a compare or two.
#include <array>
#include <cstdint>

namespace hammer {

class AbsenceWindows {
 public:
  /// Windows kept at once. They are dropped oldest first when a backlog holds slots older than
  /// this many windows back: those slots then fall back to the busy-connection rule.
  static constexpr int kCapacity = 64;

  /// The worker was absent over [begin_ns, end_ns). Windows come in time order; one that
  /// touches the last is merged into it.
  void add(int64_t begin_ns, int64_t end_ns) {
    if (end_ns <= begin_ns) return;
    if (count_ > 0) {
      Window& last = at(count_ - 1);
      if (begin_ns <= last.end_ns) {
        if (end_ns > last.end_ns) last.end_ns = end_ns;
        return;
      }
    }
    if (count_ == kCapacity) {  // the oldest goes
      first_ = (first_ + 1) % kCapacity;
      --count_;
    }
    at(count_) = Window{begin_ns, end_ns};
    ++count_;
  }

  struct Window {
    int64_t begin_ns = 0;
    int64_t end_ns = 0;
  };

  /// The window `t_ns` fell in, or null. Calls must come with `t_ns` never decreasing:
  /// windows that ended before it are passed for good.
  const Window* covering(int64_t t_ns) {
    while (count_ > 0 && at(0).end_ns <= t_ns) {
      first_ = (first_ + 1) % kCapacity;
      --count_;
    }
    return count_ > 0 && at(0).begin_ns <= t_ns ? &at(0) : nullptr;
  }
  /// Whether `t_ns` fell in a window (covering()'s rule on the calls' order).
  bool covers(int64_t t_ns) { return covering(t_ns) != nullptr; }

  /// How many windows are held (not yet passed or dropped).
  int size() const { return count_; }
  /// Calls f(begin_ns, end_ns) for each window held, oldest first.
  template <class F>
  void visit(F&& f) const {
    for (int k = 0; k < count_; ++k) {
      const Window& window = windows_[static_cast<size_t>((first_ + k) % kCapacity)];
      f(window.begin_ns, window.end_ns);
    }
  }

 private:
  Window& at(int k) { return windows_[static_cast<size_t>((first_ + k) % kCapacity)]; }

  std::array<Window, kCapacity> windows_{};
  int first_ = 0;
  int count_ = 0;
};

}  // namespace hammer
