// SPDX-License-Identifier: MIT
#pragma once
// hammer.1 (`hammer --generate man`): the --help text's pieces as a roff man page, so the two
// say the same thing. CMake writes it at build time and installs it; so does the npm package.
#include <span>
#include <string>
#include <string_view>

namespace hammer {

/// The man page, roff with the man macros, ending in a newline.
std::string man_page();

/// One command of the man page's EXAMPLES: each is one of README.md's, which a test runs
/// as pasted (tests/shell/readme_examples_test.py); man_page_test.cc checks it is there.
struct ManExample {
  std::string_view what;     // a sentence: what the command does
  std::string_view command;  // as typed
};

/// The EXAMPLES section's commands, in order.
std::span<const ManExample> man_examples();

}  // namespace hammer
