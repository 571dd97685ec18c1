// SPDX-License-Identifier: MIT
// `http2` read back (docs/json.md): what report/http2_report.cc wrote from RunResult::http2,
// so a saved --http2 run prints its HTTP/2 lines again and merges (RunResult::add sums it).
#include "document/document_sections.h"
#include "run/http2_code_names.h"

namespace hammer {
namespace {

// A string member that is null when there is nothing to say (no such error happened).
std::string text_or_empty(DocumentReader& reader, const JsonValue& http2, std::string_view name) {
  const JsonValue* node = http2.find(name);
  if (node == nullptr || node->is_null()) return {};
  if (!node->is_string()) {
    reader.fail("http2." + std::string(name) + ": expected a string or null");
  }
  return node->is_string() ? node->text : std::string();
}

}  // namespace

void read_http2_section(DocumentReader& reader, RunResult& result) {
  const JsonValue* http2 = reader.at({"http2"});
  if (http2 == nullptr || http2->is_null()) return;  // HTTP/1.1, or a document from before it
  if (!http2->is_object()) {
    reader.fail("http2: expected an object or null");
    return;
  }
  Http2Summary& out = result.http2;
  out.used = true;
  const JsonValue* protocol = http2->find("protocol");
  if (protocol == nullptr || !protocol->is_string() ||
      (protocol->text != "h2" && protocol->text != "h2c")) {
    reader.fail("http2.protocol: expected \"h2\" or \"h2c\"");
    return;
  }
  out.cleartext = protocol->text == "h2c";
  out.streams = reader.integer(http2, "http2", {"streams"});
  if (const JsonValue* allowed = http2->find("server_max_streams");
      allowed == nullptr || !allowed->is_null()) {
    out.server_max_streams = reader.integer(http2, "http2", {"server_max_streams"});
  }
  out.sessions = reader.integer(http2, "http2", {"sessions"});
  out.goaways = reader.integer(http2, "http2", {"goaways"});
  out.goaway_errors = reader.integer(http2, "http2", {"goaway_errors"});
  for (int code = 0; code < kHttp2ResetBuckets; ++code) {
    out.resets_received[code] =
        reader.integer(http2, "http2", {"resets_received", kHttp2ResetKeys[code]});
  }
  out.resets_sent = reader.integer(http2, "http2", {"resets_sent"});
  out.refused = reader.integer(http2, "http2", {"refused"});
  out.session_errors = reader.integer(http2, "http2", {"session_errors"});
  out.pings_answered = reader.integer(http2, "http2", {"pings_answered"});
  out.frame_overhead_bytes = reader.integer(http2, "http2", {"frame_overhead_bytes"});
  out.data_bytes = reader.integer(http2, "http2", {"data_bytes"});
  out.writes = static_cast<int64_t>(reader.number_or_null(http2, "http2", {"writes"}, -1));
  out.setup_failures = reader.integer(http2, "http2", {"setup_failures"});
  out.first_setup_error = text_or_empty(reader, *http2, "first_setup_error");
  out.first_session_error = text_or_empty(reader, *http2, "first_session_error");
  out.first_byte = reader.histogram(http2->find("first_byte"), "http2.first_byte");
}

}  // namespace hammer
