// SPDX-License-Identifier: MIT
//
// The HTTP/2 side of a connection (--http2): the protocol seam's second implementation. A
// connection carries up to --streams requests as streams of its ClientSession
// (http2/client_session.h) where HTTP/1.1 keeps a pipeline ring; the session turns received
// bytes into stream ends and queues what to send, and this file moves bytes between it and the
// socket (plain, either engine family) or the transport (TLS). The schedule, both stopwatches,
// phases, lines and the resend queue are the worker's, unchanged: a stream's request is the
// same Outstanding a pipelined one is, kept under the stream's slot.
//
// A connection is `settling` from its preface to the server's SETTINGS (nothing is sent before,
// see client_session.h), then idle or reading as its streams come and go. One timer per
// connection, set for the oldest stream's deadline when none is set: when it fires, the streams
// past --timeout are reset and the timer set for the next one (a scan of the slots once per
// timeout, not per request).
#include <algorithm>
#include <cerrno>
#include <climits>
#include <string>

#include "http2/client_preface.h"
#include "net/socket.h"
#include "run/http2_code_names.h"
#include "run/worker.h"
#include "run/worker_record.h"

namespace hammer {
namespace {

constexpr std::string_view kAlpnH2 = "h2";

// RFC 9113 §7's codes by name, for the first socket error's words.
std::string_view error_code_name(uint32_t code) {
  return kHttp2ResetNames[std::min<uint32_t>(code, kHttp2KnownErrorCodes)];
}

// What a connection error counts as: the server's bytes broke a rule (parse), or it stopped
// reading or ended the connection with an error (read).
ErrorKind error_kind_of(http2::SessionError error) {
  switch (error) {
    case http2::SessionError::frame:
    case http2::SessionError::compression:
    case http2::SessionError::flow_control:
    case http2::SessionError::protocol:
    case http2::SessionError::not_http2:
      return ErrorKind::parse;
    case http2::SessionError::flood:
    case http2::SessionError::peer_goaway:
    case http2::SessionError::none:
      return ErrorKind::read;
  }
  return ErrorKind::read;
}

}  // namespace

// Where a receive's stream ends go: recorded at once, in the request's phase and line. No new
// request is sent from here (the session is in the middle of a read); h2_settle does that after.
class Worker::StreamEnds final : public http2::StreamSink {
 public:
  StreamEnds(Worker& worker, Connection& connection, int64_t now_ns)
      : worker_(worker), connection_(connection), now_ns_(now_ns) {}

  void on_first_byte(int32_t slot) override {
    const Outstanding& request = connection_.streams[slot];
    if (&worker_.phase_for(request.intended_ns) == &worker_.result_) {
      worker_.result_.http2.first_byte.record(now_ns_ - request.actual_send_ns);
    }
  }
  void on_response(int32_t slot, int status) override {
    --worker_.in_flight_;
    ResponseInfo info;
    info.status = status;
    worker_.record_response(connection_.streams[slot], /*written=*/true, info, now_ns_);
  }
  void on_stream_reset(int32_t slot, uint32_t error_code, bool by_peer) override {
    Http2Summary& http2 = worker_.result_.http2;
    const bool measured =
        &worker_.phase_for(connection_.streams[slot].intended_ns) == &worker_.result_;
    if (by_peer && measured) {
      ++http2.resets_received[std::min<uint32_t>(error_code, kHttp2KnownErrorCodes)];
    }
    const ErrorKind kind = by_peer ? ErrorKind::read : ErrorKind::parse;
    if (by_peer && worker_.result_.first_socket_error.empty()) {
      worker_.result_.first_socket_error =
          "read: the server reset the stream (" + std::string(error_code_name(error_code)) + ")";
    } else if (!by_peer && worker_.result_.first_parse_error.empty()) {
      worker_.result_.first_parse_error =
          "HTTP/2: a malformed response stream, reset with " +
          std::string(error_code_name(error_code));
    }
    fail_stream(connection_.streams[slot], kind);
  }
  void on_stream_refused(int32_t slot, bool by_reset) override {
    Outstanding request = connection_.streams[slot];
    RunResult& phase = worker_.phase_for(request.intended_ns);
    if (by_reset && &phase == &worker_.result_) {
      ++worker_.result_.http2.resets_received[static_cast<size_t>(http2::ErrorCode::refused_stream)];
    }
    // Not processed (§8.7): sent again, on this connection or the next, whatever its method
    // (a POST too: the server never acted on it), up to kMaxUnprocessedResends times. Sent
    // once and then failed, a healthy nginx's connection recycling read as failed requests.
    if (worker_.config_.retry && request.resends < kMaxUnprocessedResends &&
        worker_.resend_queue_.has_room()) {
      ++request.resends;
      ++phase.retried;
      worker_.resend_queue_.push(request);
      return;
    }
    if (worker_.result_.first_socket_error.empty()) {
      worker_.result_.first_socket_error = "read: the server refused the stream unprocessed";
    }
    fail_stream(request, ErrorKind::read);
  }

