// SPDX-License-Identifier: MIT
// One pass over the arguments (cli/arg_tokenizer), one table of flags (cli/flags.h): each
// value is checked where it is read (cli/run_flag_values, cli/shared_flags) and a failure
// becomes one line naming the flag and the value. Rules that involve two flags (threads vs
// connections) or the URL run after the loop, each with its own message (here and in
// cli/run_flag_rules), as h2load and wrk do. Nothing is clamped: a value outside the
// documented range is refused with the bound in the message.
#include "cli/options.h"

#include <algorithm>
#include <array>
#include <optional>

#include "cli/arg_tokenizer.h"
#include "cli/flags.h"
#include "cli/percentile_flag.h"
#include "cli/run_flag_rules.h"
#include "cli/run_flag_values.h"
#include "cli/shared_flags.h"
#include "cli/slo_flag.h"
#include "cli/template_flags.h"
#include "cli/units.h"
#include "cli/wall_time.h"
#include "core/build_features.h"
#include "core/escaped.h"
#include "platform/files.h"
#include "platform/system.h"
#include "http/request.h"
#include "http/request_file.h"
#include "http/url.h"

namespace hammer {
namespace {

// The switches that only set one Config field, and the value each gives it.
struct SwitchSetting {
  Flag flag;
  bool Config::*field;
  bool value;
};
constexpr SwitchSetting kSwitchSettings[] = {
    {Flag::closed_loop, &Config::closed_loop_stopwatch, true},
    {Flag::latency, &Config::print_latency, true},
    {Flag::json, &Config::json, true},
    {Flag::timeline, &Config::print_timeline, true},
    {Flag::no_keepalive, &Config::keep_alive, false},
    {Flag::no_retry, &Config::retry, false},
    {Flag::precise_dispatch, &Config::precise_dispatch, true},
};

// An https-only flag: -k, --cacert, --cert, --key, --tls-*.
std::optional<UsageError> apply_tls(const FlagSpec& spec, std::string_view value, TlsConfig& tls) {
  switch (spec.flag) {
    case Flag::insecure:
      tls.insecure = true;
      return std::nullopt;
    case Flag::cacert:
      return check_readable(spec.long_name, value, tls.ca_file);
    case Flag::cert:
      return check_readable(spec.long_name, value, tls.cert_file);
    case Flag::key:
      return check_readable(spec.long_name, value, tls.key_file);
    case Flag::tls_min:
      return parse_tls_version(spec.long_name, value, tls.min_version);
    case Flag::tls_max:
      return parse_tls_version(spec.long_name, value, tls.max_version);
    case Flag::tls_resume:
      if (value != "on" && value != "off") {
        return flag_error(spec.long_name, "expected on or off", value);
      }
      tls.resume = value == "on";
      return std::nullopt;
    default:
      return std::nullopt;  // not a TLS flag: Parser::apply handles it
  }
}

// --timeout and --slow: a latency in ms by default, within the latency histogram's range.
std::optional<UsageError> parse_latency_flag(const FlagSpec& spec, std::string_view value,
                                             std::string_view examples, int64_t& out) {
  return parse_duration_flag(spec.long_name, value, kNanosPerMilli, examples, kMaxTimeoutNs,
                             "60s (the latency histogram's range)", out);
}

// --dispatch-precision: a duration in ms by default, 0 (every slot woken for) up to
// kMaxDispatchPrecisionNs.
std::optional<UsageError> parse_dispatch_precision(const FlagSpec& spec, std::string_view value,
                                                   int64_t& out) {
  auto ns = parse_duration_ns(value, kNanosPerMilli);
  if ((!ns && ns.error() == UnitError::too_large) || (ns && *ns > kMaxDispatchPrecisionNs)) {
    return flag_error(spec.long_name, "must be at most 100ms", value);
  }
  if (!ns) {
    return flag_error(spec.long_name, "expected a duration >= 0 (e.g. 1ms, 200us or 0)", value);
  }
  out = *ns;
  return std::nullopt;
}

constexpr auto kLongNames = [] {
  std::array<std::string_view, kFlags.size()> names{};
  for (size_t i = 0; i < kFlags.size(); ++i) names[i] = kFlags[i].long_name;
  return names;
}();

using Failure = std::optional<UsageError>;

}  // namespace

// https:// runs over TLS where this build has it (run/connection_transport.h); a build
// without OpenSSL refuses each https:// URL, the sweep's --control URL included, before
// anything connects. The control runs take the run's TLS flags (--cacert, --insecure, ...),
// as its steps take the run's other flags.
std::optional<UsageError> https_refusal(const Config& config) {
  if (kBuiltWithTls) return std::nullopt;
  const auto no_tls = [](std::string_view prefix, const std::string& url) {
    return UsageError{std::string(prefix) + "bad URL " + quoted(url) +
                      ": this build of hammer has no TLS (built without OpenSSL 3); use an "
                      "http:// URL"};
  };
  if (config.target.scheme == Scheme::https) return no_tls("", config.url);
  if (!config.sweep.control_url.empty() && config.sweep.control_target.scheme == Scheme::https) {
    return no_tls("--control: ", config.sweep.control_url);
  }
  return std::nullopt;
}

namespace {

struct Parser {
  ParsedCommand parsed;
  int64_t cpus_available = 0;
  std::optional<std::string_view> tls_flag;  // the first https-only flag given, for messages
  bool threads_given = false;
  bool start_tolerance_given = false;
  bool duration_given = false;
  bool data_order_given = false;
  std::optional<std::string_view> control_url;
  std::optional<std::string_view> requests_path;

