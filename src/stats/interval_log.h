// SPDX-License-Identifier: MIT
#pragma once
// HdrHistogram interval logs (.hlog), log format 1.3: one histogram per interval per tag, in
// the text form Java's HistogramLogWriter writes and HistogramLogReader, HistogramLogProcessor
// and HistogramLogAnalyzer read. See interval_log.cc for the format.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "stats/histogram.h"

namespace hammer {

struct IntervalHistogram {
  std::string tag;          // "corrected", "uncorrected"; empty for an untagged line
  int64_t start_ns = 0;     // interval start, relative to the log's base time
  int64_t length_ns = 0;    // interval length (column 2 is a length, not an end time)
  Histogram histogram;      // values in ns
};

struct IntervalLog {
  int64_t start_unix_ns = 0;  // #[StartTime: ...]: when recording began
  int64_t base_unix_ns = 0;   // #[BaseTime: ...]: what interval start times are relative to
  std::vector<std::string> comments;  // extra "#..." lines (without the '#'), written first
  std::vector<IntervalHistogram> intervals;  // in order of start time
};

/// The log as text: version, StartTime, BaseTime, comments, legend, then one line per
/// interval ("Tag=corrected,0.000,1.000,182.452,HISTF..."); times in seconds to the
/// millisecond, the interval max in milliseconds (HistogramLogWriter's default ratio).
std::string write_interval_log(const IntervalLog& log);

/// Reads a log written by any HdrHistogram implementation (format 1.0 to 1.3). Without a
/// BaseTime line, start times more than a year before StartTime are taken as relative to it,
/// as Java's reader does; the result always has base_unix_ns set.
Expected<IntervalLog, std::string> read_interval_log(std::string_view text);

/// Reads the file at `path`; errors start with the path.
Expected<IntervalLog, std::string> load_interval_log(const std::string& path);

}  // namespace hammer
