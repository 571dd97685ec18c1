// SPDX-License-Identifier: MIT
#pragma once
// The --help and --version texts. The flags come from the flag table (cli/flags.h), each with
// its description from flag_description(); defaults are printed from Config{} and the bounds
// from options.h, so the help cannot drift from what the parser does. The man page and the
// completions (cli/man_page.h, cli/completions.h) are made from the same pieces.
#include <string>
#include <string_view>
#include <vector>

#include "cli/flags.h"

namespace hammer {

/// The flag table in --help order: table order, the flags that exit (--version, --help, ...)
/// last.
std::vector<const FlagSpec*> flags_in_help_order();

/// The description of one flag as --help prints it: lines of at most 56 columns, joined by
/// '\n' (no trailing newline), defaults and bounds filled in.
std::string flag_description(Flag flag);

/// "  -c, --connections N   ": the flag's spellings as the --help column shows them, without
/// the padding.
std::string flag_synopsis(const FlagSpec& spec);

/// The one-line summary under the usage line, and the prose after the flags. `man_section`
/// names where the man page puts a paragraph ("" = at the end of OPTIONS).
struct HelpParagraph {
  std::string_view man_section;
  std::string text;  // as --help prints it: wrapped lines joined by '\n', no trailing newline
};
std::string_view help_summary();
std::vector<HelpParagraph> help_paragraphs();

/// The full --help text, ending in a newline: synopsis, every flag with its default, and the
/// accepted value forms (units for durations, k/M for rates).
std::string usage_text();

/// "hammer 0.1.0\n": the --version line.
std::string version_text();

}  // namespace hammer
