// SPDX-License-Identifier: MIT
//
// How the verdicts are decided, and why these thresholds.
//
// Open loop only, since a closed loop has no schedule to fall behind:
// - Backlog grew: requests due before the deadline were never sent (unsent), or more than 2%
//   of requests left late for want of a free connection. Then either the server cannot keep
//   up, or the connections are too few to carry the rate at the server's latency. Little's law
//   tells them apart: carrying `rate` at latency L needs rate * L connections. L is taken as
//   the uncorrected median, but only when the server shows no queueing (median below 4x the
//   fastest response): a server that queues inflates its own latency, and more connections
//   would only queue more. One connection cannot queue at the server (it has one request
//   there at most), so with -c 1 the spread of latencies is not read as queueing: seen, -r 3000
//   -c 1 against a server doing 41k req/s on 20 connections was called over capacity. So: no
//   queueing and rate * L > connections -> too few connections, suggesting 20% over the need
//   as a figure -c accepts (at most kMaxConnections; a need beyond that is said as such);
//   otherwise -> over capacity, with the rate the server did sustain (below 95% of the rate,
//   or a backlog left unsent).
// - hammer itself late (a connection idle, or it was not running when the slot came due):
//   a warning (generator_saturated: the figures describe hammer, not the server) when that
//   lateness can move a reported corrected percentile by more than a tenth of it (at least 10
//   such requests); otherwise, for more than 1% of requests (and at least 10), a note with
//   the figures (generator_late). Counting late requests alone warned on clean runs whose
//   9-20 ms lags moved no percentile. More --threads is advised only while threads are fewer
//   than the CPUs online: past that they would share cores already busy. And neither more
//   threads nor a lower rate is advised when hammer was held off the CPU rather than busy: its
//   busiest worker ran under half its time (kGeneratorIdleShare) while the hiccup meter saw a
//   stall at least half the worst lag, or half the late slots came due while it was not
//   running (a stopped process, a frozen host). Seen: a 17.5 ms host stall, workers 11% busy,
//   advised "add --threads".
// - Slots that came due while hammer was absent (stopped, a frozen host) are no backlog: they
//   count neither as unsent behind busy connections nor in the time the sustained rate is
//   taken over, so the catch-up after a stall is never "over capacity".
// - Late requests that are the server's fault, but without a growing backlog, get a note: the
//   corrected latencies already contain the wait.
//
// Every loop: a server that stopped answering (killed, hung, unreachable) is not over
// capacity. Its last answer came well before the run's end and nothing after: open loop, more
// than the unsent allowance of the requests due came due after that last answer (each failed,
// went unsent or still waited); closed loop, more than 1% of the run passed without an answer
// (a working server answers the last requests in the wait after the deadline, so its tail is
// 0). That is said first, and no backlog verdict follows (the backlog is the stop's, not the
// server's capacity). When that tail is 10% of the run or more, a large share of the due
// requests never completed: the run did not work (exit 2); below, a warning. An interrupted
// run is judged on it only when its silence before the interrupt outlasted --timeout (its
// last requests were cut off, and a tail as long as their latency is theirs).
//
// Every loop: requests that timed out have no latency, and the percentiles above the answered
// share are only "> timeout" (stats/censored_tail.h). Said above the latencies whenever one
// request timed out, since a single one can hide p99.99 and always hides max. Little's law
// reads the median of every request that ended, timed-out ones included: each held its
// connection for the whole timeout.
#include "run/verdicts.h"

#include "run/host_verdicts.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/percentiles.h"
#include "stats/censored_tail.h"

