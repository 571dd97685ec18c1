// SPDX-License-Identifier: MIT
// A hashed timing wheel (Varghese & Lauck, 1987), as a worker's single source of deadlines.
//
// Time is cut into ticks of tick_ns (1 us by default) counted from start_ns. The wheel is an
// array of slot_count lists (65,536 by default, a power of two so the slot of tick t is
// t & mask); a node due in tick t is linked into slot t & mask. Arming and disarming are
// list splices: O(1), and since the links live in the node (embedded in its connection), no
// allocation ever happens after the constructor sizes the slot heads (8 bytes each) and the
// occupancy bitmap (one bit each).
//
// One revolution is slot_count * tick_ns (65.5 ms by default), shorter than a 2 s request
// timeout, so a slot holds nodes from several revolutions ("rounds"). Rather than store a
// round count, each node keeps its exact deadline: when the cursor crosses a slot, nodes with
// deadline <= now expire and the rest stay for a later pass. A node is thus looked at about
// (its delay / revolution) times — 30 times for 2 s at the defaults — which is cheap next to
// the request it guards. The exact deadline also means a node never fires early, however
// coarse the tick: within the cursor's current tick only the nodes already due fire.
//
// A worker that was idle for a second must not walk 10^6 ticks. The cursor therefore crosses
// at most one revolution per advance (after that every slot has been seen), and it walks the
// occupancy bitmap a 64-bit word at a time, jumping straight to occupied slots: a long gap
// costs slot_count / 64 = 1,024 word reads, plus the nodes actually in the crossed slots.
//
// Why not a heap: O(log n) per arm and per disarm (a request that completes cancels its
// timeout, so nearly every arm is followed by a disarm), plus either a growing array or an
// index per node to find it for removal. Why not a sorted list: O(n) insertion. The wheel
// pays instead for knowing the next deadline only roughly; next_deadline_ns() answers a lower
// bound, exact in the common case, which is all a poll timeout needs.
//
// Expiry runs in two phases: first every due node is moved to a "due" list (index
// slot_count of heads_), then nodes are popped one at a time and handed to the callback.
// Callbacks can therefore arm, re-arm and disarm anything — including a node still waiting
// on the due list — without invalidating an iterator, and a node re-armed in the past by its
// own callback waits for the next advance instead of looping.
#include "time/timer_wheel.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace hammer {
namespace {

// Ticks are clamped here so tick arithmetic cannot overflow: times more than 2^62 ns
// (146 years) past start_ns behave as that far.
constexpr int64_t kMaxTickSpanNs = int64_t{1} << 62;
// next_deadline_ns() examines about this many nodes before settling for a bound.
constexpr int kNextDeadlineNodeBudget = 64;
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

}  // namespace

TimerWheel::TimerWheel(int64_t start_ns, int64_t tick_ns, int32_t slot_count)
    : start_ns_(start_ns),
      tick_ns_(tick_ns),
      slot_count_(slot_count),
      mask_(slot_count - 1),
      heads_(static_cast<size_t>(slot_count) + 1),
      occupied_((static_cast<size_t>(slot_count) + 63) / 64, 0) {
  assert(tick_ns >= 1);
  assert(slot_count > 0 && std::has_single_bit(static_cast<uint32_t>(slot_count)));
}

int32_t TimerWheel::slot_count_for(int64_t timers) {
  const int64_t wanted = std::clamp<int64_t>(timers, 1, kMaxSlots) * kSlotsPerTimer;
  return static_cast<int32_t>(std::clamp<int64_t>(
      static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(wanted))), kMinSlots, kMaxSlots));
}

int64_t TimerWheel::tick_of(int64_t time_ns) const {
  if (time_ns <= start_ns_) return 0;
  // Unsigned difference: exact for any time_ns > start_ns_, even across the int64 range.
  uint64_t span = static_cast<uint64_t>(time_ns) - static_cast<uint64_t>(start_ns_);
  span = std::min<uint64_t>(span, kMaxTickSpanNs);
  return static_cast<int64_t>(span) / tick_ns_;
}

void TimerWheel::link(TimerNode* node, int32_t slot) {
  node->slot = slot;
  node->prev = nullptr;
  node->next = heads_[slot];
  if (node->next) node->next->prev = node;
  heads_[slot] = node;
  occupied_[static_cast<size_t>(slot) >> 6] |= uint64_t{1} << (slot & 63);
}

void TimerWheel::unlink(TimerNode* node) {
  int32_t slot = node->slot;
  if (node->prev) {
    node->prev->next = node->next;
  } else {
    heads_[slot] = node->next;
  }
  if (node->next) {
    node->next->prev = node->prev;
  } else if (slot == slot_count_) {
    due_tail_ = node->prev;
  }
  if (slot < slot_count_ && heads_[slot] == nullptr) {
    occupied_[static_cast<size_t>(slot) >> 6] &= ~(uint64_t{1} << (slot & 63));
  }
  node->prev = nullptr;
  node->next = nullptr;
}

