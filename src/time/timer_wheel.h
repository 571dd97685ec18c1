// SPDX-License-Identifier: MIT
#pragma once
// TimerWheel: request and connect deadlines for one worker. O(1) arm and disarm, no
// allocation after construction, microsecond ticks. timer_wheel.cc explains the design.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/zeroed_array.h"

namespace hammer {

/// One timer, embedded in its owner (a connection keeps one per deadline it needs). The
/// wheel links nodes intrusively and never owns them; `id` is the owner's, untouched by the
/// wheel, for finding the owner from the node (or use the node's address).
/// A node must be disarmed (or expired) before it is destroyed or moved.
struct TimerNode {
  int64_t deadline_ns = 0;  // valid while armed; the value last passed to arm()
  TimerNode* prev = nullptr;
  TimerNode* next = nullptr;
  int32_t slot = -1;  // -1: not armed; otherwise the wheel's list holding the node
  uint32_t id = 0;

  bool armed() const { return slot >= 0; }
};

class TimerWheel {
 public:
  /// `start_ns`: the clock reading that tick 0 begins at (usually monotonic_now_ns() at
  /// setup). `tick_ns` >= 1: the resolution of the wheel's slots (deadlines themselves keep
  /// full nanosecond precision: a node never expires before its deadline, see advance()).
  /// `slot_count`: a power of two; one revolution covers slot_count * tick_ns.
  /// Allocates the slot heads and the occupancy bitmap here, and nothing afterwards.
  explicit TimerWheel(int64_t start_ns, int64_t tick_ns = 1000, int32_t slot_count = kMaxSlots);

  /// The default (and largest) wheel: 65,536 slots, 512 KB of slot heads.
  static constexpr int32_t kMaxSlots = 65536;
  /// The smallest wheel slot_count_for() sizes: 8 KB of slot heads.
  static constexpr int32_t kMinSlots = 1024;
  /// Slots per timer that may be armed at once in a wheel sized by slot_count_for().
  static constexpr int32_t kSlotsPerTimer = 1024;
  /// A wheel's slot count for at most `timers` nodes armed at once (a worker: one per
  /// connection): kSlotsPerTimer per timer, as a power of two, kMinSlots..kMaxSlots. Why it
  /// scales: a deadline lands in a slot far from the cursor (a request timeout, 2 s ahead, in
  /// a 65 ms revolution), so over a run every slot's page of heads gets written, and a full
  /// wheel is 512 KB resident per worker: 512 MB with -t 1024. What it costs: a node is
  /// looked at once per revolution, so the looks per second are about timers x 10^6 ns /
  /// (slots x tick_ns), at most ~1,000 a second at 1 us ticks, whatever the connections.
  static int32_t slot_count_for(int64_t timers);

  TimerWheel(const TimerWheel&) = delete;
  TimerWheel& operator=(const TimerWheel&) = delete;
  /// Movable, armed nodes included: nodes point at each other, never into the wheel.
  TimerWheel(TimerWheel&&) noexcept = default;
  TimerWheel& operator=(TimerWheel&&) noexcept = default;

  /// Arms `node` to expire at `deadline_ns`; an armed node is moved (even one that is due
  /// in the advance() now running: it then no longer fires there). A deadline at or before
  /// the last advance() time expires at the next advance(). O(1).
  void arm(TimerNode* node, int64_t deadline_ns);

  /// Cancels `node`; no-op if not armed. Safe from inside an expiry callback, also on a node
  /// due in the same advance() that has not fired yet: it then does not fire. O(1).
  void disarm(TimerNode* node);

  /// Expires every node armed before this call whose deadline_ns <= now_ns, each exactly
  /// once, calling on_expire(TimerNode*) with the node already disarmed. The callback may
  /// arm, re-arm and disarm any node (see arm()/disarm()); nodes armed by callbacks never
  /// fire within the same call, even when already due — they fire at the next advance(), so a
  /// callback re-arming its own node in the past cannot loop forever. Must not be called
  /// from a callback.
  /// Order guaranteed: nodes fire in the order of their ticks when now_ns is less than one
  /// revolution past the previous advance(); within a tick, and across a longer gap, the
  /// order is unspecified (not sorted by deadline). A now_ns earlier than a previous one is
  /// treated as that previous one. Returns the number of nodes expired.
  /// Cost: O(slots crossed / 64 + nodes in the crossed slots), at most one revolution.
  template <class OnExpire>
  int advance(int64_t now_ns, OnExpire&& on_expire) {
    collect_due(now_ns);
    int expired = 0;
    while (TimerNode* node = pop_due()) {
      ++expired;
      on_expire(node);
    }
    in_advance_ = false;
    return expired;
  }

  /// A lower bound on the earliest armed deadline, INT64_MAX when none is armed. It is exact
  /// except (a) after disarm() or re-arm() of the earliest node, until an advance() reaches
  /// the bound or an earlier node is armed, and (b) when the nodes nearest the cursor are
  /// all a revolution or more away, where it may be the start of a tick some 64 nodes
  /// ahead. Either way, waking at the bound and calling advance() makes progress: right
  /// after advance(now_ns) the bound is > now_ns unless a callback armed a node at or before
  /// now_ns, and a node never fires after the first advance() at or past its deadline.
  /// From inside a callback, nodes still waiting to fire in that advance() are not counted.
  /// O(1), except the first call after an advance() that expired nodes or reached the bound:
  /// that one scans the bitmap (at most slot_count / 64 words) and about 64 nodes.
  int64_t next_deadline_ns() const;

  /// Armed nodes, including those due and not yet fired by a running advance().
  int32_t armed_count() const { return armed_count_; }

  int64_t tick_ns() const { return tick_ns_; }
  int32_t slot_count() const { return slot_count_; }

 private:
  void collect_due(int64_t now_ns);
  TimerNode* pop_due();
  void link(TimerNode* node, int32_t slot);
  void unlink(TimerNode* node);
  int64_t tick_of(int64_t time_ns) const;
  int64_t tick_start_ns(int64_t tick) const { return start_ns_ + tick * tick_ns_; }
  int64_t compute_next_deadline() const;
  template <class Visit>
  void for_each_occupied(int64_t first_tick, int64_t tick_count, Visit&& visit) const;

  int64_t start_ns_;
  int64_t tick_ns_;
  int32_t slot_count_;
  int32_t mask_;
  // slot_count_ slot lists, then the due list; lazily zeroed pages, so a worker that arms few
  // timers keeps little of the 512 KB resident.
  ZeroedArray<TimerNode*> heads_;
  std::vector<uint64_t> occupied_;  // bit s set <=> heads_[s] != nullptr (slots only)
  TimerNode* due_tail_ = nullptr;   // the due list appends, so expiry keeps tick order
  int64_t cursor_tick_ = 0;         // ticks before this one are fully processed
  int64_t last_now_ns_ = std::numeric_limits<int64_t>::min();
  int32_t armed_count_ = 0;
  bool in_advance_ = false;
  mutable int64_t next_bound_ns_ = std::numeric_limits<int64_t>::max();
  mutable bool next_bound_stale_ = false;  // recompute before answering
};

}  // namespace hammer
