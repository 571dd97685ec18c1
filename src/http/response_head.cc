// SPDX-License-Identifier: MIT
// The response head: status line and header fields, parsed without buffering. Header names are
// recognised by matching each byte against the three names that matter (a bitmask of the
// candidates still alive, plus a position), and list values by matching tokens the same way,
// so a field split across two reads costs nothing extra and a long one costs no memory.
//
// Choices where RFC 9112 leaves room (framing choices are in response_parser.cc):
// - Line endings: CRLF, or a bare LF (RFC 9112 §2.2 lets a recipient accept it). A CR not
//   followed by LF is an error of whatever was being read.
// - Status line: "HTTP/1.<digit>" (case-sensitive), SP, three digits in 100..599, then SP and a
//   reason (possibly empty) or the line end directly ("HTTP/1.1 200\r\n", which servers send).
// - Header fields: a token name, ':' at once (whitespace before it is bad_header), a value of
//   VCHAR/obs-text/SP/HTAB. obs-fold (a line starting with SP or HTAB after a field line)
//   continues the value, the fold read as one space (RFC 9112 §5.2: a user agent replaces it
//   with SP before interpreting the field); whitespace before the first field is bad_header.
//   So a field's value is final only when the next line starts with something else.
// - Content-Length: digits only, at most 2^62. A list of equal values ("5, 5") or repeated
//   equal fields count as one (RFC 9110 §8.6 allows it); different values are
//   conflicting_content_length; an empty value or list element is bad_content_length.
// - Transfer-Encoding: a case-insensitive list; only whether the final coding is exactly
//   "chunked" matters. Several fields concatenate, as lists do.
// - Connection: a case-insensitive token list; "close" wins over "keep-alive". HTTP/1.1 (and
//   higher minors) keep the connection unless "close"; HTTP/1.0 closes unless "keep-alive".
#include <array>

#include "http/http_chars.h"
#include "http/response_parser.h"

