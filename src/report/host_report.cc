// SPDX-License-Identifier: MIT
#include "report/host_report.h"

#include <algorithm>

#include "report/format.h"
#include "stats/histogram_v2.h"

namespace hammer {
namespace {

constexpr size_t kLabelWidth = 15;  // as the text report's labels

std::string label(const char* text) {
  std::string padded(text);
  if (padded.size() < kLabelWidth) padded.append(kLabelWidth - padded.size(), ' ');
  return padded;
}

std::string percent(double share) { return format_fixed(100.0 * share, 1) + "%"; }

}  // namespace

std::string host_line(const HostReading& host) {
  if (!host.measured()) return {};
  std::string text = label("Host") + "max stall " + format_duration_ns(host.max_ns);
  const auto longest = std::max_element(
      host.long_stalls.begin(), host.long_stalls.end(),
      [](const HostStall& a, const HostStall& b) { return a.length_ns < b.length_ns; });
  if (longest != host.long_stalls.end() && host.max_ns >= HostReading::kLongStallNs) {
    text += " at " + format_duration_ns(longest->at_ns);
  }
  if (host.long_count == 0) {
    text += ", no stall over 10ms";
  } else {
    text += ", " + std::to_string(host.long_count) +
            (host.long_count == 1 ? " stall" : " stalls") + " over 10ms (" +
            format_duration_ns(host.long_sum_ns) + " lost";
    if (host.observed_ns > 0) {
      // The meter watches from the start to the end of the drain (the last answers' wait, up
      // to --timeout), not the measured part alone: its span is said, so a share or a stall's
      // time past the measured seconds reads as what it is.
      text += ", " +
              percent(static_cast<double>(host.long_sum_ns) /
                      static_cast<double>(host.observed_ns)) +
              " of the " + format_duration_ns(host.observed_ns) + " watched, drain included";
    }
    text += ")";
  }
  text += host.steal_ns >= 0 ? ", steal " + format_duration_ns(host.steal_ns)
                             : std::string(", steal unavailable");
  return text;
}

std::string generator_cpu_line(const GeneratorCpu& cpu) {
  if (!cpu.measured()) return {};
  return label("Generator CPU") + percent(cpu.share()) + " of " + std::to_string(cpu.workers) +
         (cpu.workers == 1 ? " thread's" : " threads'") + " time (busiest " +
         percent(cpu.busiest_share) + ")";
}

void append_host_text(const ReportInput& input, std::string& out) {
  const std::string host = host_line(input.result.host);
  if (!host.empty()) out += host + "\n";
  if (std::string line = generator_cpu_line(input.result.generator_cpu); !line.empty()) {
    out += line + "\n";
  } else if (!host.empty()) {
    // A run this short (an -n of a few requests) is still told it was not measured, rather
    // than leave out a line the README promises every run; a document older than the reading
    // has no host line either, and prints neither.
    out += label("Generator CPU") + "not measured (no thread ran the " +
           format_duration_ns(GeneratorCpu::kMinWallNs) + " a share needs)\n";
  }
}

void write_host_json(const ReportInput& input, JsonWriter& json) {
  const HostReading& host = input.result.host;
  json.key("host");
  if (!host.measured()) {
    json.null();
  } else {
    json.begin_object();
    json.member("meters", host.meters);
    json.member("interval_ns", host.interval_ns);
    json.member("observed_ns", host.observed_ns);
    json.member("max_stall_ns", host.max_ns);
    json.member("long_stall_ns", HostReading::kLongStallNs);
    json.member("long_stalls", host.long_count);
    json.member("lost_ns", host.long_sum_ns);
    json.member("lost_share", host.observed_ns > 0 ? static_cast<double>(host.long_sum_ns) /
                                                         static_cast<double>(host.observed_ns)
                                                   : 0.0);
    json.member_or_null("steal_ns", host.steal_ns >= 0, host.steal_ns);
    json.member_or_null("meter_cpu_ns", host.meter_cpu_ns >= 0, host.meter_cpu_ns);
    json.key("stalls").begin_array();
    for (const HostStall& stall : host.long_stalls) {
      json.begin_object();
      json.member("at_ns", stall.at_ns);
      json.member("ns", stall.length_ns);
      json.end_object();
    }
    json.end_array();
    json.member("hdr", encode_v2_base64(host.oversleeps));
    json.end_object();
  }
  const GeneratorCpu& cpu = input.result.generator_cpu;
  json.key("generator_cpu");
  if (!cpu.measured()) {
    json.null();
    return;
  }
  json.begin_object();
  json.member("threads", cpu.workers);
  json.member("cpu_ns", cpu.cpu_ns);
  json.member("wall_ns", cpu.wall_ns);
  json.member("share", cpu.share());
  json.member("busiest_share", cpu.busiest_share);
  json.end_object();
}

void write_wakes_json(const ReportInput& input, JsonWriter& json) {
  const WakeSummary& wakes = input.result.wakes;
  json.key("wakes").begin_object();
  json.member("sleeps", wakes.sleeps);
  json.member("through_traffic", wakes.through_traffic);
  json.member("stamped_reads", wakes.stamped_reads);
  json.member("unstamped_reads", wakes.unstamped_reads);
  json.member("clock_steps", wakes.clock_steps);
  json.member("largest_step_ns", wakes.largest_step_ns);
  json.member("stamps_refused", wakes.stamps_refused);
  json.member("large_responses", wakes.large_responses);
  json.end_object();
}

int64_t longest_stall_in(const HostReading& host, int64_t from_ns, int64_t length_ns) {
  int64_t longest = 0;
  for (const HostStall& stall : host.long_stalls) {
    if (stall.at_ns >= from_ns && stall.at_ns < from_ns + length_ns) {
      longest = std::max(longest, stall.length_ns);
    }
  }
  return longest;
}

}  // namespace hammer
