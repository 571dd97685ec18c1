// SPDX-License-Identifier: MIT
#include "report/slo_report.h"

#include <cmath>

#include "report/format.h"

namespace hammer {

std::string slo_figure(const SloLimit& limit, double value) {
  if (limit.is_error_rate()) return format_fixed(value * 100, 2) + "%";
  return format_duration_ns(std::llround(value));
}

std::string limit_figure(const SloLimit& limit) {
  return limit.is_error_rate() ? slo_figure(limit, limit.error_rate)
                               : slo_figure(limit, static_cast<double>(limit.limit_ns));
}

std::string limit_text(const SloLimit& limit) { return limit.key + " <= " + limit_figure(limit); }

std::string slo_measured_text(const SloOutcome& outcome) {
  if (!outcome.has_measured) return "no response to measure";
  if (outcome.censored) return "> " + slo_figure(outcome.limit, outcome.measured) + " (timed out)";
  return slo_figure(outcome.limit, outcome.measured);
}

std::string render_slo_lines(const std::vector<SloOutcome>& outcomes) {
  std::string out;
  for (const SloOutcome& outcome : outcomes) {
    out += "SLO " + limit_text(outcome.limit) + ": ";
    out += slo_measured_text(outcome);
    out += outcome.pass ? ", met" : ", MISSED";
    if (outcome.unjudged) {
      out += " (cannot be judged: the true figure is above --timeout, maybe below the limit; "
             "a --timeout above " + limit_figure(outcome.limit) + " would tell)";
    }
    out += "\n";
  }
  return out;
}

void write_slo_limit_members(const SloLimit& limit, JsonWriter& json) {
  json.member("key", limit.key);
  if (limit.is_error_rate()) {
    json.member("limit", limit.error_rate);
    json.member("unit", "ratio");
  } else {
    json.member("limit", limit.limit_ns);
    json.member("unit", "ns");
  }
}

void write_slo_json(const std::vector<SloOutcome>& outcomes, JsonWriter& json) {
  json.key("slo").begin_array();
  for (const SloOutcome& outcome : outcomes) {
    const SloLimit& limit = outcome.limit;
    json.begin_object();
    write_slo_limit_members(limit, json);
    json.key("measured");
    if (!outcome.has_measured) {
      json.null();
    } else if (limit.is_error_rate()) {
      json.value(outcome.measured);
    } else {
      json.value(std::llround(outcome.measured));
    }
    json.member("pass", outcome.pass);
    // measured is --timeout, a lower bound; unjudged: the limit lies above that bound.
    json.member("censored", outcome.censored);
    json.member("unjudged", outcome.unjudged);
    json.end_object();
  }
  json.end_array();
  json.member("slo_passed", slos_pass(outcomes));
}

}  // namespace hammer