namespace hammer {

using http_chars::is_space;
using http_chars::kTokenChar;
using http_chars::kValueChar;

namespace {

// Lower-case names and tokens matched byte by byte; a bitmask says which are still possible.
constexpr std::array<std::string_view, 3> kFieldNames = {"content-length", "transfer-encoding",
                                                         "connection"};
constexpr std::array<std::string_view, 1> kCodings = {"chunked"};
constexpr std::array<std::string_view, 2> kConnectionTokens = {"close", "keep-alive"};

template <size_t N>
uint8_t match_step(const std::array<std::string_view, N>& words, uint8_t mask, uint8_t position,
                   unsigned char c) {
  const unsigned char lc = http_chars::lower(c);
  for (size_t k = 0; k < N; ++k) {
    const auto bit = static_cast<uint8_t>(1u << k);
    if ((mask & bit) != 0 &&
        (position >= words[k].size() || static_cast<unsigned char>(words[k][position]) != lc)) {
      mask = static_cast<uint8_t>(mask & ~bit);
    }
  }
  return mask;
}

/// Index of the word fully matched by (mask, position), or -1.
template <size_t N>
int matched_word(const std::array<std::string_view, N>& words, uint8_t mask, uint8_t position) {
  for (size_t k = 0; k < N; ++k) {
    if ((mask & (1u << k)) != 0 && words[k].size() == position) return static_cast<int>(k);
  }
  return -1;
}

constexpr uint8_t all_of(size_t n) { return static_cast<uint8_t>((1u << n) - 1); }

// Positions of the comma-list element being read in a Content-Length, Transfer-Encoding or
// Connection value.
constexpr uint8_t kBeforeElement = 0;
constexpr uint8_t kInElement = 1;
constexpr uint8_t kAfterElement = 2;  // whitespace seen after the element's first run

}  // namespace

// Forgets what one response head said; called at start() and after each 1xx response.
void ResponseParser::reset_head() {
  state_ = State::version;
  info_.status = 0;
  info_.http_minor = 1;
  info_.keep_alive = true;
  remaining_ = 0;
  content_length_ = -1;
  number_ = 0;
  digits_ = 0;
  match_ = 0;
  match_pos_ = 0;
  field_ = Field::other;
  token_state_ = kBeforeElement;
  transfer_encoding_ = false;
  chunked_last_ = false;
  connection_close_ = false;
  connection_keep_alive_ = false;
  value_pending_ = false;
}

// Status line and header fields, up to `end`; returns at the end of the head (state_ then
// says how the body is framed) or at the first bad byte (*pos is its offset).
ParseError ResponseParser::parse_head(const unsigned char* p, size_t* pos, size_t end) {
  static constexpr std::string_view kVersionPrefix = "HTTP/1.";
  ParseError err = ParseError::none;
  size_t i = *pos;
  while (i < end && state_ <= State::head_end_lf) {
    const unsigned char c = p[i];
    switch (state_) {
      case State::version:
        if (digits_ < kVersionPrefix.size()) {
          if (c != static_cast<unsigned char>(kVersionPrefix[digits_])) {
            err = digits_ < 5 ? ParseError::bad_status_line : ParseError::bad_version;
          }
        } else if (digits_ == kVersionPrefix.size()) {
          if (c < '0' || c > '9') err = ParseError::bad_version;
          info_.http_minor = c - '0';
        } else if (c == ' ') {
          state_ = State::status_code;
          info_.status = 0;
          digits_ = 0;
          break;
        } else {
          err = (c >= '0' && c <= '9') ? ParseError::bad_version : ParseError::bad_status_line;
        }
        ++digits_;
        break;
      case State::status_code:
        if (c < '0' || c > '9') {
          err = ParseError::bad_status_code;
          break;
        }
        info_.status = info_.status * 10 + (c - '0');
        if (++digits_ == 3) {
          if (info_.status < 100 || info_.status > 599) err = ParseError::bad_status_code;
          state_ = State::after_status_code;
        }
        break;
      case State::after_status_code:
        if (c == ' ') {
          state_ = State::reason;
        } else if (c >= '0' && c <= '9') {
          err = ParseError::bad_status_code;
        } else {
          err = line_end(c, State::status_line_lf, State::field_start, ParseError::bad_status_line);
        }
        break;
      case State::reason:
        while (i < end && kValueChar[p[i]]) ++i;
        if (i == end) continue;
        err = line_end(p[i], State::status_line_lf, State::field_start,
                       ParseError::bad_status_line);
        break;
      case State::status_line_lf:
        err = expect_lf(c, State::field_start, ParseError::bad_status_line);
        break;
      case State::field_start:
        if (value_pending_ && is_space(c)) {
          // obs-fold: the previous field's value goes on, the fold counting as one space.
          value_pending_ = false;
          state_ = State::field_value;
          if (field_ != Field::other) value_byte(' ', &err);
          break;
        }
        if (value_pending_) {
          value_pending_ = false;
          if (!end_of_field_value(&err)) break;
        }
        if (c == '\r') {
          state_ = State::head_end_lf;
        } else if (c == '\n') {
          err = end_of_head();
        } else if (kTokenChar[c]) {
          state_ = State::field_name;
          match_ = match_step(kFieldNames, all_of(kFieldNames.size()), 0, c);
          match_pos_ = 1;
        } else {
          err = ParseError::bad_header;  // obs-fold, whitespace or junk before a name
        }
        break;
      case State::field_name:
        if (match_ == 0) {
          while (i < end && kTokenChar[p[i]]) ++i;
          if (i == end) continue;
        } else if (kTokenChar[c]) {
          match_ = match_step(kFieldNames, match_, match_pos_, c);
          if (match_pos_ < 255) ++match_pos_;
          break;
        }
        if (p[i] != ':') {
          err = ParseError::bad_header;  // includes whitespace before the colon
          break;
        }
        switch (matched_word(kFieldNames, match_, match_pos_)) {
          case 0: field_ = Field::content_length; break;
          case 1: field_ = Field::transfer_encoding; transfer_encoding_ = true; break;
          case 2: field_ = Field::connection; break;
          default: field_ = Field::other; break;
        }
        token_state_ = kBeforeElement;
        state_ = State::field_value;
        break;
      case State::field_value:
        if (field_ == Field::other) {
          while (i < end && kValueChar[p[i]]) ++i;
          if (i == end) continue;
        } else if (c != '\r' && c != '\n') {
          value_byte(c, &err);
          break;
        }
        if (p[i] == '\r' || p[i] == '\n') {
          value_pending_ = true;  // final at the next line's first byte, unless folded
          state_ = p[i] == '\r' ? State::field_lf : State::field_start;
        } else {
          err = ParseError::bad_header;
        }
        break;
      case State::field_lf:
        err = expect_lf(c, State::field_start, ParseError::bad_header);
        break;
      case State::head_end_lf:
        err = c == '\n' ? end_of_head() : ParseError::bad_header;
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

// One byte of a Content-Length, Transfer-Encoding or Connection value (not CR or LF).
bool ResponseParser::value_byte(unsigned char c, ParseError* error) {
  if (field_ == Field::content_length) {
    if (c >= '0' && c <= '9') {
      if (token_state_ == kAfterElement) {
        *error = ParseError::bad_content_length;  // "5 5"
        return false;
      }
      if (token_state_ == kBeforeElement) number_ = 0;
      token_state_ = kInElement;
      if (number_ > (kMaxContentLength - (c - '0')) / 10) {
        *error = ParseError::bad_content_length;
        return false;
      }
      number_ = number_ * 10 + (c - '0');
      return true;
    }
    if (is_space(c)) {
      if (token_state_ == kInElement) token_state_ = kAfterElement;
      return true;
    }
    if (c == ',') return end_of_field_value(error);
    *error = ParseError::bad_content_length;
    return false;
  }

  if (!kValueChar[c]) {
    *error = ParseError::bad_header;
    return false;
  }
  if (c == ',') return end_of_field_value(error);
  if (is_space(c)) {
    if (token_state_ == kInElement) token_state_ = kAfterElement;
    return true;
  }
  if (token_state_ == kBeforeElement) {
    token_state_ = kInElement;
    match_ = field_ == Field::transfer_encoding ? all_of(kCodings.size())
                                                : all_of(kConnectionTokens.size());
    match_pos_ = 0;
  } else if (token_state_ == kAfterElement) {
    match_ = 0;  // "chunked foo": more after whitespace, so not the bare token
    token_state_ = kInElement;
  }
  if (match_ != 0) {
    match_ = field_ == Field::transfer_encoding
                 ? match_step(kCodings, match_, match_pos_, c)
                 : match_step(kConnectionTokens, match_, match_pos_, c);
    if (match_pos_ < 255) ++match_pos_;
  }
  return true;
}

// The end of one comma-list element (at ',' or at the end of the field line).
bool ResponseParser::end_of_field_value(ParseError* error) {
  switch (field_) {
    case Field::other: break;
    case Field::content_length:
      if (token_state_ == kBeforeElement) {
        *error = ParseError::bad_content_length;  // empty value or empty list element
        return false;
      }
      if (content_length_ >= 0 && content_length_ != number_) {
        *error = ParseError::conflicting_content_length;
        return false;
      }
      content_length_ = number_;
      break;
    case Field::transfer_encoding:
      if (token_state_ != kBeforeElement) {
        chunked_last_ = matched_word(kCodings, match_, match_pos_) == 0;
      }
      break;
    case Field::connection:
      if (token_state_ != kBeforeElement) {
        const int word = matched_word(kConnectionTokens, match_, match_pos_);
        if (word == 0) connection_close_ = true;
        if (word == 1) connection_keep_alive_ = true;
      }
      break;
  }
  token_state_ = kBeforeElement;
  return true;
}

// The blank line after the header fields: decides how the body is framed.
ParseError ResponseParser::end_of_head() {
  if (info_.status == 101) return ParseError::unrequested_upgrade;
  if (info_.status < 200) {
    reset_head();  // interim response: the real one follows
    return ParseError::none;
  }
  if (transfer_encoding_ && content_length_ >= 0) return ParseError::content_length_with_chunked;
  info_.keep_alive = info_.http_minor == 0 ? (connection_keep_alive_ && !connection_close_)
                                           : !connection_close_;
  if (transfer_encoding_ && info_.http_minor == 0) info_.keep_alive = false;

  if (head_request_ || info_.status == 204 || info_.status == 304) {
    state_ = State::done;
  } else if (transfer_encoding_ && chunked_last_) {
    start_chunk_size();
  } else if (!transfer_encoding_ && content_length_ >= 0) {
    remaining_ = content_length_;
    state_ = remaining_ == 0 ? State::done : State::body_length;
  } else {
    state_ = State::body_until_close;
    info_.keep_alive = false;
  }
  return ParseError::none;
}

}  // namespace hammer
