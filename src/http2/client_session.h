// SPDX-License-Identifier: MIT
#pragma once
// ClientSession: the client half of one HTTP/2 connection (RFC 9113), without I/O. The worker
// hands it what the socket (or TLS) produced, and sends what it queues; everything between is
// here: the preface and SETTINGS exchange, a table of streams in flight, HPACK decoding of each
// response's header block, flow control on the connection and on each stream (WINDOW_UPDATE as
// bodies are consumed, request bodies sent as the peer's windows allow), PING answered,
// RST_STREAM and GOAWAY. What a stream ends in goes to a StreamSink, one call per stream.
//
// Memory is fixed when the session is made (the worker makes one per connection at setup):
// the frame parser's header block buffer, the HPACK table, a stream table and an output
// buffer. A new socket calls start(), which forgets the last one's state and keeps the
// memory. Nothing on the receive or send path allocates.
//
// Streams live in a table of slots, a power of two at least twice --streams, indexed by
// (stream id / 2) mod the table's size: a lookup is one index. A new stream takes the next
// odd id whose slot is free, skipping an id when an older stream still holds its slot (ids
// must only grow, RFC 9113 §5.1.1, so skipping is allowed); the slot number is what the worker
// keeps its own per-stream record under.
//
// No stream opens before the server's first SETTINGS has arrived (settled()): its
// SETTINGS_MAX_CONCURRENT_STREAMS is known then, so a server that allows 1 is never sent 10,
// and a server that does not speak HTTP/2 (an HTTP/1.1 answer to the preface) is found before
// any request was sent on it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "http2/client_preface.h"
#include "http2/flow_window.h"
#include "http2/frame_error.h"
#include "http2/frame_parser.h"
#include "http2/hpack_decoder.h"
#include "http2/hpack_error.h"

namespace hammer::http2 {

/// Why a session ended as a connection error (the worker fails its streams and reconnects).
enum class SessionError : uint8_t {
  none,
  not_http2,     // the first bytes were not a SETTINGS frame ("HTTP/1.1 400 ..." to the preface)
  frame,         // framing broke a rule (frame_error() says which); GOAWAY sent
  compression,   // a header block could not be decoded (hpack_error()); GOAWAY sent
  flow_control,  // the peer overran our connection window or overflowed its own
  protocol,      // another rule of RFC 9113 (a response on a stream we never opened, ...)
  flood,         // the control frames the peer asks for (PING, SETTINGS ACK) outgrew the
                 // output buffer: the peer sends them faster than it reads
  peer_goaway,   // the peer sent GOAWAY with an error code (peer_goaway_code())
};

/// A short lower-case phrase for reports. Never empty.
std::string_view describe(SessionError error);

struct SessionLimits {
  ClientSettings ours;       // what the preface advertised (client_preface(ours))
  int32_t max_streams = 1;   // --streams: streams in flight at once, at most
  size_t output_buffer_bytes = 256 * 1024;
};

/// Where each stream's end goes. `slot` is the stream's slot (open_stream's result), free
/// again once the call returns.
class StreamSink {
 public:
  virtual ~StreamSink() = default;
  /// The response's first HEADERS arrived (the time to first byte).
  virtual void on_first_byte(int32_t slot) = 0;
  /// The whole response arrived (END_STREAM), with its final status.
  virtual void on_response(int32_t slot, int status) = 0;
  /// The stream ended without a response: reset by the peer with `error_code` (as sent, any
  /// value), or by us for a rule the peer broke on it (`by_peer` false, error_code ours).
  virtual void on_stream_reset(int32_t slot, uint32_t error_code, bool by_peer) = 0;
  /// The server did not process the stream (RST_STREAM REFUSED_STREAM, or an id above a
  /// GOAWAY's last-stream-id): it may be sent again on another connection.
  virtual void on_stream_refused(int32_t slot, bool by_reset) = 0;
};

/// Counts a session keeps for the report (summed by the worker when a socket ends).
struct SessionCounts {
  int64_t goaways = 0;           // GOAWAY frames received
  int64_t resets_received = 0;   // RST_STREAM frames received for our streams
  int64_t resets_sent = 0;       // RST_STREAM we sent (cancelled or broken streams)
  int64_t pings_answered = 0;
  int64_t frame_overhead_bytes = 0;  // received bytes that were not response body
  int64_t data_bytes = 0;            // response body bytes received
  int64_t ignored_frames = 0;        // of unknown type
  int64_t refused = 0;               // streams the server did not process
  int64_t goaway_errors = 0;         // GOAWAY frames with an error code
  int64_t writes = 0;  // consume_output calls that took bytes: one socket send, or one TLS
                       // write (a record's worth), of the frames queued by then
};

class ClientSession {
 public:
  explicit ClientSession(const SessionLimits& limits);
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  /// A new socket: everything about the last one is forgotten and `preface` (client_preface's
  /// bytes, built once per run) is queued to send.
  void start(std::string_view preface);

  /// The server's SETTINGS arrived: streams may open.
  bool settled() const { return settled_; }
  bool failed() const { return error_ != SessionError::none; }
  /// GOAWAY received (or the stream ids ran out): no new stream on this socket, the open
  /// ones may still finish.
  bool draining() const { return draining_; }
  /// A new stream could open now.
  bool can_open() const {
    return settled_ && !draining_ && !failed() && open_ < allowed_streams() &&
           output_room() >= max_request_frames_bytes_;
  }
  int32_t open_streams() const { return open_; }
  /// The least of --streams and the server's SETTINGS_MAX_CONCURRENT_STREAMS.
  int32_t allowed_streams() const;
  int32_t slot_count() const { return static_cast<int32_t>(mask_ + 1); }