namespace hammer {
namespace {

// No answer at all, or more failed requests than answers.
bool no_working_answers(const RunResult& result) {
  return result.completed == 0 || result.failed_requests() > result.completed;
}

std::optional<FailedRequestsVerdict> failed_requests_verdict(const RunResult& result) {
  FailedRequestsVerdict verdict;
  verdict.read = result.error_count(ErrorKind::read);
  verdict.write = result.error_count(ErrorKind::write);
  verdict.parse = result.error_count(ErrorKind::parse);
  verdict.no_connection = result.unsent_no_connection;
  verdict.failed = verdict.read + verdict.write + verdict.parse + verdict.no_connection;
  verdict.ended = result.completed + result.failed_requests();
  if (static_cast<double>(verdict.failed) <=
      VerdictThresholds::kFailedShare * static_cast<double>(verdict.ended)) {
    return std::nullopt;
  }
  return verdict;
}

// The error statuses (other than 2xx/3xx) answered, most frequent first.
ErrorStatusesVerdict error_statuses(const RunResult& result) {
  ErrorStatusesVerdict verdict;
  verdict.non_2xx_3xx = result.non_2xx_3xx();
  verdict.completed = result.completed;
  for (int code = 0; code < kStatusCodeLimit; ++code) {
    const bool error_class = code < 200 || code >= 400;
    if (error_class && result.status_codes[code] > 0) {
      verdict.codes.push_back({code, result.status_codes[code]});
    }
  }
  std::sort(verdict.codes.begin(), verdict.codes.end(),
            [](const StatusCount& a, const StatusCount& b) {
              return a.count != b.count ? a.count > b.count : a.code < b.code;
            });
  return verdict;
}

}  // namespace

bool mostly_non_2xx(const RunResult& result) {
  return result.completed > 0 && result.non_2xx_3xx() * 2 > result.completed;
}

bool no_work(const Config& config, const RunResult& result) {
  return config.open_loop() && config.shard.count > 1 && !result.interrupted &&
         result.scheduled == 0 && result.sent == 0;
}

double unanswered_tail_share(const Config& config, const RunResult& result) {
  if (result.completed == 0 || result.elapsed_ns <= 0) return 0;
  // A server that stopped left something unanswered: a request that failed (a timeout, a reset,
  // or one due with no connection up), a connect it refused, or a request still waiting at a
  // Ctrl-C. Without any of these every request sent was answered, and the silence at the end
  // is hammer's: a generator kept off the CPU past its deadline (a busy machine) sent nothing
  // in that time, so nothing could go unanswered.
  if (result.failed_requests() == 0 && result.error_count(ErrorKind::connect) == 0 &&
      result.in_flight_at_stop == 0) {
    return 0;
  }
  // An interrupted run's last requests were cut off, not left unanswered: a tail up to their
  // latency is theirs. Only a silence longer than --timeout (a request sent at its start
  // would have timed out) says the server had stopped before the interrupt.
  if (result.interrupted && result.unanswered_tail_ns <= config.timeout_ns) return 0;
  if (config.open_loop()) {
    if (result.scheduled <= 0 ||
        result.due_after_last_answer <= unsent_allowance(result.scheduled)) {
      return 0;
    }
    return static_cast<double>(result.due_after_last_answer) /
           static_cast<double>(result.scheduled);
  }
  // A server that ignores some requests (each times out while the others are answered) ends a
  // closed loop with every connection waiting out its timeout: a silence up to --timeout long
  // that is those waits, not a stop. Seen: `--timeout 500ms` against a server silent on every
  // 50th request, "the run did not work: the server stopped answering 2.59s into the 3.00s
  // run", exit 2. The silence alone holds at most each connection's requests once, plus once
  // more per timeout that fits in it; more timeouts than that came while answers still did.
  const int64_t timeouts = result.error_count(ErrorKind::timeout);
  if (config.timeout_ns > 0 && result.unanswered_tail_ns <= config.timeout_ns) {
    const int64_t in_flight = config.connections * std::max<int64_t>(config.pipeline, 1);
    const int64_t silence_holds =
        in_flight * (1 + result.unanswered_tail_ns / config.timeout_ns);
    if (timeouts > silence_holds) return 0;
  }
  const double share = static_cast<double>(result.unanswered_tail_ns) /
                       static_cast<double>(result.elapsed_ns);
  return share > VerdictThresholds::kStoppedSilentShare ? share : 0;
}

bool run_failed(const Config& config, const RunResult& result) {
  if (no_work(config, result)) return false;
  return no_working_answers(result) ||
         unanswered_tail_share(config, result) >= VerdictThresholds::kStoppedFailShare ||
         mostly_non_2xx(result);
}

bool interrupted_before_measuring(const RunResult& result) {
  return result.interrupted && result.sent == 0 && result.completed == 0;
}

bool timeout_may_mean_seconds(const Config& config, const RunResult& result) {
  // Only a bare number can have meant seconds: `--timeout 2ms` says what it means (the note
  // told a user who typed it that "--timeout 2 was read as 2 ms"). 100 ms and up is a
  // plausible deliberate timeout in milliseconds.
  return config.timeout_without_unit && result.error_count(ErrorKind::timeout) > 0 &&
         config.timeout_ns < 100'000'000 && config.timeout_ns % 1'000'000 == 0;
}

bool closed_without_a_byte(const Config& config, const RunResult& result) {
  return config.target.scheme == Scheme::http && result.completed == 0 &&
         result.bytes_read == 0 && result.error_count(ErrorKind::read) > 0;
}

bool answered_only_400(const Config& config, const RunResult& result) {
  return config.target.scheme == Scheme::http && result.completed > 0 &&
         result.status_codes[400] == result.completed;
}

int64_t unsent_allowance(int64_t scheduled) { return std::max<int64_t>(10, scheduled / 100); }

namespace {

int64_t count_at_or_above(const Histogram& histogram, int64_t value) {
  int64_t count = 0;
  for (int32_t i = histogram.index_for(value); i < histogram.counts_length(); ++i) {
    count += histogram.count_at_index(i);
  }
  return count;
}

}  // namespace

ShardLateness shard_lateness(const DispatchLag& lag, bool moves_percentile) {
  if (lag.behind_generator <= 0) return ShardLateness::none;
  if (moves_percentile) return ShardLateness::bottleneck;
  const double dispatched = static_cast<double>(std::max<int64_t>(lag.dispatched, 1));
  if (static_cast<double>(lag.behind_generator) >= kShardLateShare * dispatched) {
    return ShardLateness::minor;
  }
  return ShardLateness::none;
}

GeneratorShift generator_percentile_shift(const Config& config, const RunResult& result) {
  using T = VerdictThresholds;
  GeneratorShift worst;
  const DispatchLag& lag = result.lag;
  const Histogram& corrected = result.corrected;
  const int64_t total = corrected.total_count();
  if (lag.behind_generator == 0 || total == 0) return worst;
  // --closed-loop: the report leads with the latency from each request's send, which hammer's
  // lateness does not enter; the corrected figures it moves are not the ones reported (a new
  // user's trial: "up to 1.05 ms of p90 (1.18 ms)" beside an uncorrected p90 of 70.59 us).
  if (!config.corrected_stopwatch_leads()) return worst;
  const Histogram& late = lag.generator_late_latency;
  const Histogram& unlagged = lag.generator_late_unlagged;
  const std::vector<double>& rows =
      config.percentiles.empty() ? default_percentiles() : config.percentiles;
  // Where each late request's own figure without hammer's lag is known, in the corrected
  // histogram's geometry, the corrected figures without hammer's lateness are exact: move each
  // late request from its corrected bucket to its unlagged one. A request 5 ms late and then
  // caught in a 200 ms server stall stays above a 180 ms p99 (seen: a pausing server's clean
  // run called generator_saturated, issue 23); one 20 ms late on a 1 ms answer drops below.
  std::optional<Histogram> without_lag;
  if (late.total_count() > 0 && unlagged.total_count() == late.total_count() &&
      late.geometry() == corrected.geometry() && unlagged.geometry() == corrected.geometry()) {
    without_lag.emplace(corrected);
    for (int32_t i = 0; i < late.counts_length(); ++i) {
      without_lag->add_count_at_index(i, unlagged.count_at_index(i) - late.count_at_index(i));
    }
  }
  // Otherwise (documents from before either histogram): every late request at or above a
  // figure is taken to drop below it, by at most the largest lag (the worst case); where the
  // late requests' corrected latencies are unknown too, every one sits at any percentile.
  const bool located = late.total_count() > 0;
  // The figures as the report prints them: over every request that ended, timed-out ones
  // slower than any answer (stats/censored_tail.h). A censored one is only "> timeout", which
  // no lag of hammer's moves; the others are the answered histogram's at a higher rank.
  const CensoredTail tail =
      censored_tail(corrected, result.error_count(ErrorKind::timeout), config.timeout_ns);
  double worst_share = 0;
  for (const double label : rows) {
    if (tail.censors(label)) continue;
    const double q = tail.among_answered(label);
    const int64_t value = corrected.value_at_percentile(q);
    if (value <= 0) continue;
    int64_t shift = 0;
    if (without_lag) {
      shift = std::max<int64_t>(0, value - without_lag->value_at_percentile(q));
    } else {
      const int64_t above = located ? count_at_or_above(late, value) : lag.behind_generator;
      if (above == 0) continue;
      const double lower_q =
          std::max(0.0, q - 100.0 * static_cast<double>(above) / static_cast<double>(total));
      shift = value - corrected.value_at_percentile(lower_q);
    }
    shift = std::min(lag.generator_max_ns, shift);
    const double share = static_cast<double>(shift) / static_cast<double>(value);
    if (shift > lag.threshold_ns && share > worst_share) {
      worst_share = share;
      worst = GeneratorShift{label, value, shift};
    }
  }
  if (worst_share <= T::kGeneratorShiftShare) return GeneratorShift{};
  return worst;
}

namespace {

std::vector<Verdict> run_verdicts(const Config& config, const RunResult& result, int64_t cpus) {
  using T = VerdictThresholds;
  std::vector<Verdict> verdicts;
  bool server_stopped = false;  // then the backlog it left is no capacity figure
  const double elapsed_s = static_cast<double>(result.elapsed_ns) / 1e9;
  const double sustained = elapsed_s > 0 ? static_cast<double>(result.completed) / elapsed_s : 0;

  if (interrupted_before_measuring(result)) {
    // Not a failure of the server: the user stopped the run before its measured part began.
    const bool in_warmup = result.warmup != nullptr && result.warmup->sent > 0;
    const bool in_ramp = !in_warmup && result.ramp != nullptr && result.ramp->sent > 0;
    verdicts.push_back(InterruptedBeforeMeasuringVerdict{
        in_warmup, result.warmup != nullptr ? result.warmup->completed : 0, in_ramp});
  } else if (no_work(config, result)) {
    // The fleet had requests, this shard's slots none: nothing to measure, nothing failed.
    verdicts.push_back(
        NoWorkVerdict{config.shard.index, config.shard.count, config.requests_count > 0});
    return verdicts;
  } else if (result.interrupted && result.completed == 0 && result.failed_requests() == 0) {
    // Stopped while every request sent was still waiting: no answer yet, but no failure
    // either; "0 responses against 0 failed requests" would blame the server for nothing.
    verdicts.push_back(
        InterruptedUnansweredVerdict{result.in_flight_at_stop, result.unsent, result.elapsed_ns});
    return verdicts;
  } else if (const double tail = unanswered_tail_share(config, result); tail > 0) {
    // Answers came, then none: what follows the last one says nothing of the server's speed
    // or capacity, only that it stopped (killed, hung, unreachable).
    verdicts.push_back(ServerStoppedAnsweringVerdict{
        result.last_answer_ns, result.elapsed_ns, config.open_loop(),
        result.due_after_last_answer, result.scheduled, tail, result.unsent_no_connection,
        tail >= T::kStoppedFailShare});
    server_stopped = true;
  } else if (no_working_answers(result)) {
    verdicts.push_back(RunFailedVerdict{result.completed, result.failed_requests(),
                                        result.error_count(ErrorKind::timeout),
                                        config.timeout_ns, result.sent,
                                        // a failed TLS handshake is a connect that failed
                                        result.error_count(ErrorKind::connect) +
                                            result.error_count(ErrorKind::tls),
                                        result.connects,
                                        result.unsent,
                                        result.unsent - result.unsent_no_connection});
  } else if (mostly_non_2xx(result)) {
    // Answers came, but most were errors: a fast 404 or 503 is not a fast server.
    verdicts.push_back(MostlyNon2xxVerdict{error_statuses(result)});
  } else if (const int64_t errors = result.non_2xx_3xx();
             errors > 0 && errors * 100 >= result.completed) {
    // A visible share (1% or more): said before the latencies, which include those answers.
    verdicts.push_back(Non2xxResponsesVerdict{error_statuses(result)});
  }
  // Not after a run that failed or a server that stopped: those verdicts count the failures.
  if (verdicts.empty() || verdict_code(verdicts.back()) == VerdictCode::non_2xx_responses) {
    if (auto failed = failed_requests_verdict(result)) verdicts.push_back(*failed);
  }

  const Histogram& lead =
      config.corrected_stopwatch_leads() ? result.corrected : result.uncorrected;
  if (const CensoredTail tail =
          censored_tail(lead, result.error_count(ErrorKind::timeout), config.timeout_ns);
      tail.any() && tail.answered > 0) {
    CensoredTailVerdict verdict{tail.timed_out, tail.answered + tail.timed_out, tail.timeout_ns,
                                tail.answered_percent(), {}};
    for (double q : union_of_percentiles(default_percentiles(), config.percentiles)) {
      if (tail.censors(q)) verdict.censored.push_back(q);
    }
    verdicts.push_back(std::move(verdict));
  }

  if (!config.open_loop() || result.lag.dispatched == 0) return verdicts;
  // What the server sustained over the time hammer was running: while it was absent nothing
  // was offered, so that time says nothing of the server. Absent as its workers saw it (a pass
  // that began later than its wait asked), or as the hiccup meter saw the whole process frozen:
  // a worker waiting on busy connections when the host froze cannot tell the freeze from a slow
  // server. The two see the same freezes, so the longer reading stands, not their sum. Every
  // stall the meter keeps (10 ms and more) counts here: a slot due in one came due while no
  // thread of hammer could run, however short.
  const int64_t absent_ns = std::max(
      result.lag.absent_ns, host_frozen_ns(config, result, HostReading::kLongStallNs));
  const int64_t present_ns = result.elapsed_ns - absent_ns;
  const double present_s = static_cast<double>(present_ns) / 1e9;
  const double sustained_present =
      present_ns > 0 ? static_cast<double>(result.completed) / present_s : sustained;

  const DispatchLag& lag = result.lag;
  const double dispatched = static_cast<double>(lag.dispatched);
  // What the schedule offered over the measured time. An interrupted run offered it only up
  // to the stop: in a merged fleet, an interrupted shard's share stopped coming while the
  // others ran on, so --rate over the fleet's whole time would read as a server that fell
  // behind (it "sustained" less than was never offered).
  const double offered_rate = result.interrupted && elapsed_s > 0
                                  ? static_cast<double>(result.scheduled) / elapsed_s
                                  : config.rate;
  // The unsent that waited behind busy connections; those due with no connection up are
  // failed requests (run/result.h), not a sign of the server's capacity.
  // Nor are those due while hammer was not running (stopped, a frozen host): it never got to
  // them, and the catch-up burst after it says nothing of the server.
  // The slots due in the freezes only the meter saw, as the schedule spreads them: the host's
  // too, whether they waited unsent or left behind connections the freeze kept busy.
  const int64_t frozen_due = static_cast<int64_t>(
      offered_rate * static_cast<double>(absent_ns - result.lag.absent_ns) / 1e9);
  const int64_t unsent_behind =
      result.unsent - result.unsent_no_connection - result.unsent_absent;
  const int64_t backlog_unsent = std::max<int64_t>(0, unsent_behind - frozen_due);
  const int64_t behind_server =
      std::max<int64_t>(0, lag.behind_server - std::max<int64_t>(0, frozen_due - unsent_behind));
  const bool backlog_left = backlog_unsent > unsent_allowance(result.scheduled);
  const bool backlog_grew =
      backlog_left || static_cast<double>(behind_server) > T::kServerLateShare * dispatched;

  if (!server_stopped && backlog_grew && result.uncorrected.total_count() > 0) {
    // The median of every request that ended: a timed-out one held its connection for the
    // whole timeout, so where they are half or more, the timeout is the least latency.
    const TailFigure median = censored_tail(result.uncorrected,
                                            result.error_count(ErrorKind::timeout),
                                            config.timeout_ns)
                                  .at(result.uncorrected, 50);
    const int64_t median_ns = median.value_ns;
    const int64_t fastest_ns = std::max<int64_t>(1, result.uncorrected.min());
    // One connection without pipelining never has two requests at the server, so the server
    // cannot be queueing them, whatever the spread of its latencies (a busy machine's wake-ups
    // widen it). With -p N one connection has N there, and they can queue.
    const int64_t pipeline = std::max<int64_t>(config.pipeline, 1);
    const bool server_queues =
        config.connections * pipeline > 1 && median_ns > T::kQueueingRatio * fastest_ns;
    // Little's law gives the requests in flight; each connection carries `pipeline` of them.
    const double needed =
        offered_rate * static_cast<double>(median_ns) / 1e9 / static_cast<double>(pipeline);
    if (!server_queues && needed > static_cast<double>(config.connections)) {
      const double wanted = std::ceil(needed * T::kSuggestedHeadroom);
      const bool beyond_limit = wanted > static_cast<double>(kMaxConnections);
      const int64_t suggested =
          beyond_limit ? kMaxConnections
                       : std::max(config.connections + 1, static_cast<int64_t>(wanted));
      verdicts.push_back(TooFewConnectionsVerdict{config.connections, offered_rate, median_ns,
                                                  needed, suggested, beyond_limit, pipeline});
    } else if (backlog_left || sustained_present < T::kSustainedShare * offered_rate) {
      verdicts.push_back(OverCapacityVerdict{sustained_present, offered_rate, backlog_unsent,
                                             lag.peak_backlog, absent_ns});
    }
  }

  // hammer's own lateness: a warning where it moves a reported percentile, a note where it is
  // only common (kGeneratorShiftShare says why).
  const GeneratorShift shift = generator_percentile_shift(config, result);
  GeneratorSaturatedVerdict late{lag.behind_generator, lag.dispatched, lag.generator_max_ns,
                                 config.threads,       cpus,           cpus > 0 && config.threads < cpus,
                                 shift,                lag.behind_absent};
  // Busy or held off: a worker that mostly waited was late because it did not run, not because
  // it had too much to do (seen: a 17.5 ms host stall advised "add --threads").
  const GeneratorCpu& generator_cpu = result.generator_cpu;
  late.host_stall_ns = longest_measured_stall_ns(config, result);
  late.busiest_share = generator_cpu.measured() ? generator_cpu.busiest_share : -1;
  const bool stopped = 2 * late.host_stall_ns >= lag.generator_max_ns ||
                       2 * lag.behind_absent >= lag.behind_generator;
  const bool idle =
      generator_cpu.measured() && generator_cpu.busiest_share < T::kGeneratorIdleShare;
  late.held_off = stopped && idle;
  late.idle = idle && !stopped;
  if (idle) late.more_threads_help = false;
  if (shift.percentile > 0 && lag.behind_generator >= T::kGeneratorLateMin) {
    verdicts.push_back(late);
  } else if (lag.behind_generator >= T::kGeneratorLateMin &&
             static_cast<double>(lag.behind_generator) > T::kGeneratorLateShare * dispatched) {
    verdicts.push_back(GeneratorLateVerdict{late});
  }

  // The note on the server's late requests stands alone (any other verdict says more), but
  // a note on hammer's harmless lateness, or the censored tail (which explains no lateness),
  // does not silence it.
  const bool only_notes = std::all_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) {
    return verdict_code(v) == VerdictCode::generator_late ||
           verdict_code(v) == VerdictCode::censored_tail;
  });
  if (behind_server > 0 && only_notes) {
    verdicts.push_back(ServerBehindVerdict{behind_server});
  }

