// SPDX-License-Identifier: MIT
//
// The HTTP/1.1 side of a connection: requests go out in order on its pipeline (PipelineRing,
// -p), and the response parser matches each response to the oldest request outstanding
// (RFC 9112 §9.3.2). Bytes come here from either engine family (worker_io.cc) or, decrypted,
// from the transport (worker_transport.cc), as one on_received per read, whatever made them.
// The ends a response can meet are judged here: a close at a response boundary resends what
// is idempotent (resend_unanswered), one in mid-response fails it, bytes nobody asked for
// replace the connection. Recording what an answer measured is worker_record.cc's.
#include <string>
#include <string_view>

#include "net/socket.h"
#include "run/worker.h"
#include "run/worker_record.h"

namespace hammer {

void Worker::send_resends(Connection& connection) {
  const uint32_t socket = connection.generation;
  while (!resend_queue_.empty() && connection.generation == socket && connection.fd >= 0 &&
         connection.can_take()) {
    Outstanding request = resend_queue_.pop();
    // Its intended time stays (the corrected latency includes the wait for this connection);
    // the uncorrected one times the exchange that answers it, from now. Not a first request's
    // latency: the connection's cold start is not what delayed it.
    const int64_t now = clock_.now_ns();
    request.actual_send_ns = now;
    request.first_on_socket = false;
    enqueue(connection, request, now);
  }
}

namespace {

// Whether bytes after a complete response are a 408 (Request Timeout): what a server with a
// short keep-alive timeout sends on an idle connection to announce its close (HAProxy, the
// hostile server's idle-408). Anything else there is a framing leak (a second response to
// one request, a body longer than its length).
bool starts_with_a_408(std::string_view rest) {
  return rest.size() >= 12 && rest.substr(0, 7) == "HTTP/1." && rest.substr(8, 4) == " 408";
}

}  // namespace

void Worker::on_received(Connection& connection, Io outcome, const char* data, size_t got,
                         int error_number) {
  if (connection.session != nullptr) {
    h2_received(connection, outcome, data, got, error_number);
    return;
  }
  const int64_t now = clock_.now_ns();
  if (outcome == Io::done) {
    if (!connection.busy()) {
      // Bytes with no request outstanding (a 408 before an idle close, say): the server
      // answered something nobody asked. No request failed; it is a connection event, and the
      // connection, whose framing is now unknown, is replaced.
      phase_for(now).bytes_read += static_cast<int64_t>(got);
      ++phase_for(now).unsolicited;
      replace_connection(connection);
      return;
    }
    phase_for(connection.ring.front().intended_ns).bytes_read += static_cast<int64_t>(got);
    // When these bytes reached the host (worker.cc's "Wake-ups"): what an answer records.
    const int64_t answered = answered_at(now);
    std::string_view bytes(data, got);
    // One read may end several pipelined responses: each is matched to the oldest request.
    for (;;) {
      connection.response_bytes_seen = true;
      size_t consumed = 0;
      const ParseStatus status = connection.parser.feed(bytes, &consumed);
      if (status == ParseStatus::need_more) {
        note_mid_response(connection, true);
        note_response_size(connection);
        return;
      }
      if (status == ParseStatus::error) {
        if (result_.first_parse_error.empty()) {
          ParseError error = connection.parser.error();
          // An h2c-only port's SETTINGS frame, read whole: named, with the flag that works.
          if (error == ParseError::bad_status_line && looks_like_http2_frames(bytes)) {
            error = ParseError::http2_frames;
          }
          result_.first_parse_error = std::string(describe(error));
        }
        fail_request(connection, ErrorKind::parse);
        return;
      }
      if (consumed != bytes.size() && connection.ring.count() == 1 &&
          starts_with_a_408(bytes.substr(consumed))) {
        // A 408 announcing an idle close, read in one batch with the answer before it because
        // the worker slept through both (worker.cc's "Wake-ups"): the answer stands, and the
        // 408 is the idle connection's event, as if it had come in a read of its own.
        const uint32_t socket = connection.generation;
        on_response(connection, now, answered, /*refill=*/false);
        if (connection.generation != socket) return;
        ++phase_for(now).unsolicited;
        replace_connection(connection);
        return;
      }
      if (consumed != bytes.size() && connection.ring.count() == 1) {
        // More bytes than the response's framing allows (a body longer than its
        // Content-Length, a 204 or 304 with a body) with no other request
        // outstanding: the response's end is unknown and the connection's framing is lost.
        // The request fails now, as a parse error, before anything else can be sent on it.
        if (result_.first_parse_error.empty()) {
          result_.first_parse_error = "bytes after the end of a response";
        }
        fail_request(connection, ErrorKind::parse);
        return;
      }
      bytes.remove_prefix(consumed);
      note_response_size(connection);
      const uint32_t socket = connection.generation;
      // No new request until this read's bytes are all matched: bytes that arrived before a
      // request was sent cannot be its response.
      on_response(connection, now, answered, /*refill=*/false);
      if (connection.generation != socket) return;  // the response ended the socket
      if (bytes.empty()) {
        become_idle(connection, now);
        return;
      }
      // More bytes with requests still outstanding: the next pipelined response.
    }
  }

  // End of stream or a socket error.
  if (connection.busy()) {
    if (outcome == Io::closed && connection.response_bytes_seen &&
        connection.parser.finish_on_eof() == ParseStatus::complete) {
      const uint32_t socket = connection.generation;
      on_response(connection, now, now);  // a body delimited by the close
      if (connection.generation != socket || !connection.busy()) return;
    }
    if (outcome == Io::closed && !connection.response_bytes_seen) {
      // A clean close at a response boundary (an idle timeout or a request limit meeting the
      // next request): no byte of an answer came, so the requests may go again elsewhere.
      resend_unanswered(connection, "read: server closed the connection before a full response");
      return;
    }
    if (outcome == Io::error && result_.first_socket_error.empty()) {
      result_.first_socket_error = std::string("read: ") + error_text(error_number);
    } else if (outcome == Io::closed && result_.first_socket_error.empty()) {
      result_.first_socket_error = "read: server closed the connection before a full response";
    }
    fail_request(connection, ErrorKind::read);
    return;
  }
  // The server closed an idle keep-alive connection: reconnect, no error.
  replace_connection(connection);
}

void Worker::on_response(Connection& connection, int64_t now_ns, int64_t answered_ns,
                         bool refill) {
  note_mid_response(connection, false);
  timers_.disarm(&connection.timer);
  --in_flight_;
  const Outstanding done = connection.ring.front();
  // Answered before it was all written (the oldest unwritten request is always the oldest
  // outstanding one, unless an earlier early answer is still being finished).
  const bool written = connection.ring.written() > 0 || connection.finishing;
  connection.ring.pop_front();
  const ResponseInfo& info = connection.parser.info();
  record_response(done, written, info, answered_ns);
  if (!info.keep_alive || !config_.keep_alive) {
    // The connection ends here, as the server (or --no-keepalive) asked: a planned reconnect.
    // An answer that came before its request was all written stops the rest of it (RFC 9112
    // §9.5: cease sending the body and close). Requests pipelined behind it get no answer on
    // this socket: sent again elsewhere, or failed (resend_unanswered).
    connection.finishing = false;
    if (connection.busy()) {
      resend_unanswered(connection,
                        "read: server ended the connection with pipelined requests unanswered");
      return;
    }
    close_socket(connection);
    start_connect(connection);
    return;
  }
  if (!written) {
    // Answered early and the connection kept (RFC 9112 §9.5): the server still reads the body
    // its head announced, so the rest of it goes out before anything else on this socket.
    connection.finishing = true;
    connection.finishing_line = done.line;
  }
  if (connection.busy()) {
    // The next pipelined response is the next request's; its timeout runs from its send.
    connection.parser.start(requests_[static_cast<size_t>(connection.ring.front().line)].method ==
                            Method::head);
    connection.response_bytes_seen = false;
    timers_.arm(&connection.timer, connection.ring.front().actual_send_ns + config_.timeout_ns);
  }
  if (refill) become_idle(connection, now_ns);
}

void Worker::resend_unanswered(Connection& connection, const char* why) {
  // RFC 9112 §9.3.2: a request whose connection closed before its answer may be sent again on
  // a new one when its method is idempotent; nothing else is known about the server's side.
  bool failed_any = false;
  connection.ring.drain([&](Outstanding& cut) {
    RunResult& phase = phase_for(cut.intended_ns);
    const bool idempotent = is_idempotent(requests_[static_cast<size_t>(cut.line)].method);
    if (config_.retry && idempotent && cut.resends < kMaxResends && resend_queue_.has_room()) {
      ++cut.resends;
      ++phase.retried;
      resend_queue_.push(cut);  // still in flight: answered, failed or cut off later
      return;
    }
    if (config_.retry && !idempotent) ++phase.not_retried;
    count_error(ErrorKind::read, cut.intended_ns);
    if (LineStats* stats = line_stats(phase, cut.line)) {
      ++stats->errors[static_cast<int>(ErrorKind::read)];
    }
    --in_flight_;
    failed_any = true;
  });
  if (failed_any && result_.first_socket_error.empty()) result_.first_socket_error = why;
  abandon_pipeline(connection);  // requests were outstanding: an unplanned end, like a failure
}

void Worker::fail_request(Connection& connection, ErrorKind kind) {
  // Every request outstanding on the connection fails, each once, in its own phase and line.
  if (!connection.busy()) count_error(kind, clock_.now_ns());
  if (connection.session != nullptr) {
    h2_fail_streams(connection, kind);
    abandon_pipeline(connection);
    return;
  }
  connection.ring.drain([&](const Outstanding& failed) {
    RunResult& phase = phase_for(failed.intended_ns);
    count_error(kind, failed.intended_ns);
    if (LineStats* stats = line_stats(phase, failed.line)) {
      ++stats->errors[static_cast<int>(kind)];
    }
    --in_flight_;
  });
  abandon_pipeline(connection);
}

}  // namespace hammer
