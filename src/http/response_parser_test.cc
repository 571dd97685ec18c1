// SPDX-License-Identifier: MIT
// ResponseParser against a table of responses, one row per behaviour. Every row runs three
// ways — whole, split into two feeds at every offset, and one byte per feed — and all three
// must agree with the row and with each other, down to the byte where an error was found:
// the parser's promise is that slicing never matters. Each piece is copied to the very end of a
// mapping followed by a PROT_NONE page, so reading one byte past what was fed crashes even
// without ASan. Limits and API edges are in response_parser_limits_test.cc.
#include "http/response_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http/response_parser_testing.h"

namespace hammer {
namespace {

using namespace std::string_literals;
using parser_testing::GuardedBuffer;
using parser_testing::Outcome;
using parser_testing::Response;
using parser_testing::run;

struct Want {
  int status = 0;
  int64_t body_bytes = 0;
  bool keep_alive = true;
};

struct Row {
  std::string name;
  std::string bytes;
  std::vector<Want> responses = {};  // completed responses, in order
  ParseError error = ParseError::none;  // what stops the stream after them, if anything
  bool head = false;     // every request was HEAD
  bool eof = false;      // the peer closes after the bytes
  bool pending = false;  // input ends inside a response (no eof)
};

void PrintTo(const Row& row, std::ostream* out) { *out << row.name; }

const std::string kOk = "HTTP/1.1 200 OK\r\n";
const std::string kChunkedHead = kOk + "Transfer-Encoding: chunked\r\n\r\n";

std::string with_length(const std::string& status_line, const std::string& body) {
  return status_line + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::vector<Row> rows() {
  const std::string nginx =
      "HTTP/1.1 200 OK\r\n"
      "Server: nginx/1.24.0\r\n"
      "Date: Tue, 04 Jun 2024 10:00:00 GMT\r\n"
      "Content-Type: text/html\r\n"
      "Content-Length: 13\r\n"
      "Last-Modified: Mon, 03 Jun 2024 09:00:00 GMT\r\n"
      "Connection: keep-alive\r\n"
      "ETag: \"665d8d00-d\"\r\n"
      "Accept-Ranges: bytes\r\n"
      "\r\n"
      "Hello, world!";
  return {
      // Content-Length framing.
      {.name = "content_length", .bytes = with_length(kOk, "hello"), .responses = {{200, 5}}},
      {.name = "content_length_zero", .bytes = with_length(kOk, ""), .responses = {{200, 0}}},
      {.name = "nginx_response", .bytes = nginx, .responses = {{200, 13}}},
      {.name = "header_names_and_tokens_are_case_insensitive",
       .bytes = kOk + "content-LENGTH: 3\r\nCONNECTION: Close\r\n\r\nabc",
       .responses = {{200, 3, false}}},
      {.name = "value_whitespace_is_trimmed",
       .bytes = kOk + "Content-Length: \t 7 \t\r\n\r\n1234567", .responses = {{200, 7}}},
      {.name = "repeated_equal_content_length_counts_once",
       .bytes = kOk + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
       .responses = {{200, 3}}},
      {.name = "content_length_list_of_equal_values",
       .bytes = kOk + "Content-Length: 3, 3,3\r\n\r\nabc", .responses = {{200, 3}}},
      {.name = "large_content_length_waits_for_body",
       .bytes = kOk + "Content-Length: 4611686018427387904\r\n\r\nabc", .pending = true},
      {.name = "similar_header_names_are_not_content_length",
       .bytes = kOk + "Content-Lengthy: 9\r\nContent-Lengt: 9\r\nContent-Length: 1\r\n\r\nx",
       .responses = {{200, 1}}},
      {.name = "obs_text_and_tabs_are_allowed_in_values_and_reason",
       .bytes = "HTTP/1.1 200 \xC3\x89tat\tok\r\nX-Name: caf\xC3\xA9\t!\r\nContent-Length: 0\r\n\r\n",
       .responses = {{200, 0}}},

      // Status line shapes.
      {.name = "empty_reason_after_space",
       .bytes = with_length("HTTP/1.1 404 \r\n", "no"), .responses = {{404, 2}}},
      {.name = "no_reason_and_no_space", .bytes = with_length("HTTP/1.1 200\r\n", "ok"),
       .responses = {{200, 2}}},
      {.name = "bare_lf_line_endings", .bytes = "HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
       .responses = {{200, 2}}},
      {.name = "status_599_is_accepted", .bytes = with_length("HTTP/1.1 599 Odd\r\n", ""),
       .responses = {{599, 0}}},
      {.name = "higher_minor_version_is_treated_as_http11",
       .bytes = with_length("HTTP/1.2 200 OK\r\n", "x"), .responses = {{200, 1, true}}},

      // Chunked framing.
      {.name = "chunked", .bytes = kChunkedHead + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
       .responses = {{200, 11}}},
      {.name = "chunked_with_extensions_and_trailers",
       .bytes = kChunkedHead +
                "4;name=value;flag\r\nWiki\r\nA ; ext=\"quo ted\"\r\n0123456789\r\n"
                "0;last\r\nExpires: never\r\nX-Checksum: abc\r\n\r\n",
       .responses = {{200, 14}}},
      {.name = "chunked_uppercase_hex_and_coding_name",
       .bytes = kOk + "Transfer-Encoding: CHUNKED\r\n\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n",
       .responses = {{200, 26}}},
      {.name = "chunked_lowercase_hex_with_leading_zeros",
       .bytes = kChunkedHead + "000a\r\n0123456789\r\n00\r\n\r\n", .responses = {{200, 10}}},
      {.name = "chunked_with_bare_lf", .bytes = kChunkedHead + "3\nabc\n0\nTrailer: x\n\n",
       .responses = {{200, 3}}},
      {.name = "chunked_after_other_codings",
       .bytes = kOk + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n",
       .responses = {{200, 2}}},
      {.name = "transfer_encoding_list_over_two_fields",
       .bytes = kOk + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                      "2\r\nzz\r\n0\r\n\r\n",
       .responses = {{200, 2}}},
      {.name = "chunked_not_final_means_body_until_close",
       .bytes = kOk + "Transfer-Encoding: chunked, gzip\r\n\r\n2\r\nzz\r\n0\r\n\r\n",
       .responses = {{200, 12, false}}, .eof = true},
      {.name = "other_coding_means_body_until_close",
       .bytes = kOk + "Transfer-Encoding: gzip\r\n\r\nabcdef", .responses = {{200, 6, false}},
       .eof = true},
      {.name = "chunked_prefix_is_not_chunked",
       .bytes = kOk + "Transfer-Encoding: chunkedx\r\n\r\nabc", .responses = {{200, 3, false}},
       .eof = true},

      // RFC 9112 client rules (issue 10 item 7).
      // §5.2: obs-fold is replaced by a space before the value is read.
      {.name = "obs_fold_is_read_as_a_space",
       .bytes = kOk + "X-Long: part one\r\n part two\r\n\tpart three\r\nContent-Length: 2\r\n\r\nok",
       .responses = {{200, 2}}},
      {.name = "obs_fold_inside_content_length",
       .bytes = kOk + "Content-Length:\r\n 5\r\n\r\nhello", .responses = {{200, 5}}},
      {.name = "obs_fold_separates_content_length_digits",
       .bytes = kOk + "Content-Length: 1\r\n 2\r\n\r\n", .error = ParseError::bad_content_length},
      {.name = "obs_fold_continues_a_connection_list",
       .bytes = kOk + "Connection: keep-alive,\r\n close\r\nContent-Length: 0\r\n\r\n",
       .responses = {{200, 0, false}}},
      {.name = "obs_fold_continues_transfer_encoding",
       .bytes = kOk + "Transfer-Encoding: gzip,\r\n\tchunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n",
       .responses = {{200, 2}}},
      {.name = "obs_fold_with_bare_lf", .bytes = "HTTP/1.1 200 OK\nX-A: a\n b\nContent-Length: 1\n\nx",
       .responses = {{200, 1}}},
      {.name = "obs_fold_in_a_trailer",
       .bytes = kChunkedHead + "1\r\nx\r\n0\r\nX: a\r\n b\r\n\r\n", .responses = {{200, 1}}},
      // §7.1: a chunk size may carry any number of leading zeros.
      {.name = "chunk_size_with_many_leading_zeros",
       .bytes = kChunkedHead + std::string(40, '0') + "5\r\nhello\r\n" + std::string(30, '0') +
                "\r\n\r\n",
       .responses = {{200, 5}}},
      {.name = "sixteen_significant_digits_after_leading_zeros",
       .bytes = kChunkedHead + "0000" + "4000000000000000\r\n",
       .pending = true},
      // A 101 switches the connection to another protocol; hammer asks for none, so no HTTP/1.1
      // response will follow: the request fails at once, not at its timeout.
      {.name = "unrequested_101_fails_at_once",
       .bytes = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
       .error = ParseError::unrequested_upgrade},
      {.name = "unrequested_101_after_100_continue",
       .bytes = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 Switching Protocols\r\n\r\n",
       .error = ParseError::unrequested_upgrade},

      // Interim responses and responses without a body.
      {.name = "continue_then_final",
       .bytes = "HTTP/1.1 100 Continue\r\n\r\n" + with_length(kOk, "ok"),
       .responses = {{200, 2}}},
      {.name = "early_hints_then_final",
       .bytes = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" +
                with_length(kOk, "ok"),
       .responses = {{200, 2}}},
      {.name = "several_interim_then_final",
       .bytes = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
                "HTTP/1.1 103 Early Hints\r\nConnection: close\r\n\r\n" +
                with_length("HTTP/1.1 201 Created\r\n", "x"),
       .responses = {{201, 1, true}}},
      {.name = "no_content_ignores_content_length",
       .bytes = "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n" + with_length(kOk, "a"),
       .responses = {{204, 0}, {200, 1}}},
      {.name = "not_modified_ignores_content_length",
       .bytes = "HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\nETag: \"x\"\r\n\r\n",
       .responses = {{304, 0}}},
      {.name = "head_response_has_no_body",
       .bytes = kOk + "Content-Length: 1234\r\n\r\n" + kOk + "Content-Length: 99\r\n\r\n",
       .responses = {{200, 0}, {200, 0}}, .head = true},
      {.name = "head_response_to_chunked_has_no_body", .bytes = kChunkedHead,
       .responses = {{200, 0}}, .head = true},

      // Connection management.
      {.name = "http10_defaults_to_close", .bytes = with_length("HTTP/1.0 200 OK\r\n", "ok"),
       .responses = {{200, 2, false}}},
      {.name = "http10_keep_alive",
       .bytes = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok",
       .responses = {{200, 2, true}}},
      {.name = "http11_connection_close",
       .bytes = kOk + "Connection: close\r\nContent-Length: 2\r\n\r\nok",
       .responses = {{200, 2, false}}},
      {.name = "connection_close_in_a_list",
       .bytes = kOk + "Connection: Upgrade,  close ,TE\r\nContent-Length: 0\r\n\r\n",
       .responses = {{200, 0, false}}},
      {.name = "connection_close_wins_over_keep_alive",
       .bytes = "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nConnection: close\r\n"
                "Content-Length: 0\r\n\r\n",
       .responses = {{200, 0, false}}},
      {.name = "connection_tokens_must_match_whole",
       .bytes = kOk + "Connection: closed, close-ish, x close\r\nContent-Length: 0\r\n\r\n",
       .responses = {{200, 0, true}}},
      {.name = "http10_chunked_closes",
       .bytes = "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n"
                "1\r\na\r\n0\r\n\r\n",
       .responses = {{200, 1, false}}},
      {.name = "http10_body_until_close", .bytes = "HTTP/1.0 200 OK\r\n\r\nabc",
       .responses = {{200, 3, false}}, .eof = true},
      {.name = "http11_body_until_close", .bytes = kOk + "Content-Type: text/plain\r\n\r\nabc",
       .responses = {{200, 3, false}}, .eof = true},
      {.name = "empty_body_until_close", .bytes = kOk + "\r\n", .responses = {{200, 0, false}},
       .eof = true},

      // Pipelining and partial input.
      {.name = "three_pipelined_responses",
       .bytes = with_length(kOk, "first") + kChunkedHead + "3;x\r\nabc\r\n0\r\n\r\n" +
                "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
       .responses = {{200, 5}, {200, 3}, {204, 0, false}}},
      {.name = "pipelined_then_body_until_close",
       .bytes = with_length(kOk, "a") + "HTTP/1.1 500 Oops\r\n\r\nzzz",
       .responses = {{200, 1}, {500, 3, false}}, .eof = true},
      {.name = "incomplete_body_is_pending", .bytes = kOk + "Content-Length: 10\r\n\r\nhello",
       .pending = true},
      {.name = "incomplete_head_is_pending", .bytes = kOk + "Content-Le", .pending = true},
      {.name = "incomplete_chunk_is_pending", .bytes = kChunkedHead + "a\r\nhel",
       .pending = true},
      {.name = "response_then_incomplete", .bytes = with_length(kOk, "a") + "HTTP/1.",
       .responses = {{200, 1}}, .pending = true},

      // Status line errors.
      {.name = "wrong_protocol_name", .bytes = "HTTX/1.1 200 OK\r\n\r\n",
       .error = ParseError::bad_status_line},
      {.name = "lowercase_protocol_name", .bytes = "http/1.1 200 OK\r\n\r\n",
       .error = ParseError::bad_status_line},
      // nginx's h2c-only port answers an HTTP/1.1 request with SETTINGS: a bad status line
      // to the parser, byte by byte; looks_like_http2_frames tells it apart for the report.
      {.name = "http2_settings_frame", .bytes = std::string("\x00\x00\x12\x04\x00\x00\x00\x00\x00"
                                                             "\x00\x03\x00\x00\x00\x80", 15),
       .error = ParseError::bad_status_line},
      {.name = "empty_line_before_status_line", .bytes = "\r\n" + with_length(kOk, ""),
       .error = ParseError::bad_status_line},
      {.name = "control_character_in_reason", .bytes = "HTTP/1.1 200 O\x01K\r\n\r\n",
       .error = ParseError::bad_status_line},
      {.name = "bare_cr_in_status_line", .bytes = "HTTP/1.1 200 OK\rX\n\r\n",
       .error = ParseError::bad_status_line},
      {.name = "reason_glued_to_code", .bytes = "HTTP/1.1 200OK\r\n\r\n",
       .error = ParseError::bad_status_line},
      {.name = "no_status_code", .bytes = "HTTP/1.1\r\n\r\n", .error = ParseError::bad_status_line},
      {.name = "http2_version", .bytes = "HTTP/2.0 200 OK\r\n\r\n", .error = ParseError::bad_version},
      {.name = "http09_version", .bytes = "HTTP/0.9 200 OK\r\n\r\n", .error = ParseError::bad_version},
      {.name = "non_digit_minor_version", .bytes = "HTTP/1.x 200 OK\r\n\r\n",
       .error = ParseError::bad_version},
      {.name = "two_digit_minor_version", .bytes = "HTTP/1.10 200 OK\r\n\r\n",
       .error = ParseError::bad_version},
      {.name = "two_digit_status", .bytes = "HTTP/1.1 20 OK\r\n\r\n",
       .error = ParseError::bad_status_code},
      {.name = "four_digit_status", .bytes = "HTTP/1.1 2000 OK\r\n\r\n",
       .error = ParseError::bad_status_code},
      {.name = "status_below_100", .bytes = "HTTP/1.1 099 Low\r\n\r\n",
       .error = ParseError::bad_status_code},
      {.name = "status_above_599", .bytes = "HTTP/1.1 600 High\r\n\r\n",
       .error = ParseError::bad_status_code},
      {.name = "letter_in_status", .bytes = "HTTP/1.1 2a0 OK\r\n\r\n",
       .error = ParseError::bad_status_code},

      // Header field errors.
      {.name = "space_before_colon", .bytes = kOk + "Content-Length : 5\r\n\r\nhello",
       .error = ParseError::bad_header},
      {.name = "whitespace_before_first_field", .bytes = kOk + " X-A: b\r\n\r\n",
       .error = ParseError::bad_header},
      {.name = "invalid_character_in_name", .bytes = kOk + "X(A): b\r\n\r\n",
       .error = ParseError::bad_header},
      {.name = "field_without_colon", .bytes = kOk + "NoColonHere\r\n\r\n",
       .error = ParseError::bad_header},
      {.name = "empty_field_name", .bytes = kOk + ": value\r\n\r\n", .error = ParseError::bad_header},
      {.name = "control_character_in_value", .bytes = kOk + "X-A: a\x01z\r\n\r\n",
       .error = ParseError::bad_header},
      {.name = "nul_in_value", .bytes = kOk + "X-A: a"s + '\0' + "z\r\n\r\n",
       .error = ParseError::bad_header},
      {.name = "bare_cr_in_field", .bytes = kOk + "X-A: a\rb\r\n\r\n", .error = ParseError::bad_header},
      {.name = "bare_cr_ending_head", .bytes = kOk + "X-A: a\r\n\rX", .error = ParseError::bad_header},
      {.name = "control_character_in_connection", .bytes = kOk + "Connection: cl\x7fose\r\n\r\n",
       .error = ParseError::bad_header},

      // Content-Length errors.
      {.name = "negative_content_length", .bytes = kOk + "Content-Length: -1\r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "signed_content_length", .bytes = kOk + "Content-Length: +5\r\n\r\nhello",
       .error = ParseError::bad_content_length},
      {.name = "content_length_with_letters", .bytes = kOk + "Content-Length: 5a\r\n\r\nhello",
       .error = ParseError::bad_content_length},
      {.name = "hex_content_length", .bytes = kOk + "Content-Length: 0x10\r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "empty_content_length", .bytes = kOk + "Content-Length: \r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "content_length_with_inner_space", .bytes = kOk + "Content-Length: 5 5\r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "content_length_trailing_comma", .bytes = kOk + "Content-Length: 5,\r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "content_length_over_2_to_62",
       .bytes = kOk + "Content-Length: 4611686018427387905\r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "content_length_overflowing_int64",
       .bytes = kOk + "Content-Length: 99999999999999999999999\r\n\r\n",
       .error = ParseError::bad_content_length},
      {.name = "two_different_content_lengths",
       .bytes = kOk + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
       .error = ParseError::conflicting_content_length},
      {.name = "content_length_list_of_different_values",
       .bytes = kOk + "Content-Length: 5, 6\r\n\r\nhello!",
       .error = ParseError::conflicting_content_length},
      {.name = "content_length_then_chunked",
       .bytes = kOk + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
       .error = ParseError::content_length_with_chunked},
      {.name = "chunked_then_content_length",
       .bytes = kOk + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
       .error = ParseError::content_length_with_chunked},
      {.name = "content_length_with_other_coding",
       .bytes = kOk + "Transfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\n",
       .error = ParseError::content_length_with_chunked},

      // Chunk framing errors.
      {.name = "non_hex_chunk_size", .bytes = kChunkedHead + "zz\r\n",
       .error = ParseError::bad_chunk_size},
      {.name = "empty_chunk_size", .bytes = kChunkedHead + "\r\nabc\r\n",
       .error = ParseError::bad_chunk_size},
      {.name = "negative_chunk_size", .bytes = kChunkedHead + "-1\r\n",
       .error = ParseError::bad_chunk_size},
      {.name = "junk_after_chunk_size", .bytes = kChunkedHead + "5 x\r\nhello\r\n0\r\n\r\n",
       .error = ParseError::bad_chunk_size},
      {.name = "control_character_in_chunk_extension",
       .bytes = kChunkedHead + "5;a=\x02\r\nhello\r\n0\r\n\r\n", .error = ParseError::bad_chunk_size},
      {.name = "bare_cr_after_chunk_size", .bytes = kChunkedHead + "5\rhello\r\n",
       .error = ParseError::bad_chunk_size},
      {.name = "seventeen_significant_hex_digits",
       .bytes = kChunkedHead + "10000000000000000\r\nx\r\n",
       .error = ParseError::chunk_size_too_large},
      {.name = "chunk_size_over_2_to_62", .bytes = kChunkedHead + "4000000000000001\r\n",
       .error = ParseError::chunk_size_too_large},
      {.name = "chunk_size_all_f", .bytes = kChunkedHead + "FFFFFFFFFFFFFFFF\r\n",
       .error = ParseError::chunk_size_too_large},
      {.name = "chunk_longer_than_its_size", .bytes = kChunkedHead + "5\r\nhelloX\r\n0\r\n\r\n",
       .error = ParseError::bad_chunk_terminator},
      {.name = "chunk_followed_by_bare_cr", .bytes = kChunkedHead + "5\r\nhello\rX",
       .error = ParseError::bad_chunk_terminator},
      {.name = "trailer_without_colon", .bytes = kChunkedHead + "0\r\nBad Trailer\r\n\r\n",
       .error = ParseError::bad_trailer},
      {.name = "control_character_in_trailer", .bytes = kChunkedHead + "0\r\nX: a\x01\r\n\r\n",
       .error = ParseError::bad_trailer},
      {.name = "bare_cr_ending_trailers", .bytes = kChunkedHead + "0\r\n\rX",
       .error = ParseError::bad_trailer},

      // The peer closes mid-response.
      {.name = "eof_inside_content_length_body", .bytes = kOk + "Content-Length: 10\r\n\r\nhello",
       .error = ParseError::truncated_body, .eof = true},
      {.name = "eof_inside_head", .bytes = kOk + "Content-Type: te",
       .error = ParseError::truncated_body, .eof = true},
      {.name = "eof_inside_chunk", .bytes = kChunkedHead + "a\r\nhello",
       .error = ParseError::truncated_body, .eof = true},
      {.name = "eof_before_last_chunk", .bytes = kChunkedHead + "5\r\nhello\r\n",
       .error = ParseError::truncated_body, .eof = true},
      {.name = "eof_inside_trailers", .bytes = kChunkedHead + "0\r\nX: y\r\n",
       .error = ParseError::truncated_body, .eof = true},
      {.name = "eof_after_interim_response", .bytes = "HTTP/1.1 100 Continue\r\n\r\n",
       .error = ParseError::truncated_body, .eof = true},
      {.name = "complete_response_then_error",
       .bytes = with_length(kOk, "ok") + "HTTP/1.1 200 OK\r\nBad Header\r\n\r\n",
       .responses = {{200, 2}}, .error = ParseError::bad_header},
      {.name = "complete_response_then_eof", .bytes = with_length(kOk, "ok"),
       .responses = {{200, 2}}, .eof = true},
  };
}

void expect_matches_row(const Outcome& outcome, const Row& row) {
  ASSERT_EQ(outcome.responses.size(), row.responses.size()) << outcome;
  for (size_t k = 0; k < row.responses.size(); ++k) {
    SCOPED_TRACE("response " + std::to_string(k));
    EXPECT_EQ(outcome.responses[k].status, row.responses[k].status);
    EXPECT_EQ(outcome.responses[k].body_bytes, row.responses[k].body_bytes);
    EXPECT_EQ(outcome.responses[k].keep_alive, row.responses[k].keep_alive);
  }
  EXPECT_EQ(outcome.error, row.error) << describe(outcome.error) << " vs " << describe(row.error);
  EXPECT_EQ(outcome.pending, row.pending);
  if (row.error == ParseError::none && !row.pending) {
    int64_t total = 0;
    for (const Response& response : outcome.responses) total += response.wire_bytes;
    EXPECT_EQ(total, static_cast<int64_t>(row.bytes.size())) << "every byte belongs to a response";
  }
}

class ResponseParserTable : public testing::TestWithParam<Row> {};

TEST_P(ResponseParserTable, GivesTheSameResultWholeSplitAtEveryOffsetAndByteByByte) {
  const Row& row = GetParam();
  const std::string_view bytes = row.bytes;
  GuardedBuffer buffer(bytes.size());

  const Outcome whole = run({bytes}, row.head, row.eof, buffer);
  {
    SCOPED_TRACE("whole");
    expect_matches_row(whole, row);
  }
  for (size_t split = 1; split < bytes.size(); ++split) {
    const Outcome two = run({bytes.substr(0, split), bytes.substr(split)}, row.head, row.eof, buffer);
    ASSERT_EQ(two, whole) << "split at " << split;
  }
  std::vector<std::string_view> single_bytes;
  for (size_t k = 0; k < bytes.size(); ++k) single_bytes.push_back(bytes.substr(k, 1));
  EXPECT_EQ(run(single_bytes, row.head, row.eof, buffer), whole) << "one byte per feed";
}

INSTANTIATE_TEST_SUITE_P(Rows, ResponseParserTable, testing::ValuesIn(rows()),
                         [](const testing::TestParamInfo<Row>& row) { return row.param.name; });

}  // namespace
}  // namespace hammer

namespace hammer {
namespace {

TEST(LooksLikeHttp2FramesTest, SettingsOrGoawayOnStreamZeroAndNothingElse) {
  EXPECT_TRUE(looks_like_http2_frames(std::string("\x00\x00\x12\x04\x00\x00\x00\x00\x00", 9)));
  EXPECT_TRUE(looks_like_http2_frames(std::string("\x00\x00\x08\x07\x00\x00\x00\x00\x00xx", 11)));
  EXPECT_FALSE(looks_like_http2_frames(std::string("\x00\x00\x12\x04\x00\x00\x00", 7)));  // short
  // A DATA frame; a SETTINGS frame on stream 3.
  EXPECT_FALSE(looks_like_http2_frames(std::string("\x00\x00\x02\x00\x01\x00\x00\x00\x01", 9)));
  EXPECT_FALSE(looks_like_http2_frames(std::string("\x00\x00\x04\x04\x00\x00\x00\x00\x03", 9)));
  EXPECT_FALSE(looks_like_http2_frames("HTTP/1.1 200 OK\r\n"));
}

}  // namespace
}  // namespace hammer
