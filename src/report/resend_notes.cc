// SPDX-License-Identifier: MIT
#include "report/resend_notes.h"

#include "report/format.h"

namespace hammer {

std::vector<std::string> resend_notes(const RunResult& result) {
  std::vector<std::string> notes;
  if (result.early_responses > 0) {
    notes.push_back(format_count(result.early_responses) +
                    " answers came before their request was all sent (the server answered "
                    "on the head): on a kept connection the rest of the body went first, on a "
                    "closing one it was dropped (RFC 9112 9.5); each counts as completed");
  }
  if (result.retried > 0) {
    notes.push_back(format_count(result.retried) +
                    " requests left unanswered by a polite close (a Connection: close answer "
                    "ahead of them, or a clean close between answers) were sent again on a new "
                    "connection, each at most once (RFC 9112 9.3.2); their corrected latency "
                    "includes the wait; --no-retry counts them as read errors");
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
