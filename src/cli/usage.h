// SPDX-License-Identifier: MIT
#pragma once
// The --help and --version texts. Defaults are printed from Config{} and the bounds from
// options.h, so the help cannot drift from what the parser does.
#include <string>

namespace hammer {

/// The full --help text, ending in a newline: synopsis, every flag with its default, and the
/// accepted value forms (units for durations, k/M for rates).
std::string usage_text();

/// "hammer 0.1.0\n": the --version line.
std::string version_text();

}  // namespace hammer
