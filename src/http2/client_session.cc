// SPDX-License-Identifier: MIT
//
// The order of a receive: the parser yields one validated frame at a time (frame_parser.cc);
// handle() applies it to the connection or to its stream, queues what the frame asks for
// (SETTINGS ACK, PING ACK, WINDOW_UPDATE, RST_STREAM, GOAWAY) and reports a stream's end to the
// sink after the stream's slot is free again. Every header block is decoded, even one for a
// stream we already cancelled: the HPACK table is the connection's, and skipping a block would
// desynchronise it.
//
// Output room: control frames are written only into room kept back from requests
// (kControlReserveBytes, see can_open()), so a peer that reads slowly cannot make an ACK or a
// WINDOW_UPDATE impossible; a peer that asks for more control frames than that while not
// reading ours (a PING flood) ends the session as a flood, which is nghttp2's rule as well.
#include "http2/client_session.h"

#include <algorithm>
#include <cstring>

#include "http2/frame_writer.h"

namespace hammer::http2 {
namespace {

constexpr size_t kControlReserveBytes = 16 * 1024;
constexpr std::string_view kHttp1Start = "HTTP/";

uint32_t slots_for(int32_t max_streams) {
  uint32_t slots = 2;
  while (slots < 2 * static_cast<uint32_t>(std::max(max_streams, 1))) slots *= 2;
  return slots;
}

}  // namespace

std::string_view describe(SessionError error) {
  switch (error) {
    case SessionError::none: return "no error";
    case SessionError::not_http2: return "the server answered the HTTP/2 preface with HTTP/1.x";
    case SessionError::frame: return "a frame broke the framing rules";
    case SessionError::compression: return "a header block could not be decoded";
    case SessionError::flow_control: return "the server broke flow control";
    case SessionError::protocol: return "the server broke the protocol";
    case SessionError::flood: return "the server sent control frames faster than it read ours";
    case SessionError::peer_goaway: return "the server sent GOAWAY with an error";
  }
  return "unknown session error";
}

// Reads a response's :status from its header block; other fields are not kept.
class ClientSession::StatusReader final : public HeaderSink {
 public:
  void on_header(std::string_view name, std::string_view value) override {
    if (name != ":status") return;
    ++seen;
    if (value.size() != 3) return;
    int parsed = 0;
    for (const char c : value) {
      if (c < '0' || c > '9') return;
      parsed = parsed * 10 + (c - '0');
    }
    status = parsed;
  }
  int status = 0;  // 0: missing or malformed
  int seen = 0;
};

ClientSession::ClientSession(const SessionLimits& limits)
    : limits_(limits),
      parser_(kDefaultMaxHeaderBlockBytes),
      decoder_(limits.ours.header_table_size, limits.ours.max_header_list_size),
      mask_(slots_for(limits.max_streams) - 1),
      capacity_(std::max(limits.output_buffer_bytes, 2 * kControlReserveBytes)) {
  streams_ = std::make_unique<Stream[]>(mask_ + 1);
  // Not zeroed: pages become resident only as output is queued (RSS per connection).
  out_ = std::make_unique_for_overwrite<char[]>(capacity_);
  expect_block(0);
}

int32_t ClientSession::allowed_streams() const {
  return static_cast<int32_t>(
      std::min<uint32_t>(static_cast<uint32_t>(limits_.max_streams), peer_max_streams_));
}

void ClientSession::expect_block(size_t block_bytes) {
  // The smallest frame size the peer may set is the default: the most frames a block can take.
  max_request_frames_bytes_ =
      std::max(max_request_frames_bytes_,
               headers_frames_bytes(block_bytes, kDefaultMaxFrameSize) + kControlReserveBytes);
}

void ClientSession::start(std::string_view preface) {
  parser_.reset();
  decoder_.reset();
  for (uint32_t i = 0; i <= mask_; ++i) streams_[i] = Stream{};
  open_ = 0;
  bodies_waiting_ = 0;
  next_id_ = 1;
  out_begin_ = 0;
  out_end_ = 0;
  settled_ = false;
  draining_ = false;
  first_frame_seen_ = false;
  preface_check_ = 0;
  error_ = SessionError::none;
  hpack_error_ = HpackError::none;
  peer_goaway_code_ = 0;
  connection_send_ = SendWindow(kDefaultInitialWindowSize);
  // The preface's WINDOW_UPDATE has raised the connection window to its target already.
  const uint32_t window = std::max(limits_.ours.connection_window, kDefaultInitialWindowSize);
  connection_receive_ = ReceiveWindow(window, window);
  peer_max_streams_ = UINT32_MAX;
  peer_initial_window_ = kDefaultInitialWindowSize;
  peer_max_frame_ = kDefaultMaxFrameSize;
  peer_header_table_ = kDefaultHeaderTableSize;
  const size_t bytes = std::min(preface.size(), capacity_);
  std::memcpy(out_.get(), preface.data(), bytes);
  out_end_ = bytes;
}

bool ClientSession::reserve(size_t bytes) { return capacity_ - out_end_ >= bytes; }

void ClientSession::consume_output(size_t bytes) {
  if (bytes > 0) ++counts_.writes;
  out_begin_ += std::min(bytes, out_end_ - out_begin_);
  if (out_begin_ == out_end_) {
    out_begin_ = 0;
    out_end_ = 0;
  } else if (out_begin_ > capacity_ / 2) {
    // Nothing is in flight while this runs (the caller's send completed): moving is safe.
    std::memmove(out_.get(), out_.get() + out_begin_, out_end_ - out_begin_);
    out_end_ -= out_begin_;
    out_begin_ = 0;
  }
  if (bodies_waiting_ > 0) send_bodies();
}

int32_t ClientSession::open_stream(std::span<const uint8_t> block, std::string_view body) {
  uint32_t id = next_id_;
  while (streams_[(id >> 1) & mask_].id != 0) id += 2;  // an older stream holds the slot
  next_id_ = id + 2;
  // The ids end at 2^31 - 1: the last streams finish here, the next ones go on a new socket.
  if (next_id_ > kStreamIdMask - 2 * (mask_ + 1)) draining_ = true;
  const auto slot = static_cast<int32_t>((id >> 1) & mask_);
  Stream& stream = streams_[static_cast<size_t>(slot)];
  stream.id = id;
  stream.send = SendWindow(peer_initial_window_);
  stream.receive = ReceiveWindow(limits_.ours.initial_window_size, limits_.ours.initial_window_size);
  ++open_;
  out_end_ += write_headers(reinterpret_cast<uint8_t*>(out_.get() + out_end_), id, block,
                            body.empty(), peer_max_frame_);
  if (!body.empty()) {
    stream.body_left = body;
    ++bodies_waiting_;
    send_body(stream);
  }
  return slot;
}

void ClientSession::cancel(int32_t slot) {
  Stream& stream = streams_[static_cast<size_t>(slot)];
  if (stream.id != 0) reset_stream(stream, ErrorCode::cancel);
}

void ClientSession::drop_streams() {
  for (uint32_t i = 0; i <= mask_; ++i) streams_[i] = Stream{};
  open_ = 0;
  bodies_waiting_ = 0;
}

void ClientSession::reset_stream(Stream& stream, ErrorCode code) {
  if (!stream.body_left.empty()) --bodies_waiting_;
  if (reserve(kRstStreamFrameBytes)) {
    out_end_ += write_rst_stream(reinterpret_cast<uint8_t*>(out_.get() + out_end_), stream.id, code);
    ++counts_.resets_sent;
  }
  finish(stream);
}

void ClientSession::fail(SessionError error, ErrorCode code) {
  if (failed()) return;
  error_ = error;
  if (error != SessionError::not_http2 && error != SessionError::peer_goaway &&
      reserve(kGoawayFrameBytes)) {
    out_end_ += write_goaway(reinterpret_cast<uint8_t*>(out_.get() + out_end_), 0, code);
  }
}

ClientSession::Stream* ClientSession::find(uint32_t id) {
  Stream& stream = streams_[(id >> 1) & mask_];
  return stream.id == id && id != 0 ? &stream : nullptr;
}

ClientSession::Stream* ClientSession::answered_stream(uint32_t id) {
  Stream* stream = find(id);
  // A stream we ended ourselves (odd, below the next id) may still be answered; anything else
  // is a stream the server made up, and push is off (§5.1: PROTOCOL_ERROR).
  if (stream == nullptr && ((id & 1) == 0 || id >= next_id_)) {
    fail(SessionError::protocol, ErrorCode::protocol_error);
  }
  return stream;
}

SessionError ClientSession::receive(const uint8_t* data, size_t size, StreamSink& sink) {
  if (failed()) return error_;
  const int64_t data_before = counts_.data_bytes;
  // An HTTP/1.x answer to the preface: its first octets are not a frame header, and the
  // parser would only see a frame too large. Kept apart to say so.
  for (size_t i = 0; !first_frame_seen_ && preface_check_ < kHttp1Start.size() && i < size; ++i) {
    preface_check_ = static_cast<char>(data[i]) == kHttp1Start[preface_check_]
                         ? preface_check_ + 1
                         : kHttp1Start.size() + 1;  // not HTTP/1: stop looking
  }
  if (!first_frame_seen_ && preface_check_ == kHttp1Start.size()) {
    fail(SessionError::not_http2, ErrorCode::protocol_error);
    return error_;
  }
  size_t at = 0;
  while (at < size && !failed()) {
    size_t consumed = 0;
    const FrameStatus status = parser_.feed(data + at, size - at, &consumed);
    at += consumed;
    if (status == FrameStatus::need_more) break;
    if (status == FrameStatus::error) {
      fail(SessionError::frame, error_code(parser_.error()));
      break;
    }
    const Frame& frame = parser_.frame();
    if (!first_frame_seen_) {
      first_frame_seen_ = true;
      if (frame.kind != FrameKind::settings) {  // §3.4: the server's preface is SETTINGS
        fail(SessionError::protocol, ErrorCode::protocol_error);
        break;
      }
    }
    handle(frame, sink);
  }
  counts_.frame_overhead_bytes +=
      static_cast<int64_t>(size) - (counts_.data_bytes - data_before);
  counts_.ignored_frames = parser_.ignored_frames();
  return error_;
}

void ClientSession::handle(const Frame& frame, StreamSink& sink) {
  switch (frame.kind) {
    case FrameKind::data:
      on_data(frame, sink);
      return;
    case FrameKind::headers:
      on_headers(frame, sink);
      return;
    case FrameKind::priority:
      return;  // advice for the server's own scheduling; a client sends nothing it governs
    case FrameKind::rst_stream: {
      Stream* stream = find(frame.stream_id);
      if (stream == nullptr) return;  // one we already ended: frames cross on the wire
      const auto slot = static_cast<int32_t>(stream - streams_.get());
      ++counts_.resets_received;
      if (!stream->body_left.empty()) --bodies_waiting_;
      finish(*stream);
      if (frame.error_code == static_cast<uint32_t>(ErrorCode::refused_stream)) {
        ++counts_.refused;  // §8.7: not processed, safe to send again
        sink.on_stream_refused(slot, /*by_reset=*/true);
      } else {
        sink.on_stream_reset(slot, frame.error_code, true);
      }
      return;
    }
    case FrameKind::settings:
      on_settings(frame);
      return;
    case FrameKind::settings_ack:
      return;  // ours are the initial values but for what the preface's frames already set
    case FrameKind::ping:
      if ((frame.flags & frame_flags::kAck) != 0) return;
      if (!reserve(kPingFrameBytes)) {
        fail(SessionError::flood, ErrorCode::enhance_your_calm);
        return;
      }
      out_end_ += write_ping(reinterpret_cast<uint8_t*>(out_.get() + out_end_), frame.ping_data, true);
      ++counts_.pings_answered;
      return;
    case FrameKind::goaway:
      on_goaway(frame, sink);
      return;
    case FrameKind::window_update:
      on_window_update(frame, sink);
      return;
    case FrameKind::stream_error: {
      Stream* stream = find(frame.stream_id);
      const ErrorCode code = error_code(frame.stream_error);
      if (stream == nullptr) return;
      const auto slot = static_cast<int32_t>(stream - streams_.get());
      reset_stream(*stream, code);
      sink.on_stream_reset(slot, static_cast<uint32_t>(code), false);
      return;
    }
  }
}

void ClientSession::on_headers(const Frame& frame, StreamSink& sink) {
  StatusReader reader;
  hpack_error_ = decoder_.decode(frame.header_block.data(), frame.header_block.size(), reader);
  if (hpack_error_ != HpackError::none) {
    fail(SessionError::compression, ErrorCode::compression_error);
    return;
  }
  Stream* stream = answered_stream(frame.stream_id);
  if (stream == nullptr) return;
  const auto slot = static_cast<int32_t>(stream - streams_.get());
  const bool first = !stream->headers_seen && stream->status == 0;
  if (first) sink.on_first_byte(slot);
  if (!stream->headers_seen) {
    // §8.3.2: exactly one :status of three digits. 1xx (but 101, which HTTP/2 forbids) is
    // informational and another HEADERS follows.
    const bool valid = reader.seen == 1 && reader.status >= 100 && reader.status != 101;
    const bool informational = valid && reader.status < 200;
    if (!valid || (informational && frame.end_stream)) {
      reset_stream(*stream, ErrorCode::protocol_error);
      sink.on_stream_reset(slot, static_cast<uint32_t>(ErrorCode::protocol_error), false);
      return;
    }
    stream->status = reader.status;
    if (informational) return;
    stream->headers_seen = true;
  } else if (!frame.end_stream) {  // trailers must end the stream (§8.1)
    reset_stream(*stream, ErrorCode::protocol_error);
    sink.on_stream_reset(slot, static_cast<uint32_t>(ErrorCode::protocol_error), false);
    return;
  }
  if (!frame.end_stream) return;
  const int status = stream->status;
  if (!stream->body_left.empty()) --bodies_waiting_;  // answered before its body all went
  finish(*stream);
  sink.on_response(slot, status);
}

void ClientSession::on_data(const Frame& frame, StreamSink& sink) {
  if (connection_receive_.on_data(frame.payload_bytes) != FlowError::none) {
    fail(SessionError::flow_control, ErrorCode::flow_control_error);
    return;
  }
  if (const uint32_t increment = connection_receive_.update_due(); increment > 0 &&
                                                                   reserve(kWindowUpdateFrameBytes)) {
    out_end_ += write_window_update(reinterpret_cast<uint8_t*>(out_.get() + out_end_), 0, increment);
    connection_receive_.on_update_sent(increment);
  }
  // A body's bytes are data whether or not its stream is still ours: the rest of a response
  // whose stream timed out (cancelled) kept arriving, and read as 1.47 GB of frame overhead.
  counts_.data_bytes += frame.data_bytes;
  Stream* stream = answered_stream(frame.stream_id);
  if (stream == nullptr) return;
  const auto slot = static_cast<int32_t>(stream - streams_.get());
  if (!stream->headers_seen || stream->receive.on_data(frame.payload_bytes) != FlowError::none) {
    // DATA before the response's HEADERS (§8.1), or past the stream's window (§6.9.1).
    const ErrorCode code =
        stream->headers_seen ? ErrorCode::flow_control_error : ErrorCode::protocol_error;
    reset_stream(*stream, code);
    sink.on_stream_reset(slot, static_cast<uint32_t>(code), false);
    return;
  }
  if (frame.end_stream) {
    const int status = stream->status;
    if (!stream->body_left.empty()) --bodies_waiting_;
    finish(*stream);
    sink.on_response(slot, status);
    return;
  }
  if (const uint32_t increment = stream->receive.update_due(); increment > 0 &&
                                                               reserve(kWindowUpdateFrameBytes)) {
    out_end_ += write_window_update(reinterpret_cast<uint8_t*>(out_.get() + out_end_), stream->id,
                                    increment);
    stream->receive.on_update_sent(increment);
  }
}

void ClientSession::on_settings(const Frame& frame) {
  const SettingsValues& values = frame.settings;
  if (values.has(SettingId::max_concurrent_streams)) {
    peer_max_streams_ = values.get(SettingId::max_concurrent_streams);
  }
  if (values.has(SettingId::max_frame_size)) {
    peer_max_frame_ = values.get(SettingId::max_frame_size);
  }
  if (values.has(SettingId::header_table_size)) {
    // Our encoder never indexes (hpack_encoder.h): a smaller table changes nothing we send.
    peer_header_table_ = values.get(SettingId::header_table_size);
  }
  if (values.has(SettingId::initial_window_size)) {
    const uint32_t old_initial = peer_initial_window_;
    peer_initial_window_ = values.get(SettingId::initial_window_size);
    for (uint32_t i = 0; i <= mask_; ++i) {
      if (streams_[i].id == 0) continue;
      if (streams_[i].send.on_initial_window_change(old_initial, peer_initial_window_) !=
          FlowError::none) {
        fail(SessionError::flow_control, ErrorCode::flow_control_error);
        return;
      }
    }
  }
  if (!reserve(kSettingsAckFrameBytes)) {
    fail(SessionError::flood, ErrorCode::enhance_your_calm);
    return;
  }
  out_end_ += write_settings_ack(reinterpret_cast<uint8_t*>(out_.get() + out_end_));
  settled_ = true;
  if (bodies_waiting_ > 0) send_bodies();
}

void ClientSession::on_goaway(const Frame& frame, StreamSink& sink) {
  ++counts_.goaways;
  draining_ = true;
  if (frame.error_code != static_cast<uint32_t>(ErrorCode::no_error)) {
    peer_goaway_code_ = frame.error_code;
    ++counts_.goaway_errors;
  }
  // §6.8: streams above last-stream-id were not processed; they may go again elsewhere.
  for (uint32_t i = 0; i <= mask_; ++i) {
    Stream& stream = streams_[i];
    if (stream.id == 0 || stream.id <= frame.last_stream_id) continue;
    if (!stream.body_left.empty()) --bodies_waiting_;
    finish(stream);
    ++counts_.refused;
    sink.on_stream_refused(static_cast<int32_t>(i), /*by_reset=*/false);
  }
}

void ClientSession::on_window_update(const Frame& frame, StreamSink& sink) {
  if (frame.stream_id == 0) {
    if (connection_send_.on_window_update(frame.window_increment) != FlowError::none) {
      fail(SessionError::flow_control, ErrorCode::flow_control_error);
      return;
    }
  } else if (Stream* stream = find(frame.stream_id); stream != nullptr) {
    if (stream->send.on_window_update(frame.window_increment) != FlowError::none) {
      const auto slot = static_cast<int32_t>(stream - streams_.get());
      reset_stream(*stream, ErrorCode::flow_control_error);
      sink.on_stream_reset(slot, static_cast<uint32_t>(ErrorCode::flow_control_error), false);
      return;
    }
  }
  if (bodies_waiting_ > 0) send_bodies();
}

void ClientSession::send_bodies() {
  for (uint32_t i = 0; i <= mask_ && bodies_waiting_ > 0; ++i) {
    if (streams_[i].id != 0 && !streams_[i].body_left.empty()) send_body(streams_[i]);
  }
}

void ClientSession::send_body(Stream& stream) {
  while (!stream.body_left.empty()) {
    int64_t bytes = sendable_bytes(static_cast<int64_t>(stream.body_left.size()), connection_send_,
                                   stream.send, peer_max_frame_);
    const int64_t room =
        static_cast<int64_t>(capacity_ - out_end_) - static_cast<int64_t>(kControlReserveBytes) -
        static_cast<int64_t>(kFrameHeaderBytes);
    bytes = std::min(bytes, room);
    if (bytes <= 0) return;  // a window or the output is full: on its WINDOW_UPDATE or drain
    const bool last = bytes == static_cast<int64_t>(stream.body_left.size());
    auto* at = reinterpret_cast<uint8_t*>(out_.get() + out_end_);
    out_end_ += write_data_header(at, stream.id, static_cast<uint32_t>(bytes), last);
    std::memcpy(out_.get() + out_end_, stream.body_left.data(), static_cast<size_t>(bytes));
    out_end_ += static_cast<size_t>(bytes);
    connection_send_.consume(bytes);
    stream.send.consume(bytes);
    stream.body_left.remove_prefix(static_cast<size_t>(bytes));
    if (last) --bodies_waiting_;
  }
}

}  // namespace hammer::http2
