// SPDX-License-Identifier: MIT
#pragma once
// ResponseParser: the HTTP/1.1 response framing a load generator needs, and nothing more. It is
// a byte-driven state machine that never buffers or copies header bytes and never allocates:
// its whole state is a handful of integers and flags, so it resumes after any slicing of the
// stream (down to one byte per feed()) and a hostile server cannot make it grow. It extracts
// only status, Content-Length, Transfer-Encoding and Connection; every other header is checked
// for syntax and skipped. The choices made where RFC 9112 leaves room are listed at the top of
// response_head.cc (status line, fields) and response_parser.cc (framing).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hammer {

enum class ParseError : uint8_t {
  none,
  bad_status_line,              // not "HTTP/1.x SP 3DIGIT [SP reason] CRLF"
  bad_version,                  // "HTTP/" then something other than 1.<digit>
  bad_status_code,              // not three digits, or outside 100..599
  bad_header,                   // field syntax: name chars, ':', obs-fold, control chars
  header_too_large,             // status line + header fields over kMaxHeaderBytes
  bad_content_length,           // not digits, empty, or over kMaxContentLength
  conflicting_content_length,   // two different Content-Length values
  content_length_with_chunked,  // Content-Length together with Transfer-Encoding
  bad_chunk_size,               // chunk-size line: no hex digits, junk, bad extension bytes
  chunk_size_too_large,         // more than 16 hex digits or over kMaxContentLength
  bad_chunk_terminator,         // chunk data not followed by CRLF
  bad_trailer,                  // trailer field syntax
  truncated_body,               // the peer closed the connection before the response ended
  unrequested_upgrade,          // 101 Switching Protocols: hammer never asks for an upgrade
  http2_frames,                 // bad_status_line where the bytes are an HTTP/2 control frame
                                // (looks_like_http2_frames): an h2c-only port (RFC 9113 3.3)
};

/// Whether a response's first bytes are the frame header of a SETTINGS or GOAWAY frame on
/// stream 0: what a server that speaks only HTTP/2 over plain TCP (h2c with prior knowledge,
/// nginx's `listen ... http2` without ssl) sends an HTTP/1.1 request. The parser reads byte by
/// byte and says bad_status_line at the first; its caller, holding the read, tells them apart.
bool looks_like_http2_frames(std::string_view bytes);

/// A short lower-case phrase for reports: "bad chunk size". Never empty.
std::string_view describe(ParseError error);

/// What the parser learned about the response it is reading (or has just completed).
struct ResponseInfo {
  int status = 0;            // final status code; 1xx interim responses are skipped
  int http_minor = 1;        // 0 for HTTP/1.0
  int64_t header_bytes = 0;  // bytes of status lines and header blocks, interim ones included
  int64_t body_bytes = 0;    // payload bytes; for chunked, the decoded data (no framing)
  bool keep_alive = true;    // false: the connection must be closed after this response
};

enum class ParseStatus : uint8_t { need_more, complete, error };

class ResponseParser {
 public:
  /// Limit on the bytes of the response head: status lines and header fields of the final
  /// response and of any 1xx responses before it, counted together. Also bounds trailers.
  static constexpr int64_t kMaxHeaderBytes = 64 * 1024;
  /// Largest Content-Length or chunk size accepted (2^62), so sums never overflow int64_t.
  static constexpr int64_t kMaxContentLength = int64_t{1} << 62;

  ResponseParser() { start(); }

  /// Prepares for the next response; `head_request` = the request was HEAD (no body follows).
  /// Clears any error.
  void start(bool head_request = false);

  /// Consumes bytes of `data` up to the end of the current response. The parser keeps no
  /// pointer into `data` after it returns.
  /// complete: a response ended; *consumed = how many bytes of `data` belonged to it. The rest
  ///   (pipelined responses) must be fed again after start().
  /// need_more: all of `data` was consumed (*consumed = data.size()).
  /// error: see error(); *consumed = the offset of the offending byte. Sticky until start().
  /// Calling feed() again after complete without start() consumes nothing and says complete.
  ParseStatus feed(std::string_view data, size_t* consumed);

