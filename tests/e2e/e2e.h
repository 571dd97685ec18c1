// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the e2e tests: run hammer with arguments, parse its --json document.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/json_view.h"
#include "support/subprocess.h"

namespace hammer::test {

inline Finished run_hammer(std::vector<std::string> args, double limit_s = 30) {
  args.insert(args.begin(), hammer_binary());
  return run_process(args, limit_s);
}

/// Parses hammer's stdout as exactly one JSON document; fails the test if it is not.
inline JsonValue parse_report(const Finished& finished) {
  std::string error;
  auto document = parse_json(finished.out, &error);
  EXPECT_TRUE(document.has_value()) << error << "\n--- stdout:\n" << finished.out
                                    << "\n--- stderr:\n" << finished.err;
  return document.value_or(JsonValue{});
}

inline double number_at(const JsonValue& root, const std::string& path) {
  const JsonValue* value = root.find(path);
  EXPECT_NE(value, nullptr) << "missing " << path;
  if (value == nullptr) return -1;
  EXPECT_EQ(value->kind, JsonValue::Kind::number) << path << " is not a number";
  return value->number;
}

}  // namespace hammer::test