void TimerWheel::arm(TimerNode* node, int64_t deadline_ns) {
  if (node->armed()) {
    unlink(node);  // the bound may now be below every deadline: still a valid lower bound
  } else {
    ++armed_count_;
  }
  node->deadline_ns = deadline_ns;
  // A deadline in an already-processed tick goes to the cursor's slot, which the next
  // advance() visits first; its exact deadline (<= that advance's now) makes it fire there.
  int64_t tick = std::max(tick_of(deadline_ns), cursor_tick_);
  link(node, static_cast<int32_t>(tick & mask_));
  if (deadline_ns <= next_bound_ns_) {
    // At or below a lower bound of every other node: exactly the earliest.
    next_bound_ns_ = deadline_ns;
    next_bound_stale_ = false;
  }
}

void TimerWheel::disarm(TimerNode* node) {
  if (!node->armed()) return;
  unlink(node);
  node->slot = -1;
  --armed_count_;
  if (armed_count_ == 0) {
    next_bound_ns_ = kNever;
    next_bound_stale_ = false;
  }
  // Otherwise the bound stays as it was, a valid lower bound even if this node was the
  // earliest. Recomputing here would cost a scan per completed request (a request's
  // timeout is disarmed when its response arrives); a stale bound costs at most one early
  // wake-up, whose advance() then recomputes.
}

template <class Visit>
void TimerWheel::for_each_occupied(int64_t first_tick, int64_t tick_count, Visit&& visit) const {
  // Calls visit(tick, slot) for each occupied slot among the tick_count ticks from
  // first_tick (tick_count <= slot_count_), in tick order, until visit returns false. Each
  // bitmap word is read once, before its slots are visited, so visit may empty its slot.
  int64_t done = 0;
  while (done < tick_count) {
    const int64_t segment_tick = first_tick + done;
    const auto segment_slot = static_cast<int32_t>(segment_tick & mask_);
    const auto segment_len =
        static_cast<int32_t>(std::min<int64_t>(slot_count_ - segment_slot, tick_count - done));
    const int32_t segment_end = segment_slot + segment_len;
    int32_t slot = segment_slot;
    while (slot < segment_end) {
      const int32_t word_end = std::min((slot | 63) + 1, segment_end);
      uint64_t bits = occupied_[static_cast<size_t>(slot) >> 6] >> (slot & 63);
      const int32_t width = word_end - slot;
      if (width < 64) bits &= (uint64_t{1} << width) - 1;
      while (bits != 0) {
        const int32_t hit = slot + std::countr_zero(bits);
        if (!visit(segment_tick + (hit - segment_slot), hit)) return;
        bits &= bits - 1;
      }
      slot = word_end;
    }
    done += segment_len;
  }
}

void TimerWheel::collect_due(int64_t now_ns) {
  assert(!in_advance_ && "advance() called from an expiry callback");
  in_advance_ = true;
  now_ns = std::max(now_ns, last_now_ns_);
  last_now_ns_ = now_ns;
  const int64_t now_tick = std::max(tick_of(now_ns), cursor_tick_);
  bool collected = false;
  if (armed_count_ > 0) {
    // Ticks cursor..now_tick inclusive: the cursor's tick may hold nodes not yet due at the
    // previous advance. Past one revolution every slot has been covered.
    const int64_t span = std::min<int64_t>(now_tick - cursor_tick_ + 1, slot_count_);
    for_each_occupied(cursor_tick_, span, [&](int64_t, int32_t slot) {
      TimerNode* node = heads_[slot];
      while (node != nullptr) {
        TimerNode* next = node->next;
        if (node->deadline_ns <= now_ns) {
          unlink(node);
          node->slot = slot_count_;
          node->prev = due_tail_;
          if (due_tail_) {
            due_tail_->next = node;
          } else {
            heads_[slot_count_] = node;
          }
          due_tail_ = node;
          collected = true;
        }
        node = next;
      }
      return true;
    });
  }
  cursor_tick_ = now_tick;
  if (collected || next_bound_ns_ <= now_ns) next_bound_stale_ = true;
}

TimerNode* TimerWheel::pop_due() {
  TimerNode* node = heads_[slot_count_];
  if (node == nullptr) return nullptr;
  unlink(node);
  node->slot = -1;
  --armed_count_;
  return node;
}

int64_t TimerWheel::next_deadline_ns() const {
  if (next_bound_stale_) {
    next_bound_ns_ = compute_next_deadline();
    next_bound_stale_ = false;
  }
  return next_bound_ns_;
}

int64_t TimerWheel::compute_next_deadline() const {
  // Every node in the slot first reached at tick t (from the cursor) is due at or after
  // t's start — except nodes armed in the past, which sit in the cursor's own slot, the
  // first one looked at. So the scan stops at the first slot starting after the best
  // deadline seen, or once the budget is spent, answering that slot's start as the bound
  // (the cursor's slot is always examined whole, so that start lies after now).
  // Nodes on the due list (only while callbacks run) are not counted.
  int64_t best = kNever;
  int examined = 0;
  for_each_occupied(cursor_tick_, slot_count_, [&](int64_t tick, int32_t slot) {
    const int64_t begin_ns = tick_start_ns(tick);
    if (begin_ns >= best) return false;
    if (examined >= kNextDeadlineNodeBudget) {
      best = begin_ns;
      return false;
    }
    for (const TimerNode* node = heads_[slot]; node != nullptr; node = node->next) {
      best = std::min(best, node->deadline_ns);
      ++examined;
    }
    return true;
  });
  return best;
}

}  // namespace hammer
