// SPDX-License-Identifier: MIT
// ResponseParser's framing: what follows the head, and the feed() loop that drives it all. A
// byte at a time where the grammar branches (chunk-size lines, CRLFs, trailers) and in bulk
// where it does not (body data is only counted, never looked at). The head is parsed in
// response_head.cc; both halves keep their whole state in the members, so feed() can stop at
// any byte and resume.
//
// Framing rules and the choices made where RFC 9112 §6.3 leaves room:
// - 101 Switching Protocols is an error (unrequested_upgrade), at the end of its head: the
//   connection now speaks another protocol, so no HTTP/1.1 response will follow and waiting
//   for one would only end in a timeout (RFC 9110 §15.2.2; hammer sends no Upgrade of its own).
// - Other 1xx responses are interim: skipped, and the final response that follows is reported. Their
//   bytes count toward kMaxHeaderBytes together with the final head, so an endless stream of
//   "100 Continue" ends in header_too_large instead of spinning forever.
// - No body for HEAD, 1xx, 204 and 304, whatever Content-Length says.
// - Transfer-Encoding whose final coding is chunked: chunked body; any other coding: body until
//   close (rule 4). Any Transfer-Encoding together with Content-Length is
//   content_length_with_chunked: §6.3 calls it a likely smuggling attempt that "ought to be
//   handled as an error", and for a load generator it is. Transfer-Encoding in an HTTP/1.0
//   response also forces close (§6.1).
// - Chunks: hex digits, any number of leading zeros (RFC 9112 §7.1 sets no limit on them), at
//   most 16 significant digits and a value at most 2^62; optional whitespace then extensions
//   (";name=value", checked like a field value and skipped); data; CRLF. After the last chunk,
//   trailer fields (with a kMaxHeaderBytes budget of their own) and an empty line.
// - Neither length nor chunked: the body runs until close, and keep_alive is false.
#include "http/response_parser.h"

#include <algorithm>

#include "http/http_chars.h"

