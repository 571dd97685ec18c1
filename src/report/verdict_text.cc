// SPDX-License-Identifier: MIT
#include "report/verdict_text.h"

#include <cmath>
#include <cstdio>

#include "core/percentiles.h"
#include "report/format.h"

namespace hammer {
namespace {

std::string percent(double share) { return format_fixed(100.0 * share, 1) + "%"; }

std::string sentence(const InterruptedBeforeMeasuringVerdict& v) {
  if (v.in_warmup) {
    return "interrupted during the warm-up: nothing was measured (the warm-up's own figures are "
           "in its own section)";
  }
  if (v.in_ramp) {
    return "interrupted during the ramp: nothing was measured (the ramp's own figures are in its "
           "own section)";
  }
  return "interrupted before the first request: nothing was measured";
}

std::string sentence(const InterruptedUnansweredVerdict& v) {
  std::string text = "interrupted after " + format_duration_ns(v.elapsed_ns) + ": " +
                     std::to_string(v.in_flight) +
                     (v.in_flight == 1 ? " request was in flight, not answered"
                                       : " requests were in flight, none answered");
  if (v.unsent > 0) {
    text += ", and " + std::to_string(v.unsent) + " more were due but not sent (every "
            "connection was waiting)";
  }
  return text + "; nothing was measured";
}

std::string sentence(const NoWorkVerdict& v) {
  return "shard " + std::to_string(v.shard_index) + "/" + std::to_string(v.shard_count) +
         " had no requests to send: at this --rate and " + (v.counted ? "-n" : "-d") +
         " the fleet's schedule gave it no slot "
         "(its figures are empty; this is not a failure)";
}

std::string sentence(const ServerStoppedAnsweringVerdict& v) {
  std::string text = v.run_failed ? "the run did not work: " : "warning: ";
  text += "the server stopped answering " + format_duration_ns(v.last_answer_ns) +
          " into the " + format_duration_ns(v.elapsed_ns) + " run; ";
  const std::string share = format_fixed(100.0 * v.share, 1) + "%";
  if (v.open_loop) {
    text += "none of the " + std::to_string(v.due_after) + " requests due after that (" + share +
            " of " + std::to_string(v.scheduled) + ") was answered";
    if (v.unsent_no_connection > 0) {
      text += " (" + std::to_string(v.unsent_no_connection) +
              " could not be sent: no connection up)";
    }
  } else {
    text += "no answer in its last " + format_duration_ns(v.elapsed_ns - v.last_answer_ns) +
            " (" + share + " of the run)";
  }
  return text + "; the figures describe the run until then, not a server over capacity";
}

std::string sentence(const RunFailedVerdict& v) {
  if (v.sent == 0 && v.completed == 0 && v.failed == 0 && v.connects > 0) {
    // Connections came up, but every one was still held by an earlier request (the warm-up's,
    // at a server that never answered) for the whole measured part.
    return "the run did not work: no request of the measured part could be sent: every "
           "connection was still busy with an earlier request that got no answer (" +
           (v.unsent > 0 ? std::to_string(v.unsent) + " due, " : std::string()) +
           std::to_string(v.connects) + " connects succeeded)";
  }
  if (v.sent == 0 && v.completed == 0 && v.failed == 0) {
    // Not one connection carried a request: the failed connects are the whole story.
    return "the run did not work: no request could be sent (" +
           std::to_string(v.connect_failures) + " connects failed, none succeeded)";
  }
  std::string text = "the run did not work: " + std::to_string(v.completed) +
                     " responses against " + std::to_string(v.failed) + " failed requests";
  if (v.timeouts > 0 && v.timeouts * 2 >= v.failed) {
    text += " (" + std::to_string(v.timeouts) + " timed out after " +
            format_duration_ns(v.timeout_ns) + "); these latencies describe nothing";
  }
  if (v.unsent_behind_busy > 0) {
    // Due, never sent, not failed: every connection still waited on an earlier request (a
    // new user's -n 10 against a silent server read "0 responses against 2 failed requests").
    text += "; " + std::to_string(v.unsent_behind_busy) +
            " more were due and never sent, every connection waiting on an earlier one";
  }
  return text;
}

// "p99, p99.9 and max".
std::string censored_list(const std::vector<double>& percentiles) {
  std::string text;
  for (double q : percentiles) {
    text += 'p';
    text += percentile_label(q);
    text += ", ";
  }
  if (text.empty()) return "max";
  text.resize(text.size() - 2);
  return text + " and max";
}

std::string sentence(const CensoredTailVerdict& v) {
  const std::string bound = format_duration_ns(v.timeout_ns);
  const double share = v.ended > 0 ? 100.0 * static_cast<double>(v.timed_out) /
                                         static_cast<double>(v.ended)
                                   : 0;
  return "warning: " + format_count(v.timed_out) + " of " + format_count(v.ended) +
         " requests (" + format_fixed(share, share < 0.1 ? 3 : 1) + "%) timed out after " +
         bound + " and have no latency: every percentile above " +
         percentile_label(v.answered_percent) + "% (here " + censored_list(v.censored) +
         ") is only known to be over " + bound + ", shown as > " + bound;
}

// "503 ×180, 404 ×20": at most three codes, most frequent first.
std::string codes_text(const ErrorStatusesVerdict& v) {
  std::string text;
  for (size_t k = 0; k < v.codes.size() && k < 3; ++k) {
    if (k > 0) text += ", ";
    text += std::to_string(v.codes[k].code) + " \u00d7" + std::to_string(v.codes[k].count);
  }
  if (v.codes.size() > 3) text += ", ...";
  return text;
}

std::string sentence(const MostlyNon2xxVerdict& v) {
  return "the run did not work: the server answered " + std::to_string(v.non_2xx_3xx) + " of " +
         std::to_string(v.completed) + " requests with an error status (" + codes_text(v) +
         "); these latencies describe error responses, not the service";
}

std::string sentence(const Non2xxResponsesVerdict& v) {
  return "warning: " + std::to_string(v.non_2xx_3xx) + " of " + std::to_string(v.completed) +
         " responses (" +
         format_fixed(100.0 * static_cast<double>(v.non_2xx_3xx) / static_cast<double>(v.completed), 1) +
         "%) had an error status (" + codes_text(v) + "); the latencies below include them";
}

std::string sentence(const FailedRequestsVerdict& v) {
  std::string kinds;
  const auto add = [&kinds](int64_t count, std::string_view name) {
    if (count == 0) return;
    if (!kinds.empty()) kinds += ", ";
    kinds += name;
    kinds += ' ';
    kinds += format_count(count);
  };
  add(v.read, "read");
  add(v.write, "write");
  add(v.parse, "parse");
  add(v.no_connection, "no connection up");
  const double share = 100.0 * static_cast<double>(v.failed) / static_cast<double>(v.ended);
  return "warning: " + format_count(v.failed) + " of " + format_count(v.ended) + " requests (" +
         format_fixed(share, 1) + "%) failed without an answer (" + kinds +
         "); the latencies below describe only the answered";
}

std::string sentence(const TooFewConnectionsVerdict& v) {
  const bool pipelined = v.pipeline > 1;
  std::string text = "too few connections: -c " + std::to_string(v.connections) +
                     (pipelined ? " -p " + std::to_string(v.pipeline) : std::string()) +
                     " cannot carry " + format_fixed(v.rate, 0) + " req/s at " +
                     format_duration_ns(v.latency_ns) + " per request; ";
  const std::string law =
      pipelined ? "(Little's law: rate x latency / " + std::to_string(v.pipeline) +
                      " in flight per connection)"
                : std::string("(Little's law: rate x latency)");
  if (v.beyond_limit) {
    return text + "it would take about " + format_fixed(std::ceil(v.connections_needed), 0) +
           " connections " + law + ", more than -c allows (" + std::to_string(v.suggested) +
           "): lower --rate, or split it over several hammers";
  }
  return text + "about " + std::to_string(v.suggested) + " connections would " + law;
}

std::string sentence(const OverCapacityVerdict& v) {
  const std::string over =
      v.absent_ns > 0 ? " (over the time hammer was running; it was not for " +
                            format_duration_ns(v.absent_ns) + ")"
                      : std::string();
  return "over capacity: the server sustained " + format_fixed(v.sustained_rate, 0) + " req/s of the " +
         format_fixed(v.rate, 0) + " scheduled" + over + " and the backlog kept growing (" +
         std::to_string(v.unsent) +
         " requests never sent); latencies now depend on the run's length, not the server";
}

// "while a connection was idle", or also "or while hammer was not running", as the counts say.
// " while a connection was idle (max lag 3.00ms)": one parenthesis, the count of those due
// while hammer was not running in it where only some were.
std::string late_cause(const GeneratorSaturatedVerdict& v) {
  const std::string lag = "max lag " + format_duration_ns(v.max_lag_ns) + ")";
  if (v.behind_absent == 0) return " while a connection was idle (" + lag;
  if (v.behind_absent >= v.behind_generator) {
    return " that came due while hammer was not running (" + lag;
  }
  return " while a connection was idle or hammer was not running (" +
         std::to_string(v.behind_absent) + " of them; " + lag;
}

std::string sentence(const GeneratorSaturatedVerdict& v) {
  std::string text = "warning: hammer itself sent " + std::to_string(v.behind_generator) +
                     " requests late" + late_cause(v);
  if (v.shift.percentile > 0) {
    text += ", which can account for up to " + format_duration_ns(v.shift.shift_ns) + " of p" +
            percentile_label(v.shift.percentile) + " (" + format_duration_ns(v.shift.value_ns) + ")";
  }
  text += "; these numbers describe the generator, not the server: ";
  if (v.held_off) {
    const std::string stall =
        v.host_stall_ns > 0 ? "the host stalled for up to " + format_duration_ns(v.host_stall_ns) + "; "
                            : std::string();
    return text + "hammer was held off the CPU (" + stall + "its busiest thread ran " +
           percent(v.busiest_share) +
           " of the time), which a lower --rate or more --threads would not help: free the "
           "machine, or run again";
  }
  if (v.idle) {
    return text + "hammer was not busy (its busiest thread ran " + percent(v.busiest_share) +
           " of the time), so a lower --rate or more --threads is unlikely to help: its threads "
           "were woken late, as on a busy machine; free the machine, or run again";
  }
  if (v.more_threads_help) return text + "lower --rate or add --threads";
  if (v.cpus > 0) {
    return text + "lower --rate (its " + std::to_string(v.threads) +
           " threads already cover the machine's " + std::to_string(v.cpus) +
           " CPUs; more would only share them), or free the machine";
  }
  return text + "lower --rate";
}

std::string sentence(const GeneratorLateVerdict& v) {
  return "note: hammer itself sent " + std::to_string(v.behind_generator) + " of " +
         std::to_string(v.dispatched) + " requests late" + late_cause(v) +
         "; too few, or too little, to move a reported "
         "percentile by a tenth: the corrected latencies include that lag";
}

std::string sentence(const ServerBehindVerdict& v) {
  return "note: " + std::to_string(v.behind_server) +
         " requests left late because every connection was busy waiting on the server; "
         "the corrected latencies include that wait";
}

std::string sentence(const TimerFloorVerdict& v) {
  return "note: this platform's timers limit dispatch precision: the poller sleeps in steps of " +
         format_duration_ns(v.timer_granularity_ns) + ", and requests that found a connection idle "
         "still left " + format_duration_ns(v.mean_idle_lag_ns) +
         " after their slot on average (max lag " + format_duration_ns(v.max_lag_ns) +
         "); the corrected latencies include that lag";
}

void figures(const CensoredTailVerdict& v, JsonWriter& json) {
  json.member("timed_out", static_cast<double>(v.timed_out));
  json.member("ended", static_cast<double>(v.ended));
  json.member("timeout_ns", static_cast<double>(v.timeout_ns));
  json.member("answered_percent", v.answered_percent);
  json.key("censored_percentiles").begin_array();
  for (double q : v.censored) json.value(q);
  json.end_array();
}

std::string sentence(const HostStalledVerdict& v) {
  std::string text = "warning: the host stalled: hammer's threads were held up to " +
                     format_duration_ns(v.max_stall_ns) + " (" + format_duration_ns(v.max_stall_at_ns) +
                     " into the run; " + std::to_string(v.long_stalls) +
                     (v.long_stalls == 1 ? " stall" : " stalls") + " over 10 ms, " +
                     format_duration_ns(v.lost_ns) + " lost";
  if (v.observed_ns > 0) {
    text += ", " + percent(static_cast<double>(v.lost_ns) / static_cast<double>(v.observed_ns)) +
            " of the run";
  }
  if (v.steal_ns > 0) text += "; steal " + format_duration_ns(v.steal_ns);
  text += ")";
  if (v.moved.empty()) {
    // Frozen for long enough (VerdictThresholds::kHostFrozenShare), whatever the percentiles.
    return text + "; frozen " + format_duration_ns(v.frozen_ns) + " (" + percent(v.frozen_share) +
           " of the measured time) in stalls of 50 ms and more, when hammer could neither "
           "send nor read: its throughput, backlog and latencies describe this machine as much "
           "as the server; repeat the run on a quieter machine";
  }
  text += "; stalls that long could have made the ";
  text += v.corrected ? "corrected " : "";
  for (size_t k = 0; k < v.moved.size(); ++k) {
    if (k > 0) text += k + 1 == v.moved.size() ? " and " : ", ";
    // Appended piece by piece: GCC 12's -Wrestrict misreads "p" + std::string (a false alarm).
    text += 'p';
    text += percentile_label(v.moved[k].q);
    text += " (";
    text += format_duration_ns(v.moved[k].value_ns);
    text += ')';
  }
  return text + ": they describe this machine, not the server; repeat the run on a quieter "
                "machine";
}

std::string sentence(const GeneratorBoundVerdict& v) {
  std::string text = "warning: hammer's workers were on a CPU " + percent(v.share) +
                     " of the run (busiest " + percent(v.busiest_share) +
                     "): in a closed loop the request rate is then the generator's limit as "
                     "much as the server's; ";
  if (v.more_threads_help) return text + "add --threads, or spread the load over more machines";
  if (v.cpus > 0) {
    return text + "spread the load over more machines (its " + std::to_string(v.threads) +
           " threads already cover the machine's " + std::to_string(v.cpus) + " CPUs)";
  }
  return text + "add --threads or spread the load over more machines";
}

void figures(const InterruptedBeforeMeasuringVerdict& v, JsonWriter& json) {
  json.member("warmup_completed", static_cast<double>(v.warmup_completed));
}

void figures(const InterruptedUnansweredVerdict& v, JsonWriter& json) {
  json.member("in_flight", static_cast<double>(v.in_flight));
  json.member("unsent", static_cast<double>(v.unsent));
  json.member("elapsed_ns", static_cast<double>(v.elapsed_ns));
}

void figures(const NoWorkVerdict& v, JsonWriter& json) {
  json.member("shard_index", static_cast<double>(v.shard_index));
  json.member("shard_count", static_cast<double>(v.shard_count));
}

void figures(const ServerStoppedAnsweringVerdict& v, JsonWriter& json) {
  json.member("last_answer_ns", static_cast<double>(v.last_answer_ns));
  json.member("elapsed_ns", static_cast<double>(v.elapsed_ns));
  json.member_or_null("due_after_last_answer", v.open_loop, static_cast<double>(v.due_after));
  json.member_or_null("scheduled", v.open_loop, static_cast<double>(v.scheduled));
  json.member("share", v.share);
  json.member("unsent_no_connection", static_cast<double>(v.unsent_no_connection));
  json.member("run_failed", v.run_failed);
}

void figures(const RunFailedVerdict& v, JsonWriter& json) {
  json.member("completed", static_cast<double>(v.completed));
  json.member("failed", static_cast<double>(v.failed));
  json.member("timeouts", static_cast<double>(v.timeouts));
  json.member("sent", static_cast<double>(v.sent));
  json.member("connect_failures", static_cast<double>(v.connect_failures));
  json.member("connects", static_cast<double>(v.connects));
  json.member("unsent", static_cast<double>(v.unsent));
  json.member("unsent_behind_busy", static_cast<double>(v.unsent_behind_busy));
}

void figures(const ErrorStatusesVerdict& v, JsonWriter& json) {
  json.member("non_2xx_3xx", static_cast<double>(v.non_2xx_3xx));
  json.member("completed", static_cast<double>(v.completed));
}

void figures(const FailedRequestsVerdict& v, JsonWriter& json) {
  json.member("failed", static_cast<double>(v.failed));
  json.member("ended", static_cast<double>(v.ended));
  json.member("read", static_cast<double>(v.read));
  json.member("write", static_cast<double>(v.write));
  json.member("parse", static_cast<double>(v.parse));
  json.member("no_connection", static_cast<double>(v.no_connection));
}

void figures(const TooFewConnectionsVerdict& v, JsonWriter& json) {
  json.member("connections", static_cast<double>(v.connections));
  json.member("rate", v.rate);
  json.member("latency_ns", static_cast<double>(v.latency_ns));
  json.member("connections_needed", v.connections_needed);
  json.member("connections_suggested", static_cast<double>(v.suggested));
  json.member("pipeline", static_cast<double>(v.pipeline));
}

void figures(const OverCapacityVerdict& v, JsonWriter& json) {
  json.member("sustained_rate", v.sustained_rate);
  json.member("rate", v.rate);
  json.member("unsent", static_cast<double>(v.unsent));
  json.member("peak_backlog", static_cast<double>(v.peak_backlog));
  json.member("absent_ns", static_cast<double>(v.absent_ns));
}

void figures(const GeneratorSaturatedVerdict& v, JsonWriter& json) {
  json.member("behind_generator", static_cast<double>(v.behind_generator));
  json.member("behind_absent", static_cast<double>(v.behind_absent));
  json.member("dispatched", static_cast<double>(v.dispatched));
  json.member("max_lag_ns", static_cast<double>(v.max_lag_ns));
  json.member("threads", static_cast<double>(v.threads));
  json.member_or_null("cpus", v.cpus > 0, static_cast<double>(v.cpus));
  json.member("held_off", v.held_off);
  json.member("idle", v.idle);
  json.member_or_null("host_stall_ns", v.host_stall_ns > 0, static_cast<double>(v.host_stall_ns));
  json.member_or_null("busiest_share", v.busiest_share >= 0, v.busiest_share);
  const bool moves = v.shift.percentile > 0;
  json.member_or_null("percentile", moves, v.shift.percentile);
  json.member_or_null("percentile_ns", moves, static_cast<double>(v.shift.value_ns));
  json.member_or_null("shift_ns", moves, static_cast<double>(v.shift.shift_ns));
}

void figures(const ServerBehindVerdict& v, JsonWriter& json) {
  json.member("behind_server", static_cast<double>(v.behind_server));
}

void figures(const TimerFloorVerdict& v, JsonWriter& json) {
  json.member("timer_granularity_ns", static_cast<double>(v.timer_granularity_ns));
  json.member("mean_idle_lag_ns", static_cast<double>(v.mean_idle_lag_ns));
  json.member("idle_dispatched", static_cast<double>(v.idle_dispatched));
  json.member("max_lag_ns", static_cast<double>(v.max_lag_ns));
}

void figures(const HostStalledVerdict& v, JsonWriter& json) {
  json.member("max_stall_ns", static_cast<double>(v.max_stall_ns));
  json.member("max_stall_at_ns", static_cast<double>(v.max_stall_at_ns));
  json.member("long_stalls", static_cast<double>(v.long_stalls));
  json.member("lost_ns", static_cast<double>(v.lost_ns));
  json.member("observed_ns", static_cast<double>(v.observed_ns));
  json.member_or_null("steal_ns", v.steal_ns >= 0, static_cast<double>(v.steal_ns));
  json.member("stopwatch", v.corrected ? "corrected" : "uncorrected");
  json.member("frozen_ns", static_cast<double>(v.frozen_ns));
  json.member("frozen_share", v.frozen_share);
  json.key("percentiles_ns").begin_object();
  for (const PercentileFigure& moved : v.moved) {
    json.member(percentile_label(moved.q), static_cast<double>(moved.value_ns));
  }
  json.end_object();
}

void figures(const GeneratorBoundVerdict& v, JsonWriter& json) {
  json.member("share", v.share);
  json.member("busiest_share", v.busiest_share);
  json.member("threads", static_cast<double>(v.threads));
  json.member_or_null("cpus", v.cpus > 0, static_cast<double>(v.cpus));
}

}  // namespace

bool verdict_comes_first(VerdictCode code) {
  return code == VerdictCode::interrupted_before_measuring ||
         code == VerdictCode::interrupted_unanswered || code == VerdictCode::no_work ||
         code == VerdictCode::server_stopped_answering ||
         code == VerdictCode::run_failed ||
         code == VerdictCode::mostly_non_2xx || code == VerdictCode::non_2xx_responses ||
         code == VerdictCode::failed_requests || code == VerdictCode::censored_tail;
}

std::string verdict_sentence(const Verdict& verdict) {
  return std::visit([](const auto& v) { return sentence(v); }, verdict);
}

void write_verdict_json(const Verdict& verdict, JsonWriter& json) {
  json.begin_object();
  json.member("code", verdict_code_name(verdict_code(verdict)));
  json.member("text", verdict_sentence(verdict));
  json.key("figures").begin_object();
  std::visit([&json](const auto& v) { figures(v, json); }, verdict);
  json.end_object();
  json.end_object();
}

}  // namespace hammer
