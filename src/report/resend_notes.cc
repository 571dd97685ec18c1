// SPDX-License-Identifier: MIT
#include "report/resend_notes.h"

#include "report/format.h"

namespace hammer {

std::vector<std::string> resend_notes(const Config& config, const RunResult& result) {
  // The wait for a connection is in the corrected latency only, which closed loop has not.
  const std::string waited =
      config.open_loop() ? "; their corrected latency includes the wait" : "";
  std::vector<std::string> notes;
  if (result.early_responses > 0) {
    notes.push_back(format_count(result.early_responses) +
                    " answers came before their request was all sent (the server answered "
                    "on the head): on a kept connection the rest of the body went first, on a "
                    "closing one it was dropped (RFC 9112 9.5); each counts as completed");
  }
  if (result.retried > 0 && config.http2) {
    notes.push_back(format_count(result.retried) +
                    " requests were sent again: the server refused their streams unprocessed "
                    "(REFUSED_STREAM, or above a GOAWAY's last stream id), which any method may "
                    "be, each at most " + std::to_string(kMaxUnprocessedResends) +
                    " times (RFC 9113 8.7)" +
                    waited + "; --no-retry counts them as read errors");
  } else if (result.retried > 0) {
    notes.push_back(format_count(result.retried) +
                    " requests left unanswered by a polite close (a Connection: close answer "
                    "ahead of them, or a clean close between answers) were sent again on a new "
                    "connection, each at most once (RFC 9112 9.3.2)" +
                    waited + "; --no-retry counts them as read errors");
  }
  if (result.not_retried > 0) {
    notes.push_back(format_count(result.not_retried) +
                    " requests left unanswered by a polite close failed as read errors without "
                    "a second try: their method is not idempotent, and the server may have "
                    "acted on them (RFC 9110 9.2.2)");
  }
  return notes;
}

}  // namespace hammer
