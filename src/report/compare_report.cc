// SPDX-License-Identifier: MIT
#include "report/compare_report.h"

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/percentiles.h"
#include "report/format.h"
#include "report/json_writer.h"
#include "run/host_reading.h"

namespace hammer {

namespace {

std::string signed_duration(double ns) {
  const int64_t rounded = std::llround(ns);
  std::string text = rounded > 0 ? "+" : "";
  text += format_duration_ns(rounded);
  return text;
}

std::string percent_of(double delta_ns, int64_t base_ns) {
  if (base_ns <= 0) return "";
  const double percent = 100.0 * delta_ns / static_cast<double>(base_ns);
  std::string text = percent > 0 ? "+" : "";
  text += format_fixed(percent, 1);
  text += '%';
  return text;
}

// What a censored side makes of B - A: B's figure a bound, the difference is at least it
// (">"); A's, at most (" <"); both, unknown.
std::string bound_prefix(const CompareRow& row) {
  if (row.a_censored && row.b_censored) return "?";
  if (row.b_censored) return ">";
  if (row.a_censored) return "<";
  return "";
}

// "[+1.20ms, +3.40ms]": built by appends (GCC 12 misreads "[" + std::string&& as an overlap).
std::string interval_text(const CompareRow& row) {
  std::string text = "[";
  text += signed_duration(row.low_ns);
  text += ", ";
  text += signed_duration(row.high_ns);
  text += ']';
  return text;
}

}  // namespace

const char* compare_verdict_code(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::better: return "better";
    case CompareVerdict::worse: return "worse";
    case CompareVerdict::no_change: break;
  }
  return "no_change";
}

std::string compare_delta_text(const CompareRow& row) {
  if (row.a_censored && row.b_censored) return "?";
  std::string text = bound_prefix(row);
  text += signed_duration(row.delta_ns);
  return text;
}

std::string compare_percent_text(const CompareRow& row) {
  if (row.a_censored && row.b_censored) return "";
  const std::string percent = percent_of(row.delta_ns, row.a_ns);
  if (percent.empty()) return percent;
  std::string text = bound_prefix(row);
  text += percent;
  return text;
}

std::string compare_interval_text(const CompareRow& row) {
  // A bound has no interval of its own: how far past the timeout it lies is unknown.
  if (row.a_censored || row.b_censored) return "-";
  return interval_text(row);
}

std::string compare_figure_text(int64_t ns, bool censored) {
  std::string text = censored ? "> " : "";
  text += format_duration_ns(ns);
  return text;
}

std::vector<std::string> compare_side_notes(const Comparison& comparison) {
  std::vector<std::string> notes;
  const auto side = [&](const char* name, const CompareSideFacts& facts) {
    if (facts.timed_out > 0) {
      notes.push_back(std::string(name) + ": " + format_count(facts.timed_out) + " of " +
                      format_count(facts.ended) + " requests timed out (" +
                      format_fixed(100.0 * static_cast<double>(facts.timed_out) /
                                       static_cast<double>(std::max<int64_t>(1, facts.ended)),
                                   1) +
                      "%, --timeout " + format_duration_ns(facts.timeout_ns) +
                      "): its percentiles they reach are only that bound (\"> " +
                      format_duration_ns(facts.timeout_ns) + "\")");
    }
    if (facts.host_long_stalls > 0) {
      notes.push_back(std::string(name) + ": the host stalled " +
                      format_count(facts.host_long_stalls) +
                      (facts.host_long_stalls == 1 ? " time" : " times") + " for " +
                      format_duration_ns(HostReading::kLongStallNs) + " or more (" +
                      format_duration_ns(facts.host_lost_ns) + " lost, the longest " +
                      format_duration_ns(facts.host_max_stall_ns) +
                      "): its latencies hold them, and a change within its host noise is no "
                      "change");
    }
  };
  side("A", comparison.a_facts);
  side("B", comparison.b_facts);
  return notes;
}

