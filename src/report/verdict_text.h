// SPDX-License-Identifier: MIT
#pragma once
// The words for run/verdicts.h: each verdict's stable JSON code, its one-line sentence with
// its figures, and the figures as JSON members. The only place a verdict becomes text.
#include <optional>
#include <string>
#include <string_view>

#include "report/json_writer.h"
#include "run/verdicts.h"

namespace hammer {

/// True for the verdicts a report shows above the figures rather than after them: those that
/// say the figures describe failures or error answers (a fast 404 is not a fast server).
bool verdict_comes_first(VerdictCode code);

/// The sentence the text report prints, figures included; warnings and notes carry their
/// "warning: " or "note: " prefix.
std::string verdict_sentence(const Verdict& verdict);

/// {"code": ..., "text": ..., "figures": {...}} for one verdict.
void write_verdict_json(const Verdict& verdict, JsonWriter& json);

}  // namespace hammer
