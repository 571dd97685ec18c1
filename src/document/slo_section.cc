// SPDX-License-Identifier: MIT
// The judgement a saved run (or a sweep's step) carries: its --slo limits (`slo`) and the CPUs its verdicts were
// judged against, so `hammer report` judges the document again by the very rules the run used.
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "document/document_sections.h"

namespace hammer {
namespace {

// "p99.9" -> 99.9, "max" -> 100; 0 for a key that names no percentile above 0 and below 100.
double percentile_of(const std::string& key) {
  if (key == "max") return 100;
  if (key.size() < 2 || key.front() != 'p') return 0;
  // Digits and one decimal point only, as --slo spells a percentile (strtod alone would take
  // " 99" or "1e1").
  if (key.find_first_not_of("0123456789.", 1) != std::string::npos) return 0;
  char* end = nullptr;
  const double q = std::strtod(key.c_str() + 1, &end);
  if (end != key.c_str() + key.size() || !(q > 0 && q < 100)) return 0;
  return q;
}

}  // namespace

std::optional<SloLimit> read_slo_limit(DocumentReader& reader, const JsonValue& entry,
                                       const std::string& name) {
  const JsonValue* key = entry.find("key");
  const JsonValue* limit = entry.find("limit");
  if (key == nullptr || !key->is_string() || limit == nullptr || !limit->is_number()) {
    reader.fail(name + ": expected {key, limit, unit}");
    return std::nullopt;
  }
  SloLimit out;
  out.key = key->text;
  const double value = limit->as_double().value_or(-1);
  if (out.is_error_rate()) {
    if (!(value >= 0 && value <= 1)) {
      reader.fail(name + ".limit: expected an error rate from 0 to 1");
      return std::nullopt;
    }
    out.error_rate = value;
    return out;
  }
  out.percentile = percentile_of(out.key);
  if (out.percentile == 0) {
    reader.fail(name + ".key: expected pNN[.N], max or errors, got \"" + out.key + "\"");
    return std::nullopt;
  }
  if (!(value > 0 && value <= 60e9)) {
    reader.fail(name + ".limit: expected nanoseconds above 0, at most 60s");
    return std::nullopt;
  }
  out.limit_ns = std::llround(value);
  return out;
}

std::vector<SloLimit> read_slo_limits(DocumentReader& reader) {
  std::vector<SloLimit> limits;
  const JsonValue* slo = reader.at({"slo"});
  if (slo == nullptr || slo->is_null()) return limits;
  if (!slo->is_array()) {
    reader.fail("slo: expected an array of {key, limit, unit}");
    return limits;
  }
  for (size_t i = 0; i < slo->items.size() && !reader.failed(); ++i) {
    auto limit = read_slo_limit(reader, slo->items[i], "slo[" + std::to_string(i) + "]");
    if (!limit) break;
    limits.push_back(std::move(*limit));
  }
  return limits;
}

std::vector<SloOutcome> read_slo_outcomes(DocumentReader& reader, const JsonValue* slo,
                                          const std::string& name) {
  std::vector<SloOutcome> outcomes;
  if (slo == nullptr || slo->is_null()) return outcomes;
  if (!slo->is_array()) {
    reader.fail(name + ": expected an array of {key, limit, unit, measured, pass}");
    return outcomes;
  }
  for (size_t i = 0; i < slo->items.size() && !reader.failed(); ++i) {
    const JsonValue& entry = slo->items[i];
    const std::string entry_name = name + "[" + std::to_string(i) + "]";
    auto limit = read_slo_limit(reader, entry, entry_name);
    if (!limit) break;
    SloOutcome outcome;
    outcome.limit = std::move(*limit);
    const JsonValue* measured = entry.find("measured");
    outcome.has_measured = measured != nullptr && !measured->is_null();
    if (outcome.has_measured) outcome.measured = reader.number(&entry, entry_name, {"measured"});
    outcome.pass = reader.boolean(&entry, entry_name, {"pass"});
    // Added within schema 1: false in older documents, as docs/json.md says.
    const JsonValue* censored = entry.find("censored");
    outcome.censored = censored != nullptr && reader.boolean(&entry, entry_name, {"censored"});
    const JsonValue* unjudged = entry.find("unjudged");
    outcome.unjudged = unjudged != nullptr && reader.boolean(&entry, entry_name, {"unjudged"});
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

int64_t read_machine_cpus(DocumentReader& reader) {
  const JsonValue* verdicts = reader.at({"verdicts"});
  if (verdicts == nullptr || !verdicts->is_array()) return 0;
  for (const JsonValue& verdict : verdicts->items) {
    const JsonValue* cpus = verdict.at({"figures", "cpus"});
    if (cpus != nullptr && cpus->is_number()) return cpus->as_int().value_or(0);
  }
  return 0;
}

}  // namespace hammer
