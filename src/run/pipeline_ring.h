// SPDX-License-Identifier: MIT
#pragma once
// The HTTP/1.1 pipeline of one connection: the requests sent on it and not yet answered,
// oldest first, in a slice of one slab the worker allocates at setup (depth = -p). Responses
// come back in request order (RFC 9112 §9.3.2), so the oldest one is always the one being
// parsed; the first `written` of them are wholly on the wire. Everything here is a compare or
// an index: it runs for every request.
//
// HTTP/2 would keep streams in flight per connection instead (docs/architecture.md): this is
// the HTTP/1.1 protocol's bookkeeping, not the connection's.
#include <cstdint>

namespace hammer {

/// One request sent on a connection and not yet answered.
struct Outstanding {
  int64_t intended_ns = 0;     // open loop: the request's slot in the schedule
  int64_t actual_send_ns = 0;  // when its first byte was handed to the socket
  int64_t seq = 0;             // its global slot (open loop) or send number (closed loop):
                               // {{seq}}, and what every templated value is drawn from
  int32_t line = 0;            // --requests: which line it is (0 without)
  bool first_on_socket = false;  // the socket's first request
  uint8_t resends = 0;  // times it was sent again after a polite close left it unanswered
  bool generator_late = false;   // left late by hammer's own fault (DispatchLag::behind_generator)
};

class PipelineRing {
 public:
  /// `slots` holds `depth` entries and outlives the ring (the worker's slab).
  void bind(Outstanding* slots, int32_t depth) {
    slots_ = slots;
    depth_ = depth;
  }

  int32_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ >= depth_; }
  /// Requests wholly written (the oldest ones).
  int32_t written() const { return written_; }
  bool all_written() const { return written_ >= count_; }

  Outstanding& front() { return slots_[head_]; }
  const Outstanding& front() const { return slots_[head_]; }
  /// The request `k` places after the oldest (k < count).
  Outstanding& at(int32_t k) { return slots_[index(k)]; }
  const Outstanding& at(int32_t k) const { return slots_[index(k)]; }
  /// The oldest request not yet wholly written (written < count).
  const Outstanding& first_unwritten() const { return at(written_); }

  void push(const Outstanding& request) {
    slots_[index(count_)] = request;
    ++count_;
  }
  /// The oldest request is answered: it leaves, and the written count with it.
  void pop_front() {
    head_ = index(1);
    --count_;
    if (written_ > 0) --written_;
  }
  /// The oldest unwritten request is now wholly on the wire.
  void mark_written() { ++written_; }

  /// Hands every request to `each(Outstanding&)`, oldest first, and leaves the ring empty:
  /// the one way a connection's requests leave it unanswered (failed, resent, cut off).
  template <class Each>
  void drain(Each&& each) {
    while (count_ > 0) {
      each(slots_[head_]);
      head_ = index(1);
      --count_;
    }
    reset();
  }
  /// An empty ring starts over at the slab's first slot (count must be 0).
  void reset() {
    head_ = 0;
    written_ = 0;
  }

 private:
  /// A compare, not a division, on the path every request takes (k <= depth).
  int32_t index(int32_t k) const {
    const int32_t i = head_ + k;
    return i >= depth_ ? i - depth_ : i;
  }

  Outstanding* slots_ = nullptr;
  int32_t depth_ = 1;
  int32_t head_ = 0;
  int32_t count_ = 0;
  int32_t written_ = 0;
};

/// Requests a polite close left unanswered, waiting for a new connection to carry them
/// (Worker::resend_unanswered), oldest first: a ring as large as every pipeline together,
/// since each waits here instead of there.
class ResendQueue {
 public:
  void bind(Outstanding* slots, int64_t capacity) {
    slots_ = slots;
    capacity_ = capacity;
  }
  bool empty() const { return count_ == 0; }
  bool has_room() const { return count_ < capacity_; }
  void push(const Outstanding& request) {
    int64_t tail = head_ + count_;
    if (tail >= capacity_) tail -= capacity_;
    slots_[tail] = request;
    ++count_;
  }
  Outstanding pop() {
    const Outstanding request = slots_[head_];
    head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
    --count_;
    return request;
  }

 private:
  Outstanding* slots_ = nullptr;
  int64_t capacity_ = 0;
  int64_t head_ = 0;
  int64_t count_ = 0;
};

}  // namespace hammer
