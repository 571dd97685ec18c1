// SPDX-License-Identifier: MIT
#pragma once
// hammer.1 (`hammer --generate man`): the --help text's pieces as a roff man page, so the two
// say the same thing. CMake writes it at build time and installs it; so does the npm package.
#include <string>

namespace hammer {

/// The man page, roff with the man macros, ending in a newline.
std::string man_page();

}  // namespace hammer
