// SPDX-License-Identifier: MIT
#include "cli/foreign_flags.h"

#include <array>

namespace hammer {
namespace {

struct ForeignFlag {
  std::string_view name;
  std::string_view hint;
};

constexpr std::string_view kScript =
    "Lua scripts are not supported (wrk's -s); a script's method, headers and body are -m, -H "
    "and --body FILE, and several requests in one run are --requests FILE (JSON Lines)";
constexpr std::string_view kCount = "a request count is -n (--requests-count), e.g. -n 1000";
constexpr std::string_view kDuration = "the duration is -d (--duration), e.g. -d 10s";
constexpr std::string_view kRate = "the rate is -r (--rate), requests/s over all connections";
constexpr std::string_view kConnections = "concurrency is -c (--connections)";
constexpr std::string_view kLatency = "the full percentile spectrum is --latency";
constexpr std::string_view kUncorrected =
    "open-loop runs (-r) print the uncorrected latency beside the corrected one (the full "
    "spectrum with --latency), and always in --json";
constexpr std::string_view kCorrection =
    "open-loop runs (-r) correct for coordinated omission by default";
constexpr std::string_view kKeepalive =
    "connections are kept alive by default; --no-keepalive opens one per request";
constexpr std::string_view kContentType =
    "set the content type as a header: -H 'Content-Type: application/json'";
constexpr std::string_view kBody = "a request body is read from a file: --body FILE";
constexpr std::string_view kWorkers =
    "worker threads are -t (--threads); a warm-up is -W (--warmup)";
constexpr std::string_view kJson = "machine-readable output is --json";
constexpr std::string_view kHttp2 = "hammer's is --http2 (h2 by ALPN, h2c with prior knowledge)";

constexpr std::array kForeignFlags = {
    ForeignFlag{"-s", kScript},           // wrk, wrk2
    ForeignFlag{"--script", kScript},     // wrk, wrk2
    ForeignFlag{"--iterations", kCount},  // k6
    ForeignFlag{"--amount", kCount},      // autocannon
    ForeignFlag{"-a", kCount},            // autocannon --amount
    ForeignFlag{"-z", kDuration},         // hey, oha
    ForeignFlag{"-q", kRate},             // hey, oha
    ForeignFlag{"--rps", kRate},          // k6
    ForeignFlag{"--qps", kRate},
    ForeignFlag{"-u", kConnections},      // k6 --vus
    ForeignFlag{"--vus", kConnections},   // k6
    ForeignFlag{"-L", kLatency},          // wrk2 --latency
    ForeignFlag{"-l", kLatency},          // autocannon --latency
    ForeignFlag{"-U", kUncorrected},      // wrk2 --u_latency
    ForeignFlag{"--u_latency", kUncorrected},
    ForeignFlag{"--latency-correction", kCorrection},  // oha
    ForeignFlag{"--disable-keepalive", kKeepalive},  // hey, oha
    ForeignFlag{"-T", kContentType},      // ab, hey, oha
    ForeignFlag{"-D", kBody},             // hey, oha: body from a file
    ForeignFlag{"-b", kBody},             // autocannon: body
    ForeignFlag{"-w", kWorkers},          // autocannon: workers
    ForeignFlag{"-j", kJson},             // autocannon, oha
    ForeignFlag{"-h2", kHttp2},           // hey
};

}  // namespace

std::optional<std::string_view> foreign_flag_hint(std::string_view name) {
  for (const ForeignFlag& flag : kForeignFlags) {
    if (flag.name == name) return flag.hint;
  }
  return std::nullopt;
}

}  // namespace hammer
