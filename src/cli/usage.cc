// SPDX-License-Identifier: MIT
// Each flag's description is written out by hand so it reads well, with every default and bound
// taken from the code it describes; the list of flags, their spellings and value names come
// from the flag table, so a flag cannot be parsed without being documented.
#include "cli/usage.h"

#include "cli/options.h"
#include "cli/units.h"
#include "report/format.h"
#include "report/output_formats.h"

namespace hammer {
namespace {

constexpr size_t kDescriptionColumn = 24;

}  // namespace

std::string flag_description(Flag flag) {
  const Config defaults;
  switch (flag) {
    case Flag::connections:
      return "total connections, 1 to " + std::to_string(kMaxConnections) +
             ", e.g. 10k\n(default " + std::to_string(defaults.connections) + ")";
    case Flag::threads:
      return "worker threads, 1 to " + std::to_string(kMaxThreads) +
             ", at most --connections\n"
             "(default min(4, connections, CPUs available))";
    case Flag::duration:
      return "test duration; a bare number is seconds; units are\n"
             "ns us ms s m h, e.g. 10, 1.5s, 2m, 1m30s; at most 24h\n"
             "(default " + format_duration_ns(defaults.duration_ns) + ")";
    case Flag::requests_count:
      return "run for N requests instead of -d (not with it), e.g.\n"
             "1000 or 10k; closed loop: ends once N are answered or\n"
             "failed; with --rate: exactly N slots, N / rate long;\n"
             "--warmup and --ramp requests not counted; --shard: the\n"
             "fleet's N (default off: -d)";
    case Flag::rate:
      return "target requests/s over all connections, e.g. 2000, 2k,\n"
             "1.5k, 1M (k = 1,000, M = 1,000,000; at most 10M), or\n"
             "per a period: 50/s, 100/1m; turns on open-loop mode\n"
             "(default off: closed loop)";
    case Flag::closed_loop:
      return "measure latency from the actual send even with --rate\n"
             "(default off)";
    case Flag::method:
      return "HTTP method (default " + defaults.method + ")";
    case Flag::header:
      return "extra request header, repeatable; a Host header replaces\n"
             "the one taken from the URL (default none)";
    case Flag::body:
      return "request body read from FILE, at most 64MB (default none)";
    case Flag::requests:
      return "several requests in one run, JSON Lines: one object per\n"
             "line, {\"path\": \"/a\"} with optional method, headers,\n"
             "body or body_file, name; request i uses line i mod n;\n"
             "-m, -H and --body are defaults; reported per line";
    case Flag::pipeline:
      return "requests in flight per connection (HTTP/1.1\n"
             "pipelining), 1 to " + std::to_string(kMaxPipeline) + " (default 1)";
    case Flag::http2:
      return "speak HTTP/2: h2 by ALPN on https://, h2c with prior\n"
             "knowledge on http://; a server that does not is an error";
    case Flag::streams:
      return "--http2: streams in flight per connection, 1 to " +
             std::to_string(kMaxStreams) + ", at\n"
             "most the server's MAX_CONCURRENT_STREAMS (default 1)";
    case Flag::ramp:
      return "raise the load over T first: open loop, the rate climbs\n"
             "linearly from 0; closed loop, connections join evenly;\n"
             "reported apart, before any warm-up (default none)";
    case Flag::data:
      return "CSV file (RFC 4180, header row names the columns) whose\n"
             "column NAME fills {{csv NAME}} in the URL, -H, --body or\n"
             "--requests lines (docs/templates.md)";
    case Flag::data_order:
      return "--data rows: sequential (request k takes row k mod rows)\n"
             "or random (drawn from --seed) (default sequential)";
    case Flag::arrival:
      return "open loop: constant spaces the slots evenly, poisson\n"
             "draws exponential gaps of mean 1/rate from --seed (the\n"
             "same schedule every run; a --ramp climbs the same way)\n"
             "(default constant)";
    case Flag::fail_if:
      return "hammer compare: exit 3 when row pNN is worse beyond\n"
             "noise and by more than X% of A (repeatable)";
    case Flag::seed:
      return "the seed of --arrival poisson, {{random}}, {{uuid}} and\n"
             "--data-order random, 0 to 2^64-1: one seed,\n"
             "one schedule, split exactly over threads and shards\n"
             "(default " + std::to_string(defaults.arrival.seed) + ")";
    case Flag::timeout:
      return "per-request timeout; a bare number is milliseconds, e.g.\n"
             "2000, 2s, 500ms; at most 60s (default " +
             format_duration_ns(defaults.timeout_ns) + ")";
    case Flag::latency:
      return "print the full percentile spectrum";
    case Flag::json:
      return "print one machine-readable JSON document on stdout";
    case Flag::warmup:
      return "run the same load for T first, reported apart and kept\n"
             "out of the figures; bare number = seconds (default none)";
    case Flag::timeline:
      return "print the per-second table (second, phase, requests,\n"
             "req/s, p50, p99, max, errors); always in --json";
    case Flag::slow:
      return "count requests slower than T in a note; a bare number is\n"
             "milliseconds (default 10x p50, when max > 10x p99.9)";
    case Flag::no_keepalive:
      return "a new connection for every request (Connection: close)";
    case Flag::no_retry:
      return "count the requests a polite close left unanswered as\n"
             "errors (default: GET, HEAD, PUT, DELETE, OPTIONS, TRACE\n"
             "are sent once more on a new connection)";
    case Flag::percentiles:
      return "the percentile rows of the report, e.g. 50,90,99.9,99.99\n"
             "(each above 0 and below 100, at most 4 decimals; default\n"
             "50,75,90,95,99, with --latency also 99.9,99.99)";
    case Flag::slo:
      return "a service-level objective, repeatable: any percentile\n"
             "(p50, p95, p99.99) or max with a duration (a bare\n"
             "number is ms), or errors with a percentage, e.g.\n"
             "p99=50ms, p95=20ms, errors=1%; several may share one\n"
             "value (p99=50ms,errors=1%);\n"
             "a run that misses one exits 3 (default none)";
    case Flag::control:
      return "in a sweep, run the same levels against URL, a route\n"
             "that does no work, to show the generator's headroom";
    case Flag::precise_dispatch:
      return "open loop: wake early and spin to each request's slot,\n"
             "for sub-10us dispatch at the cost of CPU (default:\n"
             "sleep, spinning only the host's median oversleep);\n"
             "the same as --dispatch-precision 0 with the spin";
    case Flag::dispatch_precision:
      return "open loop: the precision budget; slot wake-ups come at\n"
             "least T apart and each sends every request due, so a\n"
             "request may leave up to T late by design, for fewer\n"
             "wake-ups (1ms: wrk2's timers, its CPU); a bare number\n"
             "is ms; lateness within T is not counted as hammer's\n"
             "(default 50us; 0 with --precise-dispatch)";
    case Flag::shard:
      return "run shard I of a fleet of N processes (1 <= I <= N) that\n"
             "share one schedule: this one sends the slots k with\n"
             "k mod N = I-1 and opens its share of -c; -c, --rate and\n"
             "-d stay the whole fleet's (default: no shard)";
    case Flag::start_at:
      return "start the schedule at a wall-clock instant, RFC 3339\n"
             "(2026-12-01T10:00:00Z) or Unix seconds: connect first,\n"
             "then sleep until it; an instant already passed, or more\n"
             "than 24h ahead, exits 1; a sweep's first step waits for\n"
             "it (default: start once connected)";
    case Flag::start_tolerance:
      return "with --start-at: still start when up to T late, and\n"
             "report by how much (default 0s)";
    case Flag::engine:
      return "I/O engine: io_uring, epoll or poll (default: io_uring\n"
             "where the kernel allows it, else epoll with a note; the\n"
             "HAMMER_ENGINE environment variable sets it too)";
    case Flag::output: {
      std::string text = "also write FILE, repeatable; the extension chooses the\nformat:";
      for (const OutputFormatSpec& spec : output_formats()) {
        std::string extension(spec.extension);
        extension.resize(6, ' ');
        text += "\n" + extension + std::string(spec.contents);
      }
      return text + "\nwritten whole or not at all (temporary file, rename)";
    }
    case Flag::insecure:
      return "https: do not verify the server's certificate or its\n"
             "host name (the report says so) (default: verify)";
    case Flag::cacert:
      return "https: trust the CA certificates in FILE (PEM) instead\n"
             "of the system's store (default: the system's store)";
    case Flag::cert:
      return "https: present the client certificate in FILE (PEM, its\n"
             "chain after it) for mutual TLS; needs --key\n"
             "(default none)";
    case Flag::key:
      return "https: the private key of --cert, in FILE (PEM, not\n"
             "encrypted); needs --cert (default none)";
    case Flag::tls_min:
      return "https: the lowest TLS version to accept, 1.2 or 1.3\n"
             "(default " + std::string(tls_version_text(defaults.tls.min_version)) + ")";
    case Flag::tls_max:
      return "https: the highest TLS version to offer, 1.2 or 1.3,\n"
             "at least --tls-min (default " +
             std::string(tls_version_text(defaults.tls.max_version)) + ")";
    case Flag::tls_resume:
      return "https: resume TLS sessions on reconnects (tickets or\n"
             "session IDs); off makes every handshake a full one\n"
             "(default " + std::string(defaults.tls.resume ? "on" : "off") + ")";
    case Flag::progress_fd:
      return "write progress to descriptor FD (2 is stderr), one JSON\n"
             "object per line every 100 ms while the load runs; its\n"
             "members are in man hammer, JSON DOCUMENT (default none)";
    case Flag::metrics_listen:
      return "serve live Prometheus metrics at HOST:PORT/metrics while\n"
             "the run lasts (:PORT: every address; port 0: a free one,\n"
             "printed); series in man hammer, METRICS (default none)";
    case Flag::generate:
      return "print the man page (man) or a shell completion script\n"
             "(bash, zsh), made from this list of flags, and exit";
    case Flag::version:
      return "print the version and exit";
    case Flag::help:
      return "print this help and exit";
  }
  return {};
}

std::vector<const FlagSpec*> flags_in_help_order() {
  std::vector<const FlagSpec*> order;
  for (bool exits : {false, true}) {
    for (const FlagSpec& spec : kFlags) {
      if (spec.exits == exits) order.push_back(&spec);
    }
  }
  return order;
}

std::string flag_synopsis(const FlagSpec& spec) {
  std::string text = spec.short_name != '\0' ? std::string("-") + spec.short_name + ", "
                                             : std::string(4, ' ');
  text += spec.long_name;
  if (spec.takes_value()) {
    text += ' ';
    text += spec.value_name;
  }
  return text;
}

std::string_view help_summary() {
  return "An HTTP load generator (HTTP/1.1 and HTTP/2, http:// and https://) that reports\n"
         "latency without coordinated omission.\n"
         "The URL is http[s]://host[:port][/path]; https speaks TLS 1.2 or 1.3.";
}

std::vector<HelpParagraph> help_paragraphs() {
  return {
      {"", "Short options take their value as '-c 10' or '-c10', long ones as\n"
           "'--connections 10' or '--connections=10'; '--' ends the options."},
      {"SWEEPS", "Sweeps: a list makes one run of -d per level and reads the curve (knee,\n"
                 "collapse, Little's law): -c 1,2,5,10,25 (closed loop), --rate 1k,2k,5k or\n"
                 "--rate 1k:20k:1k (start:stop:step, open loop). --rate LOW:HIGH with --slo\n"
                 "searches for the highest rate that meets every SLO (at most 8 runs)."},
      {"FLEETS", "Fleets: run --shard 1/N .. N/N with one --start-at on N machines, each with\n"
                 "--json (or -o shard.json), then 'hammer merge shard*.json -o merged.json'\n"
                 "adds them exactly (hammer merge --help, docs/distributed.md)."},
      {"REPORTS", "Reports: -o run.html writes a self-contained HTML report with charts;\n"
                  "'hammer report RUN.json [RUN2.json ...] -o report.html' renders saved runs\n"
                  "later, several overlaid; 'hammer report RUN.json' prints one as text\n"
                  "(hammer report --help, docs/output.md)."},
      {"EXIT STATUS", "Exit status: 0 the run completed; 1 bad input; 2 the run could not do its "
                      "job\nor an --output file could not be written; 3 an --slo was missed (in a "
                      "sweep:\nno level met them all)."},
  };
}

std::string usage_text() {
  std::string text = "Usage: hammer [options] <url>\n\n";
  text += help_summary();
  text += "\n\nOptions:\n";
  for (const FlagSpec* spec : flags_in_help_order()) {
    std::string line = "  " + flag_synopsis(*spec);
    if (line.size() + 2 > kDescriptionColumn) {
      // Too long for the column: the spellings get a line of their own.
      text += line + "\n";
      line.clear();
    }
    line.resize(kDescriptionColumn, ' ');
    const std::string description = flag_description(spec->flag);
    size_t start = 0;
    for (;;) {
      const size_t end = description.find('\n', start);
      text += line + description.substr(start, end - start) + "\n";
      if (end == std::string::npos) break;
      start = end + 1;
      line.assign(kDescriptionColumn, ' ');
    }
  }
  for (const HelpParagraph& paragraph : help_paragraphs()) text += "\n" + paragraph.text + "\n";
  return text;
}

std::string version_text() { return std::string("hammer ") + HAMMER_VERSION + "\n"; }

}  // namespace hammer
