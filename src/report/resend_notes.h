// SPDX-License-Identifier: MIT
#pragma once
// The notes on how requests met the wire: answers that came before their request was all
// sent (early responses), and requests a polite close left unanswered, sent again or not.
#include <string>
#include <vector>

#include "core/config.h"
#include "run/result.h"

namespace hammer {

/// Each only when its count is not zero: early responses, retried requests, requests not
/// retried because their method is not idempotent.
/// Worded for the run's protocol: over HTTP/2 the requests sent again are streams the server
/// refused unprocessed (RFC 9113 8.7), not a polite close's.
std::vector<std::string> resend_notes(const Config& config, const RunResult& result);

}  // namespace hammer
