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

std::string render_slo_lines(const std::vector<SloOutcome>& outcomes) {
  std::string out;
  for (const SloOutcome& outcome : outcomes) {
    out += "SLO " + limit_text(outcome.limit) + ": ";
    out += outcome.has_measured ? slo_figure(outcome.limit, outcome.measured)
                                : std::string("no response to measure");
    out += outcome.pass ? ", met\n" : ", MISSED\n";
  }
  return out;
}

void write_slo_json(const std::vector<SloOutcome>& outcomes, JsonWriter& json) {
  json.key("slo").begin_array();
  for (const SloOutcome& outcome : outcomes) {
    const SloLimit& limit = outcome.limit;
    json.begin_object();
    json.member("key", limit.key);
    if (limit.is_error_rate()) {
      json.member("limit", limit.error_rate);
      json.member("unit", "ratio");
    } else {
      json.member("limit", limit.limit_ns);
      json.member("unit", "ns");
    }
    json.key("measured");
    if (!outcome.has_measured) {
      json.null();
    } else if (limit.is_error_rate()) {
      json.value(outcome.measured);
    } else {
      json.value(std::llround(outcome.measured));
    }
    json.member("pass", outcome.pass);
    json.end_object();
  }
  json.end_array();
  json.member("slo_passed", slos_pass(outcomes));
}

}  // namespace hammer
