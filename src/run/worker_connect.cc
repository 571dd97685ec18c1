// SPDX-License-Identifier: MIT
//
// A connection's life below HTTP: the non-blocking connect (its deadline --timeout, then a
// reconnect after kReconnectDelayNs), the handshake hand-off for https (worker_transport.cc),
// and the close that bumps the socket's generation so that events still queued for the old
// socket are recognised as stale (handle_event). A connection that connects joins the load at
// on_ready_to_send; one that ends unplanned is replaced (replace_connection), counted as a
// reconnect in the phase it happens in.
#include <cerrno>

#include "net/receive_stamps.h"
#include "net/socket.h"
#include "run/connect_errors.h"
#include "run/worker.h"

namespace hammer {
namespace {

// After a failed connect, wait this long before trying again, so an unreachable server costs
// a few syscalls per connection per period rather than a hot loop.
constexpr int64_t kReconnectDelayNs = 10'000'000;

}  // namespace

void Worker::start_connect(Connection& connection) {
  // After the stop only requests waiting to be sent again still need a connection.
  if (stopping_ && resend_queue_.empty()) {
    set_state(connection, ConnectionState::disconnected);
    return;
  }
  const int fd = open_nonblocking_socket(target_.family());
  if (fd < 0) {
    note_connect_error("socket", -fd);
    retry_later(connection);
    return;
  }
  connection.fd = fd;
  if (sleeps_through_traffic_ && !enable_receive_stamps(fd)) {
    sleeps_through_traffic_ = false;  // no stamps: wake for every response (worker.cc)
    result_.wakes.stamps_refused = true;
  }
  connection.connect_start_ns = clock_.now_ns();
  const ConnectResult started = hammer::start_connect(fd, target_);
  if (started.status == ConnectStatus::error) {
    note_connect_error("connect", started.error);
    close_socket(connection);
    retry_later(connection);
    return;
  }
  const bool pending = started.status != ConnectStatus::connected;
  if (!engine_->add(fd, token_of(connection), pending)) {
    note_connect_error("watch", errno);
    close_socket(connection);
    retry_later(connection);
    return;
  }
  connection.wants_write = pending && !completes_io_;
  if (started.status == ConnectStatus::connected) {
    on_connected(connection, clock_.now_ns());
    return;
  }
  set_state(connection, ConnectionState::connecting);
  timers_.arm(&connection.timer, clock_.now_ns() + config_.timeout_ns);
}

void Worker::note_connect_error(const char* what, int error_number) {
  count_error(ErrorKind::connect, clock_.now_ns());
  note_connect_failure(result_, what, error_number);
}

void Worker::on_connect_ready(Connection& connection) {
  const int error_number = take_socket_error(connection.fd);
  timers_.disarm(&connection.timer);
  if (error_number != 0) {
    note_connect_error("connect", error_number);
    close_socket(connection);
    retry_later(connection);
    return;
  }
  on_connected(connection, clock_.now_ns());
}

void Worker::on_connected(Connection& connection, int64_t now_ns) {
  set_no_delay(connection.fd);
  engine_->start_receiving(connection.fd, token_of(connection));
  connection.wants_write = false;
  result_.connect_time.record(now_ns - connection.connect_start_ns);
  if (connection.transport != nullptr) {
    start_handshake(connection, now_ns);  // start_protocol once it is done
    return;
  }
  start_protocol(connection, now_ns);
}

void Worker::on_ready_to_send(Connection& connection, int64_t now_ns) {
  ++result_.connects;
  ++live_connections_;
  no_connection_since_ns_ = INT64_MAX;
  // A connection event belongs to the phase it happened in, as a failed connect does: the
  // warm-up's reconnects are not the measured part's.
  if (connection.lost) ++phase_for(now_ns).reconnects;
  connection.lost = false;
  connection.fresh = true;
  if (!started_) {
    set_state(connection, ConnectionState::idle);
    connection.idle_since_ns = now_ns;
    if (open_loop_) idle_.push(connection);
    return;
  }
  become_idle(connection, now_ns);
}

void Worker::retry_later(Connection& connection) {
  connection.lost = true;
  set_state(connection, stopping_ ? ConnectionState::disconnected : ConnectionState::backoff);
  if (!stopping_) timers_.arm(&connection.timer, clock_.now_ns() + kReconnectDelayNs);
}

void Worker::close_socket(Connection& connection) {
  if (connection.fd < 0) return;
  // Up: idle, or carrying requests (fail_request empties the ring before it closes).
  const bool was_connected = connection.state == ConnectionState::idle ||
                             connection.state == ConnectionState::writing ||
                             connection.state == ConnectionState::reading;
  if (was_connected && --live_connections_ == 0 && !stopping_) {
    no_connection_since_ns_ = clock_.now_ns();
  }
  if (engine_) engine_->remove(connection.fd, token_of(connection));
  hammer::close_socket(connection.fd);
  connection.fd = -1;
  ++connection.generation;  // whatever the engine still reports for this socket is stale
  if (connection.ring.empty()) {
    // A partial write (a response came before the request was written) dies with the socket.
    connection.write_offset = 0;
    connection.finishing = false;
    connection.ring.reset();
  }
  connection.wants_write = false;
  connection.transport_sending = false;
  connection.session_sending = false;
  // HTTP/2: streams still open here were counted by whoever closed (fail_request, end_run).
  if (connection.session != nullptr) connection.session->drop_streams();
  note_mid_response(connection, false);
  set_state(connection, ConnectionState::disconnected);
}

void Worker::replace_connection(Connection& connection) {
  connection.lost = true;
  idle_.remove(connection);
  close_socket(connection);
  start_connect(connection);
}

void Worker::abandon_pipeline(Connection& connection) {
  connection.write_offset = 0;
  connection.finishing = false;
  timers_.disarm(&connection.timer);
  replace_connection(connection);  // its replacement takes any resends (become_idle)
}

}  // namespace hammer
