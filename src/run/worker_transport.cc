// SPDX-License-Identifier: MIT
//
// The worker's side of the transport seam (run/connection_transport.h): how an https://
// connection's bytes go between the engine and HTTP/1.1 through its TLS. worker.cc routes a
// connection with a transport here at four places (worker_io.cc) (a readiness event, a received or sent
// completion, continue_write), one branch each; a plain connection never comes here.
//
// Life of a connection: TCP connect (timed as today: connect_time), then the handshake
// (ConnectionState::handshaking, its deadline --timeout, timed apart: handshake_time), then
// on_ready_to_send as a plain connection gets at its connect. A failed handshake is a `tls`
// error (a connection event, like a failed connect) with its reason kept once, and the
// connection tries again after the reconnect delay.
//
// Bytes. Readiness engines (epoll, poll) recv straight into the transport's incoming ring and
// send straight from its outgoing one, arming EPOLLOUT while ciphertext waits. io_uring's
// received bytes (in a provided buffer, returned after the event) are copied into the ring;
// its sends go straight from the outgoing ring, one in flight per connection
// (Connection::transport_sending), the bytes staying in place until their completion. Requests
// go in as plaintext (one write per head, one per body); a request is "written" once the
// transport took it, and what it made of it leaves with the next flush. Decrypted bytes go to
// on_received in the worker's receive buffer, the same path plain bytes take (for HTTP/2,
// every record that has arrived in one call, as one recv gives plain bytes).
//
// Ends. The socket's end after a complete response is no error, with or without the server's
// close_notify; a truncated response is (on_received judges both, as for plain HTTP). A TLS
// failure mid-stream (an alert, a bad record) fails the requests outstanding as read errors,
// with the transport's reason as the first socket error.
#include <cerrno>
#include <string>

#include "net/receive_stamps.h"
#include "net/socket.h"
#include "run/worker.h"