  // --requests FILE, after the loop: -m, -H and --body are its defaults wherever they appear.
  Failure load_requests() {
    if (!requests_path) return std::nullopt;
    Config& config = parsed.config;
    RequestDefaults defaults;
    defaults.method = config.method;
    defaults.headers = config.headers;
    defaults.body = config.body;
    auto lines = load_request_file(std::string(*requests_path), defaults);
    if (!lines) return UsageError{"--requests: " + lines.error()};
    config.requests_path = std::string(*requests_path);
    config.requests = std::move(*lines);
    return std::nullopt;
  }

  // -c 1,2,5: a connection sweep; config.connections becomes the largest level.
  Failure parse_connection_sweep(std::string_view value) {
    auto levels = parse_connection_levels(value, kMaxConnections);
    if (!levels) return flag_error("--connections", levels.error(), value);
    parsed.config.sweep.connections = std::move(*levels);
    parsed.config.connections = parsed.config.sweep.connections.back();
    return std::nullopt;
  }

  // --rate 1k,2k / 1k:20k:1k (a sweep) or 200:3000 (a capacity search under --slo);
  // config.rate becomes the highest rate, so the run is open loop.
  Failure parse_rate_sweep(std::string_view value) {
    bool search = false;
    auto levels = parse_rate_levels(value, kMinRate, kMaxRate, &search);
    if (!levels) return flag_error("--rate", levels.error(), value);
    SweepPlan& sweep = parsed.config.sweep;
    parsed.config.rate = levels->back();
    if (search) {
      sweep.search_low = levels->front();
      sweep.search_high = levels->back();
    } else {
      sweep.rates = std::move(*levels);
    }
    return std::nullopt;
  }

  Failure parse_generate(std::string_view value) {
    if (value == "man") {
      parsed.generate = DocKind::man;
    } else if (value == "bash") {
      parsed.generate = DocKind::bash;
    } else if (value == "zsh") {
      parsed.generate = DocKind::zsh;
    } else {
      return flag_error("--generate", "expected man, bash or zsh", value);
    }
    parsed.command = Command::generate;
    return std::nullopt;
  }

  std::optional<std::string_view> url;