  // Timer floor (design.md §3): where the poller can only sleep in whole milliseconds (poll on
  // macOS, WSAPoll on Windows), a worker wakes late for its slots by up to that tick. Said when
  // the requests that had a connection waiting for them left, on average, more than a tenth of
  // the tick late: their lag is the generator's alone, so it is the timers' price.
  constexpr int64_t kCoarseTimerNs = 100'000;
  if (lag.timer_granularity_ns >= kCoarseTimerNs && lag.idle_dispatched >= 10) {
    const int64_t mean_idle_lag_ns = lag.idle_sum_ns / lag.idle_dispatched;
    if (mean_idle_lag_ns * 10 >= lag.timer_granularity_ns) {
      verdicts.push_back(TimerFloorVerdict{lag.timer_granularity_ns, mean_idle_lag_ns,
                                           lag.idle_dispatched, lag.max_ns});
    }
  }
  return verdicts;
}

}  // namespace

std::vector<Verdict> compute_verdicts(const Config& config, const RunResult& result,
                                      int64_t cpus) {
  std::vector<Verdict> verdicts = run_verdicts(config, result, cpus);
  // Nothing measured (an interruption before any answer, a shard with no work): no figure for
  // the host to have made. After the others, so that "every verdict else" rules above (the
  // server_behind note) do not see these.
  if (!verdicts.empty()) {
    const VerdictCode first = verdict_code(verdicts.front());
    if (first == VerdictCode::interrupted_before_measuring ||
        first == VerdictCode::interrupted_unanswered || first == VerdictCode::no_work) {
      return verdicts;
    }
  }
  if (auto stalled = host_stalled_verdict(config, result)) verdicts.push_back(std::move(*stalled));
  if (auto bound = generator_bound_verdict(config, result, cpus)) verdicts.push_back(*bound);
  return verdicts;
}

