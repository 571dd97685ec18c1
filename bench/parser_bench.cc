// SPDX-License-Identifier: MIT
// What ResponseParser costs per response, next to the rest of a request's life (a syscall pair
// is a few microseconds): a typical ~200-byte keep-alive response with Content-Length, the
// same payload chunked with an extension and a trailer, and the first one delivered in two
// reads (the resume path). Items/s in the output is responses per second.
#include <benchmark/benchmark.h>

#include <string>

#include "http/response_parser.h"

namespace {

using hammer::ParseStatus;
using hammer::ResponseParser;

const std::string kTypical =
    "HTTP/1.1 200 OK\r\n"
    "Server: nginx/1.24.0\r\n"
    "Date: Tue, 04 Jun 2024 10:00:00 GMT\r\n"
    "Content-Type: application/json\r\n"
    "Content-Length: 27\r\n"
    "Connection: keep-alive\r\n"
    "Cache-Control: no-cache\r\n"
    "\r\n"
    "{\"id\":42,\"status\":\"ready\"}\n";

const std::string kChunked =
    "HTTP/1.1 200 OK\r\n"
    "Server: nginx/1.24.0\r\n"
    "Date: Tue, 04 Jun 2024 10:00:00 GMT\r\n"
    "Content-Type: application/json\r\n"
    "Transfer-Encoding: chunked\r\n"
    "Cache-Control: no-cache\r\n"
    "\r\n"
    "10;part=1\r\n{\"id\":42,\"statu\r\n"
    "b\r\ns\":\"ready\"}\r\n"
    "0\r\nX-Checksum: 7e3f\r\n\r\n";

void parse_whole(benchmark::State& state, const std::string& bytes) {
  ResponseParser parser;
  size_t consumed = 0;
  for (auto _ : state) {
    parser.start();
    const ParseStatus status = parser.feed(bytes, &consumed);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(parser.info().body_bytes);
  }
  if (parser.feed(bytes, &consumed), parser.info().status != 200) state.SkipWithError("not 200");
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}

void BM_TypicalContentLength(benchmark::State& state) { parse_whole(state, kTypical); }
void BM_Chunked(benchmark::State& state) { parse_whole(state, kChunked); }

void BM_TypicalInTwoReads(benchmark::State& state) {
  const std::string_view bytes = kTypical;
  const size_t split = bytes.size() / 2;  // inside a header value
  ResponseParser parser;
  size_t consumed = 0;
  for (auto _ : state) {
    parser.start();
    benchmark::DoNotOptimize(parser.feed(bytes.substr(0, split), &consumed));
    benchmark::DoNotOptimize(parser.feed(bytes.substr(split), &consumed));
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_TypicalContentLength);
BENCHMARK(BM_Chunked);
BENCHMARK(BM_TypicalInTwoReads);

}  // namespace
