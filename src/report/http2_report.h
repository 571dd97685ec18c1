// SPDX-License-Identifier: MIT
#pragma once
// What an --http2 run's report says of HTTP/2 (RunResult::http2, run/http2_summary.h): the
// text lines and the JSON `http2` member (docs/json.md). An HTTP/1.1 run prints nothing and
// writes `"http2": null`.
#include <string>
#include <vector>

#include "report/json_writer.h"
#include "report/report_input.h"
#include "run/http2_summary.h"

namespace hammer {

/// The text report's HTTP/2 lines, without their newlines (the HTML page lists them too):
/// none unless http2.used. A line longer than the report's width goes on over lines that
/// start in the figures' column.
std::vector<std::string> http2_lines(const Http2Summary& http2);

/// "HTTP/2         h2c, 10 streams per connection (server allows 100); 20 sessions", how
/// sessions and streams ended (GOAWAY, RST_STREAM by code, refused), frame overhead beside the
/// response bodies, time to first byte, and the first setup and session errors.
void append_http2_text(const ReportInput& input, std::string& out);

/// The member "http2": null unless http2.used; else protocol, the streams asked and allowed,
/// the counts, resets_received by code (every key), the first errors and the first_byte
/// histogram.
void write_http2_json(const ReportInput& input, JsonWriter& json);

}  // namespace hammer