  /// The peer closed the connection. Completes a body delimited by close (no Content-Length,
  /// not chunked); anything else unfinished is error truncated_body. That includes a close
  /// before any byte of the response (in_progress() false), which callers that reuse idle
  /// connections may prefer to tell apart by checking in_progress() first.
  /// Returns complete or error, never need_more.
  ParseStatus finish_on_eof();

  const ResponseInfo& info() const { return info_; }
  ParseError error() const { return error_; }
  /// True once any byte of the current response was fed (and until start()).
  bool in_progress() const { return in_progress_; }

 private:
  // Positions in the grammar, in order: head states, body states, trailer states, done.
  enum class State : uint8_t {
    version,            // "HTTP/1.x " — digits_ is the position
    status_code,        // three digits — digits_ counts them
    after_status_code,  // SP, or the line end
    reason,
    status_line_lf,
    field_start,
    field_name,
    field_value,
    field_lf,
    head_end_lf,
    body_length,
    body_until_close,
    chunk_size,
    chunk_size_space,
    chunk_extension,
    chunk_size_lf,
    chunk_data,
    chunk_data_cr,
    chunk_data_lf,
    trailer_start,
    trailer_name,
    trailer_value,
    trailer_lf,
    trailer_end_lf,
    done,
  };
  enum class Field : uint8_t { other, content_length, transfer_encoding, connection };

  ParseStatus fail(ParseError error, size_t offset, size_t* consumed);
  void reset_head();
  bool end_of_field_value(ParseError* error);
  bool value_byte(unsigned char c, ParseError* error);
  ParseError end_of_head();
  ParseError parse_head(const unsigned char* p, size_t* pos, size_t end);
  ParseError parse_trailer(const unsigned char* p, size_t* pos, size_t end);
  ParseError parse_chunk_framing(unsigned char c);
  void start_chunk_size();
  // The byte after a line's CR: LF moves to `next`; anything else is `bad`.
  ParseError expect_lf(unsigned char c, State next, ParseError bad) {
    if (c != '\n') return bad;
    state_ = next;
    return ParseError::none;
  }
  // The byte that ends a line: CR moves to `after_cr` (its LF still to come), a bare LF to
  // `after_lf`; anything else is `bad`.
  ParseError line_end(unsigned char c, State after_cr, State after_lf, ParseError bad) {
    if (c != '\r' && c != '\n') return bad;
    state_ = c == '\r' ? after_cr : after_lf;
    return ParseError::none;
  }
  void end_of_chunk_size_line();
  bool chunk_size_line_end(unsigned char c);
  bool in_head_or_trailer() const;

  State state_{};
  ParseError error_ = ParseError::none;
  bool head_request_ = false;
  bool in_progress_ = false;

  ResponseInfo info_;
  int64_t head_bytes_ = 0;  // toward kMaxHeaderBytes; reset for trailers
  int64_t remaining_ = 0;   // body or chunk bytes still to come
  int64_t content_length_ = -1;
  int64_t number_ = 0;      // Content-Length element or chunk size being read
  uint8_t digits_ = 0;      // digits in number_ (chunk size), or position in version/status
  uint8_t match_ = 0;       // candidate set / position while matching a field name or token
  uint8_t match_pos_ = 0;
  Field field_{};           // which field's value is being read
  uint8_t token_state_ = 0; // position inside one element of a comma list
  bool transfer_encoding_ = false;
  bool chunked_last_ = false;  // the last transfer coding seen is "chunked"
  bool connection_close_ = false;
  bool connection_keep_alive_ = false;
  bool value_pending_ = false;  // a field line ended; its value is final unless an obs-fold
                                // (a line starting with SP or HTAB) continues it
  bool trailer_seen_ = false;   // a trailer field was read: a folded line may continue it
};

}  // namespace hammer
