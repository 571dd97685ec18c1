// SPDX-License-Identifier: MIT
// ResponseParser at its limits and API edges: heads and trailers past kMaxHeaderBytes (one huge
// line, ten thousand fields, endless 1xx), exact boundaries, bodies far larger than anything
// fed at once, sticky errors, and what feed()/finish_on_eof() say outside the happy path.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "http/response_parser.h"
#include "http/response_parser_testing.h"

namespace hammer {
namespace {

using parser_testing::GuardedBuffer;
using parser_testing::Outcome;
using parser_testing::run;

constexpr int64_t kLimit = ResponseParser::kMaxHeaderBytes;
const std::string kOk = "HTTP/1.1 200 OK\r\n";

/// Runs `bytes` whole, one byte per feed and split at every `stride`-th offset; all must
/// agree. Returns the whole-input outcome.
Outcome run_all_ways(const std::string& bytes, size_t stride) {
  GuardedBuffer buffer(bytes.size());
  const std::string_view view = bytes;
  const Outcome whole = run({view}, false, false, buffer);
  std::vector<std::string_view> single_bytes;
  for (size_t k = 0; k < view.size(); ++k) single_bytes.push_back(view.substr(k, 1));
  EXPECT_EQ(run(single_bytes, false, false, buffer), whole) << "one byte per feed";
  for (size_t split = 1; split < view.size(); split += stride) {
    EXPECT_EQ(run({view.substr(0, split), view.substr(split)}, false, false, buffer), whole)
        << "split at " << split;
  }
  return whole;
}

TEST(ResponseParserLimitsTest, ParserHoldsNoBuffersAndOwnsNothing) {
  static_assert(std::is_trivially_copyable_v<ResponseParser>);
  static_assert(sizeof(ResponseParser) <= 128);
}

TEST(ResponseParserLimitsTest, SeventyKibibyteHeaderLineIsRejectedAtTheLimit) {
  const std::string bytes = kOk + "X-Big: " + std::string(70 * 1024, 'a') + "\r\n\r\n";
  const Outcome outcome = run_all_ways(bytes, 997);
  EXPECT_EQ(outcome.error, ParseError::header_too_large);
  EXPECT_EQ(outcome.error_offset, kLimit);
  EXPECT_TRUE(outcome.responses.empty());
}

TEST(ResponseParserLimitsTest, TenThousandHeaderFieldsAreRejected) {
  std::string bytes = kOk;
  for (int k = 0; k < 10'000; ++k) bytes += "X-Field-" + std::to_string(k) + ": value\r\n";
  bytes += "Content-Length: 0\r\n\r\n";
  const Outcome outcome = run_all_ways(bytes, 4999);
  EXPECT_EQ(outcome.error, ParseError::header_too_large);
  EXPECT_EQ(outcome.error_offset, kLimit);
}

TEST(ResponseParserLimitsTest, HeadOfExactlyTheLimitIsAcceptedAndOneMoreByteIsNot) {
  const std::string start = kOk + "Content-Length: 0\r\nX-Pad: ";
  const std::string end = "\r\n\r\n";
  const std::string exact = start + std::string(kLimit - start.size() - end.size(), 'p') + end;
  ASSERT_EQ(static_cast<int64_t>(exact.size()), kLimit);
  const Outcome fits = run_all_ways(exact, 1021);
  ASSERT_EQ(fits.responses.size(), 1u);
  EXPECT_EQ(fits.responses[0].header_bytes, kLimit);
  EXPECT_EQ(fits.error, ParseError::none);

  const std::string over = start + std::string(kLimit - start.size() - end.size() + 1, 'p') + end;
  const Outcome too_big = run_all_ways(over, 1021);
  EXPECT_EQ(too_big.error, ParseError::header_too_large);
  EXPECT_EQ(too_big.error_offset, kLimit);
}

TEST(ResponseParserLimitsTest, EndlessInterimResponsesEndInHeaderTooLarge) {
  std::string bytes;
  while (static_cast<int64_t>(bytes.size()) <= kLimit) bytes += "HTTP/1.1 100 Continue\r\n\r\n";
  const Outcome outcome = run_all_ways(bytes, 1999);
  EXPECT_EQ(outcome.error, ParseError::header_too_large);
}

TEST(ResponseParserLimitsTest, TrailersHaveALimitOfTheirOwn) {
  const std::string head = kOk + "Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n";
  const std::string bytes = head + "X-Trailer: " + std::string(70 * 1024, 't') + "\r\n\r\n";
  const Outcome outcome = run_all_ways(bytes, 997);
  EXPECT_EQ(outcome.error, ParseError::header_too_large);
  EXPECT_EQ(outcome.error_offset, static_cast<int64_t>(head.size()) + kLimit);
}

TEST(ResponseParserLimitsTest, GibibyteBodyIsCountedWithoutBeingStored) {
  ResponseParser parser;
  const std::string head = kOk + "Content-Length: 1073741824\r\n\r\n";
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(head, &consumed), ParseStatus::need_more);
  const std::string block(64 * 1024, 'b');
  for (int k = 0; k < 16 * 1024 - 1; ++k) {
    ASSERT_EQ(parser.feed(block, &consumed), ParseStatus::need_more);
  }
  ASSERT_EQ(parser.feed(block + "HTTP/1.1", &consumed), ParseStatus::complete);
  EXPECT_EQ(consumed, block.size());
  EXPECT_EQ(parser.info().body_bytes, int64_t{1} << 30);
  EXPECT_TRUE(parser.info().keep_alive);
}

TEST(ResponseParserLimitsTest, LargestChunkSizeIsAccepted) {
  ResponseParser parser;
  size_t consumed = 0;
  const std::string bytes = kOk + "Transfer-Encoding: chunked\r\n\r\n4000000000000000\r\nabc";
  EXPECT_EQ(parser.feed(bytes, &consumed), ParseStatus::need_more);
  EXPECT_EQ(parser.info().body_bytes, 3);
}

TEST(ResponseParserLimitsTest, ErrorOffsetPointsAtTheOffendingByte) {
  ResponseParser parser;
  const std::string bytes = kOk + "X(A): b\r\n\r\n";
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(bytes, &consumed), ParseStatus::error);
  EXPECT_EQ(consumed, bytes.find('('));
  EXPECT_EQ(parser.error(), ParseError::bad_header);
}

TEST(ResponseParserLimitsTest, ErrorIsStickyUntilStart) {
  ResponseParser parser;
  size_t consumed = 99;
  ASSERT_EQ(parser.feed("HTTP/9", &consumed), ParseStatus::error);
  EXPECT_EQ(parser.error(), ParseError::bad_version);
  EXPECT_EQ(parser.feed(kOk + "Content-Length: 0\r\n\r\n", &consumed), ParseStatus::error);
  EXPECT_EQ(consumed, 0u);
  EXPECT_EQ(parser.finish_on_eof(), ParseStatus::error);
  EXPECT_EQ(parser.error(), ParseError::bad_version);

  parser.start();
  EXPECT_EQ(parser.error(), ParseError::none);
  EXPECT_EQ(parser.feed(kOk + "Content-Length: 0\r\n\r\n", &consumed), ParseStatus::complete);
  EXPECT_EQ(parser.info().status, 200);
}

TEST(ResponseParserLimitsTest, FeedAfterCompleteConsumesNothingUntilStart) {
  ResponseParser parser;
  const std::string one = kOk + "Content-Length: 1\r\n\r\nx";
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(one + one, &consumed), ParseStatus::complete);
  EXPECT_EQ(consumed, one.size());
  EXPECT_EQ(parser.feed(one, &consumed), ParseStatus::complete);
  EXPECT_EQ(consumed, 0u);
  EXPECT_EQ(parser.finish_on_eof(), ParseStatus::complete);
}

