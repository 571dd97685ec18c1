// SPDX-License-Identifier: MIT
// serialize_request byte for byte, and validate_header's acceptances and rejections with the
// words the CLI will print.
#include "http/request.h"

#include <gtest/gtest.h>

#include "http/response_parser.h"

namespace hammer {
namespace {

TEST(MethodTest, StandardMethodsAreNamedExactlyAndTheRestAreOther) {
  EXPECT_EQ(method_of("GET"), Method::get);
  EXPECT_EQ(method_of("HEAD"), Method::head);
  EXPECT_EQ(method_of("DELETE"), Method::delete_);
  EXPECT_EQ(method_of("PATCH"), Method::patch);
  EXPECT_EQ(method_of("get"), Method::other);  // methods are case-sensitive
  EXPECT_EQ(method_of("PURGE"), Method::other);
}

TEST(MethodTest, OnlyRfc9110sIdempotentMethodsMayBeResent) {
  for (const char* name : {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"}) {
    EXPECT_TRUE(is_idempotent(method_of(name))) << name;
  }
  for (const char* name : {"POST", "PATCH", "CONNECT", "PURGE"}) {
    EXPECT_FALSE(is_idempotent(method_of(name))) << name;
  }
}

TEST(RequestTest, PlainGetHasRequestLineHostAndBlankLine) {
  const RequestSpec spec{.host_header = "127.0.0.1:8080"};
  EXPECT_EQ(serialize_request(spec), "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
}

TEST(RequestTest, UserHeadersFollowHostInOrder) {
  const RequestSpec spec{
      .path = "/a?b=c", .host_header = "h", .headers = {"Accept: */*", "X-Trace: 1"}};
  EXPECT_EQ(serialize_request(spec),
            "GET /a?b=c HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nX-Trace: 1\r\n\r\n");
}

TEST(RequestTest, BodyGetsContentLength) {
  const RequestSpec spec{.method = "POST", .host_header = "h", .body = "{\"k\":1}"};
  EXPECT_EQ(serialize_request(spec),
            "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 7\r\n\r\n{\"k\":1}");
}

TEST(RequestTest, UserHostAndContentLengthReplaceOurs) {
  const RequestSpec spec{.method = "PUT",
                         .host_header = "h",
                         .headers = {"host: other", "content-length: 3"},
                         .body = "abc"};
  EXPECT_EQ(serialize_request(spec),
            "PUT / HTTP/1.1\r\nhost: other\r\ncontent-length: 3\r\n\r\nabc");
}

TEST(RequestTest, UserTransferEncodingSuppressesContentLength) {
  const RequestSpec spec{.method = "POST",
                         .host_header = "h",
                         .headers = {"Transfer-Encoding: chunked"},
                         .body = "3\r\nabc\r\n0\r\n\r\n"};
  EXPECT_EQ(serialize_request(spec).find("Content-Length"), std::string::npos);
}

TEST(RequestTest, NoKeepAliveSendsConnectionClose) {
  RequestSpec spec{.host_header = "h", .keep_alive = false};
  EXPECT_EQ(serialize_request(spec), "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
  spec.headers = {"Connection: keep-alive"};
  EXPECT_EQ(serialize_request(spec),
            "GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n");
}

TEST(RequestTest, EmptyBodyHasNoContentLength) {
  const RequestSpec spec{.method = "DELETE", .host_header = "h"};
  EXPECT_EQ(serialize_request(spec), "DELETE / HTTP/1.1\r\nHost: h\r\n\r\n");
}

// RFC 9110 §8.6: a user agent sends Content-Length for a method that defines a body, even 0.
TEST(RequestTest, PostPutAndPatchWithAnEmptyBodySendContentLengthZero) {
  for (const char* method : {"POST", "PUT", "PATCH"}) {
    const RequestSpec spec{.method = method, .host_header = "h"};
    EXPECT_EQ(serialize_request(spec),
              std::string(method) + " / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n");
  }
  const RequestSpec get{.method = "GET", .host_header = "h"};
  EXPECT_EQ(serialize_request(get).find("Content-Length"), std::string::npos);
}

// The head is everything but the body: the worker sends the body from where it already is.
TEST(RequestTest, TheHeadIsTheRequestWithoutItsBody) {
  const std::string body(1000, 'b');
  const RequestSpec spec{.method = "POST", .host_header = "h", .body = body};
  const std::string head = serialize_request_head(spec);
  EXPECT_EQ(head, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n");
  EXPECT_EQ(serialize_request(spec), head + body);
  const RequestBytes bytes(head, body);
  EXPECT_EQ(bytes.size(), head.size() + body.size());
  EXPECT_EQ(bytes.body.data(), body.data()) << "the body is a view, not a copy";
}

TEST(RequestTest, FramingProblemsOfHeadersAndBody) {
  EXPECT_EQ(request_header_problem({"Host: a", "HOST: b"}, ""),
            "Host is given twice; a request has one Host");
  EXPECT_EQ(request_header_problem({"Content-Length: 4"}, "abc"),
            "Content-Length 4 contradicts the body of 3 bytes");
  EXPECT_EQ(request_header_problem({"Content-Length: 3"}, "abc"), "");
  EXPECT_EQ(request_header_problem({"Host: a", "Accept: */*"}, ""), "");
}

TEST(RequestTest, ConnectionOptionReadsTheTokensOfEveryConnectionField) {
  using Lines = std::vector<std::string>;
  EXPECT_EQ(connection_option(Lines{}), ConnectionOption::none);
  EXPECT_EQ(connection_option(Lines{"X-Connection: close"}), ConnectionOption::none);
  EXPECT_EQ(connection_option(Lines{"Connection: upgrade"}), ConnectionOption::none);
  EXPECT_EQ(connection_option(Lines{"Connection: closed"}), ConnectionOption::none);
  EXPECT_EQ(connection_option(Lines{"Connection: close"}), ConnectionOption::close);
  EXPECT_EQ(connection_option(Lines{"connection:CLOSE"}), ConnectionOption::close);
  EXPECT_EQ(connection_option(Lines{"Connection: Keep-Alive"}), ConnectionOption::keep_alive);
  EXPECT_EQ(connection_option(Lines{"Connection: upgrade ,\tkeep-alive"}),
            ConnectionOption::keep_alive);
  // close wins wherever it is (RFC 9112 §9.6: the sender will close after this exchange).
  EXPECT_EQ(connection_option(Lines{"Connection: keep-alive, close"}), ConnectionOption::close);
  EXPECT_EQ(connection_option(Lines{"Connection: keep-alive", "Connection: close"}),
            ConnectionOption::close);
}

TEST(RequestTest, ValidHeaderIsSplitAndTrimmed) {
  auto field = validate_header("X-Api-Key:  \tsecret value \t");
  ASSERT_TRUE(field.has_value());
  EXPECT_EQ(field->name, "X-Api-Key");
  EXPECT_EQ(field->value, "secret value");
  auto empty_value = validate_header("X-Empty:");
  ASSERT_TRUE(empty_value.has_value());
  EXPECT_EQ(empty_value->value, "");
  EXPECT_TRUE(validate_header("Accept: text/html;q=0.9, */*").has_value());
  EXPECT_TRUE(validate_header("X-Utf8: caf\xC3\xA9").has_value());
}

TEST(RequestTest, NormalisedHeaderHasOneSpaceAfterTheColonAndNoneWhenEmpty) {
  EXPECT_EQ(normalised_header(*validate_header("X-Api-Key:  \tsecret value \t")),
            "X-Api-Key: secret value");
  EXPECT_EQ(normalised_header(*validate_header("X-Empty:   ")), "X-Empty:");
}

std::string error_of(std::string_view line) {
  auto result = validate_header(line);
  EXPECT_FALSE(result.has_value()) << line;
  return result ? std::string() : result.error();
}

TEST(RequestTest, HeaderWithoutColonIsRejected) {
  EXPECT_EQ(error_of("NoColon"), "expected 'Name: value', found no ':'");
  EXPECT_EQ(error_of(""), "expected 'Name: value', found no ':'");
  EXPECT_EQ(error_of("X Y"), "expected 'Name: value', found no ':'");
}

TEST(RequestTest, HeaderNameMustBeAToken) {
  EXPECT_EQ(error_of(": v"), "empty header name before ':'");
  EXPECT_EQ(error_of("X-A : v"), "whitespace between the header name and ':'");
  // -H ' X: 1' (a stray space from shell quoting) has no name before its space: say that.
  EXPECT_EQ(error_of(" X: 1"), "whitespace before the header name");
  EXPECT_EQ(error_of("\tX: 1"), "whitespace before the header name");
  EXPECT_EQ(error_of("X(A): v"), "header name contains '(', which is not allowed in a header name");
  EXPECT_EQ(error_of("X\r\nEvil: v"),
            "header name contains a carriage return (CR), which is not allowed in a header name");
}

TEST(RequestTest, HeaderValueMustNotContainLineBreaksOrControls) {
  EXPECT_EQ(error_of("X: a\r\nEvil: b"), "header value contains a carriage return (CR)");
  EXPECT_EQ(error_of("X: a\nb"), "header value contains a line feed (LF)");
  EXPECT_EQ(error_of(std::string_view("X: a\0b", 6)), "header value contains control character 0x00");
  EXPECT_EQ(error_of("X: a\x7f"), "header value contains control character 0x7F");
}

TEST(RequestTest, MethodMustBeAToken) {
  EXPECT_TRUE(validate_method("PURGE").has_value());
  EXPECT_EQ(validate_method("").error(), "empty method");
  EXPECT_EQ(validate_method("GE T").error(),
            "method contains ' ', which is not allowed in a method");
}

// "-m post" went out as "post / HTTP/1.1", which nginx and Node answer 400 and others 501:
// a whole run of errors for a typing habit (curl and wrk send what they are given). Methods
// are case-sensitive, so a standard one in another case is refused, naming the right spelling.
TEST(RequestTest, AStandardMethodInAnotherCaseIsRefusedNamingItsSpelling) {
  EXPECT_EQ(validate_method("post").error(),
            "methods are case-sensitive: servers refuse 'post' (400 or 501); write POST");
  EXPECT_EQ(validate_method("Get").error(),
            "methods are case-sensitive: servers refuse 'Get' (400 or 501); write GET");
  EXPECT_FALSE(validate_method("delete").has_value());
  EXPECT_FALSE(validate_method("patch").has_value());
  EXPECT_TRUE(validate_method("POST").has_value());
  EXPECT_TRUE(validate_method("purge").has_value()) << "not a standard method: sent as given";
  EXPECT_TRUE(validate_method("M-SEARCH").has_value());
}

TEST(RequestTest, EveryAcceptedHeaderIsAcceptedByOurOwnParser) {
  // What hammer sends must be what it would accept: feed a response built from the same header.
  const std::string line = "X-Check: v1, v2;q=\"a b\"";
  ASSERT_TRUE(validate_header(line).has_value());
  ResponseParser parser;
  size_t consumed = 0;
  EXPECT_EQ(parser.feed("HTTP/1.1 200 OK\r\n" + line + "\r\nContent-Length: 0\r\n\r\n", &consumed),
            ParseStatus::complete);
}

}  // namespace
}  // namespace hammer