namespace {
// "0.2" under one request, "12" above: how many requests lie above a row's percentile.
std::string tail_requests_text(const CompareRow& row) {
  return format_fixed(row.tail_requests, row.tail_requests < 1 ? 1 : 0);
}
}  // namespace

std::string compare_row_verdict_text(const Comparison& comparison, const CompareRow& row) {
  if (comparison.too_few_seconds) return "not judged (too few seconds)";
  if (row.censored_unjudged) {
    return std::string("not judged (") +
           (row.a_censored && row.b_censored ? "both timed out" : row.b_censored ? "B timed out" : "A timed out") +
           ": a bound)";
  }
  std::string text = compare_verdict_text(row.verdict);
  if ((row.b_censored || row.a_censored) && row.verdict != CompareVerdict::no_change) {
    text += row.b_censored ? " (B timed out: by at least that)" : " (A timed out: by at least that)";
  } else if (row.too_few_requests) {
    text += " (too few requests above it: ";
    text += tail_requests_text(row);
    text += ')';
  } else if (row.within_host_noise) {
    text += " (host noise ";
    text += format_duration_ns(std::llround(row.host_noise_ns));
    text += ')';
  }
  return text;
}

std::string compare_gate_outcome_text(const Comparison& comparison, const CompareRow& row) {
  if (row.failed && !row.gate_unjudged) {
    return "FAIL (worse beyond noise, by " + compare_percent_text(row) + ")";
  }
  if (!row.failed) return "pass";
  // A gate the runs cannot judge fails, and says why: it passes only when shown to.
  std::string p = "p";
  p += percentile_label(row.percentile);
  if (comparison.too_few_seconds) {
    return "FAIL, not judged: too few measured seconds (A " +
           std::to_string(comparison.a_seconds) + ", B " + std::to_string(comparison.b_seconds) +
           "; " + std::to_string(kMinSecondsToCompare) + " needed: run each longer)";
  }
  if (row.too_few_requests) {
    return "FAIL, not judged: " + tail_requests_text(row) +
           " requests above it in the shorter run, " +
           format_fixed(tail_requests_needed(comparison.settings.confidence), 1) +
           " needed (a longer or faster run)";
  }
  const std::string who = row.a_censored && row.b_censored ? "A's and B's " + p + " are"
                          : row.b_censored                 ? "B's " + p + " is"
                                                           : "A's " + p + " is";
  return "FAIL, not judged: " + who + " only the timeout their timed-out requests reach (" +
         compare_figure_text(row.b_censored ? row.b_ns : row.a_ns, true) +
         "), which does not show B within the limit (a longer --timeout would tell)";
}

std::string compare_gate_text(const CompareRow& row) {
  return "--fail-if p" + percentile_label(row.percentile) + "+" + format_number(row.fail_percent) +
         "%";
}

const char* compare_verdict_text(CompareVerdict verdict) {
  return verdict == CompareVerdict::no_change ? "no change" : compare_verdict_code(verdict);
}

std::string compare_too_few_seconds_text(const Comparison& comparison) {
  return "not judged: A has " + std::to_string(comparison.a_seconds) + " measured " +
         (comparison.a_seconds == 1 ? "second" : "seconds") + " and B " +
         std::to_string(comparison.b_seconds) + ", and " + std::to_string(kMinSecondsToCompare) +
         " each are needed to resample; every row is no change (run each for " +
         std::to_string(kMinSecondsToCompare) + " s or more)";
}

