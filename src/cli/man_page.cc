// SPDX-License-Identifier: MIT
// The --help prose is wrapped for a terminal; here each paragraph becomes one roff line and
// man(1) wraps it to the reader's width.
#include "cli/man_page.h"

#include <array>
#include <cctype>
#include <utility>
#include <string_view>

#include "cli/compare_command.h"
#include "cli/merge_options.h"
#include "cli/report_command.h"
#include "cli/usage.h"
#include "report/prometheus_text.h"

namespace hammer {
namespace {

// Text as roff reads it literally: backslashes and hyphens escaped (a plain '-' may be set as
// a hyphen and break copy-paste of flags), a leading '.' or '\'' kept from being a request.
std::string roff(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

// The --help lines of a paragraph as one line.
std::string unwrapped(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '\n' ? ' ' : c;
  return out;
}

// "Sweeps: a list ..." under the heading SWEEPS loses its "Sweeps: ".
std::string_view without_heading(std::string_view text, std::string_view section) {
  if (section.empty() || text.size() < section.size() + 2) return text;
  for (size_t i = 0; i < section.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(section[i]))) {
      return text;
    }
  }
  if (text.substr(section.size(), 2) != ": ") return text;
  return text.substr(section.size() + 2);
}

std::string option_tag(const FlagSpec& spec) {
  std::string tag;
  if (spec.short_name != '\0') tag += "\\fB\\-" + std::string(1, spec.short_name) + "\\fR, ";
  tag += "\\fB" + roff(spec.long_name) + "\\fR";
  if (spec.takes_value()) tag += " \\fI" + roff(spec.value_name) + "\\fR";
  return tag;
}

constexpr std::array kExamples = {
    ManExample{"Closed loop, as wrk runs: 50 connections, each sending its next request when the "
               "previous answer lands, for 30 seconds.",
               "hammer -c 50 -d 30 http://127.0.0.1:8080/"},
    ManExample{"Open loop at 2,000 requests per second: every request timed from its intended "
               "moment (corrected) and from its send (uncorrected), the full spectrum of both "
               "side by side.",
               "hammer -r 2000 -c 20 -d 30 --latency http://127.0.0.1:8080/"},
    ManExample{"A request count instead of a duration, as ab -n: exactly 1,000 requests over "
               "8 connections, the run ending once every one is answered.",
               "hammer -n 1000 -c 8 http://127.0.0.1:8080/"},
    ManExample{"A 5-second warm-up, then the run saved as its JSON document and as one "
               "self-contained HTML page.",
               "hammer -r 2000 -c 20 -d 30 -W 5 -o run.json -o run.html http://127.0.0.1:8080/"},
    ManExample{"A saved run's text report again, its --slo limits judged again.",
               "hammer report run.json"},
    ManExample{"Two saved runs (before and after a change) on one HTML page, their percentile "
               "spectra overlaid.",
               "hammer report run.json after.json -o compare.html"},
    ManExample{"Several requests in one run, one JSON object per line of requests.jsonl "
               "(members path, method, headers, body or body_file, name), reported per line.",
               "hammer --requests requests.jsonl -r 1000 -c 10 -d 10 http://127.0.0.1:8080/"},
    ManExample{"A connection sweep: one 10-second run per level, a row each, Little's law and "
               "the knee.",
               "hammer -c 1,2,5,10,25,50,100 -d 10 http://127.0.0.1:8080/"},
    ManExample{"A capacity search: the highest rate between 200 and 5,000 req/s whose p99 stays "
               "within 50 ms; exit 3 when none does.",
               "hammer --rate 200:5000 --slo p99=50ms -c 100 -d 10 http://127.0.0.1:8080/"},
    ManExample{"The shards of one fleet (runs of --shard 1/3 .. 3/3 with one --start-at, on three "
               "machines) added into the run one machine would have measured.",
               "hammer merge s1.json s2.json s3.json -o merged.json -o merged.hlog -o merged.html"},
};

// The document `--json` prints, member by member at the top level: enough to read one without
// hammer's source at hand.
constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kJsonMembers = {{
    {"hammer", "{version, schema}: the schema is 1; a member added keeps it, one removed, "
               "renamed or changed in type or unit raises it. Readers ignore members they do not "
               "know."},
    {"config", "what was asked for: url, connections, threads, duration_s, rate, mode (open or "
               "closed), stopwatch, timeout_ms, method, engine, ..."},
    {"elapsed_ns", "the measured wall time; every rate divides by it."},
    {"requests", "scheduled (null in closed loop), sent, completed, unsent, failed, retried, "
                 "bytes_read, per_second."},
    {"latency", "corrected (from each request's intended time; null in closed loop) and "
                "uncorrected (from its send), each {count, min_ns, max_ns, mean_ns, stdev_ns, "
                "percentiles_ns: {\"50\": ..., \"99\": ..., \"99.99\": ...}, hdr}, hdr being "
                "the whole histogram as a compressed HdrHistogram V2 string (base64)."},
    {"errors", "failed requests by kind: connect, read, write, timeout, parse, tls."},
    {"status, status_codes", "answers by class (1xx .. 5xx) and by code (\"200\": 19990)."},
    {"dispatch_lag", "open loop: how late sends left their slots (mean_ns, p99_ns, max_ns, "
                     "behind_schedule) and whose fault it was (cause.server, cause.generator); "
                     "null in closed loop."},
    {"host, generator_cpu", "whether the machine and hammer itself were fit to measure (stalls "
                            "of its own threads, hammer's CPU use)."},
    {"warmup, ramp, requests_file", "the warm-up, the ramp and each --requests line, apart from "
                                    "the measured figures; null when not used."},
    {"timeline", "always present: rows, one per second (second, phase, requests, per_second, "
                 "p50_ns, p99_ns, max_ns, errors, slow, hdr)."},
    {"verdicts, notes", "verdicts: [{code, text, figures}], what the figures mean, worded as in "
                        "the text report; notes: the report's notes as strings."},
    {"interrupted", "true when Ctrl-C or SIGTERM ended the run."},
    {"slo, slo_passed", "with --slo: one {key, limit, unit, measured, pass} per limit, and "
                        "whether all held. A sweep's document has sweep instead of the "
                        "single-run members; a merged one adds fleet."},
}};

}  // namespace