namespace hammer {

using http_chars::is_space;
using http_chars::kTokenChar;
using http_chars::kValueChar;

namespace {

int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool looks_like_http2_frames(std::string_view bytes) {
  constexpr size_t kFrameHeader = 9;
  if (bytes.size() < kFrameHeader) return false;
  const auto byte = [&bytes](size_t k) { return static_cast<unsigned char>(bytes[k]); };
  const bool control = byte(3) == 0x04 || byte(3) == 0x07;  // SETTINGS, GOAWAY
  const bool stream_zero = (byte(5) & 0x7f) == 0 && byte(6) == 0 && byte(7) == 0 && byte(8) == 0;
  return byte(0) == 0 && control && stream_zero;
}

std::string_view describe(ParseError error) {
  switch (error) {
    case ParseError::none: return "no error";
    case ParseError::bad_status_line: return "bad status line";
    case ParseError::bad_version: return "bad HTTP version";
    case ParseError::bad_status_code: return "bad status code";
    case ParseError::bad_header: return "bad header field";
    case ParseError::header_too_large: return "response head too large";
    case ParseError::bad_content_length: return "bad Content-Length";
    case ParseError::conflicting_content_length: return "conflicting Content-Length values";
    case ParseError::content_length_with_chunked:
      return "Content-Length together with Transfer-Encoding";
    case ParseError::bad_chunk_size: return "bad chunk size";
    case ParseError::chunk_size_too_large: return "chunk size too large";
    case ParseError::bad_chunk_terminator: return "chunk data not followed by CRLF";
    case ParseError::bad_trailer: return "bad trailer field";
    case ParseError::truncated_body: return "connection closed mid-response";
    case ParseError::unrequested_upgrade: return "101 Switching Protocols to a request that asked no upgrade";
    case ParseError::http2_frames:
      return "HTTP/2 frames where an HTTP/1.1 status line belongs (the server speaks HTTP/2 "
             "without TLS on this port: add --http2)";
  }
  return "unknown parse error";
}

void ResponseParser::start(bool head_request) {
  head_request_ = head_request;
  error_ = ParseError::none;
  in_progress_ = false;
  info_ = ResponseInfo{};
  head_bytes_ = 0;
  reset_head();
}

ParseStatus ResponseParser::fail(ParseError error, size_t offset, size_t* consumed) {
  error_ = error;
  *consumed = offset;
  return ParseStatus::error;
}

bool ResponseParser::in_head_or_trailer() const {
  return state_ <= State::head_end_lf ||
         (state_ >= State::trailer_start && state_ <= State::trailer_end_lf);
}

// Trailer fields after the last chunk, up to `end`: syntax-checked and skipped.
ParseError ResponseParser::parse_trailer(const unsigned char* p, size_t* pos, size_t end) {
  ParseError err = ParseError::none;
  size_t i = *pos;
  while (i < end && state_ != State::done) {
    const unsigned char c = p[i];
    switch (state_) {
      case State::trailer_start:
        if (trailer_seen_ && is_space(c)) {
          state_ = State::trailer_value;  // obs-fold: the trailer's value goes on
        } else if (c == '\r') {
          state_ = State::trailer_end_lf;
        } else if (c == '\n') {
          state_ = State::done;
        } else if (kTokenChar[c]) {
          state_ = State::trailer_name;
          trailer_seen_ = true;
        } else {
          err = ParseError::bad_trailer;
        }
        break;
      case State::trailer_name:
        while (i < end && kTokenChar[p[i]]) ++i;
        if (i == end) continue;
        if (p[i] == ':') {
          state_ = State::trailer_value;
        } else {
          err = ParseError::bad_trailer;
        }
        break;
      case State::trailer_value:
        while (i < end && kValueChar[p[i]]) ++i;
        if (i == end) continue;
        err = line_end(p[i], State::trailer_lf, State::trailer_start, ParseError::bad_trailer);
        break;
      case State::trailer_lf:
        err = expect_lf(c, State::trailer_start, ParseError::bad_trailer);
        break;
      case State::trailer_end_lf:
        err = expect_lf(c, State::done, ParseError::bad_trailer);
        break;
      default:
        break;
    }
    if (err != ParseError::none) break;
    ++i;
  }
  *pos = i;
  return err;
}

// One byte of chunk framing: the chunk-size line, or the CRLF after chunk data.
ParseError ResponseParser::parse_chunk_framing(unsigned char c) {
  switch (state_) {
    case State::chunk_size: {
      const int digit = hex_value(c);
      if (digit >= 0) {
        if (number_ == 0) digits_ = 0;  // leading zeros are not significant
        if (++digits_ > 16 || number_ > (kMaxContentLength - digit) / 16) {
          return ParseError::chunk_size_too_large;
        }
        number_ = number_ * 16 + digit;
        return ParseError::none;
      }
      if (digits_ == 0) return ParseError::bad_chunk_size;
      if (is_space(c)) {
        state_ = State::chunk_size_space;
      } else if (c == ';') {
        state_ = State::chunk_extension;
      } else if (!chunk_size_line_end(c)) {
        return ParseError::bad_chunk_size;
      }
      return ParseError::none;
    }
    case State::chunk_size_space:
      if (c == ';') {
        state_ = State::chunk_extension;
      } else if (!chunk_size_line_end(c) && !is_space(c)) {
        return ParseError::bad_chunk_size;
      }
      return ParseError::none;
    case State::chunk_extension:
      if (!chunk_size_line_end(c) && !kValueChar[c]) return ParseError::bad_chunk_size;
      return ParseError::none;
    case State::chunk_size_lf:
      if (c != '\n') return ParseError::bad_chunk_size;
      end_of_chunk_size_line();
      return ParseError::none;
    case State::chunk_data_cr:
      if (c == '\r') {
        state_ = State::chunk_data_lf;
      } else if (c == '\n') {
        start_chunk_size();
      } else {
        return ParseError::bad_chunk_terminator;
      }
      return ParseError::none;
    case State::chunk_data_lf:
      if (c != '\n') return ParseError::bad_chunk_terminator;
      start_chunk_size();
      return ParseError::none;
    default:
      return ParseError::none;
  }
}

// The CR or LF that ends a chunk-size line, after the size, its spaces or its extension: true
// when `c` was one (and the parser moved on).
bool ResponseParser::chunk_size_line_end(unsigned char c) {
  if (c == '\r') {
    state_ = State::chunk_size_lf;
    return true;
  }
  if (c != '\n') return false;
  end_of_chunk_size_line();
  return true;
}

void ResponseParser::start_chunk_size() {
  state_ = State::chunk_size;
  number_ = 0;
  digits_ = 0;
}

void ResponseParser::end_of_chunk_size_line() {
  if (number_ == 0) {
    state_ = State::trailer_start;
    trailer_seen_ = false;
    head_bytes_ = 0;  // trailers get their own kMaxHeaderBytes
  } else {
    state_ = State::chunk_data;
    remaining_ = number_;
  }
}

ParseStatus ResponseParser::feed(std::string_view data, size_t* consumed) {
  if (error_ != ParseError::none) {
    *consumed = 0;
    return ParseStatus::error;
  }
  if (state_ == State::done) {
    *consumed = 0;
    return ParseStatus::complete;
  }
  if (!data.empty()) in_progress_ = true;

  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const size_t n = data.size();
  size_t i = 0;
  while (i < n && state_ != State::done) {
    if (in_head_or_trailer()) {
      // Bounded by what is left of kMaxHeaderBytes: nothing here can grow without limit.
      const size_t budget = static_cast<size_t>(kMaxHeaderBytes - head_bytes_);
      const size_t end = i + std::min(n - i, budget);
      const size_t first = i;
      const bool trailer = state_ >= State::trailer_start;
      const ParseError err = trailer ? parse_trailer(p, &i, end) : parse_head(p, &i, end);
      head_bytes_ += static_cast<int64_t>(i - first);
      if (!trailer) info_.header_bytes += static_cast<int64_t>(i - first);
      if (err != ParseError::none) return fail(err, i, consumed);
      if (in_head_or_trailer() && i == end && i < n) {
        return fail(ParseError::header_too_large, i, consumed);
      }
      continue;
    }
    switch (state_) {
      case State::body_length:
      case State::chunk_data: {
        const auto take = static_cast<size_t>(std::min<int64_t>(remaining_, n - i));
        i += take;
        remaining_ -= static_cast<int64_t>(take);
        info_.body_bytes += static_cast<int64_t>(take);
        if (remaining_ == 0) {
          state_ = state_ == State::body_length ? State::done : State::chunk_data_cr;
        }
        break;
      }
      case State::body_until_close:
        info_.body_bytes += static_cast<int64_t>(n - i);
        i = n;
        break;
      default: {
        const ParseError err = parse_chunk_framing(p[i]);
        if (err != ParseError::none) return fail(err, i, consumed);
        ++i;
        break;
      }
    }
  }
  *consumed = i;
  return state_ == State::done ? ParseStatus::complete : ParseStatus::need_more;
}

ParseStatus ResponseParser::finish_on_eof() {
  if (error_ != ParseError::none) return ParseStatus::error;
  if (state_ == State::done) return ParseStatus::complete;
  if (state_ == State::body_until_close) {
    state_ = State::done;
    return ParseStatus::complete;
  }
  error_ = ParseError::truncated_body;
  return ParseStatus::error;
}

}  // namespace hammer