std::string_view verdict_code_name(VerdictCode code) {
  switch (code) {
    case VerdictCode::interrupted_before_measuring: return "interrupted_before_measuring";
    case VerdictCode::interrupted_unanswered: return "interrupted_unanswered";
    case VerdictCode::no_work: return "no_work";
    case VerdictCode::server_stopped_answering: return "server_stopped_answering";
    case VerdictCode::run_failed: return "run_failed";
    case VerdictCode::mostly_non_2xx: return "mostly_non_2xx";
    case VerdictCode::non_2xx_responses: return "non_2xx_responses";
    case VerdictCode::too_few_connections: return "too_few_connections";
    case VerdictCode::over_capacity: return "over_capacity";
    case VerdictCode::generator_saturated: return "generator_saturated";
    case VerdictCode::server_behind: return "server_behind";
    case VerdictCode::timer_floor: return "timer_floor";
    case VerdictCode::censored_tail: return "censored_tail";
    case VerdictCode::host_stalled: return "host_stalled";
    case VerdictCode::generator_bound: return "generator_bound";
    case VerdictCode::generator_late: return "generator_late";
    case VerdictCode::failed_requests: return "failed_requests";
  }
  return "unknown";
}

std::optional<VerdictCode> verdict_code_from_name(std::string_view name) {
  for (int value = 0; value <= static_cast<int>(VerdictCode::failed_requests); ++value) {
    const auto code = static_cast<VerdictCode>(value);
    if (verdict_code_name(code) == name) return code;
  }
  return std::nullopt;
}

}  // namespace hammer
