// SPDX-License-Identifier: MIT
// The --requests file: what a good file becomes (defaults applied, names, bodies), and a table
// of bad files, each refused with "FILE:LINE: reason" for its first bad line.
#include "http/request_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>


namespace hammer {
namespace {

Expected<std::vector<RequestLine>, std::string> parse(std::string_view text,
                                                      const RequestDefaults& defaults = {}) {
  return parse_request_file(text, "reqs.jsonl", "", defaults);
}

TEST(RequestFileTest, FivePathsInOrderNamedByTheirPaths) {
  auto lines = parse(
      "{\"path\": \"/search?category=alpha\"}\n"
      "{\"path\": \"/search?category=beta\"}\n"
      "\n"
      "{\"path\": \"/search?category=gamma\"}\r\n"
      "  {\"path\":\"/search?category=delta\"}  \n"
      "{\"path\": \"/search?category=epsilon\"}");
  ASSERT_TRUE(lines) << lines.error();
  ASSERT_EQ(lines->size(), 5u);
  EXPECT_EQ((*lines)[0].path, "/search?category=alpha");
  EXPECT_EQ((*lines)[0].name, "/search?category=alpha");
  EXPECT_EQ((*lines)[0].method, "GET");
  EXPECT_EQ((*lines)[2].line_number, 4);  // the empty line 3 is skipped, not renumbered
  EXPECT_EQ((*lines)[4].path, "/search?category=epsilon");
  EXPECT_EQ((*lines)[4].line_number, 6);
}

TEST(RequestFileTest, MethodHeadersBodyAndNameOfALine) {
  auto lines = parse(
      "{\"path\": \"/items\", \"method\": \"POST\", \"headers\": {\"Content-Type\": "
      "\"application/json\", \"X-Id\": \"\\u00e9\"}, \"body\": \"{\\\"id\\\": 1}\", "
      "\"name\": \"create\"}\n");
  ASSERT_TRUE(lines) << lines.error();
  const RequestLine& line = (*lines)[0];
  EXPECT_EQ(line.method, "POST");
  EXPECT_EQ(line.name, "create");
  EXPECT_EQ(line.body, "{\"id\": 1}");
  EXPECT_EQ(line.headers,
            (std::vector<std::string>{"Content-Type: application/json", "X-Id: \xc3\xa9"}));
}

TEST(RequestFileTest, DashMDashHAndBodyAreDefaultsALineCanReplace) {
  RequestDefaults defaults;
  defaults.method = "PUT";
  defaults.headers = {"Authorization: Bearer x", "Accept: */*"};
  defaults.body = "default";
  auto lines = parse(
      "{\"path\": \"/a\"}\n"
      "{\"path\": \"/b\", \"method\": \"GET\", \"body\": \"\", \"headers\": {\"accept\": "
      "\"text/plain\"}}\n",
      defaults);
  ASSERT_TRUE(lines) << lines.error();
  EXPECT_EQ((*lines)[0].method, "PUT");
  EXPECT_EQ((*lines)[0].body, "default");
  EXPECT_EQ((*lines)[0].headers, defaults.headers);
  EXPECT_EQ((*lines)[1].method, "GET");
  EXPECT_EQ((*lines)[1].body, "");  // an empty body is a body: it replaces --body
  EXPECT_EQ((*lines)[1].headers,
            (std::vector<std::string>{"Authorization: Bearer x", "accept: text/plain"}));
}

TEST(RequestFileTest, BodyFileIsReadFromTheRequestsFilesFolder) {
  char folder[] = "/tmp/hammer_request_file_XXXXXX";
  ASSERT_NE(::mkdtemp(folder), nullptr);
  const std::string dir = folder;
  std::ofstream(dir + "/body.json") << "{\"k\": 1}";
  std::ofstream(dir + "/reqs.jsonl")
      << "{\"path\": \"/upload\", \"method\": \"POST\", \"body_file\": \"body.json\"}\n";
  auto lines = load_request_file(dir + "/reqs.jsonl", {});
  ASSERT_TRUE(lines) << lines.error();
  EXPECT_EQ((*lines)[0].body, "{\"k\": 1}");
  auto missing = load_request_file(dir + "/absent.jsonl", {});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(),
            "cannot read '" + dir + "/absent.jsonl': No such file or directory");
  std::remove((dir + "/body.json").c_str());
  auto no_body = load_request_file(dir + "/reqs.jsonl", {});
  ASSERT_FALSE(no_body);
  EXPECT_EQ(no_body.error(), dir + "/reqs.jsonl:1: body_file: cannot read '" + dir +
                                 "/body.json': No such file or directory");
  std::remove((dir + "/reqs.jsonl").c_str());
  ::rmdir(folder);
}

struct BadFile {
  std::string text;
  std::string message;  // the whole line hammer prints after "hammer: --requests: "
};

const std::vector<BadFile> kBadFiles = {
    {"{\"path\": \"/\"}\n{\"path\": \"/a\"\n",
     "reqs.jsonl:2: bad JSON: expected ',' or '}' in an object, found end of input at column 14"},
    {"not json\n", "reqs.jsonl:1: bad JSON: expected 'null', found 'o' at column 2"},
    {"{\"path\": \"/\"} x\n",
     "reqs.jsonl:1: bad JSON: text after the document, found 'x' at column 15"},
    {"{'path': '/'}\n",
     "reqs.jsonl:1: bad JSON: expected a key in double quotes, found ''' at column 2"},
    {"{\"path\": \"/\\q\"}\n", "reqs.jsonl:1: bad JSON: unknown escape \\q at column 12"},
    {"{\"path\": \"/\",}\n", "reqs.jsonl:1: bad JSON: trailing comma before '}' at column 14"},
    {"{\"path\": \"/\\ud800\"}\n",
     "reqs.jsonl:1: bad JSON: lone surrogate in \\u escape at column 12"},
    {"[\"/\"]\n", "reqs.jsonl:1: expected a JSON object ({\"path\": \"/...\"}), found an array; "
                 "--requests takes JSON Lines: one whole object per line, not a JSON array"},
    // A JSON array, or an object pretty-printed over several lines (what an editor or jq
    // writes by default): the line is named, and so is the form the file must take.
    {"[{\"path\": \"/a\"}, {\"path\": \"/b\"}]\n",
     "reqs.jsonl:1: expected a JSON object ({\"path\": \"/...\"}), found an array; --requests "
     "takes JSON Lines: one whole object per line, not a JSON array"},
    {"[\n  {\"path\": \"/a\"}\n]\n",
     "reqs.jsonl:1: bad JSON: expected a value, found end of input at column 2; --requests takes "
     "JSON Lines: one whole object per line, not a JSON array"},
    {"{\n  \"path\": \"/a\"\n}\n",
     "reqs.jsonl:1: bad JSON: expected a key in double quotes, found end of input at column 2; "
     "--requests takes JSON Lines: one whole object per line, not one spread over lines"},
    // Notepad's UTF-8 saves a byte-order mark first: named, not "found byte 0xEF".
    {"\xEF\xBB\xBF{\"path\": \"/\"}\n",
     "reqs.jsonl:1: the file starts with a UTF-8 byte-order mark (EF BB BF); save it as UTF-8 "
     "without one"},
    {"{\"path\": \"/\", \"url\": \"/x\"}\n",
     "reqs.jsonl:1: unknown member 'url' (members: path, method, headers, body, body_file, "
     "name)"},
    {"{\"path\": \"/\", \"path\": \"/x\"}\n",
     "reqs.jsonl:1: bad JSON: duplicate key \"path\" at column 15"},
    {"{\"method\": \"GET\"}\n", "reqs.jsonl:1: missing member 'path' (e.g. {\"path\": \"/\"})"},
    {"{\"path\": 5}\n", "reqs.jsonl:1: 'path' must be a string, found a number"},
    {"{\"path\": \"search\"}\n", "reqs.jsonl:1: path must start with '/', got 'search'"},
    {"{\"path\": \"http://host/\"}\n",
     "reqs.jsonl:1: path must start with '/', got 'http://host/'"},
    {"{\"path\": \"/a b\"}\n",
     "reqs.jsonl:1: path '/a b' contains a space; percent-encode it (e.g. %20)"},
    {"{\"path\": \"/a\\r\\nX: y\"}\n",
     "reqs.jsonl:1: path '/a\\r\\nX: y' contains byte '\\r'; percent-encode it (e.g. %20)"},
    {"{\"path\": \"/\", \"method\": \"GE T\"}\n",
     "reqs.jsonl:1: method 'GE T': method contains ' ', which is not allowed in a method"},
    {"{\"path\": \"/\", \"headers\": [\"X: 1\"]}\n",
     "reqs.jsonl:1: 'headers' must be an object of strings, found an array"},
    {"{\"path\": \"/\", \"headers\": {\"X-N\": 1}}\n",
     "reqs.jsonl:1: header 'X-N' must have a string value, found a number"},
    {"{\"path\": \"/\", \"headers\": {\"Bad Name\": \"v\"}}\n",
     "reqs.jsonl:1: header 'Bad Name': whitespace between the header name and ':'"},
    {"{\"path\": \"/\", \"headers\": {\"\": \"v\"}}\n",
     "reqs.jsonl:1: header '': empty header name before ':'"},
    {"{\"path\": \"/\", \"headers\": {\"X-A\": \"1\\r\\nX-B: 2\"}}\n",
     "reqs.jsonl:1: header 'X-A': header value contains a carriage return (CR)"},
    {"{\"path\": \"/\", \"headers\": {\"X-A\": \"1\", \"x-a\": \"2\"}}\n",
     "reqs.jsonl:1: header 'x-a' is given twice"},
    {"{\"path\": \"/\", \"body\": \"abc\", \"headers\": {\"Content-Length\": \"5\"}}\n",
     "reqs.jsonl:1: Content-Length 5 contradicts the body of 3 bytes"},
    {"{\"path\": \"/\", \"headers\": {\"Content-Length\": \"2\"}}\n",
     "reqs.jsonl:1: Content-Length 2 contradicts the body of 0 bytes"},
    {"{\"path\": \"/\", \"body\": \"a\", \"headers\": {\"Content-Length\": \"one\"}}\n",
     "reqs.jsonl:1: Content-Length 'one' is not a whole number"},
    {"{\"path\": \"/\", \"body\": \"1\\r\\na\\r\\n0\\r\\n\\r\\n\", \"headers\": "
     "{\"Content-Length\": \"13\", \"Transfer-Encoding\": \"chunked\"}}\n",
     "reqs.jsonl:1: Content-Length and Transfer-Encoding are both given; a request has one "
     "framing"},
    {"{\"path\": \"/\", \"body\": \"abc\", \"headers\": {\"Transfer-Encoding\": \"chunked\"}}\n",
     "reqs.jsonl:1: Transfer-Encoding chunked, but the body is not well-formed chunks ending in "
     "0\\r\\n\\r\\n"},
    {"{\"path\": \"/\", \"body\": \"abc\", \"headers\": {\"Transfer-Encoding\": \"gzip\"}}\n",
     "reqs.jsonl:1: Transfer-Encoding 'gzip' is not supported; give chunked (with a body in "
     "chunks) or Content-Length"},
    {"{\"path\": \"/\", \"body\": \"a\", \"body_file\": \"b\"}\n",
     "reqs.jsonl:1: 'body' and 'body_file' are both given; give one"},
    {"{\"path\": \"/\", \"name\": \"\"}\n", "reqs.jsonl:1: 'name' is empty"},
    {"{\"path\": \"/\", \"name\": \"a\\nb\"}\n",
     "reqs.jsonl:1: 'name' 'a\\nb' contains a control character"},
    {"\n\n  \n", "reqs.jsonl: no requests (every line is empty); one JSON object per line, e.g. "
                 "{\"path\": \"/\"}"},
    {"", "reqs.jsonl: no requests (every line is empty); one JSON object per line, e.g. "
         "{\"path\": \"/\"}"},
};

TEST(RequestFileTest, BadFilesAreRefusedWithFileLineAndReason) {
  for (const BadFile& bad : kBadFiles) {
    auto lines = parse(bad.text);
    ASSERT_FALSE(lines) << bad.text;
    EXPECT_EQ(lines.error(), bad.message) << bad.text;
  }
}

TEST(RequestFileTest, ADefaultHeaderThatContradictsALinesBodyNamesTheLine) {
  RequestDefaults defaults;
  defaults.headers = {"Content-Length: 3"};
  defaults.body = "abc";
  EXPECT_TRUE(parse("{\"path\": \"/\"}\n", defaults));
  auto lines = parse("{\"path\": \"/\"}\n{\"path\": \"/b\", \"body\": \"ab\"}\n", defaults);
  ASSERT_FALSE(lines);
  EXPECT_EQ(lines.error(), "reqs.jsonl:2: Content-Length 3 contradicts the body of 2 bytes");
}

TEST(RequestFileTest, AWellFormedChunkedBodyIsAccepted) {
  auto lines = parse(
      "{\"path\": \"/\", \"method\": \"POST\", \"headers\": {\"Transfer-Encoding\": "
      "\"chunked\"}, \"body\": \"3\\r\\nabc\\r\\n0\\r\\n\\r\\n\"}\n");
  EXPECT_TRUE(lines) << (lines ? "" : lines.error());
}

TEST(RequestFileTest, MoreLinesThanTheLimitAreRefused) {
  std::string text;
  for (size_t i = 0; i <= kMaxRequestLines; ++i) text += "{\"path\": \"/\"}\n";
  auto lines = parse(text);
  ASSERT_FALSE(lines);
  EXPECT_EQ(lines.error(), "reqs.jsonl:10001: more than 10000 requests (the limit of one file)");
}

}  // namespace
}  // namespace hammer
