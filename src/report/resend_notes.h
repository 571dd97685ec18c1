// SPDX-License-Identifier: MIT
#pragma once
// The notes on how requests met the wire: answers that came before their request was all
// sent (early responses), and requests a polite close left unanswered, sent again or not.
#include <string>
#include <vector>

#include "run/result.h"

namespace hammer {

/// Each only when its count is not zero: early responses, retried requests, requests not
/// retried because their method is not idempotent.
std::vector<std::string> resend_notes(const RunResult& result);

}  // namespace hammer
