// SPDX-License-Identifier: MIT
#pragma once
// One connection's state, owned by its worker and allocated once at setup. The worker drives
// the state machine (worker.cc); this struct only holds what one socket needs between events.
#include <cstdint>

#include "http/response_parser.h"
#include "time/timer_wheel.h"

namespace hammer {

enum class ConnectionState : uint8_t {
  disconnected,  // no socket (after the run stopped, or before the first connect)
  backoff,       // waiting to reconnect after a failed connect
  connecting,    // non-blocking connect in progress
  idle,          // connected, no request outstanding
  writing,       // request partly written; waiting for the socket to take the rest
  reading,       // request written; waiting for the response
};

struct Connection {
  int fd = -1;
  int32_t index = 0;
  uint32_t generation = 0;  // bumped at every close: engine events name the socket they are for
  ConnectionState state = ConnectionState::disconnected;
  bool wants_write = false;  // EPOLLOUT is armed (connecting, or a partial write)

  TimerNode timer;  // connect deadline, request deadline or reconnect delay, by state

  ResponseParser parser;
  bool response_bytes_seen = false;  // any byte of the current response arrived
  int64_t write_offset = 0;          // bytes of the request already written

  int64_t intended_ns = 0;     // open loop: the request's slot in the schedule
  int64_t actual_send_ns = 0;  // when its first byte was handed to the socket
  int64_t idle_since_ns = 0;   // when the connection last became free to send
  int64_t connect_start_ns = 0;  // when the current socket's connect() was issued
  bool fresh = false;            // connected, and no request sent on this socket yet
  bool first_on_socket = false;  // the request outstanding is the socket's first
  bool lost = false;  // the last socket ended unplanned (failure, server's idle close, failed
                      // connect): its next connect counts as a reconnect

  // Intrusive FIFO of idle connections (open loop): indices, -1 = none.
  int32_t idle_prev = -1;
  int32_t idle_next = -1;
  bool in_idle_list = false;

  bool busy() const {
    return state == ConnectionState::writing || state == ConnectionState::reading;
  }
};

}  // namespace hammer