std::string render_compare_text(const Comparison& comparison, const CompareLabels& labels) {
  const CompareSettings& settings = comparison.settings;
  std::string out = "hammer compare: B " + labels.b + " against A " + labels.a + "\n";
  out += "  " + labels.stopwatch + " latency; " + format_fixed(settings.confidence * 100, 0) +
         "% intervals from " + std::to_string(settings.resamples) +
         " bootstrap resamples of the measured seconds (A " +
         std::to_string(comparison.a_seconds) + ", B " + std::to_string(comparison.b_seconds) +
         ", seed " + std::to_string(settings.seed) + "); changes under " +
         format_fixed(settings.min_relative_change * 100, 0) +
         "% of A, or within either run's host noise (how far its host meter's wake-ups "
         "spread at that percentile), or at a percentile with fewer than " +
         format_fixed(tail_requests_needed(settings.confidence), 1) +
         " requests above it in either run, are no change\n";
  if (comparison.too_few_seconds) out += "  " + compare_too_few_seconds_text(comparison) + "\n";
  for (const std::string& note : compare_side_notes(comparison)) out += "  " + note + "\n";
  out += "\n";
  out += pad_left("", 8) + pad_left("A", 12) + pad_left("B", 12) + pad_left("B - A", 12) +
         pad_left("", 10) + "  " + pad_right("interval", 25) + "verdict\n";
  for (const CompareRow& row : comparison.rows) {
    out += pad_left(percentile_label(row.percentile) + "%", 8) +
           right_cell(compare_figure_text(row.a_ns, row.a_censored), 12) +
           right_cell(compare_figure_text(row.b_ns, row.b_censored), 12) +
           right_cell(compare_delta_text(row), 12) +
           right_cell(compare_percent_text(row), 10) + "  " +
           pad_right(compare_interval_text(row), 25) + compare_row_verdict_text(comparison, row) +
           "\n";
  }
  bool any_rule = false;
  for (const CompareRow& row : comparison.rows) {
    if (row.fail_percent < 0) continue;
    if (!any_rule) out += "\n";
    any_rule = true;
    out += compare_gate_text(row) + ": " + compare_gate_outcome_text(comparison, row) + "\n";
  }
  return out;
}

std::string render_compare_json(const Comparison& comparison, const CompareLabels& labels) {
  const CompareSettings& settings = comparison.settings;
  JsonWriter json(2);
  json.begin_object();
  json.member("a", labels.a);
  json.member("b", labels.b);
  json.member("stopwatch", labels.stopwatch);
  json.member("resamples", static_cast<int64_t>(settings.resamples));
  json.member("seed", settings.seed);
  json.member("confidence", settings.confidence);
  json.member("min_relative_change", settings.min_relative_change);
  json.member("a_seconds", comparison.a_seconds);
  json.member("b_seconds", comparison.b_seconds);
  json.member("too_few_seconds", comparison.too_few_seconds);
  for (const auto& [name, facts] : {std::pair<const char*, const CompareSideFacts*>{
                                        "a_run", &comparison.a_facts},
                                    {"b_run", &comparison.b_facts}}) {
    json.key(name).begin_object();
    json.member("ended", facts->ended);
    json.member("timed_out", facts->timed_out);
    json.member("timeout_ns", facts->timeout_ns);
    json.member("host_long_stalls", facts->host_long_stalls);
    json.member("host_lost_ns", facts->host_lost_ns);
    json.end_object();
  }
  json.key("rows").begin_array();
  for (const CompareRow& row : comparison.rows) {
    json.begin_object();
    json.member("percentile", percentile_label(row.percentile));
    json.member("a_ns", row.a_ns);
    json.member("b_ns", row.b_ns);
    json.member("delta_ns", std::llround(row.delta_ns));
    json.member("low_ns", std::llround(row.low_ns));
    json.member("high_ns", std::llround(row.high_ns));
    json.member("verdict", compare_verdict_code(row.verdict));
    json.member("host_noise_ns", std::llround(row.host_noise_ns));
    json.member("within_host_noise", row.within_host_noise);
    json.member("tail_requests", row.tail_requests);
    json.member("too_few_requests", row.too_few_requests);
    json.member("a_censored", row.a_censored);
    json.member("b_censored", row.b_censored);
    json.member("censored_unjudged", row.censored_unjudged);
    json.member("gate_unjudged", row.gate_unjudged);
    json.member_or_null("fail_if_percent", row.fail_percent >= 0, row.fail_percent);
    json.member("failed", row.failed);
    json.end_object();
  }
  json.end_array();
  json.member("failed", comparison.failed());
  json.end_object();
  return json.str() + "\n";
}

}  // namespace hammer
