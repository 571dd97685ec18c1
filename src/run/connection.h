// SPDX-License-Identifier: MIT
#pragma once
// One connection's state, owned by its worker and allocated once at setup. The worker drives
// the state machine (worker*.cc, docs/architecture.md); this struct only holds what one socket needs between events.
#include <cstdint>

#include "http/request.h"
#include "http/response_parser.h"
#include "http2/client_session.h"
#include "run/connection_transport.h"
#include "run/pipeline_ring.h"
#include "time/timer_wheel.h"

namespace hammer {

enum class ConnectionState : uint8_t {
  disconnected,  // no socket (after the run stopped, or before the first connect)
  backoff,       // waiting to reconnect after a failed connect
  connecting,    // non-blocking connect in progress
  handshaking,   // https: connected, the TLS handshake under way (worker_transport.cc)
  settling,      // --http2: the preface sent, the server's SETTINGS not here yet (worker_http2.cc)
  idle,          // connected, no request outstanding
  writing,       // a request not (fully) written yet; waiting for the socket to take the rest
  reading,       // every outstanding request written; waiting for their responses
};

struct Connection {
  int fd = -1;
  int32_t index = 0;
  uint32_t generation = 0;  // bumped at every close: engine events name the socket they are for
  ConnectionState state = ConnectionState::disconnected;
  bool wants_write = false;  // EPOLLOUT is armed (connecting, or a partial write)

  TimerNode timer;  // connect deadline, request deadline or reconnect delay, by state

  // https: the connection's TLS (made at setup, reused by every socket it opens); null for
  // plain HTTP, whose path is then the one it always was.
  ConnectionTransport* transport = nullptr;
  bool transport_sending = false;  // io_uring: a send of transport->to_send() is in flight
  bool transport_read_blocked = false;  // reading waits for output to leave (rare)
  int64_t handshake_start_ns = 0;  // when the TLS handshake began (TCP connect done)

  // --http2: the connection's session (made at setup, restarted on every socket) and the
  // request each of its stream slots carries; null for HTTP/1.1, whose ring is used instead.
  http2::ClientSession* session = nullptr;
  Outstanding* streams = nullptr;
  int32_t newest_stream = 0;     // the slot opened last (the dispatch may mark it late)
  bool session_sending = false;  // io_uring, h2c: a send of the session's output is in flight
  size_t session_send_bytes = 0;  // how much of it that send took
  // Output was queued while the worker handled a batch of events or dispatched due slots:
  // flushed once after (Worker::flush_deferred_h2), for the socket of this generation only.
  bool h2_flush_deferred = false;
  uint32_t h2_deferred_generation = 0;

  ResponseParser parser;
  bool response_bytes_seen = false;  // any byte of the current response arrived
  // Part of a response is read and the rest still to come: the worker wakes for it, so a
  // body larger than the socket's buffer keeps flowing (Worker::note_mid_response).
  bool mid_response = false;
  int64_t write_offset = 0;          // bytes of the request being written already written
  // The server answered a request before all of it was written (an early response) and kept
  // the connection: the rest of that request (finishing_line's bytes, from write_offset) still
  // goes out first, so the server reads the body it announced and the framing holds.
  bool finishing = false;
  int32_t finishing_line = 0;

  // Templated requests (http/request_template.h): the request being written is filled into
  // this connection's slice of the worker's render slab, once, when it becomes the first
  // unwritten one; rendered_seq names it (-1: none).
  char* render_buffer = nullptr;
  RequestBytes rendered{std::string_view()};
  int64_t rendered_seq = -1;

  // Requests sent and not yet answered, oldest first (HTTP/1.1 pipelining, -p).
  PipelineRing ring;

  int64_t idle_since_ns = 0;   // when the connection last became free to send
  int64_t not_before_ns = 0;   // closed loop with --ramp: when it joins the load
  int64_t connect_start_ns = 0;  // when the current socket's connect() was issued
  bool fresh = false;            // connected, and no request sent on this socket yet
  bool lost = false;  // the last socket ended unplanned (failure, server's idle close, failed
                      // connect): its next connect counts as a reconnect

  // Intrusive FIFO of idle connections (open loop): indices, -1 = none.
  int32_t idle_prev = -1;
  int32_t idle_next = -1;
  bool in_idle_list = false;

  /// Requests outstanding (sent, not answered): a response is expected.
  bool busy() const { return session != nullptr ? session->open_streams() > 0 : !ring.empty(); }
  /// Another request may go on it now: room in the pipeline, or a stream the session can open.
  bool can_take() const { return session != nullptr ? session->can_open() : !ring.full(); }
};

}  // namespace hammer
