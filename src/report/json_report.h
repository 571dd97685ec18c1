// SPDX-License-Identifier: MIT
#pragma once
// The --json report: one document, schema documented in docs/json.md.
#include <string>

#include "report/report_input.h"

namespace hammer {

/// Bumped on any incompatible change to the document (a member removed, renamed or retyped);
/// adding members is compatible and keeps it.
inline constexpr int kJsonSchemaVersion = 1;

/// The whole JSON document (docs/json.md), indented, ending in '\n'. Times are integer
/// nanoseconds; figures that do not exist in this mode (corrected latency and dispatch lag in
/// closed loop) are null rather than zero.
std::string render_json_report(const ReportInput& input);

}  // namespace hammer
