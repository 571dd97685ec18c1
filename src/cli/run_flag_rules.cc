// SPDX-License-Identifier: MIT
#include "cli/run_flag_rules.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/escaped.h"
#include "http/request.h"
#include "http/url.h"
#include "platform/files.h"
#include "report/format.h"
#include "report/output_formats.h"
#include "cli/options.h"
#include "run/phases.h"
#include "schedule/schedule.h"
#include "sweep/capacity.h"

namespace hammer {
namespace {

using Failure = std::optional<UsageError>;

std::string format_range(const SweepPlan& sweep) {
  auto whole = [](double rate) { return std::to_string(static_cast<int64_t>(rate)); };
  return whole(sweep.search_low) + ":" + whole(sweep.search_high);
}

}  // namespace

// --shard and --start-at against the rest, after the loop.
Failure check_shard(const Config& config, bool start_tolerance_given) {
  if (start_tolerance_given && !config.start_at.given()) {
    return UsageError{"--start-tolerance: only means something with --start-at"};
  }
  if (config.sweep.active() && !config.metrics_listen.port_text.empty()) {
    return UsageError{"--metrics-listen: serves one run's figures; a sweep's steps are runs of "
                      "their own (watch a single run, or read the sweep's -o file)"};
  }
  if (!config.shard.given) return std::nullopt;
  const std::string shard_text =
      std::to_string(config.shard.index) + "/" + std::to_string(config.shard.count);
  if (config.sweep.active()) {
    return UsageError{"--shard: a sweep cannot be sharded (each step would start apart); "
                      "shard single runs, got --shard " + shard_text};
  }
  if (config.connections < config.shard.count) {
    return UsageError{"--shard: " + std::to_string(config.shard.count) +
                      " shards need at least one connection each, got --connections " +
                      std::to_string(config.connections) +
                      " (-c is the whole fleet's, split over the shards)"};
  }
  return std::nullopt;
}

// -n N. Open loop: the measured part is the N global slots that follow the ramp and the
// warm-up, so it ends where slot m0 + N would be due (m0: the slots before it), and exactly N
// fall in it whatever the rounding of each slot's time (SlotTimes counts them with the same
// formula). With --shard the schedule is the fleet's, so the fleet sends N. Closed loop there
// is no schedule: each worker stops issuing at its share (schedule/slot_partition.h) and the
// run ends when they are answered; -d's place is taken by the 24h bound every run has.
Failure apply_requests_count(Config& config, bool duration_given) {
  if (config.requests_count <= 0) return std::nullopt;
  const std::string count = "-n " + std::to_string(config.requests_count);
  if (duration_given) {
    const int64_t ns = config.duration_ns;
    const std::string duration = ns % kNanosPerSecond == 0
                                     ? std::to_string(ns / kNanosPerSecond) + "s"
                                     : format_duration_ns(ns);
    return UsageError{"--requests-count: -n and -d (--duration) both say when the run ends; "
                      "give one, got " + count + " and -d " + duration};
  }
  if (config.sweep.active()) {
    return UsageError{"--requests-count: a sweep runs each level for -d; drop " + count +
                      " or the list or range"};
  }
  if (!config.open_loop()) {
    config.duration_ns = kMaxDurationNs;
    return std::nullopt;
  }
  const SlotTimes times(config.rate, config.ramp_ns);
  const int64_t measured_offset = config.ramp_ns + config.warmup_ns;
  const int64_t first = times.slots_before(measured_offset);
  // Past 24h (or the int64 slot index) the schedule would not fit a run. (A Poisson schedule
  // keeps to its mean: 24h at the rate is where its N-th arrival lies too, within a few gaps.)
  const double end = static_cast<double>(first) + static_cast<double>(config.requests_count);
  const double span_ns = end * 1e9 / config.rate + static_cast<double>(config.ramp_ns) / 2 -
                         static_cast<double>(measured_offset);
  if (span_ns > static_cast<double>(kMaxDurationNs)) {
    return UsageError{"--requests-count: " + count + " at --rate " + format_number(config.rate) +
                      " req/s would run longer than 24h; lower -n or raise --rate"};
  }
  if (config.arrival.kind == Arrival::poisson) {
    // Poisson slot k is due at SlotTimes(S(k)), S the seed's arrivals (schedule.h): the
    // measured part starts at the first slot due at or after the warm-up's end and ends where
    // slot first + N is due, so it holds exactly N whatever the gaps (N / rate of time would
    // hold about N: 246 to 335 for -n 300 over six seeds).
    PoissonCursor cursor(config.arrival.seed);
    cursor.advance_while([&](double s) { return times.offset_at(s) < measured_offset; });
    cursor.advance_to(cursor.slot() + config.requests_count);
    config.duration_ns =
        std::max<int64_t>(times.offset_at(cursor.arrival()) - measured_offset, 1);
    return std::nullopt;
  }
  config.duration_ns = std::max<int64_t>(times.offset_ns(first + config.requests_count) -
                                             measured_offset, 1);
  return std::nullopt;
}

// Open loop: the measured part (after any --warmup) must hold at least one slot of the
// fleet's schedule, or the run would end with nothing to measure and no one to blame. (A
// shard whose share of a non-empty schedule is empty still runs: its fleet has work; the
// no_work verdict says so.)
// A sweep's levels are runs of their own, each checked the same way (a capacity search
// starts where sweep/capacity.h says, and only rises).
Failure check_measured_slots(const Config& config) {
  std::vector<double> rates;
  if (!config.sweep.rates.empty()) {
    rates = config.sweep.rates;
  } else if (config.sweep.search()) {
    rates.push_back(first_search_rate(config.sweep.search_low));
  } else if (config.open_loop()) {
    rates.push_back(config.rate);
  }
  for (double rate : rates) {
    // The schedule as it will run, ramp included.
    Phases phases(config, rate);
    phases.start_at(0);
    const int64_t measured = phases.slots_in(Phase::measured, SlotPartition{0, 1});
    if (measured > 0) continue;
    return UsageError{"--rate: at " + format_number(rate) + " req/s no request falls in the "
                      "measured " + format_duration_ns(config.duration_ns) + " after --warmup " +
                      format_duration_ns(config.warmup_ns) + "; raise --rate or --duration"};
  }
  return std::nullopt;
}

// Rules between the sweep flags, after the loop.
Failure check_sweep(Config& config, std::optional<std::string_view> control_url) {
  SweepPlan& sweep = config.sweep;
  const bool rate_sweep = !sweep.rates.empty() || sweep.search();
  if (!sweep.connections.empty() && rate_sweep) {
    return UsageError{"--rate: a sweep varies one thing; -c and --rate both have a list or "
                      "range"};
  }
  // The text report's tables of one run: a sweep's table has a row per level instead, and the
  // flags were taken and silently left out.
  if (sweep.active()) {
    const char* table_flag = config.print_latency    ? "--latency"
                             : config.print_timeline ? "--timeline"
                             : !config.percentiles.empty() ? "--percentiles"
                                                           : nullptr;
    if (table_flag != nullptr) {
      return UsageError{std::string(table_flag) +
                        ": prints a single run's tables; a sweep's table has p50 and p99 per "
                        "level (each step's -o JSON has 50, 90, 95, 99, 99.9 and max): run one "
                        "level alone for it"};
    }
  }
  if (sweep.search() && config.slos.empty()) {
    return UsageError{"--rate: a range without a step (" + format_range(sweep) +
                      ") searches for the capacity under --slo; add --slo (e.g. p99=50ms) or "
                      "a step (low:high:step)"};
  }
  if (control_url) {
    if (!sweep.active()) {
      return UsageError{"--control: compares a sweep with a no-work route; give -c or --rate "
                        "a list or range, got " + quoted(*control_url)};
    }
    auto target = parse_url(*control_url);
    if (!target) {
      return UsageError{"--control: bad URL " + quoted(*control_url) + ": " +
                        escaped(target.error())};
    }
    sweep.control_url = std::string(*control_url);
    sweep.control_target = std::move(*target);
  }
  return std::nullopt;
}

// The https-only flags, after the loop: an https:// URL to apply to, and each other.
Failure check_tls(const Config& config, std::optional<std::string_view> tls_flag) {
  const TlsConfig& tls = config.tls;
  const bool https = config.target.scheme == Scheme::https ||
                     (config.sweep.active() && !config.sweep.control_url.empty() &&
                      config.sweep.control_target.scheme == Scheme::https);
  if (tls_flag && !https) {
    return UsageError{std::string(*tls_flag) + ": only means something with an https:// URL, "
                      "got " + quoted(config.url)};
  }
  if (!tls.cert_file.empty() && tls.key_file.empty()) {
    return UsageError{"--cert: needs --key FILE, the certificate's private key"};
  }
  if (tls.cert_file.empty() && !tls.key_file.empty()) {
    return UsageError{"--key: needs --cert FILE, the certificate it belongs to"};
  }
  if (tls.insecure && !tls.ca_file.empty()) {
    // curl takes both and ignores the bundle; said, so that a run meant to check the chain
    // against it does not silently check nothing.
    return UsageError{"--cacert: -k (--insecure) skips the verification the bundle is for; "
                      "give one of them"};
  }
  if (tls.min_version > tls.max_version) {
    return UsageError{"--tls-min: " + std::string(tls_version_text(tls.min_version)) +
                      " is above --tls-max " + std::string(tls_version_text(tls.max_version)) +
                      ", which leaves no version to offer"};
  }
  return std::nullopt;
}

// A Connection header (-H, or a --requests line's) that says the opposite of -p or
Failure check_http2_flags(const Config& config) {
  if (!config.http2) {
    if (config.streams > 1) {
      return UsageError{"--streams: " + std::to_string(config.streams) +
                        " streams per connection are HTTP/2's; add --http2 (HTTP/1.1 "
                        "pipelines with -p)"};
    }
    return std::nullopt;
  }
  if (config.pipeline > 1) {
    return UsageError{"--pipeline: HTTP/1.1 pipelining does not go with --http2; streams in "
                      "flight per connection are --streams"};
  }
  if (!config.keep_alive) {
    return UsageError{"--no-keepalive: an HTTP/2 connection carries many requests; drop "
                      "--no-keepalive or --http2"};
  }
  return std::nullopt;
}

// --no-keepalive: with "close", the server ends the connection after each response and
// every request pipelined behind it fails; with "keep-alive", the server is told one thing
// while hammer does the other (closes after each response).
Failure check_connection_headers(const Config& config) {
  auto check = [&](const std::vector<std::string>& headers, const std::string& who,
                   std::string_view field) -> Failure {
    const ConnectionOption option = connection_option(headers);
    if (config.pipeline > 1 && option == ConnectionOption::close) {
      return UsageError{"--pipeline: " + std::to_string(config.pipeline) +
                        " requests in flight per connection need keep-alive, but " + who +
                        " says " + quoted(field) + "; drop that header or use -p 1"};
    }
    if (!config.keep_alive && option == ConnectionOption::keep_alive) {
      return UsageError{"--no-keepalive: opens a connection per request, but " + who +
                        " says " + quoted(field) + "; drop one of them"};
    }
    return std::nullopt;
  };
  auto connection_field = [](const std::vector<std::string>& headers) {
    // The field named in the message: the one with the option that conflicts (the last
    // Connection field when several are given).
    std::string_view found;
    for (const std::string& line : headers) {
      if (connection_option({line}) != ConnectionOption::none) found = line;
    }
    return found;
  };
  if (config.requests.empty()) {
    return check(config.headers, "--header", connection_field(config.headers));
  }
  for (const RequestLine& line : config.requests) {
    // A line keeps the -H headers it does not replace: name -H when the field is one.
    const std::string_view field = connection_field(line.headers);
    const bool from_flag = std::find(config.headers.begin(), config.headers.end(), field) !=
                           config.headers.end();
    const std::string who = from_flag ? std::string("--header")
                                      : "--requests " + config.requests_path + ":" +
                                            std::to_string(line.line_number);
    if (Failure failure = check(line.headers, who, field)) return failure;
  }
  return std::nullopt;
}

// An -o file that is the --body or --requests file would be overwritten by the report after
// the run: the user's input lost.
Failure check_outputs_against_inputs(const Config& config) {
  for (const OutputFile& output : config.outputs) {
    for (const auto& [input, flag] :
         {std::pair{config.body_path, "--body"}, std::pair{config.requests_path, "--requests"}}) {
      if (!input.empty() && same_file(output.path, input)) {
        return UsageError{"--output: " + quoted(output.path) + " is the " + flag +
                          " file; name another file"};
      }
    }
  }
  return std::nullopt;
}

// A sweep keeps each step's figures, not its histograms: some formats have nothing to hold.
Failure check_outputs_of_sweep(const Config& config) {
  if (!config.sweep.active()) return std::nullopt;
  std::string usable;
  for (const OutputFormatSpec& spec : output_formats()) {
    if (spec.sweep_writes_it) usable += (usable.empty() ? "" : ", ") + std::string(spec.extension);
  }
  for (const OutputFile& output : config.outputs) {
    const OutputFormatSpec* spec = output_format_for_path(output.path);
    if (spec && !spec->sweep_writes_it) {
      return flag_error("--output",
                        "a sweep keeps no histograms to write as " +
                            std::string(spec->extension) + "; use " + usable,
                        output.path);
    }
  }
  return std::nullopt;
}

}  // namespace hammer
