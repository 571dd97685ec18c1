// SPDX-License-Identifier: MIT
#pragma once
// The command line (design.md §2): argv in, a checked Config or one UsageError line out.
// Parsing returns instead of exiting, so every bad flag is a table row in options_test.cc;
// only cli/main.cc prints "hammer: <message>" and chooses the exit status.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/shared_flags.h"
#include "cli/usage.h"
#include "cli/usage_error.h"
#include "core/config.h"
#include "core/expected.h"
#include "core/shard_share.h"
#include "time/time_units.h"

namespace hammer {

enum class Command { run, help, version, generate };

/// What --generate writes: the man page or a shell's completion script.
enum class DocKind { man, bash, zsh };

struct ParsedCommand {
  Command command = Command::run;
  Config config;  // fully checked when command == run; defaults otherwise
  DocKind generate = DocKind::man;  // command == generate: what to write
};

/// Parses the arguments after argv[0], spelled as cli/arg_tokenizer.h reads every command's
/// ("-c 10", "-c10", "--connections 10", "--connections=10"; "--" ends the options); exactly
/// one URL.
/// -h/--help, --version and --generate stop parsing where they appear and return that command (errors in
/// earlier arguments still win). A repeated single-valued flag keeps its last value; -H adds.
/// Fills every Config field, threads included (min(4, connections, CPUs available to the
/// process) unless -t is given). Reads the --body file, so it touches the file system, and
/// asks the system how many CPUs the process may use; nothing else.
Expected<ParsedCommand, UsageError> parse_options(const std::vector<std::string>& args);
/// As above with the CPU count given (tests: the same defaults on any machine).
Expected<ParsedCommand, UsageError> parse_options(const std::vector<std::string>& args,
                                                  int64_t cpus_available);

/// --engine's value, also read from the HAMMER_ENGINE environment variable (`source` names
/// which, for the error): io_uring, epoll or poll.
Expected<EngineKind, UsageError> parse_engine(std::string_view source, std::string_view value);

/// An https:// URL (or --control URL) that this hammer cannot run yet: TLS is not wired into
/// the engines (issue 25), or this build has no TLS at all. main refuses it before the run.
std::optional<UsageError> https_refusal(const Config& config);

/// Every long option, "--connections" first, in --help order; for suggestions and tests.
std::span<const std::string_view> long_option_names();

// The bounds parse_options checks, kMaxConnections and kMaxThreads, are core/config.h's.
inline constexpr int64_t kMaxDurationNs = 24 * kNanosPerHour;  // 24h
inline constexpr double kMinRate = 0.001;       // one request per 1,000 s
inline constexpr double kMaxRate = 10'000'000;  // 10M req/s, far above one machine's reach
inline constexpr int64_t kMaxTimeoutNs = 60 * kNanosPerSecond;  // the histogram's 60 s range
inline constexpr int64_t kMaxBodyBytes = 64 * 1024 * 1024;      // serialized once, kept in RAM
inline constexpr int64_t kMaxShards = 100'000;  // --shard I/N: N machines in one fleet
inline constexpr int64_t kMaxPipeline = 1'000;  // -p: requests in flight per connection
inline constexpr int64_t kMaxRequestsCount = 1'000'000'000'000;  // -n: 10M req/s for a day is less
inline constexpr int64_t kMaxStreams = 1'000;   // --streams: HTTP/2 streams per connection

}  // namespace hammer