 private:
  void fail_stream(const Outstanding& request, ErrorKind kind) {
    worker_.count_error(kind, request.intended_ns);
    if (LineStats* stats = worker_.line_stats(worker_.phase_for(request.intended_ns), request.line)) {
      ++stats->errors[static_cast<int>(kind)];
    }
    --worker_.in_flight_;
  }

  Worker& worker_;
  Connection& connection_;
  int64_t now_ns_;
};

void Worker::setup_sessions() {
  http2::SessionLimits limits;
  limits.max_streams = static_cast<int32_t>(std::max<int64_t>(config_.streams, 1));
  h2_preface_ = http2::client_preface(limits.ours);
  size_t largest_block = 0;
  for (const WireRequest& request : requests_) {
    largest_block = std::max(largest_block, request.h2_block.size());
  }
  sessions_ = std::make_unique<std::unique_ptr<http2::ClientSession>[]>(
      static_cast<size_t>(connection_count_));
  int32_t slots = 0;
  for (int64_t i = 0; i < connection_count_; ++i) {
    sessions_[i] = std::make_unique<http2::ClientSession>(limits);
    sessions_[i]->expect_block(largest_block);
    slots = sessions_[i]->slot_count();
  }
  h2_deferred_ = std::make_unique<int32_t[]>(static_cast<size_t>(connection_count_));
  stream_requests_ =
      std::make_unique<Outstanding[]>(static_cast<size_t>(connection_count_) * static_cast<size_t>(slots));
  for (int64_t i = 0; i < connection_count_; ++i) {
    connections_[i].session = sessions_[i].get();
    connections_[i].streams = stream_requests_.get() + i * slots;
  }
  result_.http2.used = true;
  result_.http2.cleartext = transport_context_ == nullptr;
  result_.http2.streams = limits.max_streams;
}

void Worker::start_protocol(Connection& connection, int64_t now_ns) {
  if (connection.session == nullptr) {
    on_ready_to_send(connection, now_ns);
    return;
  }
  if (connection.transport != nullptr) {
    const std::string_view alpn = connection.transport->session().alpn;
    if (alpn != kAlpnH2) {
      fail_session_setup(connection, "the server chose " +
                                         (alpn.empty() ? std::string("no protocol")
                                                       : std::string(alpn)) +
                                         " by ALPN, not h2");
      return;
    }
  }
  set_state(connection, ConnectionState::settling);
  connection.session->start(h2_preface_);
  timers_.arm(&connection.timer, now_ns + config_.timeout_ns);
  h2_flush(connection);
}

void Worker::fail_session_setup(Connection& connection, std::string reason) {
  count_error(ErrorKind::connect, clock_.now_ns());
  ++result_.http2.setup_failures;
  if (result_.http2.first_setup_error.empty()) result_.http2.first_setup_error = std::move(reason);
  timers_.disarm(&connection.timer);
  close_socket(connection);
  retry_later(connection);
}

void Worker::h2_received(Connection& connection, Io outcome, const char* data, size_t got,
                         int error_number) {
  http2::ClientSession& session = *connection.session;
  const int64_t now = clock_.now_ns();
  if (outcome != Io::done) {
    if (connection.state == ConnectionState::settling) {
      fail_session_setup(connection,
                         outcome == Io::closed
                             ? std::string("the server closed the connection before its SETTINGS")
                             : std::string("read: ") + error_text(error_number));
      return;
    }
    if (!connection.busy()) {  // an idle close (or the end after GOAWAY): no request failed
      replace_connection(connection);
      return;
    }
    if (result_.first_socket_error.empty()) {
      result_.first_socket_error =
          outcome == Io::closed ? std::string("read: server closed the connection before a full response")
                                : std::string("read: ") + error_text(error_number);
    }
    fail_request(connection, ErrorKind::read);
    return;
  }
  phase_for(now).bytes_read += static_cast<int64_t>(got);
  StreamEnds ends(*this, connection, answered_at(now));
  session.receive(reinterpret_cast<const uint8_t*>(data), got, ends);
  if (session.failed()) {
    if (connection.state == ConnectionState::settling) {
      fail_session_setup(connection, std::string(describe(session.error())));
      return;
    }
    ++result_.http2.session_errors;
    if (result_.http2.first_session_error.empty()) {
      result_.http2.first_session_error = std::string(describe(session.error()));
    }
    const ErrorKind kind = error_kind_of(session.error());
    if (kind == ErrorKind::parse && result_.first_parse_error.empty()) {
      result_.first_parse_error = "HTTP/2: " + std::string(describe(session.error()));
    }
    h2_flush(connection);  // the GOAWAY, as far as the socket takes it
    if (connection.busy()) {
      fail_request(connection, kind);
    } else {
      replace_connection(connection);
    }
    return;
  }
  if (connection.state == ConnectionState::settling) {
    if (!session.settled()) {
      h2_flush(connection);
      return;
    }
    timers_.disarm(&connection.timer);
    ++result_.http2.sessions;
    const uint32_t limit = session.peer_max_concurrent_streams();
    if (limit != UINT32_MAX &&
        (result_.http2.server_max_streams == 0 ||
         static_cast<int64_t>(limit) < result_.http2.server_max_streams)) {
      result_.http2.server_max_streams = limit;
    }
    set_state(connection, ConnectionState::idle);
    h2_flush(connection);  // the SETTINGS ACK
    if (connection.fd < 0) return;
    on_ready_to_send(connection, now);
    return;
  }
  h2_settle(connection, now);
}

void Worker::h2_settle(Connection& connection, int64_t now_ns) {
  http2::ClientSession& session = *connection.session;
  const uint32_t socket = connection.generation;
  if (!connection.busy()) timers_.disarm(&connection.timer);
  if (session.draining() && !connection.busy()) {
    // GOAWAY (or the ids ran out) and every stream it let finish has: a planned reconnect,
    // like a `Connection: close` answer's.
    h2_flush(connection);
    idle_.remove(connection);
    close_socket(connection);
    start_connect(connection);
    return;
  }
  set_state(connection, connection.busy() ? ConnectionState::reading : ConnectionState::idle);
  if (started_ && (connection.can_take() || !connection.busy())) {
    // The streams this opens (closed loop's refill, open loop's due slots) leave in one write
    // with what the receive queued (WINDOW_UPDATE, ACKs), not one write each.
    h2_batching_ = &connection;  // only its own: the dispatch may send on other connections
    become_idle(connection, now_ns);
    h2_batching_ = nullptr;
    if (connection.generation != socket || connection.fd < 0) return;
  }
  h2_flush_or_defer(connection);
}

void Worker::h2_flush_or_defer(Connection& connection) {
  if (!deferring_h2_flushes_) {
    h2_flush(connection);
    return;
  }
  if (!connection.h2_flush_deferred) {
    connection.h2_flush_deferred = true;
    h2_deferred_[h2_deferred_count_++] = connection.index;
  }
  connection.h2_deferred_generation = connection.generation;
}

void Worker::flush_deferred_h2() {
  for (int32_t i = 0; i < h2_deferred_count_; ++i) {
    Connection& connection = connections_[h2_deferred_[i]];
    connection.h2_flush_deferred = false;
    // A socket closed in the batch took its output with it; a new one has its own start.
    if (connection.generation == connection.h2_deferred_generation && connection.fd >= 0) {
      h2_flush(connection);
    }
  }
  h2_deferred_count_ = 0;
}

void Worker::h2_enqueue(Connection& connection, const Outstanding& request, int64_t now_ns) {
  const WireRequest& wire = requests_[static_cast<size_t>(request.line)];
  const int32_t slot = connection.session->open_stream(wire.h2_block, wire.bytes.body);
  connection.streams[slot] = request;
  connection.newest_stream = slot;
  connection.fresh = false;
  set_state(connection, ConnectionState::reading);
  if (!connection.timer.armed()) timers_.arm(&connection.timer, now_ns + config_.timeout_ns);
  if (h2_batching_ != &connection) h2_flush_or_defer(connection);
}

void Worker::h2_flush(Connection& connection) {
  http2::ClientSession& session = *connection.session;
  if (connection.fd < 0) return;
  if (connection.transport != nullptr) {
    // Into the transport as plaintext, as far as its ring takes; the rest when it has room
    // (on_transport_sent and on_transport_ready come back here through transport_write).
    ConnectionTransport& transport = *connection.transport;
    const uint32_t socket = connection.generation;
    bool took_any = false;
    for (;;) {
      const std::span<const char> pending = session.pending_output();
      if (pending.empty()) break;
      const TransportTransfer put = transport.write(pending);
      if (put.io == TransportIo::done) {
        session.consume_output(put.bytes);
        took_any = true;
        continue;
      }
      if (put.io == TransportIo::want_output) {
        if (completes_io_ && connection.transport_sending) break;
        if (!transport_flush(connection) || connection.generation != socket) return;
        if (!transport.to_send().empty()) break;
        continue;
      }
      transport_failed(connection, ErrorKind::write,
                       "write: TLS: " + std::string(transport.failure_reason()));
      return;
    }
    // Queued behind a send in flight, or waiting for its room: hear of its completion at
    // once, so this goes out. Quiet, the completion waited for one more event, and a request
    // whose first record could not enter the ring waited with the server for the whole run
    // (20 KB POSTs over h2 and TLS: 2 requests in 300 ms).
    if (completes_io_ && connection.transport_sending &&
        (took_any || !session.pending_output().empty())) {
      engine_->hurry();
    }
    transport_flush(connection);
    return;
  }
  if (completes_io_) {
    const std::span<const char> pending = session.pending_output();
    if (connection.session_sending) {
      // The rest when it completes (h2_on_sent); a quiet send's completion may wait for the
      // next event, so new frames behind it ask to hear of it at once.
      if (pending.size() > connection.session_send_bytes) engine_->hurry();
      return;
    }
    if (pending.empty()) return;
    connection.session_sending = true;
    connection.session_send_bytes = pending.size();
    engine_->send(connection.fd, token_of(connection),
                  std::string_view(pending.data(), pending.size()), std::string_view(), false);
    return;
  }
  for (;;) {
    const std::span<const char> pending = session.pending_output();
    if (pending.empty()) {
      set_write_interest(connection, false);
      return;
    }
    size_t wrote = 0;
    int error_number = 0;
    const Io outcome =
        write_some(connection.fd, pending.data(), pending.size(), &wrote, &error_number);
    if (outcome == Io::done) {
      session.consume_output(wrote);
      continue;
    }
    if (outcome == Io::would_block) {
      set_write_interest(connection, true);
      return;
    }
    h2_write_failed(connection, outcome == Io::closed ? EPIPE : error_number);
    return;
  }
}

void Worker::h2_write_failed(Connection& connection, int error_number) {
  if (result_.first_socket_error.empty()) {
    result_.first_socket_error = std::string("write: ") + error_text(error_number);
  }
  if (connection.state == ConnectionState::settling) {
    fail_session_setup(connection, result_.first_socket_error);
  } else if (connection.busy()) {
    fail_request(connection, ErrorKind::write);
  } else {
    replace_connection(connection);
  }
}

void Worker::h2_on_sent(Connection& connection, const IoEvent& event) {
  connection.session_sending = false;
  if (event.result > 0) {
    connection.session->consume_output(static_cast<size_t>(event.result));
  } else if (event.result != -EAGAIN) {
    h2_write_failed(connection, event.result == 0 ? EPIPE : -event.result);
    return;
  }
  h2_flush(connection);
  h2_output_drained(connection);
}

void Worker::h2_output_drained(Connection& connection) {
  // Output room came back: a session that was full may open streams again. Only the plain
  // io_uring path asked; over TLS (and epoll's writable) a closed loop whose last answer came
  // while its session's output was full (a 1 MB body's DATA) sent nothing more.
  if (started_ && connection.fd >= 0 && connection.session != nullptr &&
      connection.state != ConnectionState::settling &&
      connection.state != ConnectionState::handshaking && connection.can_take() &&
      !connection.in_idle_list) {
    become_idle(connection, clock_.now_ns());
  }
}

void Worker::h2_expire(Connection& connection) {
  http2::ClientSession& session = *connection.session;
  const int64_t now = clock_.now_ns();
  int64_t next = INT64_MAX;
  for (int32_t slot = 0; slot < session.slot_count(); ++slot) {
    if (!session.is_open(slot)) continue;
    const Outstanding& request = connection.streams[slot];
    const int64_t deadline = request.actual_send_ns + config_.timeout_ns;
    if (deadline > now) {
      next = std::min(next, deadline);
      continue;
    }
    // Past --timeout: a timeout like HTTP/1.1's, but only this stream ends (RST_STREAM
    // CANCEL); the connection and its other streams go on.
    session.cancel(slot);
    count_error(ErrorKind::timeout, request.intended_ns);
    if (LineStats* stats = line_stats(phase_for(request.intended_ns), request.line)) {
      ++stats->errors[static_cast<int>(ErrorKind::timeout)];
    }
    --in_flight_;
  }
  if (next != INT64_MAX) timers_.arm(&connection.timer, next);
  h2_settle(connection, now);
}

void Worker::h2_fail_streams(Connection& connection, ErrorKind kind) {
  http2::ClientSession& session = *connection.session;
  for (int32_t slot = 0; slot < session.slot_count(); ++slot) {
    if (!session.is_open(slot)) continue;
    const Outstanding& request = connection.streams[slot];
    count_error(kind, request.intended_ns);
    if (LineStats* stats = line_stats(phase_for(request.intended_ns), request.line)) {
      ++stats->errors[static_cast<int>(kind)];
    }
    --in_flight_;
  }
  session.drop_streams();
}

void Worker::h2_cut_streams(Connection& connection) {
  http2::ClientSession& session = *connection.session;
  for (int32_t slot = 0; slot < session.slot_count(); ++slot) {
    if (!session.is_open(slot)) continue;
    ++phase_for(connection.streams[slot].intended_ns).in_flight_at_stop;
    --in_flight_;
  }
  session.drop_streams();
}

http2::SessionCounts Worker::h2_counts_now() const {
  http2::SessionCounts total;
  for (int64_t i = 0; i < connection_count_; ++i) {
    const http2::SessionCounts& counts = sessions_[i]->counts();
    total.goaways += counts.goaways;
    total.goaway_errors += counts.goaway_errors;
    total.refused += counts.refused;
    total.pings_answered += counts.pings_answered;
    total.frame_overhead_bytes += counts.frame_overhead_bytes;
    total.data_bytes += counts.data_bytes;
    total.resets_sent += counts.resets_sent;
    total.writes += counts.writes;
  }
  return total;
}

void Worker::h2_note_measured_start() {
  h2_measured_started_ = true;
  if (sessions_) h2_counts_before_measured_ = h2_counts_now();
}

void Worker::h2_collect_counts() {
  if (!sessions_) return;
  // Ended before the measured part began (Ctrl-C in the warm-up): none of it was measured.
  if (!h2_measured_started_) h2_note_measured_start();
  // The frames are counted by when they arrived: those of the measured part's first moments
  // may answer warm-up streams, as its last answer measured ones.
  const http2::SessionCounts now = h2_counts_now();
  const http2::SessionCounts& before = h2_counts_before_measured_;
  Http2Summary& http2 = result_.http2;
  http2.goaways += now.goaways - before.goaways;
  http2.goaway_errors += now.goaway_errors - before.goaway_errors;
  http2.refused += now.refused - before.refused;
  http2.pings_answered += now.pings_answered - before.pings_answered;
  http2.frame_overhead_bytes += now.frame_overhead_bytes - before.frame_overhead_bytes;
  http2.data_bytes += now.data_bytes - before.data_bytes;
  http2.resets_sent += now.resets_sent - before.resets_sent;
  http2.writes += now.writes - before.writes;
}

}  // namespace hammer