std::span<const ManExample> man_examples() { return kExamples; }

std::string man_page() {
  std::string page;
  page += ".\\\" Generated by `hammer --generate man` from the flag table (src/cli/flags.h).\n";
  page += ".TH HAMMER 1 \"\" \"hammer " HAMMER_VERSION "\" \"User Commands\"\n";
  page += ".SH NAME\nhammer \\- an HTTP/1.1 and HTTP/2 load generator (http:// and https://) "
          "that reports latency without coordinated omission\n";
  page += ".SH SYNOPSIS\n.B hammer\n[\\fIoptions\\fR] \\fIurl\\fR\n.br\n.B hammer merge\n"
          "\\fISHARD.json\\fR... [\\fIoptions\\fR]\n.br\n.B hammer report\n"
          "\\fIRUN.json\\fR... \\fB\\-o\\fR \\fIreport.html\\fR\n.br\n.B hammer compare\n"
          "\\fIA.json\\fR \\fIB.json\\fR [\\fIoptions\\fR]\n";
  page += ".SH DESCRIPTION\n" + roff(unwrapped(help_summary())) + "\n";
  page += ".SH OPTIONS\n";
  for (const FlagSpec* flag : flags_in_help_order()) {
    const FlagSpec& spec = *flag;
    page += ".TP\n" + option_tag(spec) + "\n" + roff(unwrapped(flag_description(spec.flag))) +
            "\n";
  }
  const std::vector<HelpParagraph> paragraphs = help_paragraphs();
  for (const HelpParagraph& paragraph : paragraphs) {
    if (paragraph.man_section.empty()) page += ".PP\n" + roff(unwrapped(paragraph.text)) + "\n";
  }
  for (const HelpParagraph& paragraph : paragraphs) {
    if (paragraph.man_section.empty()) continue;
    page += ".SH " + std::string(paragraph.man_section) + "\n" +
            roff(unwrapped(without_heading(paragraph.text, paragraph.man_section))) + "\n";
  }
  // Subcommands: their own --help, as printed, in no-fill mode.
  for (const auto& [section, help] : {std::pair{"HAMMER MERGE", merge_usage_text()},
                                      std::pair{"HAMMER REPORT", report_usage_text()},
                                      std::pair{"HAMMER COMPARE", compare_usage_text()}}) {
    page += ".SH " + std::string(section) + "\n.nf\n";
    size_t start = 0;
    while (start < help.size()) {
      const size_t end = help.find('\n', start);
      page += roff(help.substr(start, end - start)) + "\n";
      if (end == std::string::npos) break;
      start = end + 1;
    }
    page += ".fi\n";
  }
  page += ".SH EXAMPLES\n";
  for (const ManExample& example : kExamples) {
    page += ".PP\n" + roff(example.what) + "\n.PP\n.RS 4\n.nf\n" + roff(example.command) +
            "\n.fi\n.RE\n";
  }
  page += ".SH JSON DOCUMENT\n";
  page += roff("hammer --json prints exactly one JSON document on stdout, and -o FILE.json writes "
               "the same one (hammer report and hammer merge read it back). Times are integer "
               "nanoseconds in members ending in _ns; a figure that does not exist is null, "
               "never 0. Its members:") + "\n";
  for (const auto& [member, meaning] : kJsonMembers) {
    page += ".TP\n\\fB" + roff(member) + "\\fR\n" + roff(meaning) + "\n";
  }
  page += ".PP\n" + roff("With --progress-fd FD, hammer also writes one JSON object per line to "
                         "descriptor FD every 100 ms while the load runs: type (\"progress\"), "
                         "phase, elapsed_ns, total_ns, completed, errors, per_second; in a sweep, "
                         "a line of type \"step\" after each level.") + "\n";
  page += ".SH METRICS\n";
  page += roff("With --metrics-listen HOST:PORT, hammer serves the Prometheus text format at "
               "http://HOST:PORT/metrics from before its first connect until it exits; the "
               "workers publish their figures every 100 ms. Counters count from the run's "
               "start; a phase the run does not have is left out. Latency is in seconds, in "
               "buckets from 100 us to 50 s counted from the HDR histograms. A Grafana dashboard "
               "reading these series is deploy/grafana/hammer-dashboard.json in hammer's "
               "repository. The series:") + "\n";
  for (const PrometheusFamily& family : kPrometheusFamilies) {
    page += ".TP\n\\fB" + roff(family.name) + "\\fR (" + std::string(family.type) +
            (family.labels.empty() ? "" : "; " + std::string(family.labels)) + ")\n" +
            roff(family.help) + "\n";
  }
  return page;
}

}  // namespace hammer