  Failure apply(const FlagSpec& spec, std::string_view value) {
    Config& config = parsed.config;
    for (const SwitchSetting& setting : kSwitchSettings) {
      if (setting.flag != spec.flag) continue;
      config.*setting.field = setting.value;
      return std::nullopt;
    }
    switch (spec.flag) {
      case Flag::closed_loop:
      case Flag::latency:
      case Flag::json:
      case Flag::timeline:
      case Flag::no_keepalive:
      case Flag::no_retry:
      case Flag::precise_dispatch:
        break;  // kSwitchSettings
      case Flag::fail_if:
        break;  // hammer compare's: not in the run's table
      case Flag::connections:
        config.sweep.connections.clear();
        if (is_level_list(value)) return parse_connection_sweep(value);
        if (auto count = parse_count(value)) {  // wrk's "-c 1k"
          if (*count > kMaxConnections) {
            return flag_error(spec.long_name, "must be at most " + std::to_string(kMaxConnections),
                              value);
          }
          if (*count < 1) return flag_error(spec.long_name, "expected a whole number >= 1", value);
          config.connections = *count;
          return std::nullopt;
        }
        return parse_whole(spec.long_name, value, kMaxConnections, config.connections);
      case Flag::threads:
        threads_given = true;
        return parse_whole(spec.long_name, value, kMaxThreads, config.threads);
      case Flag::duration:
        duration_given = true;
        if (Failure failure =
                parse_duration_flag(spec.long_name, value, kNanosPerSecond, "10, 10s, 500ms or 2m",
                                    kMaxDurationNs, "24h", config.duration_ns)) {
          // hey's and oha's -d is the body: '-d {"id": 1}' is a body, not a bad duration.
          if (value.starts_with('{') || value.starts_with('[')) {
            failure->message += "; -d is the duration (a request body is --body FILE)";
          }
          return failure;
        }
        return std::nullopt;
      case Flag::requests_count:
        if (auto count = parse_count(value)) {  // -n 1k, as -c takes it
          if (*count > kMaxRequestsCount) {
            return flag_error(spec.long_name,
                              "must be at most " + std::to_string(kMaxRequestsCount), value);
          }
          if (*count < 1) return flag_error(spec.long_name, "expected a whole number >= 1", value);
          config.requests_count = *count;
          return std::nullopt;
        }
        return parse_whole(spec.long_name, value, kMaxRequestsCount, config.requests_count);
      case Flag::rate:
        config.sweep.rates.clear();
        config.sweep.search_low = config.sweep.search_high = 0;
        if (is_level_list(value)) return parse_rate_sweep(value);
        return parse_rate_flag(value, config.rate);
      case Flag::method:
        if (auto method = validate_method(value); !method) {
          return flag_error(spec.long_name, method.error(), value);
        }
        config.method = std::string(value);
        return std::nullopt;
      case Flag::header:
        return parse_header(value, config.headers);
      case Flag::body:
        config.body_path = std::string(value);
        return read_body(value, config.body);
      case Flag::timeout:
        config.timeout_without_unit =
            !value.empty() && value.find_first_not_of("0123456789.") == std::string_view::npos;
        return parse_latency_flag(spec, value, "2000 meaning ms, 2s or 500ms", config.timeout_ns);
      case Flag::version:
        parsed.command = Command::version;
        return std::nullopt;
      case Flag::help:
        parsed.command = Command::help;
        return std::nullopt;
      case Flag::warmup:
        return parse_duration_flag(spec.long_name, value, kNanosPerSecond, "3, 3s, 500ms or 1m",
                                   kMaxDurationNs, "24h", config.warmup_ns);
      case Flag::slow:
        return parse_latency_flag(spec, value, "100 meaning ms, 100ms or 1s", config.slow_ns);
      case Flag::slo:
        return add_slo_limits(value, config.slos);
      case Flag::control:
        control_url = value;
        return std::nullopt;
      case Flag::requests:
        requests_path = value;
        return std::nullopt;
      case Flag::data:
        config.data_path = std::string(value);
        return std::nullopt;
      case Flag::data_order:
        data_order_given = true;
        return parse_data_order(spec.long_name, value, config.data_order);
      case Flag::pipeline:
        return parse_whole(spec.long_name, value, kMaxPipeline, config.pipeline);
      case Flag::http2:
        config.http2 = true;
        return std::nullopt;
      case Flag::streams:
        return parse_whole(spec.long_name, value, kMaxStreams, config.streams);
      case Flag::ramp:
        return parse_duration_flag(spec.long_name, value, kNanosPerSecond, "2, 2s, 500ms or 1m",
                                   kMaxDurationNs, "24h", config.ramp_ns);
      case Flag::arrival:
        if (value == "constant") {
          config.arrival.kind = Arrival::constant;
        } else if (value == "poisson") {
          config.arrival.kind = Arrival::poisson;
        } else {
          return flag_error(spec.long_name, "expected constant or poisson", value);
        }
        return std::nullopt;
      case Flag::seed:
        return parse_seed(spec.long_name, value, config.arrival.seed);
      case Flag::percentiles: {
        auto list = parse_percentile_list(value);
        if (!list) return flag_error(spec.long_name, list.error(), value);
        config.percentiles = std::move(*list);
        return std::nullopt;
      }
      case Flag::shard:
        return parse_shard(value, config.shard);
      case Flag::start_at: {
        auto instant = parse_wall_time_ns(value);
        if (!instant) return flag_error(spec.long_name, instant.error(), value);
        config.start_at.unix_ns = *instant;
        config.start_at.set = true;
        return std::nullopt;
      }
      case Flag::start_tolerance:
        start_tolerance_given = true;
        return parse_start_tolerance(value, config.start_at.tolerance_ns);
      case Flag::progress_fd:
        return parse_progress_fd(value, config.progress_fd);
      case Flag::metrics_listen:
        return parse_metrics_listen(value, config.metrics_listen);
      case Flag::generate:
        return parse_generate(value);
      case Flag::dispatch_precision:
        config.dispatch_precision_given = true;
        return parse_dispatch_precision(spec, value, config.dispatch_precision_ns);
      case Flag::engine: {
        auto kind = parse_engine(spec.long_name, value);
        if (!kind) return kind.error();
        config.engine = *kind;
        return std::nullopt;
      }
      case Flag::output:
        return add_output(value, OutputRule{}, config.outputs);
      case Flag::insecure:
      case Flag::cacert:
      case Flag::cert:
      case Flag::key:
      case Flag::tls_min:
      case Flag::tls_max:
      case Flag::tls_resume:
        tls_flag = tls_flag.value_or(spec.long_name);
        return apply_tls(spec, value, config.tls);
    }
    return std::nullopt;
  }

