// SPDX-License-Identifier: MIT
#pragma once
// The open loop's queue of connections free to take a request, first in, first out: a slot
// that comes due leaves on the connection that has waited longest. Intrusive (the links live
// in each Connection, as indices into the worker's array), so pushing and popping touch no
// allocator and a connection can leave from the middle (closed while idle) in constant time.
#include <cstdint>

#include "run/connection.h"

namespace hammer {

class IdleList {
 public:
  /// `connections` is the worker's array, which outlives the list.
  void bind(Connection* connections) { connections_ = connections; }

  bool empty() const { return head_ < 0; }

  /// Appends at the back; a connection already queued keeps its place.
  void push(Connection& connection) {
    if (connection.in_idle_list) return;
    connection.in_idle_list = true;
    connection.idle_prev = tail_;
    connection.idle_next = -1;
    if (tail_ >= 0) {
      connections_[tail_].idle_next = connection.index;
    } else {
      head_ = connection.index;
    }
    tail_ = connection.index;
  }

  /// The connection idle longest, taken off the list; null when none is.
  Connection* pop() {
    if (head_ < 0) return nullptr;
    Connection& connection = connections_[head_];
    remove(connection);
    return &connection;
  }

  /// Takes the connection off the list wherever it is; nothing when it is not on it.
  void remove(Connection& connection) {
    if (!connection.in_idle_list) return;
    if (connection.idle_prev >= 0) {
      connections_[connection.idle_prev].idle_next = connection.idle_next;
    } else {
      head_ = connection.idle_next;
    }
    if (connection.idle_next >= 0) {
      connections_[connection.idle_next].idle_prev = connection.idle_prev;
    } else {
      tail_ = connection.idle_prev;
    }
    connection.idle_prev = connection.idle_next = -1;
    connection.in_idle_list = false;
  }

 private:
  Connection* connections_ = nullptr;
  int32_t head_ = -1;  // indices into connections_, -1 = none
  int32_t tail_ = -1;
};

}  // namespace hammer
