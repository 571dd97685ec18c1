// SPDX-License-Identifier: MIT
#include "report/http2_report.h"

#include <string_view>

#include "report/format.h"
#include "report/json_report.h"
#include "run/http2_code_names.h"

namespace hammer {
namespace {

constexpr size_t kLabelWidth = 15;  // "HTTP/2         ", as the text report's labels
constexpr size_t kLineWidth = 96;   // a line goes on over the next one past this

/// Display columns of `text`: UTF-8 continuation bytes take none ("—" is one column).
size_t columns(std::string_view text) {
  size_t count = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

std::string labelled(std::string_view label) {
  std::string line(label);
  line.append(kLabelWidth - line.size(), ' ');
  return line;
}

/// `pieces` after `label`, a space between two; a piece that would pass kLineWidth starts a
/// new line in the figures' column.
void append_wrapped(std::string_view label, const std::vector<std::string>& pieces,
                    std::vector<std::string>& lines) {
  std::string line = labelled(label);
  bool empty = true;
  for (const std::string& piece : pieces) {
    if (!empty && columns(line) + 1 + columns(piece) > kLineWidth) {
      lines.push_back(line);
      line = std::string(kLabelWidth, ' ');
      empty = true;
    }
    if (!empty) line += ' ';
    line += piece;
    empty = false;
  }
  lines.push_back(line);
}

std::string counted(int64_t count, std::string_view one, std::string_view many) {
  return format_count(count) + " " + std::string(count == 1 ? one : many);
}

/// "3 connections did not speak HTTP/2, the first: ALPN chose http/1.1".
std::string first_of(int64_t count, std::string_view one, std::string_view many,
                     const std::string& first) {
  if (count <= 0) return first;
  if (count == 1) return counted(count, one, many) + ": " + first;
  return counted(count, one, many) + ", the first: " + first;
}

}  // namespace

std::vector<std::string> http2_lines(const Http2Summary& http2) {
  std::vector<std::string> lines;
  if (!http2.used) return lines;

  std::string setup = labelled("HTTP/2");
  setup += http2.cleartext ? "h2c, " : "h2, ";
  setup += counted(http2.streams, "stream", "streams") + " per connection";
  if (http2.server_max_streams > 0 && http2.server_max_streams < http2.streams) {
    setup += " — the server lowered --streams to " + format_count(http2.server_max_streams);
  } else if (http2.server_max_streams > 0) {
    setup += " (server allows " + format_count(http2.server_max_streams) + ")";
  }
  setup += "; " + counted(http2.sessions, "session", "sessions");
  lines.push_back(setup);

  // How sessions and streams ended.
  std::vector<std::string> ends;
  std::string goaway = format_count(http2.goaways) + " GOAWAY";
  if (http2.goaway_errors > 0) {
    goaway += " (" + format_count(http2.goaway_errors) + " with an error)";
  }
  ends.push_back(goaway + ";");
  const int64_t received = http2.resets_received_total();
  if (received == 0) {
    ends.push_back("no RST_STREAM received;");
  } else {
    ends.push_back(format_count(received) + " RST_STREAM received:");
    int last = 0;
    for (int code = 0; code < kHttp2ResetBuckets; ++code) {
      if (http2.resets_received[code] != 0) last = code;
    }
    for (int code = 0; code < kHttp2ResetBuckets; ++code) {
      if (http2.resets_received[code] == 0) continue;
      ends.push_back(format_count(http2.resets_received[code]) + " " +
                     std::string(kHttp2ResetNames[code]) + (code == last ? ";" : ","));
    }
  }
  ends.push_back(format_count(http2.resets_sent) + " RST_STREAM sent;");
  ends.push_back(counted(http2.refused, "stream refused", "streams refused"));
  append_wrapped("HTTP/2 ends", ends, lines);

  const int64_t received_bytes = http2.frame_overhead_bytes + http2.data_bytes;
  if (received_bytes > 0) {
    const double share = 100.0 * static_cast<double>(http2.frame_overhead_bytes) /
                         static_cast<double>(received_bytes);
    lines.push_back(labelled("HTTP/2 frames") +
                    format_bytes(static_cast<double>(http2.frame_overhead_bytes)) +
                    " frame overhead, " + format_bytes(static_cast<double>(http2.data_bytes)) +
                    " data: overhead " + format_fixed(share, 2) + "% of the bytes received");
  }

  const Histogram& first_byte = http2.first_byte;
  if (first_byte.total_count() > 0) {
    lines.push_back(labelled("First byte") + "p50 " +
                    format_duration_ns(first_byte.value_at_percentile(50)) + ", p99 " +
                    format_duration_ns(first_byte.value_at_percentile(99)) + ", max " +
                    format_duration_ns(first_byte.max()) +
                    " (from each stream's send, uncorrected)");
  }

  if (!http2.first_setup_error.empty()) {
    lines.push_back(labelled("HTTP/2 setup") +
                    first_of(http2.setup_failures, "connection did not speak HTTP/2",
                             "connections did not speak HTTP/2", http2.first_setup_error));
  }
  if (!http2.first_session_error.empty()) {
    lines.push_back(labelled("HTTP/2 errors") +
                    first_of(http2.session_errors, "session ended by a connection error",
                             "sessions ended by a connection error", http2.first_session_error));
  }
  return lines;
}

void append_http2_text(const ReportInput& input, std::string& out) {
  for (const std::string& line : http2_lines(input.result.http2)) out += line + "\n";
}

void write_http2_json(const ReportInput& input, JsonWriter& json) {
  const Http2Summary& http2 = input.result.http2;
  json.object_or_null("http2", http2.used, [&] {
    json.member("protocol", http2.cleartext ? "h2c" : "h2");
    json.member("streams", http2.streams);
    json.member_or_null("server_max_streams", http2.server_max_streams > 0,
                        http2.server_max_streams);
    json.member("sessions", http2.sessions);
    json.member("goaways", http2.goaways);
    json.member("goaway_errors", http2.goaway_errors);
    write_named_counts("resets_received", kHttp2ResetKeys, http2.resets_received, json);
    json.member("resets_sent", http2.resets_sent);
    json.member("refused", http2.refused);
    json.member("session_errors", http2.session_errors);
    json.member("pings_answered", http2.pings_answered);
    json.member("frame_overhead_bytes", http2.frame_overhead_bytes);
    json.member("data_bytes", http2.data_bytes);
    json.member_or_null("writes", http2.writes >= 0, http2.writes);
    json.member("setup_failures", http2.setup_failures);
    json.member_or_null("first_setup_error", !http2.first_setup_error.empty(),
                        http2.first_setup_error);
    json.member_or_null("first_session_error", !http2.first_session_error.empty(),
                        http2.first_session_error);
    json.key("first_byte");
    write_histogram(input.config, 0, http2.first_byte, json);
  });
}

}  // namespace hammer