  Failure finish() {
    Config& config = parsed.config;
    if (!url) return UsageError{"missing URL (usage: hammer [options] <url>)"};
    config.url = std::string(*url);
    auto target = parse_url(*url);
    if (!target) return UsageError{"bad URL " + quoted(*url) + ": " + escaped(target.error())};
    config.target = std::move(*target);

    if (Failure failure = check_shard(config, start_tolerance_given)) return failure;
    if (Failure failure = apply_requests_count(config, duration_given)) return failure;
    if (Failure failure = check_measured_slots(config)) return failure;
    // A shard runs its share of -c (shard_connections() == -c without --shard).
    const int64_t connections_here = shard_connections(config);
    // More threads than CPUs take turns on them, and each turn is a late send; four is
    // enough for any loopback test (docs/performance.md). An explicit -t above the CPUs is
    // allowed (the report notes it).
    config.threads_given = threads_given;
    config.cpus_available = cpus_available;
    if (!threads_given) {
      const int64_t cpus = std::max<int64_t>(cpus_available, 1);
      config.threads = std::min<int64_t>({4, connections_here, cpus});
    } else if (config.threads > connections_here) {
      const std::string threads = std::to_string(config.threads);
      if (config.shard.count > 1) {
        return UsageError{"--threads: " + threads + " threads need at least " + threads +
                          " connections, got " + std::to_string(connections_here) +
                          " (shard " + std::to_string(config.shard.index) + "/" +
                          std::to_string(config.shard.count) + "'s share of --connections " +
                          std::to_string(config.connections) + ")"};
      }
      return UsageError{"--threads: " + threads + " threads need at least " + threads +
                        " connections, got --connections " + std::to_string(config.connections)};
    } else if (!config.sweep.connections.empty() &&
               config.threads > config.sweep.connections.front()) {
      // A connection sweep caps the default thread count at each level; an explicit count
      // must fit the smallest.
      const std::string threads = std::to_string(config.threads);
      return UsageError{"--threads: " + threads + " threads need at least " + threads +
                        " connections, got --connections " +
                        std::to_string(config.sweep.connections.front()) +
                        " (the smallest level of the sweep)"};
    }
    if (config.arrival.kind == Arrival::poisson && !config.open_loop()) {
      return UsageError{"--arrival: poisson spaces the slots of an open-loop schedule, which "
                        "needs --rate (closed loop sends as soon as an answer lands)"};
    }
    if (config.precise_dispatch && !config.open_loop()) {
      return UsageError{"--precise-dispatch: spins to each slot of an open-loop schedule, which "
                        "needs --rate (closed loop sends as soon as an answer lands)"};
    }
    if (config.dispatch_precision_given && !config.open_loop()) {
      return UsageError{"--dispatch-precision: the budget for an open-loop schedule's slots, "
                        "which needs --rate (closed loop sends as soon as an answer lands)"};
    }
    if (config.precise_dispatch && config.dispatch_precision_given &&
        config.dispatch_precision_ns > 0) {
      return UsageError{"--dispatch-precision: --precise-dispatch wakes for every slot (a budget "
                        "of 0); drop one of them"};
    }
    if (Failure failure = check_http2_flags(config)) return failure;
    if (config.pipeline > 1 && !config.keep_alive) {
      return UsageError{"--pipeline: " + std::to_string(config.pipeline) +
                        " requests in flight per connection need keep-alive; drop "
                        "--no-keepalive or use -p 1"};
    }
    if (Failure failure = load_requests()) return failure;
    // The framing of what is sent must be valid: -H Content-Length or Transfer-Encoding that
    // contradicts --body, or two Host fields, would make the server read another request
    // than the one measured. (A --requests file checks each of its lines the same way.)
    if (config.requests.empty()) {
      if (const std::string problem = request_header_problem(config.headers, config.body);
          !problem.empty()) {
        return UsageError{"--header: " + problem +
                          (config.body_path.empty() ? "" : " (--body " + quoted(config.body_path) + ")")};
      }
    }
    if (Failure failure = check_connection_headers(config)) return failure;
    if (data_order_given && config.data_path.empty()) {
      return UsageError{"--data-order: orders the rows of --data FILE.csv, and no --data was "
                        "given"};
    }
    if (auto problem = check_templates(config)) return UsageError{std::move(*problem)};
    if (Failure failure = check_hgrm_companions(parsed.config)) return failure;
    if (Failure failure = check_outputs_against_inputs(config)) return failure;
    if (Failure failure = check_output_directories(config.outputs)) return failure;
    if (Failure failure = check_sweep(config, control_url)) return failure;
    if (Failure failure = check_outputs_of_sweep(config)) return failure;
    return check_tls(config, tls_flag);
  }

};

}  // namespace

std::span<const std::string_view> long_option_names() { return kLongNames; }

Expected<EngineKind, UsageError> parse_engine(std::string_view source, std::string_view value) {
  if (value == "io_uring") return EngineKind::io_uring;
  if (value == "epoll") return EngineKind::epoll;
  if (value == "poll") return EngineKind::poll;
  return unexpected(flag_error(source, "expected io_uring, epoll or poll", value));
}

Expected<ParsedCommand, UsageError> parse_options(const std::vector<std::string>& args) {
  return parse_options(args, available_cpu_count());
}

Expected<ParsedCommand, UsageError> parse_options(const std::vector<std::string>& args,
                                                  int64_t cpus_available) {
  Parser parser;
  parser.cpus_available = cpus_available;
  ArgTokenizer arguments(args, CommandFlags{"hammer", kFlags, /*other_tools_hints=*/true});
  for (;;) {
    auto argument = arguments.next();
    if (!argument) return unexpected(std::move(argument.error()));
    if (!*argument) break;
    if ((*argument)->flag == nullptr) {
      const std::string_view operand = (*argument)->value;
      if (parser.url) {
        return unexpected(UsageError{"unexpected argument " + quoted(operand) +
                                     "; hammer takes exactly one URL (already have " +
                                     quoted(*parser.url) + ")"});
      }
      parser.url = operand;
      continue;
    }
    if (Failure failure = parser.apply(*(*argument)->flag, (*argument)->value)) {
      return unexpected(std::move(*failure));
    }
    if (parser.parsed.command != Command::run) {
      return ParsedCommand{parser.parsed.command, {}, parser.parsed.generate};
    }
  }
  if (Failure failure = parser.finish()) return unexpected(std::move(*failure));
  return std::move(parser.parsed);
}

}  // namespace hammer
