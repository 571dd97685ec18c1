// SPDX-License-Identifier: MIT
#pragma once
// What the options_*_test.cc files share: a URL, a fixed CPU count (the same defaults on any
// machine), and the two ways to read a command line in a test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/options.h"

namespace hammer::options_testing {

inline constexpr const char* kUrl = "http://127.0.0.1:8080/";
// The CPUs the helpers below say the process may use: the same defaults on any machine.
inline constexpr int64_t kCpus = 8;

// The error message for args, or a test failure if they parse.
inline std::string error_of(const std::vector<std::string>& args) {
  auto parsed = parse_options(args, kCpus);
  if (parsed) {
    ADD_FAILURE() << "expected an error";
    return {};
  }
  return parsed.error().message;
}

// The Config for args, or a test failure (with the message) if they do not parse.
inline Config config_of(const std::vector<std::string>& args, int64_t cpus = kCpus) {
  auto parsed = parse_options(args, cpus);
  if (!parsed) {
    ADD_FAILURE() << "unexpected error: " << parsed.error().message;
    return {};
  }
  EXPECT_EQ(parsed->command, Command::run);
  return parsed->config;
}

}  // namespace hammer::options_testing
