// SPDX-License-Identifier: MIT
#include "cli/completions.h"

#include <array>
#include <span>
#include <utility>
#include <vector>

#include "cli/compare_command.h"
#include "cli/merge_options.h"
#include "cli/report_command.h"
#include "cli/usage.h"

namespace hammer {
namespace {

// The spellings of a flag: "-c --connections", or "--json".
std::string spellings(const FlagSpec& spec, std::string_view separator) {
  std::string out;
  if (spec.short_name != '\0') out += std::string("-") + spec.short_name + std::string(separator);
  out += spec.long_name;
  return out;
}

// Text inside a single-quoted shell word.
std::string single_quoted(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out;
}

// Text inside an _arguments [description] (`in_message` false) or :message: part (true),
// with what would end the part escaped.
std::string zsh_spec_text(std::string_view text, bool in_message) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == '\\' || (in_message && c == ':')) out += '\\';
    out += c;
  }
  return single_quoted(out);
}

}  // namespace

std::string short_description(Flag flag) {
  std::string text = flag_description(flag);
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  for (std::string_view cut : {"; ", " ("}) {
    if (const size_t at = text.find(cut); at != std::string::npos) text.resize(at);
  }
  return text;
}

namespace {

// A command's flags as pointers into its table, in the order its --help lists them.
std::vector<const FlagSpec*> pointers(std::span<const FlagSpec> flags) {
  std::vector<const FlagSpec*> out;
  for (const FlagSpec& spec : flags) out.push_back(&spec);
  return out;
}

// One command line of hammer: the run's, or a subcommand's with its own flags and what its
// other words are (files of some kinds, or a URL).
struct CompletedCommand {
  std::string_view name;                 // "run", "merge", "report"
  std::vector<const FlagSpec*> flags;
  std::vector<std::string_view> suffixes;  // the file arguments' extensions; none: the URL
  std::string_view operand;              // the zsh message for them
};

std::vector<CompletedCommand> completed_commands() {
  return {
      {"run", flags_in_help_order(), {}, "url"},
      {"merge", pointers(merge_flags()), {".json", ".hlog"}, "shard (.json or .hlog)"},
      {"report", pointers(report_flags()), {".json"}, "saved run (.json)"},
      {"compare", pointers(compare_flags()), {".json"}, "saved run (.json)"},
  };
}

// `hammer <TAB>`: the subcommands, with what each does (zsh shows it).
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kSubcommands = {{
    {"merge", "add the shards of one fleet into the run one machine would have measured"},
    {"report", "render saved runs as text or one HTML page, without running them again"},
    {"compare", "did B's latency percentiles move beyond noise from A's"},
}};

// The body of _hammer_<command>: a flag's value by its kind, else the flags, else the
// command's other words.
std::string bash_command_function(const CompletedCommand& command) {
  std::string flags;
  std::string value_flags;
  std::string cases;
  for (const FlagSpec* flag : command.flags) {
    const FlagSpec& spec = *flag;
    if (!flags.empty()) flags += ' ';
    flags += spellings(spec, " ");
    if (!spec.takes_value()) continue;
    const std::string pattern = spellings(spec, "|");
    if (spec.value_kind == ValueKind::file) {
      cases += "    " + pattern +
               ") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n";
    } else if (spec.value_kind == ValueKind::choice) {
      cases += "    " + pattern + ") COMPREPLY=($(compgen -W '" +
               single_quoted(spec.choices) + "' -- \"$cur\")) ;;\n";
    } else {
      if (!value_flags.empty()) value_flags += '|';
      value_flags += pattern;
    }
  }
  std::string function = "_hammer_" + std::string(command.name) + "() {\n";
  function += "  case $prev in\n" + cases;
  if (!value_flags.empty()) {
    function += "    " + value_flags + ") ;;  # a number, a duration, a header: nothing to offer\n";
  }
  function += "    *)\n      if [[ $cur == -* ]]; then\n";
  function += "        COMPREPLY=($(compgen -W '" + flags + "' -- \"$cur\"))\n";
  if (command.suffixes.empty()) {
    std::string names;
    for (const auto& [name, what] : kSubcommands) names.append(names.empty() ? "" : " ").append(name);
    function += "      elif (( COMP_CWORD == 1 )); then\n";
    function += "        COMPREPLY=($(compgen -W '" + names + "' -- \"$cur\"))\n";
  } else {
    // Files of the command's kinds, and directories to reach them.
    function += "      else\n        compopt -o filenames 2>/dev/null\n        COMPREPLY=(";
    for (std::string_view suffix : command.suffixes) {
      function.append("$(compgen -f -X '!*").append(suffix).append("' -- \"$cur\") ");
    }
    function += "$(compgen -d -- \"$cur\"))\n";
  }
  function += "      fi\n      ;;\n  esac\n}\n";
  return function;
}

}  // namespace

