// SPDX-License-Identifier: MIT
#include "cli/arg_tokenizer.h"

#include "cli/edit_distance.h"
#include "cli/foreign_flags.h"
#include "core/escaped.h"

namespace hammer {
namespace {

bool looks_like_url(std::string_view text) {
  return text.starts_with("http://") || text.starts_with("https://");
}

}  // namespace

ArgTokenizer::ArgTokenizer(const std::vector<std::string>& args, const CommandFlags& table)
    : args_(args), table_(table) {}

const FlagSpec* ArgTokenizer::find_long(std::string_view name) const {
  for (const FlagSpec& spec : table_.flags) {
    if (spec.long_name == name) return &spec;
  }
  return nullptr;
}

const FlagSpec* ArgTokenizer::find_short(char name) const {
  for (const FlagSpec& spec : table_.flags) {
    if (spec.short_name != '\0' && spec.short_name == name) return &spec;
  }
  return nullptr;
}

UsageError ArgTokenizer::see_help(std::string_view typed) const {
  return {"unknown option " + quoted(typed) + "; see " + std::string(table_.command) +
          " --help"};
}

// `typed` as given ("--conections=5"), `name` without its value ("--conections").
UsageError ArgTokenizer::unknown(std::string_view typed, std::string_view name) const {
  if (table_.other_tools_hints) {
    if (auto hint = foreign_flag_hint(name)) {
      return {"unknown option " + quoted(typed) + "; " + std::string(*hint)};
    }
  }
  std::vector<std::string_view> long_names;
  for (const FlagSpec& spec : table_.flags) long_names.push_back(spec.long_name);
  // Two edits catch a dropped, doubled or swapped letter; more suggests nonsense.
  if (auto match = closest_match(name, long_names, 2)) {
    return {"unknown option " + quoted(typed) + "; did you mean '" + std::string(*match) + "'?"};
  }
  return see_help(typed);
}

Expected<std::optional<Argument>, UsageError> ArgTokenizer::next() {
  while (index_ < args_.size()) {
    const std::string_view arg = args_[index_++];
    if (flags_ended_ || arg.size() < 2 || arg.front() != '-') {
      operand_seen_ = true;
      return std::optional<Argument>(Argument{nullptr, arg});
    }
    if (arg == "--") {
      flags_ended_ = true;
      continue;
    }

    const FlagSpec* spec = nullptr;
    std::optional<std::string_view> inline_value;
    if (arg.starts_with("--")) {
      const size_t equals = arg.find('=');
      const std::string_view name = arg.substr(0, equals);
      spec = find_long(name);
      if (!spec) return unexpected(unknown(arg, name));
      if (equals != std::string_view::npos) inline_value = arg.substr(equals + 1);
      if (inline_value && !spec->takes_value()) {
        return unexpected(flag_error(spec->long_name, "takes no value", arg));
      }
    } else {
      // "-connections" is a long name with one dash, not -c with the value "onnections".
      std::string double_dashed = "-";  // built in two steps: GCC 12 -Wrestrict misfires on "-" + s
      double_dashed += arg.substr(0, arg.find('='));
      if (arg.size() > 2 && find_long(double_dashed)) {
        return unexpected(UsageError{"unknown option " + quoted(arg) + "; did you mean '" +
                                     double_dashed + "'?"});
      }
      if (table_.other_tools_hints && foreign_flag_hint(arg)) {
        return unexpected(unknown(arg, arg));  // hey's -h2
      }
      spec = find_short(arg[1]);
      if (!spec && table_.other_tools_hints && foreign_flag_hint(arg.substr(0, 2))) {
        return unexpected(unknown(arg, arg.substr(0, 2)));
      }
      if (!spec) {
        // The same letter in the other case (wrk2's -R for -r): short options are exact.
        const char c = arg[1];
        const char other = c >= 'a' && c <= 'z'   ? static_cast<char>(c - 'a' + 'A')
                           : c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a')
                                                  : c;
        if (const FlagSpec* other_case = other != c ? find_short(other) : nullptr) {
          return unexpected(UsageError{"unknown option " + quoted(arg) + "; did you mean '-" +
                                       std::string(1, other) + "' (" +
                                       std::string(other_case->long_name) + ")?"});
        }
      }
      if (!spec || (!spec->takes_value() && arg.size() > 2)) return unexpected(see_help(arg));
      if (arg.size() > 2) inline_value = arg.substr(2);
    }

    Argument argument{spec, {}};
    if (spec->takes_value()) {
      if (inline_value) {
        argument.value = *inline_value;
      } else if (index_ < args_.size()) {
        argument.value = args_[index_++];
        // The last argument, a URL, taken as a value with no operand before it: the flag's own
        // value was left out ("hammer -c http://host/"), which would otherwise read as a bad
        // count or a missing URL. Not for a flag whose value is a URL (--control).
        if (index_ == args_.size() && !operand_seen_ && spec->value_name != "URL" &&
            looks_like_url(argument.value)) {
          return unexpected(UsageError{std::string(spec->long_name) +
                                       ": missing value (the URL " + quoted(argument.value) +
                                       " came in its place)"});
        }
      } else {
        return unexpected(UsageError{std::string(spec->long_name) + ": missing value"});
      }
    }
    return std::optional<Argument>(argument);
  }
  return std::optional<Argument>();
}

}  // namespace hammer
