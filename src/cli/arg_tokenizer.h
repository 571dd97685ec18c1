// SPDX-License-Identifier: MIT
#pragma once
// One way to read a command line, for the run, `hammer merge` and `hammer report` alike: each
// command has its own table (rows of cli/flags.h's kFlags), and this tokenizer is the only
// code that knows how flags are spelled, so `--`, -h, -o, a missing value and "did you mean"
// behave the same everywhere.
//
// Spellings: short flags take "-c 10" or "-c10", long ones "--connections 10" or
// "--connections=10"; a switch takes no value ("--json=1" is refused); "--" ends the flags and
// everything after it is an operand (a URL, a file whose name starts with '-'); "-" alone is an
// operand. Each occurrence of a flag is handed over: a single-valued flag given again keeps
// its last value, a repeatable one (-H, -o, --slo) adds one; the command's own parser decides
// what "given twice" means for a value (the same -o file, the same --slo key).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/flags.h"
#include "cli/usage_error.h"
#include "core/expected.h"

namespace hammer {

/// A command's flags, as its parser knows them.
struct CommandFlags {
  std::string_view command;        // "hammer", "hammer merge": for "see hammer merge --help"
  std::span<const FlagSpec> flags;
  bool other_tools_hints = false;  // the run: wrk's -R, hey's -z get the hammer way (foreign_flags.h)
};

/// One argument read: a flag with its value (empty for a switch), or an operand.
struct Argument {
  const FlagSpec* flag = nullptr;  // nullptr: an operand
  std::string_view value;          // the flag's value, or the operand itself
};

class ArgTokenizer {
 public:
  /// `args` (the arguments after the program or subcommand name) must outlive the tokenizer:
  /// every view it returns points into them.
  ArgTokenizer(const std::vector<std::string>& args, const CommandFlags& table);

  /// The next argument, nullopt once all are read, or why the next one cannot be read: an
  /// unknown flag (with a suggestion when one is near), a switch given a value, a flag whose
  /// value is missing. The error names the flag by its long name, whatever spelling was typed.
  Expected<std::optional<Argument>, UsageError> next();

 private:
  const FlagSpec* find_long(std::string_view name) const;
  const FlagSpec* find_short(char name) const;
  UsageError unknown(std::string_view typed, std::string_view name) const;
  UsageError see_help(std::string_view typed) const;

  const std::vector<std::string>& args_;
  CommandFlags table_;
  size_t index_ = 0;
  bool flags_ended_ = false;
  bool operand_seen_ = false;  // a URL or file came already: a later URL may be a flag's value
};

}  // namespace hammer