namespace hammer {

void Worker::setup_transports() {
  transports_ = std::make_unique<std::unique_ptr<ConnectionTransport>[]>(
      static_cast<size_t>(connection_count_));
  for (int64_t i = 0; i < connection_count_; ++i) {
    transports_[i] = transport_context_->connection();
    connections_[i].transport = transports_[i].get();
  }
  result_.tls.used = true;
  result_.tls.verified = transport_context_->verifies();
}

void Worker::start_handshake(Connection& connection, int64_t now_ns) {
  set_state(connection, ConnectionState::handshaking);
  connection.handshake_start_ns = now_ns;
  connection.transport_read_blocked = false;
  timers_.arm(&connection.timer, now_ns + config_.timeout_ns);
  if (connection.transport->start() == TransportState::failed) {
    fail_handshake(connection, connection.transport->failure_reason());
    return;
  }
  transport_flush(connection);  // the ClientHello
}

void Worker::on_handshake_done(Connection& connection, int64_t now_ns) {
  timers_.disarm(&connection.timer);
  result_.handshake_time.record(now_ns - connection.handshake_start_ns);
  const TransportSession session = connection.transport->session();
  TlsSummary& tls = result_.tls;
  ++(session.resumed ? tls.resumed_handshakes : tls.full_handshakes);
  if (tls.version.empty()) {  // once per worker: the strings are set-up, not hot path
    tls.version = std::string(tls_version_text(session.version));
    tls.cipher = std::string(session.cipher);
    tls.alpn = std::string(session.alpn);
  }
  start_protocol(connection, now_ns);  // HTTP/2 checks the ALPN answer there
}

void Worker::fail_handshake(Connection& connection, std::string_view reason) {
  count_error(ErrorKind::tls, clock_.now_ns());
  const TransportRefusal refusal = connection.transport != nullptr
                                      ? connection.transport->failure_refusal()
                                      : TransportRefusal::none;
  if (refusal == TransportRefusal::client_certificate) ++result_.tls.client_certificate_refused;
  if (result_.tls.first_error.empty()) {
    result_.tls.first_error = std::string(reason);
    result_.tls.first_error_refusal = refusal;
  }
  timers_.disarm(&connection.timer);
  close_socket(connection);
  retry_later(connection);
}

namespace {

// An HTTP/2 session writes plaintext once the handshake is done: a reconnecting connection
// keeps its session object, and writing its frames into a transport still handshaking failed
// the handshake with no reason ("write: TLS: ", 95 of them after GOAWAYs).
bool session_writes(const Connection& connection) {
  return connection.session != nullptr && connection.state != ConnectionState::handshaking;
}

}  // namespace

void Worker::on_transport_ready(Connection& connection, const IoEvent& event) {
  const uint32_t socket = connection.generation;
  if (event.readable || event.hangup_or_error) {
    ConnectionTransport& transport = *connection.transport;
    const std::span<char> space = transport.receive_space();
    if (space.empty()) {
      // The incoming ring is full (reading stalled behind unsent output): read it first.
      transport_process(connection);
    } else {
      size_t got = 0;
      int error_number = 0;
      const Io outcome =
          sleeps_through_traffic_
              ? read_some_stamped(connection.fd, space.data(), space.size(), &got,
                                  &error_number, &read_stamp_wall_ns_)
              : read_some(connection.fd, space.data(), space.size(), &got, &error_number);
      read_stamp_expected_ = sleeps_through_traffic_ && outcome == Io::done;
      if (outcome == Io::done) {
        transport.received(got);
        transport_process(connection);
      } else if (outcome == Io::closed) {
        transport.peer_closed();
        transport_process(connection);
      } else if (outcome == Io::error) {
        transport_socket_failed(connection, ErrorKind::read, "read", error_number);
      }
    }
  }
  if (connection.generation != socket || connection.fd < 0 || !event.writable) return;
  if (!transport_flush(connection) || connection.generation != socket) return;
  if (connection.transport_read_blocked) {
    connection.transport_read_blocked = false;
    transport_process(connection);
    if (connection.generation != socket || connection.fd < 0) return;
  }
  if (connection.state == ConnectionState::writing || session_writes(connection)) {
    transport_write(connection);
    if (connection.generation == socket && session_writes(connection)) {
      h2_output_drained(connection);
    }
  }
}

void Worker::on_transport_received(Connection& connection, const IoEvent& event) {
  ConnectionTransport& transport = *connection.transport;
  if (event.result == 0) {
    transport.peer_closed();
    transport_process(connection);
    return;
  }
  if (event.result < 0) {
    transport_socket_failed(connection, ErrorKind::read, "read", -event.result);
    return;
  }
  // The provided buffer goes back to the kernel after this event: all of it goes into the
  // ring now, a ring's worth at a time, each read out before the next goes in.
  std::span<const char> bytes(event.data, static_cast<size_t>(event.result));
  const uint32_t socket = connection.generation;
  while (!bytes.empty()) {
    const size_t took = transport.put_received(bytes);
    bytes = bytes.subspan(took);
    transport_process(connection);
    if (connection.generation != socket || connection.fd < 0) return;
    if (took == 0) {
      // Nothing read out of a full ring (reading waits on output that cannot leave now):
      // the rest of these bytes has nowhere to go, and the stream would be corrupt.
      transport_failed(connection, ErrorKind::read,
                       "read: TLS: the incoming ring stayed full (output could not leave)");
      return;
    }
  }
}

void Worker::on_transport_sent(Connection& connection, const IoEvent& event) {
  connection.transport_sending = false;
  if (event.result > 0) {
    connection.transport->sent(static_cast<size_t>(event.result));
  } else if (event.result != -EAGAIN) {  // EAGAIN: nothing went; send the same bytes again
    transport_socket_failed(connection, ErrorKind::write, "write",
                            event.result == 0 ? EPIPE : -event.result);
    return;
  }
  const uint32_t socket = connection.generation;
  if (connection.transport_read_blocked) {
    connection.transport_read_blocked = false;
    transport_process(connection);
    if (connection.generation != socket || connection.fd < 0) return;
  }
  if (connection.state == ConnectionState::writing || session_writes(connection)) {
    transport_write(connection);  // more plaintext waited for room in the ring
    if (connection.generation == socket && session_writes(connection)) {
      h2_output_drained(connection);
    }
    return;
  }
  transport_flush(connection);
}

void Worker::transport_process(Connection& connection) {
  ConnectionTransport& transport = *connection.transport;
  const uint32_t socket = connection.generation;
  if (connection.state == ConnectionState::handshaking) {
    const TransportState state = transport.handshake();
    if (state == TransportState::failed) {
      fail_handshake(connection, transport.failure_reason());
      return;
    }
    if (!transport_flush(connection)) return;  // the client's Finished, or its next flight
    if (state == TransportState::handshaking) return;  // an end here made it fail above
    on_handshake_done(connection, clock_.now_ns());
    if (connection.generation != socket || connection.fd < 0) return;
  }
  // HTTP/2: the plaintext of every record that has arrived goes to on_received at once, not a
  // record at a time: a server writes each response in a record of its own, and one call per
  // record made a connection answer each response with a write (and a record, and a segment)
  // of its own, where the whole read's refill fits one (h2load's batching; issue 26's nginx
  // h2). HTTP/1.1 keeps a call per record: one response is in flight per connection (bar -p),
  // and its next request then leaves before the records behind the answer are read, so a
  // renegotiation refused there meets the server after that request, and the failure names
  // the server's alert rather than a reset write.
  char* const plaintext = recv_buffer_.data();
  const auto capacity = static_cast<size_t>(kRecvBufferBytes);
  const bool gathers = connection.session != nullptr;
  size_t filled = 0;
  const auto deliver = [&] {  // false when the connection ended on what it read
    if (filled == 0) return true;
    on_received(connection, Io::done, plaintext, filled, 0);
    filled = 0;
    return connection.generation == socket && connection.fd >= 0;
  };
  for (;;) {
    const TransportTransfer got =
        transport.read(std::span<char>(plaintext + filled, capacity - filled));
    if (got.io != TransportIo::done && !deliver()) return;
    switch (got.io) {
      case TransportIo::done:
        filled += got.bytes;
        if ((!gathers || filled == capacity) && !deliver()) return;
        continue;
      case TransportIo::want_input:
        // What reading made (a TLS 1.3 KeyUpdate's answer) leaves now; usually nothing.
        transport_flush(connection);
        return;
      case TransportIo::want_output:
        if (!transport_flush(connection) || connection.generation != socket) return;
        if (!transport.to_send().empty()) {
          // The output cannot all leave yet: reading goes on when it has (sent or writable).
          connection.transport_read_blocked = true;
          return;
        }
        continue;
      case TransportIo::closed:
        on_received(connection, Io::closed, nullptr, 0, 0);
        return;
      case TransportIo::failed:
        if (transport.failure_refusal() == TransportRefusal::client_certificate) {
          ++result_.tls.client_certificate_refused;
        }
        transport_failed(connection, ErrorKind::read,
                         "read: TLS: " + std::string(transport.failure_reason()));
        return;
    }
  }
}

bool Worker::transport_flush(Connection& connection) {
  ConnectionTransport& transport = *connection.transport;
  if (completes_io_) {
    if (connection.transport_sending) return true;  // the rest goes when it completes
    const std::span<const char> pending = transport.to_send();
    if (pending.empty()) return true;
    connection.transport_sending = true;
    // Prompt only while plaintext waits for room; else the completion may ride along with
    // the response (a wake-up saved per request, as for plain sends). An HTTP/2 session's
    // plaintext waits in the session, whatever the connection's state: quiet, a request body
    // behind a full ring waited on the server, which waited on the body (1 MB POSTs over h2
    // and TLS: 7 requests in 2 s, then nothing).
    const bool plaintext_waits =
        connection.state == ConnectionState::writing ||
        (connection.session != nullptr && !connection.session->pending_output().empty());
    engine_->send(connection.fd, token_of(connection),
                  std::string_view(pending.data(), pending.size()), std::string_view(),
                  plaintext_waits);
    return true;
  }
  for (;;) {
    const std::span<const char> pending = transport.to_send();
    if (pending.empty()) {
      if (connection.wants_write && connection.state != ConnectionState::writing) {
        set_write_interest(connection, false);
      }
      return true;
    }
    size_t wrote = 0;
    int error_number = 0;
    const Io outcome =
        write_some(connection.fd, pending.data(), pending.size(), &wrote, &error_number);
    if (outcome == Io::done) {
      transport.sent(wrote);
      continue;
    }
    if (outcome == Io::would_block) {
      set_write_interest(connection, true);
      return true;
    }
    transport_socket_failed(connection, ErrorKind::write, "write",
                            outcome == Io::closed ? EPIPE : error_number);
    return false;
  }
}

void Worker::transport_write(Connection& connection) {
  if (connection.session != nullptr) {
    h2_flush(connection);
    return;
  }
  ConnectionTransport& transport = *connection.transport;
  const uint32_t socket = connection.generation;
  bool took_any = false;
  while (connection.finishing || !connection.ring.all_written()) {
    const RequestBytes& request = unwritten_request(connection);
    const auto offset = static_cast<size_t>(connection.write_offset);
    const std::string_view piece = offset < request.head.size()
                                       ? request.head.substr(offset)
                                       : request.body.substr(offset - request.head.size());
    const TransportTransfer put =
        transport.write(std::span<const char>(piece.data(), piece.size()));
    if (put.io == TransportIo::done) {
      took_any = true;
      connection.write_offset += static_cast<int64_t>(put.bytes);
      if (connection.write_offset < static_cast<int64_t>(request.size())) continue;
      connection.write_offset = 0;
      if (connection.finishing) {
        connection.finishing = false;  // the answered request is whole at last
      } else {
        connection.ring.mark_written();
      }
      continue;
    }
    if (put.io == TransportIo::want_output) {
      if (completes_io_ && connection.transport_sending) break;  // room comes with its completion
      if (!transport_flush(connection) || connection.generation != socket) return;
      if (!transport.to_send().empty()) break;  // the socket is full: EPOLLOUT, or a send, is on
      continue;
    }
    transport_failed(connection, ErrorKind::write,
                     "write: TLS: " + std::string(transport.failure_reason()));
    return;
  }
  if (!connection.finishing && connection.ring.all_written() &&
      connection.state == ConnectionState::writing) {
    set_state(connection, connection.busy() ? ConnectionState::reading : ConnectionState::idle);
  }
  // Queued behind a send in flight, or waiting for its room: hear of its completion at once,
  // so this goes out.
  const bool plaintext_left = connection.finishing || !connection.ring.all_written();
  if (completes_io_ && connection.transport_sending && (took_any || plaintext_left)) {
    engine_->hurry();
  }
  transport_flush(connection);
}

void Worker::transport_failed(Connection& connection, ErrorKind kind, std::string reason) {
  if (connection.state == ConnectionState::handshaking) {
    fail_handshake(connection, reason);
    return;
  }
  if (connection.busy()) {
    if (result_.first_socket_error.empty()) result_.first_socket_error = std::move(reason);
    fail_request(connection, kind);
    return;
  }
  // Nothing outstanding: no request failed; the connection is replaced.
  replace_connection(connection);
}

void Worker::transport_socket_failed(Connection& connection, ErrorKind kind, const char* what,
                                     int error_number) {
  if (connection.state == ConnectionState::handshaking) {
    fail_handshake(connection, std::string(what) + " during the TLS handshake: " +
                                   error_text(error_number));
    return;
  }
  if (kind == ErrorKind::read) {
    on_received(connection, Io::error, nullptr, 0, error_number);  // as plain HTTP judges it
    return;
  }
  transport_failed(connection, kind, std::string(what) + ": " + error_text(error_number));
}

}  // namespace hammer