TEST(ResponseParserLimitsTest, EmptyFeedNeedsMoreAndStartsNothing) {
  ResponseParser parser;
  size_t consumed = 7;
  EXPECT_EQ(parser.feed({}, &consumed), ParseStatus::need_more);
  EXPECT_EQ(consumed, 0u);
  EXPECT_FALSE(parser.in_progress());
}

TEST(ResponseParserLimitsTest, CloseBeforeAnyByteIsTruncatedButNotInProgress) {
  ResponseParser parser;
  EXPECT_FALSE(parser.in_progress());
  EXPECT_EQ(parser.finish_on_eof(), ParseStatus::error);
  EXPECT_EQ(parser.error(), ParseError::truncated_body);
  EXPECT_FALSE(parser.in_progress());
}

TEST(ResponseParserLimitsTest, HeaderBytesCoverInterimAndFinalHeads) {
  const std::string interim = "HTTP/1.1 100 Continue\r\n\r\n";
  const std::string head = kOk + "Content-Length: 2\r\n\r\n";
  ResponseParser parser;
  size_t consumed = 0;
  ASSERT_EQ(parser.feed(interim + head + "ok", &consumed), ParseStatus::complete);
  EXPECT_EQ(parser.info().header_bytes, static_cast<int64_t>(interim.size() + head.size()));
  EXPECT_EQ(parser.info().body_bytes, 2);
  EXPECT_EQ(parser.info().http_minor, 1);
}

TEST(ResponseParserLimitsTest, StartForgetsThePreviousResponse) {
  ResponseParser parser;
  size_t consumed = 0;
  ASSERT_EQ(parser.feed("HTTP/1.0 404 No\r\nContent-Length: 1\r\n\r\nx", &consumed),
            ParseStatus::complete);
  EXPECT_FALSE(parser.info().keep_alive);
  parser.start(true);
  EXPECT_EQ(parser.info().status, 0);
  EXPECT_EQ(parser.info().body_bytes, 0);
  EXPECT_FALSE(parser.in_progress());
  ASSERT_EQ(parser.feed(kOk + "Content-Length: 5\r\n\r\n", &consumed), ParseStatus::complete);
  EXPECT_TRUE(parser.info().keep_alive);
  EXPECT_EQ(parser.info().body_bytes, 0);
}

TEST(ResponseParserLimitsTest, DescribeGivesEveryErrorItsOwnPhrase) {
  std::vector<std::string_view> seen;
  for (int k = 0; k <= static_cast<int>(ParseError::unrequested_upgrade); ++k) {
    const std::string_view phrase = describe(static_cast<ParseError>(k));
    EXPECT_FALSE(phrase.empty());
    for (std::string_view other : seen) EXPECT_NE(phrase, other);
    seen.push_back(phrase);
  }
  EXPECT_EQ(describe(ParseError::bad_chunk_size), "bad chunk size");
}

}  // namespace
}  // namespace hammer
