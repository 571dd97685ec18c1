// SPDX-License-Identifier: MIT
// Each frame goes through up to four stages, any of which may be empty:
//   header   9 octets: length, type, flags, stream (§4.1); the frame is checked here
//   prefix   the fixed fields kept in fixed_: pad length and priority of DATA/HEADERS, the
//            whole payload of PRIORITY, RST_STREAM, PING, WINDOW_UPDATE, GOAWAY's first 8
//   body     counted (DATA, GOAWAY debug data, unknown types), appended to the header block
//            (HEADERS, CONTINUATION) or read 6 octets per parameter (SETTINGS)
//   padding  skipped
// then finish_frame() decides whether the frame yields an event. An empty stage is passed
// without waiting for input, so a frame ending at the end of a chunk is returned at once.
#include "http2/frame_parser.h"

#include <algorithm>
#include <cstring>

namespace hammer::http2 {
namespace {

uint32_t read_u32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

bool has(uint8_t flags, uint8_t flag) { return (flags & flag) != 0; }

}  // namespace

FrameParser::FrameParser(size_t max_header_block_bytes)
    : block_(new uint8_t[max_header_block_bytes + 1]), block_capacity_(max_header_block_bytes) {}

void FrameParser::reset() {
  stage_ = Stage::header;
  body_ = Body::skip;
  error_ = FrameError::none;
  pending_stream_error_ = FrameError::none;
  header_have_ = 0;
  max_frame_size_ = kDefaultMaxFrameSize;
  frame_ = Frame{};
  block_size_ = 0;
  in_block_ = false;
  block_continuations_ = 0;
  ignored_frames_ = 0;
}

bool FrameParser::fail(FrameError error) {
  error_ = error;
  return false;
}

void FrameParser::begin_frame() {
  length_ = (uint32_t{header_[0]} << 16) | (uint32_t{header_[1]} << 8) | header_[2];
  type_ = header_[3];
  flags_ = header_[4];
  stream_id_ = read_u32(&header_[5]) & kStreamIdMask;
  frame_ = Frame{};
  frame_.stream_id = stream_id_;
  frame_.flags = flags_;
  frame_.payload_bytes = length_;
  pending_stream_error_ = FrameError::none;
  body_ = Body::skip;
  fixed_need_ = 0;
  fixed_have_ = 0;
  body_remaining_ = 0;
  pad_remaining_ = 0;
  settings_remaining_ = 0;
  stage_ = Stage::prefix;

  if (length_ > max_frame_size_) {
    fail(FrameError::frame_too_large);
    return;
  }
  const auto type = static_cast<FrameType>(type_);
  if (in_block_ && (type != FrameType::continuation || stream_id_ != block_stream_)) {
    fail(FrameError::continuation_expected);
    return;
  }
  switch (type) {
    case FrameType::data:
    case FrameType::headers: {
      if (stream_id_ == 0) {
        fail(FrameError::stream_id_required);
        return;
      }
      fixed_need_ = has(flags_, frame_flags::kPadded) ? 1 : 0;
      if (type == FrameType::headers && has(flags_, frame_flags::kPriority)) fixed_need_ += 5;
      if (length_ < fixed_need_) {
        fail(FrameError::bad_frame_length);
        return;
      }
      body_ = type == FrameType::data ? Body::skip : Body::block;
      if (type == FrameType::headers) {
        in_block_ = true;
        block_size_ = 0;
        block_stream_ = stream_id_;
        block_end_stream_ = has(flags_, frame_flags::kEndStream);
        block_payload_bytes_ = 0;
        block_continuations_ = 0;
      }
      return;
    }
    case FrameType::continuation:
      if (!in_block_) {
        fail(FrameError::unexpected_continuation);
        return;
      }
      if (++block_continuations_ > kMaxContinuationFrames) {
        fail(FrameError::continuation_flood);
        return;
      }
      body_ = Body::block;
      return;
    case FrameType::priority:
      if (stream_id_ == 0) {
        fail(FrameError::stream_id_required);
      } else if (length_ != 5) {
        pending_stream_error_ = FrameError::bad_frame_length;  // §6.3: a stream error
      } else {
        fixed_need_ = 5;
      }
      return;
    case FrameType::rst_stream:
      if (stream_id_ == 0) {
        fail(FrameError::stream_id_required);
      } else if (length_ != 4) {
        fail(FrameError::bad_frame_length);
      }
      fixed_need_ = 4;
      return;
    case FrameType::settings:
      if (stream_id_ != 0) {
        fail(FrameError::stream_id_forbidden);
      } else if (has(flags_, frame_flags::kAck) && length_ != 0) {
        fail(FrameError::settings_ack_with_payload);
      } else if (length_ % 6 != 0) {
        fail(FrameError::bad_frame_length);
      }
      body_ = Body::settings;
      return;
    case FrameType::push_promise:
      fail(FrameError::push_promise_received);
      return;
    case FrameType::ping:
      if (stream_id_ != 0) {
        fail(FrameError::stream_id_forbidden);
      } else if (length_ != 8) {
        fail(FrameError::bad_frame_length);
      }
      fixed_need_ = 8;
      return;
    case FrameType::goaway:
      if (stream_id_ != 0) {
        fail(FrameError::stream_id_forbidden);
      } else if (length_ < 8) {
        fail(FrameError::bad_frame_length);
      }
      fixed_need_ = 8;
      return;
    case FrameType::window_update:
      if (length_ != 4) fail(FrameError::bad_frame_length);
      fixed_need_ = 4;
      return;
  }
  // An unknown type: skipped whole (§4.1). Only reached for types outside the enum.
}

void FrameParser::end_prefix() {
  const uint32_t after_prefix = length_ - static_cast<uint32_t>(fixed_need_);
  const auto type = static_cast<FrameType>(type_);
  if ((type == FrameType::data || type == FrameType::headers) &&
      has(flags_, frame_flags::kPadded)) {
    pad_remaining_ = fixed_[0];
    if (pad_remaining_ > after_prefix) {
      fail(FrameError::bad_padding);
      return;
    }
  }
  body_remaining_ = after_prefix - pad_remaining_;
  if (body_ == Body::settings) settings_remaining_ = body_remaining_;
  if (type == FrameType::data) frame_.data_bytes = body_remaining_;
}

void FrameParser::apply_setting() {
  const uint16_t id = static_cast<uint16_t>((fixed_[0] << 8) | fixed_[1]);
  const uint32_t value = read_u32(&fixed_[2]);
  switch (static_cast<SettingId>(id)) {
    case SettingId::enable_push:
      if (value != 0) fail(FrameError::bad_enable_push);  // a server may only say 0 (§8.4)
      break;
    case SettingId::initial_window_size:
      if (value > kMaxWindowSize) fail(FrameError::bad_initial_window_size);
      break;
    case SettingId::max_frame_size:
      if (value < kDefaultMaxFrameSize || value > kLargestMaxFrameSize) {
        fail(FrameError::bad_max_frame_size);
      }
      break;
    case SettingId::header_table_size:
    case SettingId::max_concurrent_streams:
    case SettingId::max_header_list_size:
      break;
    default:
      return;  // unknown identifiers are ignored (§6.5.2)
  }
  frame_.settings.present |= static_cast<uint8_t>(1u << id);
  frame_.settings.values[id] = value;
}

bool FrameParser::finish_frame() {
  switch (static_cast<FrameType>(type_)) {
    case FrameType::data:
      frame_.kind = FrameKind::data;
      frame_.end_stream = has(flags_, frame_flags::kEndStream);
      return true;
    case FrameType::headers:
    case FrameType::continuation:
      block_payload_bytes_ += length_;
      if (!has(flags_, frame_flags::kEndHeaders)) return false;
      in_block_ = false;
      frame_.kind = FrameKind::headers;
      frame_.stream_id = block_stream_;
      frame_.end_stream = block_end_stream_;
      frame_.payload_bytes = block_payload_bytes_;
      frame_.header_block = {block_.get(), block_size_};
      return true;
    case FrameType::priority:
      if (pending_stream_error_ == FrameError::none) {
        frame_.dependency = read_u32(&fixed_[0]) & kStreamIdMask;
        if (frame_.dependency == stream_id_) pending_stream_error_ = FrameError::self_dependency;
      }
      if (pending_stream_error_ != FrameError::none) {
        frame_.kind = FrameKind::stream_error;
        frame_.stream_error = pending_stream_error_;
        frame_.error_code = static_cast<uint32_t>(error_code(pending_stream_error_));
        return true;
      }
      frame_.kind = FrameKind::priority;
      return true;
    case FrameType::rst_stream:
      frame_.kind = FrameKind::rst_stream;
      frame_.error_code = read_u32(&fixed_[0]);
      return true;
    case FrameType::settings:
      frame_.kind = has(flags_, frame_flags::kAck) ? FrameKind::settings_ack : FrameKind::settings;
      return true;
    case FrameType::ping:
      frame_.kind = FrameKind::ping;
      std::copy(fixed_.begin(), fixed_.end(), frame_.ping_data.begin());
      return true;
    case FrameType::goaway:
      frame_.kind = FrameKind::goaway;
      frame_.last_stream_id = read_u32(&fixed_[0]) & kStreamIdMask;
      frame_.error_code = read_u32(&fixed_[4]);
      frame_.debug_bytes = length_ - 8;
      return true;
    case FrameType::window_update:
      frame_.window_increment = read_u32(&fixed_[0]) & kMaxWindowSize;
      if (frame_.window_increment == 0) {
        if (stream_id_ == 0) return fail(FrameError::zero_window_increment);
        frame_.kind = FrameKind::stream_error;
        frame_.stream_error = FrameError::zero_window_increment;
        frame_.error_code = static_cast<uint32_t>(ErrorCode::protocol_error);
        return true;
      }
      frame_.kind = FrameKind::window_update;
      return true;
    case FrameType::push_promise:
      return false;  // refused in begin_frame()
  }
  ++ignored_frames_;
  return false;
}

FrameStatus FrameParser::feed(const uint8_t* data, size_t size, size_t* consumed) {
  size_t pos = 0;
  *consumed = 0;
  if (error_ != FrameError::none) return FrameStatus::error;
  for (;;) {
    switch (stage_) {
      case Stage::header: {
        if (pos == size) {
          *consumed = pos;
          return FrameStatus::need_more;
        }
        const size_t take = std::min(kFrameHeaderBytes - header_have_, size - pos);
        std::memcpy(header_.data() + header_have_, data + pos, take);
        header_have_ += take;
        pos += take;
        if (header_have_ < kFrameHeaderBytes) break;
        header_have_ = 0;
        begin_frame();
        break;
      }
      case Stage::prefix: {
        if (fixed_have_ < fixed_need_) {
          if (pos == size) {
            *consumed = pos;
            return FrameStatus::need_more;
          }
          const size_t take = std::min(fixed_need_ - fixed_have_, size - pos);
          std::memcpy(fixed_.data() + fixed_have_, data + pos, take);
          fixed_have_ += take;
          pos += take;
          if (fixed_have_ < fixed_need_) break;
        }
        end_prefix();
        stage_ = Stage::body;
        break;
      }
      case Stage::body: {
        if (body_remaining_ == 0) {
          stage_ = Stage::padding;
          break;
        }
        if (pos == size) {
          *consumed = pos;
          return FrameStatus::need_more;
        }
        if (body_ == Body::settings) {
          const size_t have = 6 - (settings_remaining_ - body_remaining_) % 6;  // octets left
          const size_t take = std::min({have, size - pos, size_t{body_remaining_}});
          std::memcpy(fixed_.data() + (6 - have), data + pos, take);
          pos += take;
          body_remaining_ -= static_cast<uint32_t>(take);
          if (take == have) apply_setting();
          break;
        }
        const size_t take = std::min(size_t{body_remaining_}, size - pos);
        if (body_ == Body::block) {
          if (block_size_ + take > block_capacity_) {
            fail(FrameError::header_block_too_large);
            pos += block_capacity_ - block_size_;
            break;
          }
          std::memcpy(block_.get() + block_size_, data + pos, take);
          block_size_ += take;
        }
        pos += take;
        body_remaining_ -= static_cast<uint32_t>(take);
        break;
      }
      case Stage::padding: {
        if (pad_remaining_ == 0) {
          stage_ = Stage::finish;
          break;
        }
        if (pos == size) {
          *consumed = pos;
          return FrameStatus::need_more;
        }
        const size_t take = std::min(size_t{pad_remaining_}, size - pos);
        pos += take;
        pad_remaining_ -= static_cast<uint32_t>(take);
        break;
      }
      case Stage::finish: {
        stage_ = Stage::header;
        if (finish_frame()) {
          *consumed = pos;
          return FrameStatus::frame;
        }
        break;
      }
    }
    if (error_ != FrameError::none) {
      *consumed = pos;
      return FrameStatus::error;
    }
  }
}

}  // namespace hammer::http2
