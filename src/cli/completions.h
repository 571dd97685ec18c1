// SPDX-License-Identifier: MIT
#pragma once
// Shell completion scripts (`hammer --generate bash|zsh`), made from the flag table: every flag,
// its short form, whether it takes a value, and what that value is (a file, one of a few
// words, anything). CMake writes them at build time and installs them; so does the npm package.
#include <string>

#include "cli/flags.h"

namespace hammer {

/// For bash-completion: defines _hammer and registers it with `complete -F _hammer hammer`.
std::string bash_completion();

/// For zsh's compsys: a #compdef hammer file (installed as _hammer in $fpath).
std::string zsh_completion();

/// The flag's description cut to its first clause, for a completion menu.
std::string short_description(Flag flag);

}  // namespace hammer
