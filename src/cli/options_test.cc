// SPDX-License-Identifier: MIT
#include "cli/options.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/build_features.h"

namespace hammer {
namespace {

constexpr const char* kUrl = "http://127.0.0.1:8080/";
// The CPUs the helpers below say the process may use: the same defaults on any machine.
constexpr int64_t kCpus = 8;

// The error message for args, or a test failure if they parse.
std::string error_of(const std::vector<std::string>& args) {
  auto parsed = parse_options(args, kCpus);
  if (parsed) {
    ADD_FAILURE() << "expected an error";
    return {};
  }
  return parsed.error().message;
}

// The Config for args, or a test failure (with the message) if they do not parse.
Config config_of(const std::vector<std::string>& args, int64_t cpus = kCpus) {
  auto parsed = parse_options(args, cpus);
  if (!parsed) {
    ADD_FAILURE() << "unexpected error: " << parsed.error().message;
    return {};
  }
  EXPECT_EQ(parsed->command, Command::run);
  return parsed->config;
}

struct BadFlag {
  std::vector<std::string> args;  // the URL is added in front
  std::string message;            // the whole expected line, without "hammer: "
};

// One row per way a flag's value can be wrong; every option appears (checked below).
const std::vector<BadFlag> kBadFlags = {
    {{"-c", "abc"}, "--connections: expected a whole number >= 1, got 'abc'"},
    {{"-c", "0"}, "--connections: expected a whole number >= 1, got '0'"},
    {{"-c", "-5"}, "--connections: expected a whole number >= 1, got '-5'"},
    {{"-c", "1.5"}, "--connections: expected a whole number >= 1, got '1.5'"},
    {{"-c", "10x"}, "--connections: expected a whole number >= 1, got '10x'"},
    {{"-c", " 10"}, "--connections: expected a whole number >= 1, got ' 10'"},
    {{"-c", "+10"}, "--connections: expected a whole number >= 1, got '+10'"},
    {{"-c", ""}, "--connections: expected a whole number >= 1, got ''"},
    {{"-cabc"}, "--connections: expected a whole number >= 1, got 'abc'"},
    {{"--connections=abc"}, "--connections: expected a whole number >= 1, got 'abc'"},
    {{"--connections="}, "--connections: expected a whole number >= 1, got ''"},
    {{"-c", "1000001"}, "--connections: must be at most 1000000, got '1000001'"},
    {{"-c", "99999999999999999999999"},
     "--connections: must be at most 1000000, got '99999999999999999999999'"},
    {{"-c"}, "--connections: missing value"},
    {{"--connections"}, "--connections: missing value"},

    {{"-t", "abc"}, "--threads: expected a whole number >= 1, got 'abc'"},
    {{"-t", "0"}, "--threads: expected a whole number >= 1, got '0'"},
    {{"--threads=-2"}, "--threads: expected a whole number >= 1, got '-2'"},
    {{"-t", "1025"}, "--threads: must be at most 1024, got '1025'"},
    {{"-t"}, "--threads: missing value"},
    {{"-t", "8", "-c", "4"}, "--threads: 8 threads need at least 8 connections, got --connections 4"},
    {{"-t", "64"}, "--threads: 64 threads need at least 64 connections, got --connections 50"},

    {{"--shard", "2"}, "--shard: expected I/N with 1 <= I <= N (e.g. 2/3: shard 2 of 3), got '2'"},
    {{"--shard", "0/3"},
     "--shard: expected I/N with 1 <= I <= N (e.g. 2/3: shard 2 of 3), got '0/3'"},
    {{"--shard", "1/0"},
     "--shard: expected I/N with 1 <= I <= N (e.g. 2/3: shard 2 of 3), got '1/0'"},
    {{"--shard", "a/b"},
     "--shard: expected I/N with 1 <= I <= N (e.g. 2/3: shard 2 of 3), got 'a/b'"},
    {{"--shard", "+1/2"},
     "--shard: expected I/N with 1 <= I <= N (e.g. 2/3: shard 2 of 3), got '+1/2'"},
    {{"--shard", "4/3"}, "--shard: shard 4 of 3 does not exist (1 <= I <= N), got '4/3'"},
    {{"--shard", "1/100001"}, "--shard: at most 100000 shards, got '1/100001'"},
    {{"--shard"}, "--shard: missing value"},
    {{"--shard", "1/3", "-c", "2"},
     "--shard: 3 shards need at least one connection each, got --connections 2 (-c is the "
     "whole fleet's, split over the shards)"},
    {{"--shard", "1/2", "-c", "10", "-t", "6"},
     "--threads: 6 threads need at least 6 connections, got 5 (shard 1/2's share of "
     "--connections 10)"},
    {{"--shard", "1/2", "-c", "1,2"},
     "--shard: a sweep cannot be sharded (each step would start apart); shard single runs, got "
     "--shard 1/2"},
    {{"--start-at", "soon"},
     "--start-at: expected an RFC 3339 time (2026-12-01T10:00:00Z) or Unix seconds, got 'soon'"},
    {{"--start-at", "2026-12-01T10:00:00"},
     "--start-at: missing zone (end with Z for UTC, or +hh:mm), got '2026-12-01T10:00:00'"},
    {{"--start-at", "2026-02-30T10:00:00Z"},
     "--start-at: no such date or time, got '2026-02-30T10:00:00Z'"},
    {{"--start-at", "2026-12-01"},
     "--start-at: expected a time and a zone after the date (2026-12-01T10:00:00Z), got "
     "'2026-12-01'"},
    {{"--start-at", "-5"},
     "--start-at: expected an RFC 3339 time (2026-12-01T10:00:00Z) or Unix seconds, got '-5'"},
    {{"--start-tolerance", "x", "--start-at", "1"},
     "--start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, 500ms), got 'x'"},
    {{"--start-tolerance", "2s"}, "--start-tolerance: only means something with --start-at"},

    {{"-d", "abc"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got 'abc'"},
    {{"-d", "0"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '0'"},
    {{"-d", "0ms"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '0ms'"},
    {{"-d", "-1"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '-1'"},
    {{"-d", "10x"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '10x'"},
    {{"-d", "10S"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '10S'"},
    {{"-d", "10 s"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '10 s'"},
    {{"-d", "1e3"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '1e3'"},
    {{"-d", ".5s"}, "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '.5s'"},
    {{"-d", "24h1s"}, "--duration: must be at most 24h, got '24h1s'"},
    {{"-d", "1m30"},
     "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '1m30'"},
    {{"-d", "25h"}, "--duration: must be at most 24h, got '25h'"},
    {{"--duration=86401"}, "--duration: must be at most 24h, got '86401'"},
    {{"-d", "99999999999999999999"}, "--duration: must be at most 24h, got '99999999999999999999'"},
    {{"-d"}, "--duration: missing value"},

    {{"-r", "fast"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got 'fast'"},
    {{"-r", "0"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got '0'"},
    {{"-r", "0k"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got '0k'"},
    {{"-r", "-5"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got '-5'"},
    {{"-r", "2m"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got '2m'"},
    {{"-r", "1e3"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got '1e3'"},
    {{"-r", "inf"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got 'inf'"},
    {{"-r", "2kk"}, "--rate: expected a number > 0 (e.g. 2000 or 2k), got '2kk'"},
    {{"-r", "20M"}, "--rate: must be at most 10M req/s, got '20M'"},
    {{"-r", "10000001"}, "--rate: must be at most 10M req/s, got '10000001'"},
    {{"--rate=0.0001"}, "--rate: must be at least 0.001 req/s, got '0.0001'"},
    {{"-r"}, "--rate: missing value"},

    {{"--closed-loop=yes"}, "--closed-loop: takes no value, got '--closed-loop=yes'"},

    {{"-m", ""}, "--method: empty method, got ''"},
    {{"-m", "GE T"}, "--method: method contains ' ', which is not allowed in a method, got 'GE T'"},
    {{"-m", "GET\r\n"},
     "--method: method contains a carriage return (CR), which is not allowed in a method, got "
     "'GET\\r\\n'"},
    {{"--method=G(ET"},
     "--method: method contains '(', which is not allowed in a method, got 'G(ET'"},
    {{"-m"}, "--method: missing value"},

    {{"-H", "NoColon"}, "--header: expected 'Name: value', found no ':', got 'NoColon'"},
    {{"-H", ": value"}, "--header: empty header name before ':', got ': value'"},
    {{"-H", "Bad(Name: v"},
     "--header: header name contains '(', which is not allowed in a header name, got "
     "'Bad(Name: v'"},
    {{"--header=X :v"}, "--header: whitespace between the header name and ':', got 'X :v'"},
    {{"-H", "X: a\r\nEvil: 1"},
     "--header: header value contains a carriage return (CR), got 'X: a\\r\\nEvil: 1'"},
    {{"-H", std::string("X: a\0b", 6)},
     "--header: header value contains control character 0x00, got 'X: a\\x00b'"},
    {{"-H"}, "--header: missing value"},
    // Issue 10 item 6: the request's framing must be valid.
    {{"-H", "Host: a", "-H", "host: b"}, "--header: Host is given twice; a request has one Host"},
    {{"-H", "Content-Length: 5"}, "--header: Content-Length 5 contradicts the body of 0 bytes"},
    {{"-H", "Content-Length: 5", "-H", "Transfer-Encoding: chunked"},
     "--header: Content-Length and Transfer-Encoding are both given; a request has one framing"},
    {{"-H", "Transfer-Encoding: chunked"},
     "--header: Transfer-Encoding chunked, but the body is not well-formed chunks ending in "
     "0\\r\\n\\r\\n"},

    {{"--body", "/nonexistent/x.json"},
     "--body: cannot read '/nonexistent/x.json': No such file or directory"},
    {{"--body", "/"}, "--body: cannot read '/': Is a directory"},
    {{"--body="}, "--body: cannot read '': No such file or directory"},
    // The body itself where its file belongs (hey's and oha's -d), or curl's '@file': say so.
    {{"--body", "{\"id\": 1}"},
     "--body: cannot read '{\"id\": 1}': No such file or directory; --body takes a FILE that "
     "holds the body, not the body itself"},
    {{"--body", "@/nonexistent/x.json"},
     "--body: cannot read '@/nonexistent/x.json': No such file or directory; --body takes the "
     "file's name without curl's '@'"},
    {{"-m", "POST", "-d", "{\"id\": 1}"},
     "--duration: expected a duration > 0 (e.g. 10, 10s, 500ms or 2m), got '{\"id\": 1}'; -d is "
     "the duration (a request body is --body FILE)"},
    {{"--body"}, "--body: missing value"},

    {{"--timeout", "abc"},
     "--timeout: expected a duration > 0 (e.g. 2000 meaning ms, 2s or 500ms), got 'abc'"},
    {{"--timeout", "0"},
     "--timeout: expected a duration > 0 (e.g. 2000 meaning ms, 2s or 500ms), got '0'"},
    {{"--timeout", "-1"},
     "--timeout: expected a duration > 0 (e.g. 2000 meaning ms, 2s or 500ms), got '-1'"},
    {{"--timeout=2 s"},
     "--timeout: expected a duration > 0 (e.g. 2000 meaning ms, 2s or 500ms), got '2 s'"},
    {{"--timeout", "61s"},
     "--timeout: must be at most 60s (the latency histogram's range), got '61s'"},
    {{"--timeout", "60001"},
     "--timeout: must be at most 60s (the latency histogram's range), got '60001'"},
    {{"--timeout"}, "--timeout: missing value"},

    {{"--latency=1"}, "--latency: takes no value, got '--latency=1'"},
    {{"--json=true"}, "--json: takes no value, got '--json=true'"},
    {{"--no-retry=1"}, "--no-retry: takes no value, got '--no-retry=1'"},
    {{"--version=2"}, "--version: takes no value, got '--version=2'"},
    {{"--help=me"}, "--help: takes no value, got '--help=me'"},

    // Sweeps (-c and --rate lists and ranges), --slo and --control.
    {{"-c", "1,2,x"},
     "--connections: expected rising whole numbers >= 1 for a sweep (e.g. 1,2,5,10), got "
     "'1,2,x'"},
    {{"-c", "5,2"},
     "--connections: expected rising whole numbers >= 1 for a sweep (e.g. 1,2,5,10), got '5,2'"},
    {{"-c", "1,,2"},
     "--connections: expected rising whole numbers >= 1 for a sweep (e.g. 1,2,5,10), got '1,,2'"},
    {{"-c", "1:10"},
     "--connections: expected rising whole numbers >= 1 for a sweep (e.g. 1,2,5,10), got '1:10'"},
    {{"-c", "1,2000000"}, "--connections: must be at most 1000000 per level, got '1,2000000'"},
    {{"-t", "4", "-c", "2,8"},
     "--threads: 4 threads need at least 4 connections, got --connections 2 (the smallest "
     "level of the sweep)"},
    {{"-r", "2k,1k"}, "--rate: expected rising rates > 0 for a sweep (e.g. 1000,2000,5000), got "
                      "'2k,1k'"},
    {{"-r", "1k,fast"}, "--rate: expected rising rates > 0 for a sweep (e.g. 1000,2000,5000), "
                        "got '1k,fast'"},
    {{"-r", "1k:20k:0"},
     "--rate: expected a range start:stop:step, or low:high to search with --slo (e.g. "
     "1k:20k:1k or 200:3000), got '1k:20k:0'"},
    {{"-r", "5k:1k:1k"},
     "--rate: expected a range start:stop:step, or low:high to search with --slo (e.g. "
     "1k:20k:1k or 200:3000), got '5k:1k:1k'"},
    {{"-r", "1:2:3:4"},
     "--rate: expected a range start:stop:step, or low:high to search with --slo (e.g. "
     "1k:20k:1k or 200:3000), got '1:2:3:4'"},
    {{"-r", "1:1000:1"},
     "--rate: a sweep has at most 100 levels; this range has 1000, got '1:1000:1'"},
    {{"-r", "1k:20M:1k"}, "--rate: must be at most 10M req/s per level, got '1k:20M:1k'"},
    {{"-r", "200:3000"},
     "--rate: a range without a step (200:3000) searches for the capacity under --slo; add "
     "--slo (e.g. p99=50ms) or a step (low:high:step)"},
    {{"-c", "1,2", "-r", "1k,2k"},
     "--rate: a sweep varies one thing; -c and --rate both have a list or range"},
    {{"--slo", "p99=50ms,p99.0=20ms"}, "--slo: p99.0 is given twice, got 'p99=50ms,p99.0=20ms'"},
    {{"--slo", "p99=50ms,"},
     "--slo: expected KEY=LIMIT, KEY pNN[.N] (any percentile: p50, p95, p99.9), max or errors "
     "(e.g. p99=50ms or errors=1%), got 'p99=50ms,'"},
    {{"--slo", "p99=50ms", "--slo", "errors=1%,p99=20ms"},
     "--slo: p99 is given twice, got 'errors=1%,p99=20ms'"},
    {{"--slo", "p99"},
     "--slo: expected KEY=LIMIT, KEY pNN[.N] (any percentile: p50, p95, p99.9), max or errors "
     "(e.g. p99=50ms or errors=1%), got 'p99'"},
    {{"--slo", "q95=5ms"},
     "--slo: expected KEY=LIMIT, KEY pNN[.N] (any percentile: p50, p95, p99.9), max or errors "
     "(e.g. p99=50ms or errors=1%), got 'q95=5ms'"},
    {{"--slo", "p100=5ms"},
     "--slo: p100: must be above 0 and below 100 (max is always reported), got 'p100=5ms'"},
    {{"--slo", "p0=5ms"},
     "--slo: p0: must be above 0 and below 100 (max is always reported), got 'p0=5ms'"},
    {{"--slo", "p99.99999=5ms"},
     "--slo: p99.99999: expected a percentile between 0 and 100 with at most 4 decimals (e.g. "
     "95, 99.9 or 99.99), got 'p99.99999=5ms'"},
    {{"--slo", "p=5ms"},
     "--slo: p: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, 99.9 "
     "or 99.99), got 'p=5ms'"},
    {{"--slo", "p9x=5ms"},
     "--slo: p9x: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, "
     "99.9 or 99.99), got 'p9x=5ms'"},
    {{"--slo", "p99.9=5ms", "--slo", "p99.90=9ms"},
     "--slo: p99.90 is given twice, got 'p99.90=9ms'"},
    {{"--percentiles", "50,abc"},
     "--percentiles: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, "
     "99.9 or 99.99), got '50,abc'"},
    {{"--percentiles", ""},
     "--percentiles: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, "
     "99.9 or 99.99), got ''"},
    {{"--percentiles", "50,,99"},
     "--percentiles: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, "
     "99.9 or 99.99), got '50,,99'"},
    {{"--percentiles", "-5"},
     "--percentiles: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, "
     "99.9 or 99.99), got '-5'"},
    {{"--percentiles", "50,100"},
     "--percentiles: must be above 0 and below 100 (max is always reported), got '50,100'"},
    {{"--percentiles", "99.,50"},
     "--percentiles: expected a percentile between 0 and 100 with at most 4 decimals (e.g. 95, "
     "99.9 or 99.99), got '99.,50'"},
    {{"--percentiles", "99.9,99.90"}, "--percentiles: 99.9 is given twice, got '99.9,99.90'"},
    {{"--percentiles"}, "--percentiles: missing value"},
    {{"--slo", "p99=fast"},
     "--slo: p99 takes a duration > 0; a bare number is milliseconds (e.g. p99=50ms), got "
     "'p99=fast'"},
    {{"--slo", "p99.9=0"},
     "--slo: p99.9 takes a duration > 0; a bare number is milliseconds (e.g. p99.9=50ms), got "
     "'p99.9=0'"},
    {{"--slo", "max=61s"},
     "--slo: max must be at most 60s (the latency histogram's range), got 'max=61s'"},
    {{"--slo", "errors=1"},
     "--slo: errors takes a percentage from 0% to 100% (e.g. errors=1%), got 'errors=1'"},
    {{"--slo", "errors=101%"},
     "--slo: errors takes a percentage from 0% to 100% (e.g. errors=1%), got 'errors=101%'"},
    {{"--slo", "errors=-1%"},
     "--slo: errors takes a percentage from 0% to 100% (e.g. errors=1%), got 'errors=-1%'"},
    {{"--slo", "p99=5ms", "--slo", "p99=9ms"}, "--slo: p99 is given twice, got 'p99=9ms'"},
    {{"--slo"}, "--slo: missing value"},
    {{"-p", "0"}, "--pipeline: expected a whole number >= 1, got '0'"},
    {{"--pipeline", "x"}, "--pipeline: expected a whole number >= 1, got 'x'"},
    {{"-p", "1001"}, "--pipeline: must be at most 1000, got '1001'"},
    {{"-p", "2", "--no-keepalive"},
     "--pipeline: 2 requests in flight per connection need keep-alive; drop --no-keepalive or "
     "use -p 1"},
    // A Connection header that says the opposite of -p / --no-keepalive: the run would fail
    // every pipelined request behind the server's close, or claim keep-alive while hammer
    // closes after each response.
    {{"-p", "4", "-H", "Connection: close"},
     "--pipeline: 4 requests in flight per connection need keep-alive, but --header says "
     "'Connection: close'; drop that header or use -p 1"},
    {{"-p", "2", "-H", "connection: Keep-Alive, CLOSE"},
     "--pipeline: 2 requests in flight per connection need keep-alive, but --header says "
     "'connection: Keep-Alive, CLOSE'; drop that header or use -p 1"},
    {{"--no-keepalive", "-H", "Connection: keep-alive"},
     "--no-keepalive: opens a connection per request, but --header says 'Connection: "
     "keep-alive'; drop one of them"},
    {{"--ramp", "0"}, "--ramp: expected a duration > 0 (e.g. 2, 2s, 500ms or 1m), got '0'"},
    {{"--ramp", "25h"}, "--ramp: must be at most 24h, got '25h'"},
    {{"--ramp"}, "--ramp: missing value"},
    {{"--requests", "/nonexistent/reqs.jsonl"},
     "--requests: cannot read '/nonexistent/reqs.jsonl': No such file or directory"},
    {{"--requests"}, "--requests: missing value"},
    {{"--control", "http://127.0.0.1:9/"},
     "--control: compares a sweep with a no-work route; give -c or --rate a list or range, got "
     "'http://127.0.0.1:9/'"},
    {{"-c", "1,2", "--control", "ftp://x/"},
     "--control: bad URL 'ftp://x/': unsupported scheme 'ftp'; only http:// and https:// are "
     "supported"},
    {{"--control"}, "--control: missing value"},

    {{"-W", "abc"}, "--warmup: expected a duration > 0 (e.g. 3, 3s, 500ms or 1m), got 'abc'"},
    {{"-W", "0"}, "--warmup: expected a duration > 0 (e.g. 3, 3s, 500ms or 1m), got '0'"},
    {{"--warmup=-1"}, "--warmup: expected a duration > 0 (e.g. 3, 3s, 500ms or 1m), got '-1'"},
    {{"-W", "3x"}, "--warmup: expected a duration > 0 (e.g. 3, 3s, 500ms or 1m), got '3x'"},
    {{"-W", "25h"}, "--warmup: must be at most 24h, got '25h'"},
    {{"-W"}, "--warmup: missing value"},
    {{"--timeline=1"}, "--timeline: takes no value, got '--timeline=1'"},
    {{"--slow", "abc"},
     "--slow: expected a duration > 0 (e.g. 100 meaning ms, 100ms or 1s), got 'abc'"},
    {{"--slow", "0"},
     "--slow: expected a duration > 0 (e.g. 100 meaning ms, 100ms or 1s), got '0'"},
    {{"--slow=-5ms"},
     "--slow: expected a duration > 0 (e.g. 100 meaning ms, 100ms or 1s), got '-5ms'"},
    {{"--slow", "61s"}, "--slow: must be at most 60s (the latency histogram's range), got '61s'"},
    {{"--slow"}, "--slow: missing value"},
    {{"--no-keepalive=yes"}, "--no-keepalive: takes no value, got '--no-keepalive=yes'"},
    {{"--engine", "uring"}, "--engine: expected io_uring, epoll or poll, got 'uring'"},
    {{"--engine"}, "--engine: missing value"},
    {{"--precise-dispatch=1"},
     "--precise-dispatch: takes no value, got '--precise-dispatch=1'"},
    // --progress-fd: a descriptor this process has open, never stdin or stdout.
    {{"--progress-fd", "0"}, "--progress-fd: 0 is stdin, not writable progress, got '0'"},
    {{"--progress-fd", "1"},
     "--progress-fd: 1 is stdout, which carries the report; use 2 (stderr) or 3 and up, got '1'"},
    {{"--progress-fd", "x"}, "--progress-fd: expected a whole number >= 1, got 'x'"},
    {{"--progress-fd", "987654"}, "--progress-fd: not an open file descriptor, got '987654'"},
    {{"--progress-fd", "1000001"}, "--progress-fd: must be at most 1000000, got '1000001'"},
    {{"--progress-fd"}, "--progress-fd: missing value"},
    {{"--generate", "fish"}, "--generate: expected man, bash or zsh, got 'fish'"},
    {{"--generate"}, "--generate: missing value"},

    {{"-o", "run.txt"},
     "--output: unknown file type; the extension chooses the format: .json .html .hgrm .csv "
     ".hlog, got 'run.txt'"},
    {{"--output", "run"},
     "--output: unknown file type; the extension chooses the format: .json .html .hgrm .csv "
     ".hlog, got 'run'"},
    {{"-o", "out/.json"},
     "--output: unknown file type; the extension chooses the format: .json .html .hgrm .csv "
     ".hlog, got 'out/.json'"},
    {{"-o", ""},
     "--output: unknown file type; the extension chooses the format: .json .html .hgrm .csv "
     ".hlog, got ''"},
    {{"-o", "a.json", "--output=a.json"}, "--output: the same file is given twice, got 'a.json'"},
    {{"-o", "a.json", "-o", "./a.json"}, "--output: the same file is given twice, got './a.json'"},
    {{"-c", "1,2", "-o", "steps.hgrm"},
     "--output: a sweep keeps no histograms to write as .hgrm; use .json, .html, .csv, "
     "got 'steps.hgrm'"},
    {{"-c", "1,2", "-o", "steps.hlog"},
     "--output: a sweep keeps no histograms to write as .hlog; use .json, .html, .csv, "
     "got 'steps.hlog'"},
    {{"-o"}, "--output: missing value"},
    // Issue 10 (QA): the warm-up takes the only slot; the measured part would hold none.
    {{"-r", "0.5", "-W", "1s", "-d", "1s"},
     "--rate: at 0.5 req/s no request falls in the measured 1.00s after --warmup 1.00s; raise --rate "
     "or --duration"},
    // A sweep's level is a run of its own: a level with no slot was run, measured nothing and
    // printed a row of dashes; it is refused up front as the single run is.
    {{"--rate", "0.5,1,2", "-W", "1s", "-d", "1s"},
     "--rate: at 0.5 req/s no request falls in the measured 1.00s after --warmup 1.00s; raise --rate "
     "or --duration"},
    {{"--rate", "0.25:2:0.25", "-d", "2s", "-W", "1s"},
     "--rate: at 0.25 req/s no request falls in the measured 2.00s after --warmup 1.00s; raise --rate "
     "or --duration"},
    // A capacity search's first step runs at LOW in whole req/s, at least 1 (sweep/capacity.h).
    {{"--rate", "0.4:10", "--slo", "p99=1s", "-W", "500ms", "-d", "400ms"},
     "--rate: at 1 req/s no request falls in the measured 400.00ms after --warmup 500.00ms; "
     "raise --rate or --duration"},
    // The https-only flags: their values here; with an http:// URL each is an error too.
    {{"-k"}, "--insecure: only means something with an https:// URL, got "
             "'http://127.0.0.1:8080/'"},
    {{"--insecure=yes"}, "--insecure: takes no value, got '--insecure=yes'"},
    {{"--cacert", "/nonexistent/ca.pem"},
     "--cacert: cannot read '/nonexistent/ca.pem': No such file or directory"},
    {{"--cacert"}, "--cacert: missing value"},
    {{"--cert", "/nonexistent/client.pem"},
     "--cert: cannot read '/nonexistent/client.pem': No such file or directory"},
    {{"--cert"}, "--cert: missing value"},
    {{"--key", "/nonexistent/client.key"},
     "--key: cannot read '/nonexistent/client.key': No such file or directory"},
    {{"--key"}, "--key: missing value"},
    {{"--tls-min", "1.1"}, "--tls-min: expected 1.2 or 1.3, got '1.1'"},
    {{"--tls-min", "TLSv1.3"}, "--tls-min: expected 1.2 or 1.3, got 'TLSv1.3'"},
    {{"--tls-min"}, "--tls-min: missing value"},
    {{"--tls-max", "1.4"}, "--tls-max: expected 1.2 or 1.3, got '1.4'"},
    {{"--tls-max", "1"}, "--tls-max: expected 1.2 or 1.3, got '1'"},
    {{"--tls-resume", "yes"}, "--tls-resume: expected on or off, got 'yes'"},
    {{"--tls-resume", "ON"}, "--tls-resume: expected on or off, got 'ON'"},
    {{"--tls-resume"}, "--tls-resume: missing value"},
    {{"-c", "1,2", "-r", "0.5", "-W", "1s", "-d", "1s"},
     "--rate: at 0.5 req/s no request falls in the measured 1.00s after --warmup 1.00s; raise --rate "
     "or --duration"},
};

TEST(OptionsTest, EveryBadValueIsOneLineNamingTheFlagAndTheValue) {
  for (const BadFlag& row : kBadFlags) {
    std::vector<std::string> args = {kUrl};
    args.insert(args.end(), row.args.begin(), row.args.end());
    std::string joined;
    for (const std::string& arg : row.args) joined += " [" + arg + "]";
    SCOPED_TRACE("args:" + joined);
    const std::string message = error_of(args);
    EXPECT_EQ(message, row.message);
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_EQ(message.find('\r'), std::string::npos);
  }
}

TEST(OptionsTest, TheBadValueTableCoversEveryOption) {
  for (std::string_view name : long_option_names()) {
    const bool covered = std::any_of(kBadFlags.begin(), kBadFlags.end(), [&](const BadFlag& row) {
      return row.message.starts_with(std::string(name) + ":");
    });
    EXPECT_TRUE(covered) << name << " has no row in kBadFlags";
  }
}

TEST(OptionsTest, AMeasuredPartWithOneSlotIsEnoughAndAShardMayHaveNone) {
  // Slot 0 is due at the start: any rate has one in a run without a warm-up.
  EXPECT_EQ(config_of({"-r", "0.001", "-d", "1ms", kUrl}).rate, 0.001);
  // 0.5 req/s over a 1 s warm-up then 2 s: the slot at 2 s is measured.
  EXPECT_EQ(config_of({"-r", "0.5", "-W", "1s", "-d", "2s", kUrl}).warmup_ns, 1'000'000'000);
  // The fleet has one slot; shard 2/2's share is empty, and it still runs (no_work verdict).
  EXPECT_EQ(config_of({"--shard", "2/2", "-c", "2", "-r", "1", "-d", "1", kUrl}).shard.index, 2);
}

TEST(OptionsTest, DefaultsFollowTheDesignTable) {
  const Config config = config_of({kUrl});
  EXPECT_EQ(config.url, kUrl);
  EXPECT_EQ(config.connections, 50);
  EXPECT_EQ(config.threads, 4);
  EXPECT_EQ(config.duration_ns, 10'000'000'000);
  EXPECT_EQ(config.rate, 0);
  EXPECT_FALSE(config.open_loop());
  EXPECT_FALSE(config.closed_loop_stopwatch);
  EXPECT_EQ(config.method, "GET");
  EXPECT_TRUE(config.headers.empty());
  EXPECT_TRUE(config.body.empty());
  EXPECT_TRUE(config.body_path.empty());
  EXPECT_EQ(config.timeout_ns, 10'000'000'000);
  EXPECT_FALSE(config.print_latency);
  EXPECT_FALSE(config.json);
  EXPECT_EQ(config.target.host, "127.0.0.1");
  EXPECT_EQ(config.target.port, 8080);
  EXPECT_EQ(config.target.port_text, "8080");
  EXPECT_EQ(config.target.path, "/");
  EXPECT_EQ(config.target.host_header, "127.0.0.1:8080");
}

TEST(OptionsTest, DefaultThreadsNeverExceedConnections) {
  EXPECT_EQ(config_of({"-c", "1", kUrl}).threads, 1);
  EXPECT_EQ(config_of({"-c", "3", kUrl}).threads, 3);
  EXPECT_EQ(config_of({"-c", "4", kUrl}).threads, 4);
  EXPECT_EQ(config_of({"-c", "1000", kUrl}).threads, 4);
}

// min(4, connections, CPUs): a 2-core laptop's -c 5 runs 2 threads, not 4 taking turns.
TEST(OptionsTest, DefaultThreadsNeverExceedTheCpusAvailable) {
  EXPECT_EQ(config_of({"-c", "5", kUrl}, 2).threads, 2);
  EXPECT_EQ(config_of({"-c", "5", kUrl}, 1).threads, 1);
  EXPECT_EQ(config_of({"-c", "1", kUrl}, 2).threads, 1);
  EXPECT_EQ(config_of({"-c", "5", kUrl}, 64).threads, 4);
  EXPECT_EQ(config_of({"-c", "1,10", kUrl}, 2).threads, 2);  // a sweep's largest level
  const Config defaulted = config_of({"-c", "5", kUrl}, 2);
  EXPECT_FALSE(defaulted.threads_given);
  EXPECT_EQ(defaulted.cpus_available, 2);
  // Above the CPUs when asked for: allowed, and the report notes it.
  const Config asked = config_of({"-c", "5", "-t", "3", kUrl}, 1);
  EXPECT_EQ(asked.threads, 3);
  EXPECT_TRUE(asked.threads_given);
  EXPECT_EQ(asked.cpus_available, 1);
}

TEST(OptionsTest, ExplicitThreadsKeepEveryConnection) {
  const Config config = config_of({"-c", "10", "-t", "4", kUrl});
  EXPECT_EQ(config.connections, 10);
  EXPECT_EQ(config.threads, 4);
  EXPECT_EQ(config_of({"-c", "8", "-t", "8", kUrl}).threads, 8);
  EXPECT_EQ(config_of({"-t", "16", kUrl}).threads, 16);  // below the default 50 connections
}

TEST(OptionsTest, AllFourSpellingsOfAValuedFlagAgree) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-c", "10", kUrl}, {"-c10", kUrl}, {"--connections", "10", kUrl},
        {"--connections=10", kUrl}}) {
    EXPECT_EQ(config_of(args).connections, 10) << args[0];
  }
}

TEST(OptionsTest, BoundsAreInclusive) {
  EXPECT_EQ(config_of({"-c", "1000000", "-t", "1024", kUrl}).connections, 1'000'000);
  EXPECT_EQ(config_of({"-c", "1000000", "-t", "1024", kUrl}).threads, 1024);
  EXPECT_EQ(config_of({"-d", "24h", kUrl}).duration_ns, 86'400'000'000'000);
  EXPECT_EQ(config_of({"-r", "10M", kUrl}).rate, 10'000'000);
  EXPECT_EQ(config_of({"-r", "0.001", kUrl}).rate, 0.001);
  EXPECT_EQ(config_of({"--timeout", "60s", kUrl}).timeout_ns, 60'000'000'000);
}

TEST(OptionsTest, DurationTakesSecondsByDefaultAndUnits) {
  EXPECT_EQ(config_of({"-d", "10", kUrl}).duration_ns, 10'000'000'000);
  EXPECT_EQ(config_of({"-d", "10s", kUrl}).duration_ns, 10'000'000'000);
  EXPECT_EQ(config_of({"-d", "500ms", kUrl}).duration_ns, 500'000'000);
  EXPECT_EQ(config_of({"-d", "2m", kUrl}).duration_ns, 120'000'000'000);
  EXPECT_EQ(config_of({"-d", "1.5s", kUrl}).duration_ns, 1'500'000'000);
  EXPECT_EQ(config_of({"--duration=0.5", kUrl}).duration_ns, 500'000'000);
}

TEST(OptionsTest, RateAcceptsThousandsAndMillionsSuffixesAndTurnsOnOpenLoop) {
  EXPECT_EQ(config_of({"-r", "2000", kUrl}).rate, 2000);
  EXPECT_EQ(config_of({"-r", "2k", kUrl}).rate, 2000);
  EXPECT_EQ(config_of({"-r", "1.5k", kUrl}).rate, 1500);
  EXPECT_EQ(config_of({"-r", "2K", kUrl}).rate, 2000);
  EXPECT_EQ(config_of({"-r", "1M", kUrl}).rate, 1'000'000);
  EXPECT_EQ(config_of({"-r", "0.5", kUrl}).rate, 0.5);
  EXPECT_TRUE(config_of({"--rate=2k", kUrl}).open_loop());
}

TEST(OptionsTest, ClosedLoopIsAcceptedWithOrWithoutRate) {
  const Config open = config_of({"-r", "2k", "--closed-loop", kUrl});
  EXPECT_TRUE(open.open_loop());
  EXPECT_TRUE(open.closed_loop_stopwatch);
  const Config closed = config_of({"--closed-loop", kUrl});
  EXPECT_FALSE(closed.open_loop());
  EXPECT_TRUE(closed.closed_loop_stopwatch);
}

TEST(OptionsTest, TimeoutTakesMillisecondsByDefaultAndUnits) {
  EXPECT_EQ(config_of({"--timeout", "2000", kUrl}).timeout_ns, 2'000'000'000);
  EXPECT_EQ(config_of({"--timeout", "2s", kUrl}).timeout_ns, 2'000'000'000);
  EXPECT_EQ(config_of({"--timeout=500ms", kUrl}).timeout_ns, 500'000'000);
  EXPECT_EQ(config_of({"--timeout", "1.5", kUrl}).timeout_ns, 1'500'000);
}

TEST(OptionsTest, MethodIsKeptAsTyped) {
  EXPECT_EQ(config_of({"-m", "POST", kUrl}).method, "POST");
  EXPECT_EQ(config_of({"-mHEAD", kUrl}).method, "HEAD");
  EXPECT_EQ(config_of({"--method=PURGE", kUrl}).method, "PURGE");
}

TEST(OptionsTest, HeadersRepeatInOrderAndAreNormalised) {
  const Config config = config_of({"-H", "X-A:1", kUrl, "--header", "X-B:   two  ", "-HX-Empty:",
                                   "--header=Authorization: Bearer a:b", "-H", "-x: dash"});
  EXPECT_EQ(config.headers,
            (std::vector<std::string>{"X-A: 1", "X-B: two", "X-Empty:",
                                      "Authorization: Bearer a:b", "-x: dash"}));
}

// http/request's serializer honours the user's framing headers instead of adding its own, so
// the command line passes them through when they agree with the body (issue 10 item 6: when
// they contradict it, the bad-flag table above).
TEST(OptionsTest, FramingHeadersThatAgreeWithTheBodyArePassedThrough) {
  EXPECT_EQ(config_of({"-H", "Content-Length: 0", kUrl}).headers,
            (std::vector<std::string>{"Content-Length: 0"}));
  char path[] = "/tmp/hammer-options-body-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string chunks = "3\r\nabc\r\n0\r\n\r\n";
  ASSERT_EQ(write(fd, chunks.data(), chunks.size()), static_cast<ssize_t>(chunks.size()));
  close(fd);
  const Config chunked =
      config_of({"-m", "POST", "-H", "transfer-encoding:chunked", "--body", path, kUrl});
  EXPECT_EQ(chunked.headers, (std::vector<std::string>{"transfer-encoding: chunked"}));
  EXPECT_EQ(chunked.body, chunks);
  // The same body with a Content-Length that is not its length: exit 1 naming the flags.
  auto contradiction = parse_options({"-H", "Content-Length: 3", "--body", path, kUrl});
  ASSERT_FALSE(contradiction.has_value());
  EXPECT_EQ(contradiction.error().message,
            std::string("--header: Content-Length 3 contradicts the body of 13 bytes (--body '") +
                path + "')");
  std::remove(path);
}

// --precise-dispatch spins to each slot of the open-loop schedule; without --rate there is no
// schedule, and the flag was accepted and did nothing.
TEST(OptionsTest, PreciseDispatchWithoutARateIsRefused) {
  EXPECT_EQ(error_of({"-c", "10", "--precise-dispatch", kUrl}),
            "--precise-dispatch: spins to each slot of an open-loop schedule, which needs --rate "
            "(closed loop sends as soon as an answer lands)");
  EXPECT_EQ(error_of({"-c", "1,2", "--precise-dispatch", kUrl}),
            "--precise-dispatch: spins to each slot of an open-loop schedule, which needs --rate "
            "(closed loop sends as soon as an answer lands)");
  EXPECT_TRUE(config_of({"-r", "100", "--precise-dispatch", kUrl}).precise_dispatch);
  EXPECT_TRUE(config_of({"-r", "100,200", "--precise-dispatch", kUrl}).precise_dispatch);
}

// A Connection header that agrees with -p and --no-keepalive is passed through as given; one
// in a --requests line that contradicts them is refused with the line.
TEST(OptionsTest, ConnectionHeadersMustAgreeWithPipelineAndNoKeepalive) {
  EXPECT_EQ(config_of({"-p", "4", "-H", "Connection: keep-alive", kUrl}).headers,
            (std::vector<std::string>{"Connection: keep-alive"}));
  EXPECT_EQ(config_of({"--no-keepalive", "-H", "Connection: close", kUrl}).headers,
            (std::vector<std::string>{"Connection: close"}));
  EXPECT_EQ(config_of({"-H", "Connection: close", kUrl}).pipeline, 1);
  char path[] = "/tmp/hammer-options-requests-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string lines =
      "{\"path\": \"/a\"}\n{\"path\": \"/b\", \"headers\": {\"Connection\": \"close\"}}\n";
  ASSERT_EQ(write(fd, lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  close(fd);
  EXPECT_EQ(error_of({"-p", "3", "--requests", path, kUrl}),
            std::string("--pipeline: 3 requests in flight per connection need keep-alive, but "
                        "--requests ") + path + ":2 says 'Connection: close'; drop that header "
                        "or use -p 1");
  EXPECT_EQ(config_of({"--requests", path, kUrl}).requests.size(), 2u);
  // The -H default every line inherits is named as -H.
  EXPECT_EQ(error_of({"-p", "3", "-H", "Connection: close", "--requests", path, kUrl}),
            "--pipeline: 3 requests in flight per connection need keep-alive, but --header says "
            "'Connection: close'; drop that header or use -p 1");
  std::remove(path);
}

// The Unix epoch is an instant like any other (long passed): --start-at 0 is given, and the
// run refuses it as passed. It used to mean "not given" (0 was the sentinel), so the run
// started at once and --start-tolerance with it was refused as meaningless.
TEST(OptionsTest, StartAtTheEpochIsStillGiven) {
  for (const char* epoch : {"0", "1970-01-01T00:00:00Z"}) {
    const Config config = config_of({"--start-at", epoch, "--start-tolerance", "1s", kUrl});
    EXPECT_TRUE(config.start_at.given()) << epoch;
    EXPECT_EQ(config.start_at.unix_ns, 0) << epoch;
    EXPECT_EQ(config.start_at.tolerance_ns, 1'000'000'000) << epoch;
  }
  EXPECT_FALSE(config_of({kUrl}).start_at.given());
}

// -o naming the --body or --requests file would overwrite the user's input with the report
// after the run: refused before it, however the path is spelled.
TEST(OptionsTest, AnOutputThatIsTheBodyOrTheRequestsFileIsRefused) {
  char path[] = "/tmp/hammer-options-input-XXXXXX.json";
  const int fd = mkstemps(path, 5);
  ASSERT_GE(fd, 0);
  const std::string line = "{\"path\": \"/a\"}\n";
  ASSERT_EQ(write(fd, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  close(fd);
  const std::string spelled = std::string("/tmp/./") + (path + 5);
  EXPECT_EQ(error_of({"-m", "POST", "--body", path, "-o", spelled, kUrl}),
            "--output: '" + spelled + "' is the --body file; name another file");
  EXPECT_EQ(error_of({"--requests", path, "-o", path, kUrl}),
            std::string("--output: '") + path + "' is the --requests file; name another file");
  std::remove(path);
}

// "-o results/run.json" with no results/ directory (a typo, a fresh checkout) was found only
// after the whole run, when the file could not be written. The directory is checked before
// the run; the file itself is still written atomically after it.
TEST(OptionsTest, AnOutputInADirectoryThatDoesNotExistIsRefusedBeforeTheRun) {
  char file[] = "/tmp/hammer-options-plain-XXXXXX";
  const int fd = mkstemp(file);
  ASSERT_GE(fd, 0);
  close(fd);
  EXPECT_EQ(error_of({"-o", "/tmp/hammer-no-such-dir-7f3a/run.json", kUrl}),
            "--output: cannot write '/tmp/hammer-no-such-dir-7f3a/run.json': no directory "
            "'/tmp/hammer-no-such-dir-7f3a'");
  EXPECT_EQ(error_of({"-o", std::string(file) + "/run.csv", kUrl}),
            "--output: cannot write '" + std::string(file) + "/run.csv': '" + file +
                "' is not a directory");
  std::remove(file);
  EXPECT_EQ(config_of({"-o", "/tmp/run.json", "-o", "run.csv", kUrl}).outputs.size(), 2u)
      << "an existing directory, and the working one, are fine";
}

TEST(OptionsTest, UrlFillsTheTarget) {
  const Config config = config_of({"http://[::1]:9000/a?b=1#frag"});
  EXPECT_EQ(config.url, "http://[::1]:9000/a?b=1#frag");
  EXPECT_EQ(config.target.host, "::1");
  EXPECT_EQ(config.target.port, 9000);
  EXPECT_EQ(config.target.path, "/a?b=1");
  EXPECT_EQ(config.target.host_header, "[::1]:9000");
  EXPECT_EQ(config_of({"http://example.com"}).target.host_header, "example.com");
}

TEST(OptionsTest, NoRetryTurnsResendingOff) {
  EXPECT_TRUE(config_of({kUrl}).retry);
  EXPECT_FALSE(config_of({"--no-retry", kUrl}).retry);
}

TEST(OptionsTest, WarmupTimelineSlowAndKeepAliveFlags) {
  const Config defaults = config_of({kUrl});
  EXPECT_EQ(defaults.warmup_ns, 0);
  EXPECT_FALSE(defaults.print_timeline);
  EXPECT_EQ(defaults.slow_ns, 0);
  EXPECT_TRUE(defaults.keep_alive);
  const Config config =
      config_of({"-W", "3", "--timeline", "--slow", "100", "--no-keepalive", kUrl});
  EXPECT_EQ(config.warmup_ns, 3'000'000'000);
  EXPECT_TRUE(config.print_timeline);
  EXPECT_EQ(config.slow_ns, 100'000'000);
  EXPECT_FALSE(config.keep_alive);
  EXPECT_EQ(config_of({"--warmup=500ms", kUrl}).warmup_ns, 500'000'000);
  EXPECT_EQ(config_of({"-W2s", kUrl}).warmup_ns, 2'000'000'000);
  EXPECT_EQ(config_of({"--slow", "2s", kUrl}).slow_ns, 2'000'000'000);
}

TEST(OptionsTest, AConnectionListIsASweepWithThreadsFollowingTheLargestLevel) {
  const Config config = config_of({"-c", "1,2,5,10,25", kUrl});
  EXPECT_EQ(config.sweep.connections, (std::vector<int64_t>{1, 2, 5, 10, 25}));
  EXPECT_TRUE(config.sweep.active());
  EXPECT_EQ(config.connections, 25);
  EXPECT_EQ(config.threads, 4);  // each step caps it at its own level
  EXPECT_FALSE(config.open_loop());
  EXPECT_EQ(config_of({"-t", "1", "-c", "1,2", kUrl}).threads, 1);
  // A later single value ends the sweep, as a repeated flag keeps its last value.
  EXPECT_FALSE(config_of({"-c", "1,2", "-c", "3", kUrl}).sweep.active());
  EXPECT_FALSE(config_of({kUrl}).sweep.active());
}

TEST(OptionsTest, RateListsRangesAndSearches) {
  Config config = config_of({"--rate", "1000,2k,5000", kUrl});
  EXPECT_EQ(config.sweep.rates, (std::vector<double>{1000, 2000, 5000}));
  EXPECT_EQ(config.rate, 5000);
  EXPECT_TRUE(config.open_loop());
  config = config_of({"--rate", "1k:5k:1k", kUrl});
  EXPECT_EQ(config.sweep.rates, (std::vector<double>{1000, 2000, 3000, 4000, 5000}));
  config = config_of({"--rate", "0.1:0.3:0.1", kUrl});
  EXPECT_EQ(config.sweep.rates.size(), 3u);
  config = config_of({"--rate", "1k:4500:1k", kUrl});  // stop need not land on a step
  EXPECT_EQ(config.sweep.rates, (std::vector<double>{1000, 2000, 3000, 4000}));
  config = config_of({"--rate", "200:3000", "--slo", "p99=30ms", kUrl});
  EXPECT_TRUE(config.sweep.search());
  EXPECT_TRUE(config.sweep.rates.empty());
  EXPECT_EQ(config.sweep.search_low, 200);
  EXPECT_EQ(config.sweep.search_high, 3000);
  EXPECT_EQ(config.rate, 3000);
}

TEST(OptionsTest, AnyPercentileForSloAndPercentiles) {
  Config config = config_of({"--slo", "p95=20ms", "--slo", "p99.99=1s", "--slo", "p75.5=3",
                             kUrl});
  ASSERT_EQ(config.slos.size(), 3u);
  EXPECT_EQ(config.slos[0].key, "p95");
  EXPECT_EQ(config.slos[0].percentile, 95);
  EXPECT_EQ(config.slos[0].limit_ns, 20'000'000);
  EXPECT_EQ(config.slos[1].percentile, 99.99);
  EXPECT_EQ(config.slos[1].limit_ns, 1'000'000'000);
  EXPECT_EQ(config.slos[2].percentile, 75.5);
  EXPECT_TRUE(config_of({kUrl}).percentiles.empty());  // the default spectrum
  config = config_of({"--percentiles", "99.99,50,90,95,99,99.9", kUrl});
  EXPECT_EQ(config.percentiles, (std::vector<double>{50, 90, 95, 99, 99.9, 99.99}));  // rising
  EXPECT_EQ(config_of({"--percentiles=99.9999", kUrl}).percentiles,
            std::vector<double>{99.9999});
}

// "--slo p99=50ms,errors=1%" is two limits, as --percentiles takes a list; it was refused
// with "p99 takes a duration > 0", blaming a limit that was fine.
TEST(OptionsTest, OneSloValueMayListSeveralLimits) {
  const Config config = config_of({"--slo", "p99=50ms,errors=1%", "--slo", "max=1s", kUrl});
  ASSERT_EQ(config.slos.size(), 3u);
  EXPECT_EQ(config.slos[0].key, "p99");
  EXPECT_EQ(config.slos[0].limit_ns, 50'000'000);
  EXPECT_EQ(config.slos[1].key, "errors");
  EXPECT_DOUBLE_EQ(config.slos[1].error_rate, 0.01);
  EXPECT_EQ(config.slos[2].key, "max");
}

TEST(OptionsTest, SloLimitsAndTheControlUrl) {
  const Config config = config_of({"--slo", "p99=50ms", "--slo", "p99.9=1s", "--slo", "p50=2",
                                   "--slo", "max=10s", "--slo=errors=0.5%", "--slo", "p90=1us",
                                   "-c", "1,10", "--control", "http://127.0.0.1:9/empty", kUrl});
  ASSERT_EQ(config.slos.size(), 6u);
  EXPECT_EQ(config.slos[0].key, "p99");
  EXPECT_EQ(config.slos[0].percentile, 99);
  EXPECT_EQ(config.slos[0].limit_ns, 50'000'000);
  EXPECT_EQ(config.slos[0].limit_text, "50ms");
  EXPECT_EQ(config.slos[1].percentile, 99.9);
  EXPECT_EQ(config.slos[1].limit_ns, 1'000'000'000);
  EXPECT_EQ(config.slos[2].limit_ns, 2'000'000);  // a bare number is milliseconds
  EXPECT_EQ(config.slos[3].percentile, 100);
  EXPECT_TRUE(config.slos[4].is_error_rate());
  EXPECT_DOUBLE_EQ(config.slos[4].error_rate, 0.005);
  EXPECT_EQ(config.slos[5].limit_ns, 1'000);
  EXPECT_EQ(config.sweep.control_url, "http://127.0.0.1:9/empty");
  EXPECT_EQ(config.sweep.control_target.port, 9);
  EXPECT_EQ(config.sweep.control_target.path, "/empty");
  EXPECT_FALSE(config_of({"--slo", "p99=1s", kUrl}).sweep.active());  // a gate, not a sweep
}

TEST(OptionsTest, FlagsSetTheirBooleans) {
  const Config config = config_of({"--latency", kUrl, "--json"});
  EXPECT_TRUE(config.print_latency);
  EXPECT_TRUE(config.json);
}

TEST(OptionsTest, ARepeatedFlagKeepsItsLastValue) {
  EXPECT_EQ(config_of({"-c", "5", "-c", "7", kUrl}).connections, 7);
}

class BodyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "hammer_options_test_body_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  void TearDown() override { std::remove(path_.c_str()); }
  void write(const std::string& contents) {
    std::ofstream(path_, std::ios::binary) << contents;
  }
  std::string path_;
};

TEST_F(BodyFileTest, BodyIsReadAtParseTimeByteForByte) {
  const std::string contents("{\"a\": 1}\r\n\0binary\xff", 18);
  write(contents);
  const Config config = config_of({"--body", path_, kUrl});
  EXPECT_EQ(config.body, contents);
  EXPECT_EQ(config.body_path, path_);
  EXPECT_EQ(config_of({"--body=" + path_, kUrl}).body, contents);
}

TEST_F(BodyFileTest, AnEmptyBodyFileGivesAnEmptyBody) {
  write("");
  const Config config = config_of({"--body", path_, kUrl});
  EXPECT_TRUE(config.body.empty());
  EXPECT_EQ(config.body_path, path_);
}

TEST_F(BodyFileTest, ABodyOverTheLimitIsRefusedNamingTheFile) {
  write("");
  ASSERT_EQ(::truncate(path_.c_str(), kMaxBodyBytes + 1), 0);  // sparse: costs no disk or time
  EXPECT_EQ(error_of({"--body", path_, kUrl}),
            "--body: '" + path_ + "' is larger than the 64MB limit");
}

// A pipe has no size: the body is read to end of file, so `--body /dev/stdin` works.
TEST(OptionsTest, BodyIsReadFromAPipeToEndOfFile) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string contents = "streamed body";
  ASSERT_EQ(::write(fds[1], contents.data(), contents.size()),
            static_cast<ssize_t>(contents.size()));
  ::close(fds[1]);
  const Config config = config_of({"--body", "/dev/fd/" + std::to_string(fds[0]), kUrl});
  ::close(fds[0]);
  EXPECT_EQ(config.body, contents);
}

TEST(OptionsTest, DoubleDashEndsOptions) {
  EXPECT_EQ(config_of({"-c", "5", "--", kUrl}).connections, 5);
  EXPECT_EQ(error_of({"--", "--json"}),
            "bad URL '--json': missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of({kUrl, "--", "-c"}),
            "unexpected argument '-c'; hammer takes exactly one URL (already have '" +
                std::string(kUrl) + "')");
}

TEST(OptionsTest, UrlMayComeAnywhere) {
  const Config config = config_of({"-c", "5", kUrl, "--json", "-t", "2"});
  EXPECT_EQ(config.url, kUrl);
  EXPECT_EQ(config.threads, 2);
  EXPECT_TRUE(config.json);
}

TEST(OptionsTest, UrlMistakesAreNamed) {
  EXPECT_EQ(error_of({}), "missing URL (usage: hammer [options] <url>)");
  EXPECT_EQ(error_of({"-c", "5"}), "missing URL (usage: hammer [options] <url>)");
  EXPECT_EQ(error_of({kUrl, "http://other/"}),
            "unexpected argument 'http://other/'; hammer takes exactly one URL (already have '" +
                std::string(kUrl) + "')");
  // A flag without a value swallows nothing; its stray value shows up as a second argument.
  EXPECT_EQ(error_of({"--latency", "5", kUrl}),
            "unexpected argument 'http://127.0.0.1:8080/'; hammer takes exactly one URL "
            "(already have '5')");
  EXPECT_EQ(error_of({"ftp://x"}),
            "bad URL 'ftp://x': unsupported scheme 'ftp'; only http:// and https:// are "
            "supported");
  EXPECT_EQ(error_of({"localhost:8080"}),
            "bad URL 'localhost:8080': missing scheme; did you mean 'http://localhost:8080'?");
  EXPECT_EQ(error_of({"-"}), "bad URL '-': missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of({"http://h:99999/"}),
            "bad URL 'http://h:99999/': bad port '99999'; expected a number from 1 to 65535");
  // The URL is quoted with its control characters escaped, so the error stays one line.
  EXPECT_EQ(error_of({"http://h/a\r\nX: y"}),
            "bad URL 'http://h/a\\r\\nX: y': contains a control character");
}

TEST(OptionsTest, ErrorsThatRepeatPartOfAValueEscapeItsControlBytesToo) {
  // An SLO's key comes back in the reason as well as in the quoted value: both stay printable.
  const std::string error = error_of({"--slo", "p\x7f" "99=50ms", kUrl});
  EXPECT_EQ(error.find('\x7f'), std::string::npos) << error;
  EXPECT_NE(error.find("p\\x7f99"), std::string::npos) << error;
  EXPECT_EQ(error_of({"--slo", "p9\t9=5ms", kUrl}).find('\t'), std::string::npos);
}

TEST(OptionsTest, UnknownOptionsSuggestTheNearestName) {
  EXPECT_EQ(error_of({"--conections", kUrl}),
            "unknown option '--conections'; did you mean '--connections'?");
  EXPECT_EQ(error_of({"--conections=5", kUrl}),
            "unknown option '--conections=5'; did you mean '--connections'?");
  EXPECT_EQ(error_of({"--thread", "2", kUrl}),
            "unknown option '--thread'; did you mean '--threads'?");
  EXPECT_EQ(error_of({"--durtaion", "2", kUrl}),
            "unknown option '--durtaion'; did you mean '--duration'?");
  EXPECT_EQ(error_of({"--Latency", kUrl}), "unknown option '--Latency'; did you mean '--latency'?");
  EXPECT_EQ(error_of({"--closedloop", kUrl}),
            "unknown option '--closedloop'; did you mean '--closed-loop'?");
  EXPECT_EQ(error_of({"-connections", "5", kUrl}),
            "unknown option '-connections'; did you mean '--connections'?");
  EXPECT_EQ(error_of({"-json", kUrl}), "unknown option '-json'; did you mean '--json'?");
  // Short options in the other case: wrk2's -R is hammer's -r.
  EXPECT_EQ(error_of({"-R", "2000", kUrl}), "unknown option '-R'; did you mean '-r' (--rate)?");
  EXPECT_EQ(error_of({"-R2000", kUrl}), "unknown option '-R2000'; did you mean '-r' (--rate)?");
  EXPECT_EQ(error_of({"-C", "5", kUrl}),
            "unknown option '-C'; did you mean '-c' (--connections)?");
}

// Flags that wrk, wrk2, oha, hey, k6 and autocannon users type by habit: each names hammer's way
// to do the same, or says plainly that there is none. "-T" (a content type in hey and oha) and
// "-w" (autocannon's workers) must not suggest -t (threads) and -W (warm-up) by their case.
TEST(OptionsTest, OtherToolsFlagsNameHammersAlternative) {
  const auto says = [](std::vector<std::string> args, std::string_view hint) {
    args.push_back(kUrl);
    const std::string error = error_of(args);
    EXPECT_EQ(error.rfind("unknown option '" + args[0] + "'; ", 0), 0u) << error;
    EXPECT_NE(error.find(hint), std::string::npos) << args[0] << ": " << error;
  };
  says({"-s", "post.lua"}, "--requests FILE");
  says({"-s", "post.lua"}, "-m, -H and --body FILE");
  says({"--script", "post.lua"}, "--requests FILE");
  says({"-n", "1000"}, "-d");
  says({"--iterations", "1000"}, "-d");
  says({"-z", "10s"}, "-d (--duration)");
  says({"-q", "100"}, "-r (--rate)");
  says({"--rps", "100"}, "-r (--rate)");
  says({"--vus", "10"}, "-c (--connections)");
  says({"-u", "10"}, "-c (--connections)");
  says({"-L"}, "--latency");
  says({"-l"}, "--latency");
  says({"-U"}, "uncorrected");
  says({"--u_latency"}, "uncorrected");
  says({"--latency-correction"}, "-r");
  says({"--disable-keepalive"}, "--no-keepalive");
  says({"-T", "application/json"}, "-H 'Content-Type:");
  says({"-D", "body.json"}, "--body FILE");
  says({"-b", "{}"}, "--body FILE");
  says({"-w", "4"}, "-t (--threads)");
  says({"-j"}, "--json");
  says({"--http2"}, "HTTP/1.1");
  says({"-h2"}, "HTTP/1.1");
  // Glued values are the same habit: -n1000, --rps=100.
  says({"-n1000"}, "-d");
  says({"--rps=100"}, "-r (--rate)");
}

// wrk users write "-c 1k" and "-c 10k" (wrk's counts take SI suffixes, as hammer's -r does).
TEST(OptionsTest, ConnectionsTakeKAndMSuffixesAsWrksDo) {
  const auto connections = [](std::vector<std::string> args) {
    args.push_back(kUrl);
    return config_of(args).connections;
  };
  EXPECT_EQ(connections({"-c", "1k"}), 1000);
  EXPECT_EQ(connections({"-c10k"}), 10000);
  EXPECT_EQ(connections({"--connections=1.5k"}), 1500);
  EXPECT_EQ(connections({"-c", "1k,2k"}), 2000) << "a sweep's levels too";
  EXPECT_EQ(error_of({"-c", "2M", kUrl}), "--connections: must be at most 1000000, got '2M'");
  EXPECT_EQ(error_of({"-c", "0k", kUrl}),
            "--connections: expected a whole number >= 1, got '0k'");
  EXPECT_EQ(error_of({"-c", "1.0005k", kUrl}),
            "--connections: expected a whole number >= 1, got '1.0005k'");
}

TEST(OptionsTest, UnknownOptionsFarFromAnyNameGetNoSuggestion) {
  EXPECT_EQ(error_of({"--frobnicate", kUrl}), "unknown option '--frobnicate'; see hammer --help");
  EXPECT_EQ(error_of({"-x", kUrl}), "unknown option '-x'; see hammer --help");
  EXPECT_EQ(error_of({"-hx", kUrl}), "unknown option '-hx'; see hammer --help");
  EXPECT_EQ(error_of({"--", kUrl, "--"}),
            "unexpected argument '--'; hammer takes exactly one URL (already have '" +
                std::string(kUrl) + "')");
}

TEST(OptionsTest, HelpAndVersionNeedNoUrlAndStopParsing) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"-h"}, {"-c", "5", "--help", "--bogus"},
        {kUrl, "-h", "extra"}}) {
    auto parsed = parse_options(args);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->command, Command::help);
  }
  auto version = parse_options({"--version", "-c", "abc"});
  ASSERT_TRUE(version);
  EXPECT_EQ(version->command, Command::version);
}

TEST(OptionsTest, ProgressFdTakesAnOpenDescriptor) {
  EXPECT_EQ(config_of({kUrl}).progress_fd, -1);
  EXPECT_EQ(config_of({kUrl, "--progress-fd", "2"}).progress_fd, 2);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  EXPECT_EQ(config_of({kUrl, "--progress-fd=" + std::to_string(pipe_fds[1])}).progress_fd,
            pipe_fds[1]);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST(OptionsTest, GenerateStopsParsingAndSaysWhat) {
  for (auto [word, kind] : {std::pair{"man", DocKind::man}, std::pair{"bash", DocKind::bash},
                            std::pair{"zsh", DocKind::zsh}}) {
    auto parsed = parse_options({"--generate", word, "-c", "abc"});
    ASSERT_TRUE(parsed) << word;
    EXPECT_EQ(parsed->command, Command::generate);
    EXPECT_EQ(parsed->generate, kind);
  }
}

TEST(OptionsTest, AnErrorBeforeHelpStillWins) {
  EXPECT_EQ(error_of({"--bogus", "--help"}), "unknown option '--bogus'; see hammer --help");
  EXPECT_EQ(error_of({"-c", "abc", "--version"}),
            "--connections: expected a whole number >= 1, got 'abc'");
}

TEST(OptionsTest, OutputRepeatsAndTheExtensionChoosesTheFormat) {
  const Config config =
      config_of({"-o", "run.json", kUrl, "--output", "/tmp/run.HGRM", "-orun.csv", "-o", "x.y.json"});
  ASSERT_EQ(config.outputs.size(), 4u);
  EXPECT_EQ(config.outputs[0].path, "run.json");
  EXPECT_EQ(config.outputs[0].format, OutputFormat::json);
  EXPECT_EQ(config.outputs[1].path, "/tmp/run.HGRM");
  EXPECT_EQ(config.outputs[1].format, OutputFormat::hgrm);
  EXPECT_EQ(config.outputs[2].path, "run.csv");
  EXPECT_EQ(config.outputs[2].format, OutputFormat::csv);
  EXPECT_EQ(config.outputs[3].format, OutputFormat::json);
  EXPECT_FALSE(config.json) << "-o x.json does not turn stdout into JSON";
  EXPECT_TRUE(config_of({kUrl}).outputs.empty());
  // A sweep writes its steps as .json and .csv.
  EXPECT_EQ(config_of({"-c", "1,2", "-o", "s.csv", "-o", "s.json", kUrl}).outputs.size(), 2u);
}

// -o run.hgrm in open loop also writes run.uncorrected.hgrm (run.corrected.hgrm with
// --closed-loop). Naming that file in another -o wrote it twice, the second time with the other
// histogram: run.uncorrected.hgrm held the corrected one.
TEST(OptionsTest, AnOutputThatIsAnHgrmsCompanionIsRefused) {
  EXPECT_EQ(error_of({"-r", "100", "-o", "a.hgrm", "-o", "a.uncorrected.hgrm", kUrl}),
            "--output: -o a.hgrm already writes the uncorrected histogram there; give a.hgrm "
            "alone, got 'a.uncorrected.hgrm'");
  EXPECT_EQ(error_of({"-r", "100", "-o", "a.uncorrected.hgrm", "-o", "a.hgrm", kUrl}),
            "--output: -o a.hgrm already writes the uncorrected histogram there; give a.hgrm "
            "alone, got 'a.uncorrected.hgrm'");
  EXPECT_EQ(error_of({"-r", "100", "--closed-loop", "-o", "d/a.hgrm", "-o", "d/a.corrected.hgrm",
                      kUrl}),
            "--output: -o d/a.hgrm already writes the corrected histogram there; give d/a.hgrm "
            "alone, got 'd/a.corrected.hgrm'");
  // However spelled: "./a.uncorrected.hgrm" is the same file, and it ended up holding the
  // corrected histogram (the second write of it).
  EXPECT_EQ(error_of({"-r", "100", "-o", "a.hgrm", "-o", "./a.uncorrected.hgrm", kUrl}),
            "--output: -o a.hgrm already writes the uncorrected histogram there; give a.hgrm "
            "alone, got './a.uncorrected.hgrm'");
  // Closed loop writes no companion; open loop's other name is free.
  EXPECT_EQ(config_of({"-o", "a.hgrm", "-o", "a.uncorrected.hgrm", kUrl}).outputs.size(), 2u);
  EXPECT_EQ(config_of({"-r", "100", "-o", "a.hgrm", "-o", "a.corrected.hgrm", kUrl})
                .outputs.size(),
            2u);
}

// A temporary file for --cacert, --cert and --key (options check only that it can be read).
class TlsFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/hammer-tls-option-XXXXXX";
    const int fd = mkstemp(name);
    ASSERT_GE(fd, 0);
    close(fd);
    path_ = name;
  }
  void TearDown() override { std::remove(path_.c_str()); }
  std::string path_;
};

constexpr const char* kHttpsUrl = "https://localhost:8443/";

TEST_F(TlsFileTest, TlsFlagsFillTheConfigOfAnHttpsRun) {
  const Config config = config_of({"-k", "--cacert", path_, "--cert", path_, "--key", path_,
                                   "--tls-min", "1.3", "--tls-max", "1.3", "--tls-resume", "off",
                                   kHttpsUrl});
  EXPECT_EQ(config.target.scheme, Scheme::https);
  EXPECT_EQ(config.target.port, 8443);
  EXPECT_TRUE(config.tls.insecure);
  EXPECT_EQ(config.tls.ca_file, path_);
  EXPECT_EQ(config.tls.cert_file, path_);
  EXPECT_EQ(config.tls.key_file, path_);
  EXPECT_EQ(config.tls.min_version, TlsVersion::tls1_3);
  EXPECT_EQ(config.tls.max_version, TlsVersion::tls1_3);
  EXPECT_FALSE(config.tls.resume);
  EXPECT_TRUE(config_of({"--insecure", kHttpsUrl}).tls.insecure);
}

TEST(OptionsTest, TlsDefaultsVerifyResumeAndAllowBothVersions) {
  const Config config = config_of({kHttpsUrl});
  EXPECT_EQ(config.target.port, 8443);
  EXPECT_FALSE(config.tls.insecure);
  EXPECT_TRUE(config.tls.ca_file.empty());
  EXPECT_TRUE(config.tls.cert_file.empty());
  EXPECT_EQ(config.tls.min_version, TlsVersion::tls1_2);
  EXPECT_EQ(config.tls.max_version, TlsVersion::tls1_3);
  EXPECT_TRUE(config.tls.resume);
  EXPECT_EQ(config_of({"https://example.com/"}).target.port, 443);
}

TEST_F(TlsFileTest, TlsFlagsThatNeedEachOtherOrAnHttpsUrlSaySo) {
  EXPECT_EQ(error_of({"--cert", path_, kHttpsUrl}),
            "--cert: needs --key FILE, the certificate's private key");
  EXPECT_EQ(error_of({"--key", path_, kHttpsUrl}),
            "--key: needs --cert FILE, the certificate it belongs to");
  EXPECT_EQ(error_of({"--tls-min", "1.3", "--tls-max", "1.2", kHttpsUrl}),
            "--tls-min: 1.3 is above --tls-max 1.2, which leaves no version to offer");
  EXPECT_EQ(error_of({"--tls-resume", "off", kUrl}),
            "--tls-resume: only means something with an https:// URL, got "
            "'http://127.0.0.1:8080/'");
  // The first such flag is the one named.
  EXPECT_EQ(error_of({"--cacert", path_, "-k", kUrl}),
            "--cacert: only means something with an https:// URL, got "
            "'http://127.0.0.1:8080/'");
  // A sweep's --control URL over https is https enough.
  EXPECT_EQ(config_of({"-c", "1,2", "--control", "https://127.0.0.1/", "-k", kUrl})
                .sweep.control_target.scheme,
            Scheme::https);
  EXPECT_EQ(config_of({"--tls-min", "1.2", "--tls-max", "1.2", kHttpsUrl}).tls.max_version,
            TlsVersion::tls1_2);
}

// https:// parses; the run refuses it (in main) until TLS is wired into the engines.
TEST(OptionsTest, AnHttpsRunIsRefusedWithOneLine) {
  const std::string why =
      kBuiltWithTls
          ? "https is not supported (hammer speaks plain HTTP/1.1); use an http:// URL"
          : "this build of hammer has no TLS (built without OpenSSL 3); use an http:// URL";
  auto refused = https_refusal(config_of({"https://example.com/"}));
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->message, "bad URL 'https://example.com/': " + why);
  refused = https_refusal(config_of({"-c", "1,2", "--control", "https://x/", kUrl}));
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->message, "--control: bad URL 'https://x/': " + why);
  EXPECT_FALSE(https_refusal(config_of({kUrl})));
}

TEST(OptionsTest, LongOptionNamesListEveryFlagOfTheDesign) {
  const std::vector<std::string_view> names(long_option_names().begin(),
                                            long_option_names().end());
  // The design's flags, in the design's order; flags that later issues add follow them.
  const std::vector<std::string_view> design = {
      "--connections", "--threads", "--duration", "--rate", "--closed-loop", "--method",
      "--header", "--body", "--timeout", "--latency", "--json", "--version", "--help"};
  ASSERT_GE(names.size(), design.size());
  EXPECT_EQ(std::vector<std::string_view>(names.begin(), names.begin() + design.size()), design);
  for (std::string_view added : {"--warmup", "--timeline", "--slow", "--no-keepalive"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), added), names.end()) << added;
  }
}

}  // namespace
}  // namespace hammer