std::string bash_completion() {
  std::string script;
  script += "# bash completion for hammer. Generated by `hammer --generate bash` from the flag\n";
  script += "# tables (src/cli/flags.h; hammer merge's and hammer report's rows of it); install as "
            "$(pkg-config --variable=completionsdir bash-completion)/hammer.\n";
  for (const CompletedCommand& command : completed_commands()) {
    script += bash_command_function(command);
  }
  script += "_hammer() {\n";
  script += "  local cur=${COMP_WORDS[COMP_CWORD]} prev='' flag_at=$((COMP_CWORD - 1))\n";
  script += "  # '--body=FI': bash splits at '=' (COMP_WORDBREAKS), so the flag is two words back.\n";
  script += "  if [[ $cur == = ]]; then\n    cur=''\n    flag_at=$((COMP_CWORD - 1))\n";
  script += "  elif (( COMP_CWORD >= 2 )) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = ]]; then\n";
  script += "    flag_at=$((COMP_CWORD - 2))\n  fi\n";
  script += "  (( flag_at >= 1 )) && prev=${COMP_WORDS[flag_at]}\n";
  script += "  COMPREPLY=()\n";
  script += "  # `hammer merge ...` and `hammer report ...` have their own flags and arguments.\n";
  script += "  local command=run\n";
  script += "  if (( COMP_CWORD >= 2 )); then\n";
  script += "    case ${COMP_WORDS[1]} in\n      merge|report|compare) command=${COMP_WORDS[1]} ;;\n";
  script += "    esac\n  fi\n";
  script += "  _hammer_$command\n  return 0\n}\n";
  script += "complete -F _hammer hammer\n";
  return script;
}

namespace {

// The _arguments specs of a command's flags, one line each ending in " \\\n".
// A subcommand's flag described as its own --help does where the run's words would mislead.
std::string description_in(std::string_view command, const FlagSpec& spec) {
  if (command == "merge" && spec.flag == Flag::start_tolerance) {
    return "warn when the shards' schedules began more than T apart";
  }
  if ((command == "report" || command == "compare") && spec.flag == Flag::output) {
    return "where to write the page, repeatable";
  }
  return short_description(spec.flag);
}

std::string zsh_flag_specs(const CompletedCommand& command, std::string_view indent) {
  std::string specs;
  const std::vector<const FlagSpec*>& flags = command.flags;
  for (const FlagSpec* flag : flags) {
    const FlagSpec& spec = *flag;
    // One word per spelling, e.g. '(-c --connections)'{-c+,--connections=}'[...]:N: ', or
    // '*--slo=[...]:KEY=LIMIT: '. Built by appending: GCC 12's -Wrestrict misfires on
    // "literal" + std::string here.
    std::string exclusion;
    if (spec.exits) {
      exclusion = "(- *)";
    } else if (spec.repeatable) {
      exclusion = "*";
    } else if (spec.short_name != '\0') {
      exclusion.append("(-").append(1, spec.short_name).append(" ");
      exclusion.append(spec.long_name).append(")");
    }
    const std::string_view long_suffix = spec.takes_value() ? "=" : "";
    std::string names = "'" + exclusion;
    if (spec.short_name != '\0') {
      names.append("'{-").append(1, spec.short_name).append(spec.takes_value() ? "+" : "");
      names.append(",").append(spec.long_name).append(long_suffix).append("}'");
    } else {
      names.append(spec.long_name).append(long_suffix);
    }
    std::string rest = "[";
    rest.append(zsh_spec_text(description_in(command.name, spec), false)).append("]");
    if (spec.takes_value()) {
      rest.append(":").append(zsh_spec_text(spec.value_name, true)).append(":");
      if (spec.value_kind == ValueKind::file) {
        rest += "_files";
      } else if (spec.value_kind == ValueKind::choice) {
        rest.append("(").append(single_quoted(spec.choices)).append(")");
      } else {
        rest += " ";
      }
    }
    rest += "'";
    specs.append(indent).append(names).append(rest).append(" \\\n");
  }
  return specs;
}

}  // namespace

std::string zsh_completion() {
  std::string script = "#compdef hammer\n";
  script += "# zsh completion for hammer. Generated by `hammer --generate zsh` from the flag tables\n";
  script += "# (src/cli/flags.h; hammer merge's and hammer report's rows of it); install as _hammer\n";
  script += "# in a directory of $fpath.\n";
  script += "local -a subcommands\nsubcommands=(\n";
  for (const auto& [name, what] : kSubcommands) {
    std::string entry(name);
    entry.append(":").append(what);
    script += "  '" + single_quoted(entry) + "'\n";
  }
  script += ")\n";
  const std::vector<CompletedCommand> commands = completed_commands();
  // A subcommand's own command line: its words from the subcommand on.
  script += "if (( CURRENT > 2 )); then\n  case ${words[2]} in\n";
  for (const CompletedCommand& command : commands) {
    if (command.suffixes.empty()) continue;
    std::string glob = "*.";
    if (command.suffixes.size() > 1) glob += "(";
    for (size_t i = 0; i < command.suffixes.size(); ++i) {
      glob.append(i ? "|" : "").append(command.suffixes[i].substr(1));
    }
    if (command.suffixes.size() > 1) glob += ")";
    script += "    " + std::string(command.name) + ")\n";
    script += "      shift words\n      (( CURRENT-- ))\n";
    script += "      _arguments -s -S \\\n" + zsh_flag_specs(command, "        ");
    script += "        '*:" + zsh_spec_text(command.operand, true) + ":_files -g \"" + glob +
              "\"'\n";
    script += "      return\n      ;;\n";
  }
  script += "  esac\nfi\n";
  script += "# The first word: a subcommand, or the run's URL or flags.\n";
  script += "if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then\n";
  script += "  _describe -t commands 'hammer subcommand' subcommands\nfi\n";
  script += "_arguments -s -S \\\n" + zsh_flag_specs(commands.front(), "  ");
  script += "  '1:url:_urls'\n";
  return script;
}

}  // namespace hammer
