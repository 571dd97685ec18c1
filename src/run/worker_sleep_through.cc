// SPDX-License-Identifier: MIT
//
// Wake-ups (issue 27). In open loop the worker wakes for its slots; a response that arrives
// between two of them does not wake it (IoEngine::wait_for_time) but waits in its socket for
// the next slot's wake-up, so a request costs one wake-up, not two. Its uncorrected latency
// stays exact: each read carries the kernel's receive stamp (SO_TIMESTAMPNS), put on the
// monotonic clock by ReceiveClock, and "answered" is when the response reached this host, no
// longer when hammer woke to read it (closer to the truth: hammer's own scheduling delay is
// out of it). The worker wakes for its sockets as before while something waits on them: no
// connection is free for the next slot (a response frees one), a connect, a TLS handshake or
// a partial write is under way, part of a response is read and its rest still to come (a
// body larger than the socket's buffer would otherwise stall the server until the next
// slot), the run is draining; and for the whole run where the kernel gives no stamps (the
// report says so), with -p above 1 and --http2 (one read's stamp would time several
// responses), in closed loop, and in tests driven by a ManualClock.
//
// This file holds what decides it: whether a wait may sleep through the sockets' traffic
// (may_sleep_through_traffic and the counts it reads: set_state, note_mid_response), when a
// run stops doing so (note_response_size, answered_at), and the answer's time from its read's
// stamp (answered_at). The wait itself is in worker.cc's run_pass.
#include "run/worker.h"

namespace hammer {

bool Worker::may_sleep_through_traffic() const {
  // Something waits on a socket's news (a free connection for a due slot, a connect, a
  // handshake, a write), or the run drains: wake for it.
  return sleeps_through_traffic_ && !stopping_ && awaiting_socket_ == 0 && !idle_.empty() &&
         schedule_.has_next() && resend_queue_.empty();
}

void Worker::note_mid_response(Connection& connection, bool mid) {
  awaiting_socket_ += static_cast<int64_t>(mid) - static_cast<int64_t>(connection.mid_response);
  connection.mid_response = mid;
}

void Worker::note_response_size(const Connection& connection) {
  const ResponseInfo& info = connection.parser.info();
  if (sleeps_through_traffic_ &&
      info.header_bytes + info.body_bytes >= kSleepThroughMaxResponseBytes) {
    sleeps_through_traffic_ = false;
    result_.wakes.large_responses = true;
  }
}

void Worker::set_state(Connection& connection, ConnectionState state) {
  const auto awaits = [this](ConnectionState s) {
    return s == ConnectionState::connecting || s == ConnectionState::handshaking ||
           s == ConnectionState::settling || (s == ConnectionState::writing && !completes_io_);
  };
  awaiting_socket_ += static_cast<int64_t>(awaits(state)) - static_cast<int64_t>(awaits(connection.state));
  connection.state = state;
}

int64_t Worker::answered_at(int64_t now_ns) {
  if (!sleeps_through_traffic_) return now_ns;
  const int64_t stamp = read_stamp_wall_ns_;
  const int64_t arrived = receive_clock_.to_monotonic(stamp, now_ns);
  if (arrived > 0) {
    ++result_.wakes.stamped_reads;
    return arrived;
  }
  ++result_.wakes.unstamped_reads;
  if (stamp == 0 && read_stamp_expected_) {
    // The kernel gave a read no stamp: timed at the wake-up from here on, so the worker
    // wakes for every response again, as before (the report says so).
    sleeps_through_traffic_ = false;
    result_.wakes.stamps_refused = true;
  }
  return now_ns;
}

}  // namespace hammer
