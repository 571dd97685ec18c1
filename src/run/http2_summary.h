// SPDX-License-Identifier: MIT
#pragma once
// --http2 runs: what the servers' SETTINGS allowed and how streams ended, beside the request
// figures (which count each stream as a request, as HTTP/1.1 counts each exchange). Summed
// over workers and shards by add(); the report's `http2` section (report/http2_report.cc).
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "stats/histogram.h"

namespace hammer {

/// RST_STREAM error codes counted one by one (RFC 9113 §7: 0x0 .. 0xd); any other code is
/// counted in the last bucket.
inline constexpr int kHttp2KnownErrorCodes = 14;
inline constexpr int kHttp2ResetBuckets = kHttp2KnownErrorCodes + 1;

struct Http2Summary {
  bool used = false;          // the run spoke HTTP/2
  bool cleartext = false;     // h2c with prior knowledge (http://); else h2 by ALPN
  int64_t streams = 0;        // --streams: asked per connection
  // The lowest SETTINGS_MAX_CONCURRENT_STREAMS a server sent; 0: none sent one (no limit).
  int64_t server_max_streams = 0;
  int64_t sessions = 0;       // connections that got the server's SETTINGS
  int64_t goaways = 0;        // GOAWAY frames received
  int64_t goaway_errors = 0;  // of them, with an error code
  std::array<int64_t, kHttp2ResetBuckets> resets_received{};  // RST_STREAM by error code
  int64_t resets_sent = 0;    // streams we reset (timeouts, malformed responses)
  int64_t refused = 0;        // streams the server did not process (sent again, or failed)
  int64_t session_errors = 0; // connections ended by a connection error (GOAWAY sent)
  int64_t pings_answered = 0;
  int64_t frame_overhead_bytes = 0;  // received bytes that were not response body
  int64_t data_bytes = 0;            // response body bytes received
  // Times the sessions' output left for the socket (a send, or a TLS write: a record), over
  // the measured part; -1: not known (a document from before it). Against the requests, how
  // many each write carried (one write per request was a regression: 12933c3).
  int64_t writes = 0;
  int64_t setup_failures = 0;        // connections whose server did not speak HTTP/2
  std::string first_setup_error;     // why the first one did not, e.g. "ALPN chose http/1.1"
  std::string first_session_error;   // the first connection error, e.g. "a header block ..."
  Histogram first_byte;  // measured streams: from HEADERS sent to the response's HEADERS

  int64_t resets_received_total() const {
    int64_t total = 0;
    for (const int64_t count : resets_received) total += count;
    return total;
  }

  void add(const Http2Summary& part) {
    used = used || part.used;
    cleartext = cleartext || part.cleartext;
    streams = std::max(streams, part.streams);
    if (part.server_max_streams > 0 &&
        (server_max_streams == 0 || part.server_max_streams < server_max_streams)) {
      server_max_streams = part.server_max_streams;
    }
    sessions += part.sessions;
    goaways += part.goaways;
    goaway_errors += part.goaway_errors;
    for (int i = 0; i < kHttp2ResetBuckets; ++i) resets_received[i] += part.resets_received[i];
    resets_sent += part.resets_sent;
    refused += part.refused;
    session_errors += part.session_errors;
    pings_answered += part.pings_answered;
    frame_overhead_bytes += part.frame_overhead_bytes;
    data_bytes += part.data_bytes;
    writes = writes < 0 || part.writes < 0 ? -1 : writes + part.writes;
    setup_failures += part.setup_failures;
    if (first_setup_error.empty()) first_setup_error = part.first_setup_error;
    if (first_session_error.empty()) first_session_error = part.first_session_error;
    first_byte.add(part.first_byte);
  }
};

}  // namespace hammer
