// SPDX-License-Identifier: MIT
// The interval log format (HdrHistogram's HistogramLogWriter, log format version 1.3):
//
//   #[Histogram log format version 1.3]
//   #[StartTime: 1764583200.000 (seconds since epoch), Tue Dec 01 10:00:00 UTC 2026]
//   #[BaseTime: 1764583200.000 (seconds since epoch)]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   Tag=corrected,0.000,1.000,182.452,HISTFAAAA...
//
// Column 1 is the interval's start in seconds after BaseTime, column 2 its LENGTH (not its end:
// HdrHistogram_c and other ports once wrote the end, design.md §8), column 3 the interval's max
// divided by 1e6 (ns to ms, the writer's default ratio; readers ignore it and decode the
// histogram), column 4 the histogram in compressed V2 base64. Lines are tagged "Tag=NAME," so
// that several histograms (hammer writes corrected and uncorrected) share one log. Times carry
// three decimals, as Java writes them; our interval starts are whole seconds from BaseTime.
#include "stats/interval_log.h"
#include "platform/utc_time.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "platform/files.h"
#include "stats/histogram_v2.h"
#include "time/time_units.h"

namespace hammer {
namespace {

constexpr double kMaxValueUnitRatio = 1e6;  // ns -> ms, HistogramLogWriter's default
constexpr int64_t kYearNs = 365LL * 24 * 3600 * kNanosPerSecond;
constexpr int64_t kMaxLogBytes = 1LL << 30;

std::string seconds_text(int64_t ns) {
  char text[40];
  std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1e9);
  return text;
}

// Java's Date.toString() shape, in UTC: "Tue Dec 01 10:00:00 UTC 2026".
std::string date_text(int64_t unix_ns) {
  const time_t seconds = static_cast<time_t>(unix_ns / kNanosPerSecond);
  std::tm broken{};
  utc_calendar(seconds, &broken);
  char text[64];
  std::strftime(text, sizeof text, "%a %b %d %H:%M:%S UTC %Y", &broken);
  return text;
}

bool parse_seconds(std::string_view text, int64_t& ns) {
  const std::string copy(text);
  char* end = nullptr;
  const double seconds = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || !std::isfinite(seconds) || seconds < 0 || seconds > 1e11) {
    return false;
  }
  ns = std::llround(seconds * 1e9);
  return true;
}

// "#[StartTime: 1764583200.000 (seconds ..." -> the number after the label.
bool header_value(std::string_view line, std::string_view label, int64_t& ns) {
  if (line.substr(0, label.size()) != label) return false;
  std::string_view rest = line.substr(label.size());
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  const size_t end = rest.find_first_of(" ]");
  return parse_seconds(rest.substr(0, end), ns);
}

}  // namespace

std::string write_interval_log(const IntervalLog& log) {
  std::string out;
  out += "#[Histogram log format version 1.3]\n";
  out += "#[StartTime: " + seconds_text(log.start_unix_ns) + " (seconds since epoch), " +
         date_text(log.start_unix_ns) + "]\n";
  out += "#[BaseTime: " + seconds_text(log.base_unix_ns) + " (seconds since epoch)]\n";
  for (const std::string& comment : log.comments) out += "#" + comment + "\n";
  out += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
         "\"Interval_Compressed_Histogram\"\n";
  for (const IntervalHistogram& interval : log.intervals) {
    if (!interval.tag.empty()) out += "Tag=" + interval.tag + ",";
    char max_text[48];
    std::snprintf(max_text, sizeof max_text, "%.3f",
                  static_cast<double>(interval.histogram.max()) / kMaxValueUnitRatio);
    out += seconds_text(interval.start_ns) + "," + seconds_text(interval.length_ns) + "," +
           max_text + "," + encode_v2_base64(interval.histogram) + "\n";
  }
  return out;
}

Expected<IntervalLog, std::string> read_interval_log(std::string_view text) {
  IntervalLog log;
  bool have_start = false;
  bool have_base = false;
  bool deduced_base = false;
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    auto fail = [&](const std::string& why) {
      return unexpected("line " + std::to_string(line_number) + ": " + why);
    };
    if (line.front() == '#') {
      int64_t ns = 0;
      if (header_value(line, "#[StartTime:", ns)) {
        log.start_unix_ns = ns;
        have_start = true;
      } else if (header_value(line, "#[BaseTime:", ns)) {
        log.base_unix_ns = ns;
        have_base = true;
      }
      continue;
    }
    if (line.front() == '"' || line.substr(0, 14) == "StartTimestamp") continue;  // legend
    std::string tag;
    if (line.substr(0, 4) == "Tag=") {
      const size_t comma = line.find(',');
      if (comma == std::string_view::npos) return fail("a tag without an interval");
      tag = std::string(line.substr(4, comma - 4));
      line.remove_prefix(comma + 1);
    }
    std::string_view fields[4];
    for (int i = 0; i < 3; ++i) {
      const size_t comma = line.find(',');
      if (comma == std::string_view::npos) {
        return fail("expected start,length,max,histogram");
      }
      fields[i] = line.substr(0, comma);
      line.remove_prefix(comma + 1);
    }
    fields[3] = line;
    IntervalHistogram interval;
    interval.tag = std::move(tag);
    if (!parse_seconds(fields[0], interval.start_ns)) return fail("bad interval start");
    if (!parse_seconds(fields[1], interval.length_ns)) return fail("bad interval length");
    auto histogram = decode_v2_base64(fields[3]);
    if (!histogram) return fail("bad histogram: " + histogram.error());
    interval.histogram = std::move(*histogram);
    if (!have_base && !deduced_base) {
      // HistogramLogReader's rule: start times far before StartTime are relative to it.
      log.base_unix_ns =
          have_start && interval.start_ns < log.start_unix_ns - kYearNs ? log.start_unix_ns : 0;
      deduced_base = true;
    }
    log.intervals.push_back(std::move(interval));
  }
  if (!have_start && !log.intervals.empty()) {
    log.start_unix_ns = log.base_unix_ns + log.intervals.front().start_ns;
  }
  if (log.intervals.empty() && !have_start) {
    return unexpected(std::string("not an HdrHistogram interval log (no StartTime, no intervals)"));
  }
  return log;
}

Expected<IntervalLog, std::string> load_interval_log(const std::string& path) {
  const auto text = read_bounded_file(path, kMaxLogBytes, "1GB");
  if (!text) return unexpected(path + ": " + text.error());
  auto log = read_interval_log(*text);
  if (!log) return unexpected(path + ": " + log.error());
  return log;
}

}  // namespace hammer
