// SPDX-License-Identifier: MIT
#pragma once
// The flag table: every command-line flag once. --help lists them in this order, except that
// the ones that print something and exit come last. The subcommands' tables (merge_options.cc,
// report_command.cc) are rows of this one, so a flag they share with the run is spelled alike;
// cli/arg_tokenizer reads them all. The parser (options.cc), the
// --help text, the man page and the shell completions (usage.cc, man_page.cc, completions.cc) all read it, so
// a flag added here appears everywhere; its description is a `case` in flag_description()
// (usage.cc), which the compiler insists on (-Wswitch).
#include <array>
#include <string_view>

namespace hammer {

enum class Flag {
  connections, threads, duration, requests_count, rate, closed_loop, method, header, body, timeout,
  latency, json, warmup, timeline, slow, no_keepalive, no_retry, percentiles, slo, control,
  precise_dispatch, dispatch_precision, engine, shard, start_at, start_tolerance, output,
  requests, data, data_order, pipeline, ramp, arrival, seed, http2, streams,
  progress_fd, metrics_listen, generate,
  insecure, cacert, cert, key, tls_min, tls_max, tls_resume,
  version, help,
  fail_if,  // hammer compare only (kSubcommandFlags)
};

/// What a flag's value is, for shell completion.
enum class ValueKind {
  none,     // a switch
  text,     // anything: nothing to complete
  file,     // a path
  choice,   // one of FlagSpec::choices
};

struct FlagSpec {
  Flag flag;
  char short_name;              // '\0' when there is none
  std::string_view long_name;   // "--connections"
  std::string_view value_name;  // "N" in "--connections N"; empty for a switch
  ValueKind value_kind;
  bool repeatable;              // -H, --slo: each use adds one
  std::string_view choices;     // ValueKind::choice: the values, space-separated
  bool exits;                   // prints something and exits (--help): listed last in --help
  bool takes_value() const { return value_kind != ValueKind::none; }
};

inline constexpr std::array kFlags = {
    FlagSpec{Flag::connections, 'c', "--connections", "N", ValueKind::text, false, "", false},
    FlagSpec{Flag::threads, 't', "--threads", "N", ValueKind::text, false, "", false},
    FlagSpec{Flag::duration, 'd', "--duration", "T", ValueKind::text, false, "", false},
    FlagSpec{Flag::rate, 'r', "--rate", "N", ValueKind::text, false, "", false},
    FlagSpec{Flag::closed_loop, '\0', "--closed-loop", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::method, 'm', "--method", "M", ValueKind::choice, false,
             "GET HEAD POST PUT PATCH DELETE OPTIONS", false},
    FlagSpec{Flag::header, 'H', "--header", "\"K: V\"", ValueKind::text, true, "", false},
    FlagSpec{Flag::body, '\0', "--body", "FILE", ValueKind::file, false, "", false},
    FlagSpec{Flag::timeout, '\0', "--timeout", "T", ValueKind::text, false, "", false},
    FlagSpec{Flag::latency, '\0', "--latency", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::json, '\0', "--json", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::version, '\0', "--version", "", ValueKind::none, false, "", true},
    FlagSpec{Flag::help, 'h', "--help", "", ValueKind::none, false, "", true},
    FlagSpec{Flag::requests_count, 'n', "--requests-count", "N", ValueKind::text, false, "",
             false},
    FlagSpec{Flag::warmup, 'W', "--warmup", "T", ValueKind::text, false, "", false},
    FlagSpec{Flag::timeline, '\0', "--timeline", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::slow, '\0', "--slow", "T", ValueKind::text, false, "", false},
    FlagSpec{Flag::no_keepalive, '\0', "--no-keepalive", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::no_retry, '\0', "--no-retry", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::percentiles, '\0', "--percentiles", "LIST", ValueKind::text, false, "", false},
    FlagSpec{Flag::slo, '\0', "--slo", "KEY=LIMIT", ValueKind::text, true, "", false},
    FlagSpec{Flag::control, '\0', "--control", "URL", ValueKind::text, false, "", false},
    FlagSpec{Flag::precise_dispatch, '\0', "--precise-dispatch", "", ValueKind::none, false, "",
             false},
    FlagSpec{Flag::dispatch_precision, '\0', "--dispatch-precision", "T", ValueKind::text, false,
             "", false},
    FlagSpec{Flag::engine, '\0', "--engine", "E", ValueKind::choice, false, "io_uring epoll poll",
             false},
    FlagSpec{Flag::shard, '\0', "--shard", "I/N", ValueKind::text, false, "", false},
    FlagSpec{Flag::start_at, '\0', "--start-at", "TIME", ValueKind::text, false, "", false},
    FlagSpec{Flag::start_tolerance, '\0', "--start-tolerance", "T", ValueKind::text, false, "",
             false},
    FlagSpec{Flag::output, 'o', "--output", "FILE", ValueKind::file, true, "", false},
    FlagSpec{Flag::requests, '\0', "--requests", "FILE", ValueKind::file, false, "", false},
    FlagSpec{Flag::data, '\0', "--data", "FILE", ValueKind::file, false, "", false},
    FlagSpec{Flag::data_order, '\0', "--data-order", "ORDER", ValueKind::choice, false,
             "sequential random", false},
    FlagSpec{Flag::pipeline, 'p', "--pipeline", "N", ValueKind::text, false, "", false},
    FlagSpec{Flag::ramp, '\0', "--ramp", "T", ValueKind::text, false, "", false},
    FlagSpec{Flag::arrival, '\0', "--arrival", "KIND", ValueKind::choice, false,
             "constant poisson", false},
    FlagSpec{Flag::seed, '\0', "--seed", "N", ValueKind::text, false, "", false},
    FlagSpec{Flag::http2, '\0', "--http2", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::streams, '\0', "--streams", "N", ValueKind::text, false, "", false},
    FlagSpec{Flag::insecure, 'k', "--insecure", "", ValueKind::none, false, "", false},
    FlagSpec{Flag::cacert, '\0', "--cacert", "FILE", ValueKind::file, false, "", false},
    FlagSpec{Flag::cert, '\0', "--cert", "FILE", ValueKind::file, false, "", false},
    FlagSpec{Flag::key, '\0', "--key", "FILE", ValueKind::file, false, "", false},
    FlagSpec{Flag::tls_min, '\0', "--tls-min", "V", ValueKind::choice, false, "1.2 1.3", false},
    FlagSpec{Flag::tls_max, '\0', "--tls-max", "V", ValueKind::choice, false, "1.2 1.3", false},
    FlagSpec{Flag::tls_resume, '\0', "--tls-resume", "on|off", ValueKind::choice, false, "on off",
             false},
    FlagSpec{Flag::progress_fd, '\0', "--progress-fd", "FD", ValueKind::text, false, "", false},
    FlagSpec{Flag::metrics_listen, '\0', "--metrics-listen", "HOST:PORT", ValueKind::text, false,
             "", false},
    FlagSpec{Flag::generate, '\0', "--generate", "KIND", ValueKind::choice, false,
             "man bash zsh", true},
};

/// Flags only a subcommand takes: rows like kFlags', never read by the run's parser.
inline constexpr std::array kSubcommandFlags = {
    FlagSpec{Flag::fail_if, '\0', "--fail-if", "pNN+X%", ValueKind::text, true, "", false},
};

/// The row of kFlags (or kSubcommandFlags) for `flag`: what a subcommand's table is built from.
constexpr FlagSpec flag_spec(Flag flag) {
  for (const FlagSpec& spec : kFlags) {
    if (spec.flag == flag) return spec;
  }
  for (const FlagSpec& spec : kSubcommandFlags) {
    if (spec.flag == flag) return spec;
  }
  return kFlags.back();  // unreachable: every Flag has a row (arg_tokenizer_test.cc checks)
}

}  // namespace hammer
