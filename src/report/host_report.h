// SPDX-License-Identifier: MIT
#pragma once
// The host's part of a report: the hiccup meter's reading (max stall, time lost to stalls over
// 10 ms, when they happened, steal) and the workers' CPU share, in text, JSON, HTML and the
// timeline's per-row column. One wording for all of them.
#include <cstdint>
#include <string>

#include "report/json_writer.h"
#include "report/report_input.h"
#include "run/host_reading.h"

namespace hammer {

/// "Host           max stall 312.00ms at 1.20s, 1 stall over 10ms (312.00ms lost, 3.1% of the
/// run), steal 0.00ms"; empty when the meter did not run.
std::string host_line(const HostReading& host);
/// "Generator CPU  93.1% of 1 thread's time (busiest 93.1%)"; empty when not measured.
std::string generator_cpu_line(const GeneratorCpu& cpu);

/// Both lines, each ending in a newline, for the text report.
void append_host_text(const ReportInput& input, std::string& out);

/// "host" and "generator_cpu" (docs/json.md); null members when not measured.
void write_host_json(const ReportInput& input, JsonWriter& json);
/// "wakes": how the workers slept and timed their reads (WakeSummary, issue 27).
void write_wakes_json(const ReportInput& input, JsonWriter& json);

/// The longest stall that began in [from_ns, from_ns + length_ns) (offsets from t0), 0 when
/// none over HostReading::kLongStallNs did: the timeline's host_stall_max_ns column.
int64_t longest_stall_in(const HostReading& host, int64_t from_ns, int64_t length_ns);

}  // namespace hammer
