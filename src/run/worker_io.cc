// SPDX-License-Identifier: MIT
//
// The engine families, in one place. Readiness engines (epoll, poll) report that a socket may
// be read or written and the worker makes the syscalls: recv into the worker's one receive
// buffer, send (sendmsg for a head and a body) until the socket is full, then EPOLLOUT until
// it takes more. The completion engine (io_uring) does the I/O itself and reports its
// outcome: received bytes in a provided buffer, one send in flight per connection (sends on
// one socket must not overtake each other), hurry() when a request queues behind it. Every
// `completes_io_` branch on the plain path is in this file (but enqueue's hurry(), beside
// the dispatch in worker.cc); the https path's are in
// worker_transport.cc, at the same four places (a readiness event, a received or a sent
// completion, continue_write). Above this, on_received and on_written see the same outcome
// (Io and a byte count) from either family.
#include <algorithm>
#include <cerrno>
#include <string>

#include "net/receive_stamps.h"
#include "net/socket.h"
#include "run/worker.h"

namespace hammer {
namespace {

// After Ctrl-C (or SIGTERM), responses already on their way get this long to arrive; what is
// still unanswered then is counted as in flight at the stop. Short enough to feel immediate,
// never the whole --timeout (a stuck server would hold the user hostage for it).
constexpr int64_t kInterruptGraceNs = 100'000'000;

}  // namespace

void Worker::handle_events(int count) {
  deferring_h2_flushes_ = sessions_ != nullptr;
  for (int i = 0; i < count; ++i) handle_event(events_[i]);
  deferring_h2_flushes_ = false;
  if (h2_deferred_count_ > 0) flush_deferred_h2();
}

void Worker::handle_event(const IoEvent& event) {
  if (event.token == kWakeupIoToken) {
    // Ctrl-C or SIGTERM. The first stops issuing and gives responses on their way a short
    // grace; a second (already stopping) ends the drain now. Either way the report follows.
    wakeup_->drain();
    const int64_t now = clock_.now_ns();
    const bool again = result_.interrupted;
    result_.interrupted = true;
    if (!stopping_) begin_stop(now);
    drain_until_ns_ = again ? now : std::min(drain_until_ns_, now + kInterruptGraceNs);
    return;
  }
  // A received completion carries its read's stamp; a readiness read takes its own.
  read_stamp_wall_ns_ = event.kind == IoEventKind::received ? event.received_wall_ns : 0;
  read_stamp_expected_ = event.kind == IoEventKind::received && event.result > 0;
  const uint32_t index = io_token_index(event.token);
  if (index >= static_cast<uint32_t>(connection_count_)) return;
  Connection& connection = connections_[index];
  // Closed earlier in this batch, or an event for a socket since replaced: not this one's.
  if (connection.fd < 0 ||
      io_token_generation(event.token) != io_token_generation(token_of(connection))) {
    return;
  }
  switch (event.kind) {
    case IoEventKind::ready:
      if (connection.state == ConnectionState::connecting) {
        if (event.writable || event.hangup_or_error) on_connect_ready(connection);
        return;
      }
      if (connection.transport != nullptr) {
        on_transport_ready(connection, event);
        return;
      }
      if (event.readable || event.hangup_or_error) on_readable(connection);
      if (connection.fd >= 0 && event.writable &&
          (connection.state == ConnectionState::writing || connection.session != nullptr)) {
        continue_write(connection);
      }
      return;
    case IoEventKind::connected:
      if (connection.state == ConnectionState::connecting) on_connect_ready(connection);
      return;
    case IoEventKind::received:
      if (connection.transport != nullptr) {
        on_transport_received(connection, event);
        return;
      }
      if (event.result > 0) {
        on_received(connection, Io::done, event.data, static_cast<size_t>(event.result), 0);
      } else {
        on_received(connection, event.result == 0 ? Io::closed : Io::error, nullptr, 0,
                    -event.result);
      }
      return;
    case IoEventKind::sent:
      if (connection.transport != nullptr) {
        on_transport_sent(connection, event);
        return;
      }
      if (connection.session != nullptr) {
        h2_on_sent(connection, event);
        return;
      }
      if (connection.state != ConnectionState::writing) return;
      if (event.result > 0) {
        on_written(connection, Io::done, static_cast<size_t>(event.result), 0);
      } else if (event.result == -EPIPE || event.result == 0) {
        on_written(connection, Io::closed, 0, EPIPE);
      } else if (event.result == -EAGAIN) {
        continue_write(connection);  // nothing went: send the same bytes again
      } else {
        on_written(connection, Io::error, 0, -event.result);
      }
      return;
  }
}

void Worker::continue_write(Connection& connection) {
  if (connection.transport != nullptr) {
    transport_write(connection);
    return;
  }
  if (connection.session != nullptr) {
    h2_flush(connection);
    h2_output_drained(connection);
    return;
  }
  // Requests go out oldest first; write_offset counts the bytes of the first unwritten one
  // (ring.first_unwritten()) already handed to the socket. The head and the body live apart (the body
  // is not copied into the request).
  if (completes_io_) {
    // Straight from the bytes serialized once, one send in flight per connection (sends on
    // one socket must not overtake each other): what is left of the head and the body in one
    // submission, as epoll's one sendmsg below; the next pipelined request when on_written
    // hears this one went.
    const RequestBytes& request = unwritten_request(connection);
    const auto offset = static_cast<size_t>(connection.write_offset);
    const bool in_head = offset < request.head.size();
    const std::string_view first = in_head ? request.head.substr(offset)
                                           : request.body.substr(offset - request.head.size());
    const std::string_view second = in_head ? request.body : std::string_view();
    // Prompt when a pipelined request waits behind this one.
    const bool prompt = connection.finishing
                            ? !connection.ring.all_written()
                            : connection.ring.written() + 1 < connection.ring.count();
    engine_->send(connection.fd, token_of(connection), first, second, prompt);
    return;
  }
  while (connection.finishing || !connection.ring.all_written()) {
    const RequestBytes& request = unwritten_request(connection);
    size_t wrote = 0;
    int error_number = 0;
    // Both parts in one sendmsg while head bytes remain, then the rest of the body. Without a
    // body this is the one send() it always was.
    const auto offset = static_cast<size_t>(connection.write_offset);
    const std::string_view head = request.head;
    const std::string_view body = request.body;
    const Io outcome =
        offset < head.size()
            ? (body.empty() ? write_some(connection.fd, head.data() + offset,
                                         head.size() - offset, &wrote, &error_number)
                            : write_some_two(connection.fd, head.data() + offset,
                                             head.size() - offset, body.data(), body.size(),
                                             &wrote, &error_number))
            : write_some(connection.fd, body.data() + (offset - head.size()),
                         body.size() - (offset - head.size()), &wrote, &error_number);
    if (!on_written(connection, outcome, wrote, error_number)) return;
  }
}

bool Worker::on_written(Connection& connection, Io outcome, size_t wrote, int error_number) {
  connection.write_offset += static_cast<int64_t>(wrote);
  if ((outcome == Io::error || outcome == Io::closed) && connection.finishing &&
      !connection.busy()) {
    // The rest of a request already answered did not go: the server stopped reading after
    // all. No request failed; the connection, whose framing is lost, is replaced.
    replace_connection(connection);
    return false;
  }
  if (outcome == Io::error || outcome == Io::closed) {
    if (result_.first_socket_error.empty()) {
      result_.first_socket_error = std::string("write: ") + error_text(error_number);
    }
    fail_request(connection, ErrorKind::write);
    return false;
  }
  if (connection.write_offset < static_cast<int64_t>(unwritten_request(connection).size())) {
    // A partial write: the rest when the socket takes more.
    if (completes_io_) {
      continue_write(connection);
    } else {
      set_write_interest(connection, true);
    }
    return false;
  }
  connection.write_offset = 0;
  if (connection.finishing) {
    connection.finishing = false;  // the answered request is whole on the wire at last
  } else {
    connection.ring.mark_written();
  }
  if (!connection.ring.all_written()) {
    // The next pipelined request, queued while this one was being written.
    if (completes_io_) continue_write(connection);
    return true;
  }
  if (connection.state == ConnectionState::writing) {
    set_state(connection, connection.busy() ? ConnectionState::reading : ConnectionState::idle);
  }
  if (!completes_io_) set_write_interest(connection, false);
  return false;
}

void Worker::on_readable(Connection& connection) {
  size_t got = 0;
  int error_number = 0;
  const Io outcome =
      sleeps_through_traffic_
          ? read_some_stamped(connection.fd, recv_buffer_.data(), kRecvBufferBytes, &got,
                              &error_number, &read_stamp_wall_ns_)
          : read_some(connection.fd, recv_buffer_.data(), kRecvBufferBytes, &got, &error_number);
  read_stamp_expected_ = sleeps_through_traffic_ && outcome == Io::done;
  if (outcome == Io::would_block) return;
  on_received(connection, outcome, recv_buffer_.data(), got, error_number);
}

void Worker::set_write_interest(Connection& connection, bool wants_write) {
  if (connection.wants_write == wants_write || connection.fd < 0) return;
  connection.wants_write = wants_write;
  engine_->want_write(connection.fd, token_of(connection), wants_write);
}

}  // namespace hammer