  /// Opens a stream sending `block` (a request's HPACK header block) and then `body`, whose
  /// bytes must stay in place until the stream ends. Only when can_open(). Returns its slot.
  /// The largest block any stream will send must have been given to expect_block() first.
  int32_t open_stream(std::span<const uint8_t> block, std::string_view body);
  /// The output room a stream's HEADERS needs is computed from the largest block.
  void expect_block(size_t block_bytes);
  /// Ends the stream in `slot` from our side (its timeout): RST_STREAM CANCEL, and frames
  /// that still come for it are ignored. No sink call.
  void cancel(int32_t slot);
  /// The socket ended: every stream is forgotten, with nothing sent (start() comes next).
  void drop_streams();
  /// Whether `slot` holds a stream in flight.
  bool is_open(int32_t slot) const { return streams_[static_cast<size_t>(slot)].id != 0; }

  /// Bytes from the server; each stream that ends in them is reported to `sink` before this
  /// returns. After a connection error (failed()) nothing more is read: the caller sends what
  /// is queued (the GOAWAY) and closes.
  SessionError receive(const uint8_t* data, size_t size, StreamSink& sink);

  /// What to send, in order; it stays in place until consume_output() (so a send in flight
  /// may point at it: appending never moves it).
  std::span<const char> pending_output() const {
    return {out_.get() + out_begin_, out_end_ - out_begin_};
  }
  /// `bytes` of pending_output() went; request body DATA waiting for room is queued now.
  void consume_output(size_t bytes);

  SessionError error() const { return error_; }
  FrameError frame_error() const { return parser_.error(); }
  HpackError hpack_error() const { return hpack_error_; }
  uint32_t peer_goaway_code() const { return peer_goaway_code_; }
  const SessionCounts& counts() const { return counts_; }

  // The server's settings, as its last SETTINGS left them (RFC initial values before).
  uint32_t peer_max_concurrent_streams() const { return peer_max_streams_; }
  uint32_t peer_initial_window_size() const { return peer_initial_window_; }
  uint32_t peer_max_frame_size() const { return peer_max_frame_; }
  uint32_t peer_header_table_size() const { return peer_header_table_; }

 private:
  struct Stream {
    uint32_t id = 0;  // 0: the slot is free
    bool headers_seen = false;  // a final (non-1xx) HEADERS arrived
    int status = 0;
    std::string_view body_left;  // request body not yet sent as DATA
    SendWindow send{kDefaultInitialWindowSize};
    ReceiveWindow receive{0, 0};
  };
  class StatusReader;

  size_t output_room() const { return capacity_ - out_end_; }
  /// Room for `bytes` more at the end of the output (compacting when nothing is in flight
  /// would need it; see consume_output). False when there is none.
  bool reserve(size_t bytes);
  void handle(const Frame& frame, StreamSink& sink);
  void on_headers(const Frame& frame, StreamSink& sink);
  void on_data(const Frame& frame, StreamSink& sink);
  void on_settings(const Frame& frame);
  void on_goaway(const Frame& frame, StreamSink& sink);
  void on_window_update(const Frame& frame, StreamSink& sink);
  Stream* find(uint32_t id);
  /// The stream a HEADERS or DATA frame answers, or null: one we ended ourselves may still be
  /// answered (ignored); any other unknown one fails the session.
  Stream* answered_stream(uint32_t id);
  void finish(Stream& stream) {
    stream = Stream{};
    --open_;
  }
  /// Ends a stream from our side with RST_STREAM `code` (a rule it broke, or a timeout).
  void reset_stream(Stream& stream, ErrorCode code);
  void fail(SessionError error, ErrorCode code);
  /// Queues DATA for every stream with body left, as far as windows and room allow.
  void send_bodies();
  void send_body(Stream& stream);

  SessionLimits limits_;
  FrameParser parser_;
  HpackDecoder decoder_;
  std::unique_ptr<Stream[]> streams_;
  uint32_t mask_ = 0;
  int32_t open_ = 0;
  int32_t bodies_waiting_ = 0;  // streams with request body left to send
  uint32_t next_id_ = 1;

  std::unique_ptr<char[]> out_;
  size_t capacity_ = 0;
  size_t out_begin_ = 0;
  size_t out_end_ = 0;
  size_t max_request_frames_bytes_ = 0;  // HEADERS(+CONTINUATION) of the largest block

  bool settled_ = false;
  bool draining_ = false;
  bool first_frame_seen_ = false;
  size_t preface_check_ = 0;  // bytes of "HTTP/" matched before the first frame
  SessionError error_ = SessionError::none;
  HpackError hpack_error_ = HpackError::none;
  uint32_t peer_goaway_code_ = 0;
  SendWindow connection_send_{kDefaultInitialWindowSize};
  ReceiveWindow connection_receive_{kDefaultInitialWindowSize, kDefaultInitialWindowSize};
  uint32_t peer_max_streams_ = UINT32_MAX;
  uint32_t peer_initial_window_ = kDefaultInitialWindowSize;
  uint32_t peer_max_frame_ = kDefaultMaxFrameSize;
  uint32_t peer_header_table_ = kDefaultHeaderTableSize;
  SessionCounts counts_;
};

}  // namespace hammer::http2
