// SPDX-License-Identifier: MIT
// One row per way a flag's value can be wrong, and every flag has a row: each is one line
// naming the flag and the value (style.md §3).
#include "cli/options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/options_testing.h"

namespace hammer {
namespace {

using namespace options_testing;

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

    {{"-n", "abc"}, "--requests-count: expected a whole number >= 1, got 'abc'"},
    {{"-n", "0"}, "--requests-count: expected a whole number >= 1, got '0'"},
    {{"-n", "-5"}, "--requests-count: expected a whole number >= 1, got '-5'"},
    {{"-n", "1.5"}, "--requests-count: expected a whole number >= 1, got '1.5'"},
    {{"--requests-count=0k"}, "--requests-count: expected a whole number >= 1, got '0k'"},
    {{"-n", "1000000000001"},
     "--requests-count: must be at most 1000000000000, got '1000000000001'"},
    {{"-n", "2000000M"}, "--requests-count: must be at most 1000000000000, got '2000000M'"},
    {{"-n"}, "--requests-count: missing value"},
    {{"-n", "1000", "-d", "10s"},
     "--requests-count: -n and -d (--duration) both say when the run ends; give one, got -n "
     "1000 and -d 10s"},
    {{"-d", "2", "-n", "1000"},
     "--requests-count: -n and -d (--duration) both say when the run ends; give one, got -n "
     "1000 and -d 2s"},
    {{"-n", "1000", "-c", "1,2"},
     "--requests-count: a sweep runs each level for -d; drop -n 1000 or the list or range"},
    {{"-n", "1000000", "-r", "1"},
     "--requests-count: -n 1000000 at --rate 1 req/s would run longer than 24h; lower -n or "
     "raise --rate"},

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
    // A single run's tables, taken by a sweep and silently left out.
    {{"-c", "1,2", "--percentiles", "90,99.9"},
     "--percentiles: prints a single run's tables; a sweep's table has p50 and p99 per level "
     "(each step's -o JSON has 50, 90, 95, 99, 99.9 and max): run one level alone for it"},
    {{"-r", "100,200", "--timeline"},
     "--timeline: prints a single run's tables; a sweep's table has p50 and p99 per level "
     "(each step's -o JSON has 50, 90, 95, 99, 99.9 and max): run one level alone for it"},
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
    {{"--http2=yes"}, "--http2: takes no value, got '--http2=yes'"},
    {{"--streams", "0", "--http2"}, "--streams: expected a whole number >= 1, got '0'"},
    {{"--streams", "1001", "--http2"}, "--streams: must be at most 1000, got '1001'"},
    {{"--streams", "10"},
     "--streams: 10 streams per connection are HTTP/2's; add --http2 (HTTP/1.1 pipelines with "
     "-p)"},
    {{"--http2", "-p", "4"},
     "--pipeline: HTTP/1.1 pipelining does not go with --http2; streams in flight per "
     "connection are --streams"},
    {{"--http2", "--no-keepalive"},
     "--no-keepalive: an HTTP/2 connection carries many requests; drop --no-keepalive or "
     "--http2"},
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
    {{"--data", "/nonexistent/keys.csv"},
     "--data: /nonexistent/keys.csv: cannot read: No such file or directory"},
    {{"--data"}, "--data: missing value"},
    {{"--data-order", "shuffled"}, "--data-order: expected sequential or random, got 'shuffled'"},
    {{"--data-order"}, "--data-order: missing value"},
    {{"--data-order", "random"},
     "--data-order: orders the rows of --data FILE.csv, and no --data was given"},
    {{"--arrival", "uniform"}, "--arrival: expected constant or poisson, got 'uniform'"},
    {{"--arrival"}, "--arrival: missing value"},
    {{"--arrival", "poisson", "--closed-loop"},
     "--arrival: poisson spaces the slots of an open-loop schedule, which needs --rate (closed "
     "loop sends as soon as an answer lands)"},
    {{"--seed", "-1"}, "--seed: expected a whole number >= 0, got '-1'"},
    {{"--seed", "1.5"}, "--seed: expected a whole number >= 0, got '1.5'"},
    {{"--seed", "18446744073709551616"},
     "--seed: must be at most 18446744073709551615, got '18446744073709551616'"},
    {{"--seed"}, "--seed: missing value"},
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
    {{"--dispatch-precision", "fast"},
     "--dispatch-precision: expected a duration >= 0 (e.g. 1ms, 200us or 0), got 'fast'"},
    {{"--dispatch-precision=-1ms"},
     "--dispatch-precision: expected a duration >= 0 (e.g. 1ms, 200us or 0), got '-1ms'"},
    {{"--dispatch-precision", "101ms"}, "--dispatch-precision: must be at most 100ms, got '101ms'"},
    {{"--dispatch-precision"}, "--dispatch-precision: missing value"},
    // --progress-fd: a descriptor this process has open, never stdin or stdout.
    {{"--progress-fd", "0"}, "--progress-fd: 0 is stdin, not writable progress, got '0'"},
    {{"--progress-fd", "1"},
     "--progress-fd: 1 is stdout, which carries the report; use 2 (stderr) or 3 and up, got '1'"},
    {{"--progress-fd", "x"}, "--progress-fd: expected a whole number >= 1, got 'x'"},
    {{"--progress-fd", "987654"}, "--progress-fd: not an open file descriptor, got '987654'"},
    {{"--progress-fd", "1000001"}, "--progress-fd: must be at most 1000000, got '1000001'"},
    {{"--progress-fd"}, "--progress-fd: missing value"},
    // --metrics-listen: HOST:PORT, [IPv6]:PORT or :PORT; the port a number, 0 to 65535.
    {{"--metrics-listen", "9464"},
     "--metrics-listen: expected HOST:PORT, [IPv6]:PORT or :PORT (127.0.0.1:9464), got '9464'"},
    {{"--metrics-listen", "127.0.0.1:"},
     "--metrics-listen: the port must be a number from 0 to 65535, got '127.0.0.1:'"},
    {{"--metrics-listen", "127.0.0.1:65536"},
     "--metrics-listen: the port must be a number from 0 to 65535, got '127.0.0.1:65536'"},
    {{"--metrics-listen", "localhost:http"},
     "--metrics-listen: the port must be a number from 0 to 65535, got 'localhost:http'"},
    {{"--metrics-listen", "::1:9464"},
     "--metrics-listen: an IPv6 address goes in brackets: [::1]:9464, got '::1:9464'"},
    {{"--metrics-listen", "http://127.0.0.1:9464/metrics"},
     "--metrics-listen: an address to listen on, not a URL: HOST:PORT (127.0.0.1:9464 serves "
     "http://127.0.0.1:9464/metrics), got 'http://127.0.0.1:9464/metrics'"},
    {{"--metrics-listen", "[]:9464"},
     "--metrics-listen: expected HOST:PORT, [IPv6]:PORT or :PORT (127.0.0.1:9464), got '[]:9464'"},
    {{"--metrics-listen", ":9464", "-c", "1,2"},
     "--metrics-listen: serves one run's figures; a sweep's steps are runs of their own (watch a "
     "single run, or read the sweep's -o file)"},
    {{"--metrics-listen"}, "--metrics-listen: missing value"},
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

}  // namespace
}  // namespace hammer
