// SPDX-License-Identifier: MIT
// libFuzzer target for the command line: the fuzz bytes are split on NUL into argv (after
// argv[0]), and parse_options must return a Config or a UsageError — never crash, abort, exit
// or throw. Checked on every input:
// - a UsageError is one non-empty line (main prints it after "hammer: "; a newline or a control
//   byte inside it would let a hostile argument forge a second line);
// - a parsed run has the invariants the engine relies on: 1 <= threads <= connections, a
//   duration and timeout > 0, a URL whose target path starts with '/'.
//
// Files: --body FILE reads FILE. Fuzz input must not pick arbitrary paths — /dev/zero would be
// read up to the 64 MiB cap on every run, a FIFO or /dev/stdin would block forever — so the
// harness rewrites every --body value to a path that cannot exist (under a missing directory,
// keeping the fuzzed bytes so the error message's quoting is still exercised) or, when the
// value starts with an odd byte, to /dev/null (the read path, zero bytes). No other flag touches
// the file system.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"

namespace {

[[noreturn]] void broken(const char* what, std::string_view detail) {
  std::fprintf(stderr, "options_fuzz: invariant broken: %s: %.*s\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

std::string safe_body_path(std::string_view value) {
  if (!value.empty() && (static_cast<unsigned char>(value.front()) & 1) != 0) return "/dev/null";
  return "/nonexistent-hammer-fuzz/" + std::string(value);
}

// Every --body value replaced by safe_body_path (both "--body FILE" and "--body=FILE").
void neutralise_files(std::vector<std::string>& args) {
  static constexpr std::string_view kInline = "--body=";
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--body" && i + 1 < args.size()) {
      args[i + 1] = safe_body_path(args[i + 1]);
      ++i;
    } else if (std::string_view(args[i]).starts_with(kInline)) {
      args[i] = std::string(kInline) + safe_body_path(std::string_view(args[i]).substr(kInline.size()));
    }
  }
}

void check_usage_error(const std::string& message) {
  if (message.empty()) broken("empty usage error", message);
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) broken("usage error is not one printable line", message);
  }
}

void check_config(const hammer::Config& config) {
  if (config.connections < 1) broken("connections < 1", config.url);
  if (config.threads < 1 || config.threads > config.connections) broken("threads out of range", config.url);
  if (config.duration_ns <= 0) broken("duration <= 0", config.url);
  if (config.timeout_ns <= 0) broken("timeout <= 0", config.url);
  if (config.rate < 0) broken("negative rate", config.url);
  if (config.target.path.empty() || config.target.path.front() != '/') {
    broken("target path does not start with '/'", config.target.path);
  }
  if (config.target.port < 1 || config.target.port > 65535) broken("port out of range", config.url);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  if (size > 0) args.push_back(std::move(current));
  neutralise_files(args);

  const auto parsed = hammer::parse_options(args);
  if (!parsed) {
    check_usage_error(parsed.error().message);
  } else if (parsed->command == hammer::Command::run) {
    check_config(parsed->config);
  }
  return 0;
}
