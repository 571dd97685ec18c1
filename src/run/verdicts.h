// SPDX-License-Identifier: MIT
#pragma once
// The readings a bare number would hide (design.md §3): a server over capacity, too few
// connections for the rate, a generator that was itself the bottleneck, a run that did not
// work. Each verdict is a code and the figures behind it; report/verdict_text.h words it (text
// and JSON), so the rules here decide on numbers only.
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "core/config.h"
#include "run/result.h"

namespace hammer {

/// Stable codes, in the order a report lists them. Their JSON names are report/'s.
enum class VerdictCode : int {
  interrupted_before_measuring = 0,
  interrupted_unanswered,
  no_work,
  server_stopped_answering,
  run_failed,
  mostly_non_2xx,
  non_2xx_responses,
  too_few_connections,
  over_capacity,
  generator_saturated,
  server_behind,
  timer_floor,
  censored_tail,
  host_stalled,
  generator_bound,
  generator_late,
  failed_requests,
};

/// "over_capacity", "too_few_connections", ...: the stable code JSON carries (docs/json.md),
/// beside the enum as kStepMissNames is; the sentences are report/verdict_text.h's.
std::string_view verdict_code_name(VerdictCode code);

/// The code a saved document names (verdict_code_name's inverse); nullopt for a name this
/// version does not know (a newer writer's).
std::optional<VerdictCode> verdict_code_from_name(std::string_view name);

/// Ctrl-C or SIGTERM before the measured part sent a request: not the server's failure.
struct InterruptedBeforeMeasuringVerdict {
  bool in_warmup = false;        // the warm-up had sent requests (its figures are reported)
  int64_t warmup_completed = 0;
  bool in_ramp = false;  // the ramp had sent requests and no warm-up had (its figures are reported)
};

/// Ctrl-C or SIGTERM after requests were sent but before any was answered or failed: every one
/// was still in flight, cut off. Nothing was measured, and nothing says yet that the server
/// failed (exit 2: no measurement).
struct InterruptedUnansweredVerdict {
  int64_t in_flight = 0;   // cut off at the stop
  int64_t unsent = 0;      // open loop: due but not sent yet (every connection was waiting)
  int64_t elapsed_ns = 0;  // from the start of the measured part to the stop
};

/// --shard: this shard's share of the fleet's schedule held no request (the fleet's did), so it
/// had nothing to send. Not the server's failure, nor the run's: exit 0, an empty report.
struct NoWorkVerdict {
  int64_t shard_index = 0;  // 1-based, as --shard I/N
  int64_t shard_count = 0;
  bool counted = false;     // -n: the schedule was that many requests, not -d's
};

/// The server gave its last answer well before the run's end and none after: open loop, more
/// than unsent_allowance() of the requests due came due after it (all failed, went unsent or
/// were still waiting); closed loop, more than 1% of the run's time passed without an answer.
/// Not a capacity figure: no backlog verdict follows it. From kStoppedFailShare of the run on,
/// the run did not work (exit 2).
struct ServerStoppedAnsweringVerdict {
  int64_t last_answer_ns = 0;  // from the start of the measured part
  int64_t elapsed_ns = 0;      // the measured part, to its end
  bool open_loop = true;
  int64_t due_after = 0;       // open loop: due after the last answer, none answered
  int64_t scheduled = 0;       // open loop: due in the whole measured part
  double share = 0;            // due_after / scheduled; closed loop: silent time / elapsed
  int64_t unsent_no_connection = 0;  // the run's: due with no connection up (never sent)
  bool run_failed = false;     // share >= kStoppedFailShare
};

/// No response at all, or more failed requests than answers: the latencies describe nothing.
struct RunFailedVerdict {
  int64_t completed = 0;
  int64_t failed = 0;
  int64_t timeouts = 0;    // of the failed, those that timed out
  int64_t timeout_ns = 0;  // --timeout
  int64_t sent = 0;             // nothing sent and nothing failed: see `connects`
  int64_t connect_failures = 0;
  // Successful connects over the whole run (warm-up and ramp included): with nothing sent,
  // none means no connect ever succeeded; some mean every connection stayed busy with earlier
  // requests (a warm-up's, at a server that never answered) while `unsent` came due.
  int64_t connects = 0;
  int64_t unsent = 0;           // open loop: due in the measured part, never sent
  // Of `unsent`, those that waited behind busy connections (the others, due with no
  // connection up, are among `failed`).
  int64_t unsent_behind_busy = 0;
};

/// How many answers carried one status code.
struct StatusCount {
  int code = 0;
  int64_t count = 0;
};

/// The answers with a status other than 2xx or 3xx, and their codes, most frequent first.
struct ErrorStatusesVerdict {
  int64_t non_2xx_3xx = 0;
  int64_t completed = 0;
  std::vector<StatusCount> codes;
};

/// More than half of the answers had an error status: the run did not work (exit 2).
struct MostlyNon2xxVerdict : ErrorStatusesVerdict {};

/// 1% or more of the answers had an error status: said above the latencies.
struct Non2xxResponsesVerdict : ErrorStatusesVerdict {};

/// Over 1% of the requests that ended failed other than by timing out (a connection that
/// closed or reset before its answer, a write that failed, an answer hammer could not parse,
/// a request due with no connection up), short of run_failed: said above the latencies, which
/// describe only the answered. Timeouts are censored_tail's.
struct FailedRequestsVerdict {
  int64_t failed = 0;   // read + write + parse + no_connection
  int64_t ended = 0;    // completed + every failed request (timeouts included)
  int64_t read = 0;
  int64_t write = 0;
  int64_t parse = 0;
  int64_t no_connection = 0;  // open loop: unsent_no_connection
};

/// The backlog grew because the connections could not carry the rate at the server's
/// latency (Little's law: rate x latency connections are needed).
struct TooFewConnectionsVerdict {
  int64_t connections = 0;
  double rate = 0;
  int64_t latency_ns = 0;          // the uncorrected median the need is computed from
  double connections_needed = 0;   // rate x latency / pipeline
  int64_t suggested = 0;           // a figure -c accepts: 20% over the need, at most the limit
  bool beyond_limit = false;       // the need exceeds kMaxConnections: no -c carries the rate
  int64_t pipeline = 1;            // -p: requests in flight per connection (the need divides)
};

/// The backlog grew because the server could not keep up.
struct OverCapacityVerdict {
  // completed / the time hammer was running (elapsed less absent_ns): while it was absent it
  // offered nothing, so that time says nothing of what the server sustains.
  double sustained_rate = 0;
  double rate = 0;
  int64_t unsent = 0;        // the backlog's: not those due with no connection or while absent
  int64_t peak_backlog = 0;
  int64_t absent_ns = 0;     // DispatchLag::absent_ns: hammer not running (0: it always was)
};

/// Which reported corrected percentile hammer's own lateness moves most, and by how much at
/// most (generator_percentile_shift). percentile 0: none.
struct GeneratorShift {
  double percentile = 0;
  int64_t value_ns = 0;  // the corrected figure reported
  int64_t shift_ns = 0;  // at most this much of it is hammer's lateness
};

/// hammer itself sent requests late (a connection was idle, or it was not running when they
/// came due), enough to move a reported percentile: the figures there describe the generator.
struct GeneratorSaturatedVerdict {
  int64_t behind_generator = 0;
  int64_t dispatched = 0;
  int64_t max_lag_ns = 0;
  int64_t threads = 0;
  int64_t cpus = 0;                // online on this machine; 0 when not known (a merge)
  bool more_threads_help = false;  // threads < cpus: --threads has cores left to use
  GeneratorShift shift;            // the percentile it moves most
  int64_t behind_absent = 0;       // of behind_generator, due while hammer was not running
  // Held off the CPU, not busy: the hiccup meter's longest stall in the measured part covers
  // half the worst lag or more (or most late slots came due while hammer was not running),
  // while the busiest worker ran under kGeneratorIdleShare of its time. Then a lower --rate or
  // more --threads would not help: the machine (or whatever stopped the process) did it.
  bool held_off = false;
  int64_t host_stall_ns = 0;       // that longest stall; 0 when none of 10 ms or more
  double busiest_share = -1;       // the busiest worker's CPU share; -1 unknown
  // The busiest worker ran under kGeneratorIdleShare of its time without a stall or absence
  // to show for it (held_off false): not its load either, but late wake-ups the meter's 10 ms
  // threshold does not see; the advice is the same as held_off's, said as a likelihood.
  bool idle = false;
};

/// hammer sent requests late by its own fault, but not enough to move a reported percentile
/// by more than kGeneratorShiftShare: a note with the figures, not a warning.
struct GeneratorLateVerdict : GeneratorSaturatedVerdict {};

/// Requests left late because every connection was busy, without a growing backlog.
struct ServerBehindVerdict {
  int64_t behind_server = 0;
};

/// The platform's timers (poll / WSAPoll: whole milliseconds) limited dispatch precision: the
/// requests that found a connection idle still left this late on average.
struct TimerFloorVerdict {
  int64_t timer_granularity_ns = 0;
  int64_t mean_idle_lag_ns = 0;
  int64_t idle_dispatched = 0;
  int64_t max_lag_ns = 0;
};

/// Requests timed out: they have no latency, so every percentile above the answered share
/// (stats/censored_tail.h) is known only to exceed --timeout; said above the latencies.
struct CensoredTailVerdict {
  int64_t timed_out = 0;
  int64_t ended = 0;                // answered + timed out, of the histogram the report leads with
  int64_t timeout_ns = 0;           // --timeout: the bound of every censored figure
  double answered_percent = 0;      // percentiles above it are censored
  std::vector<double> censored;     // of the percentiles a document carries (the default
                                    // spectrum and --percentiles), those censored; max always is
};

/// A reported percentile and its figure.
struct PercentileFigure {
  double q = 0;
  int64_t value_ns = 0;
};

/// The host stalled (the hiccup meter overslept) long enough and often enough that the stalls
/// alone could have made reported percentiles: repeat the run on a quieter machine.
struct HostStalledVerdict {
  int64_t max_stall_ns = 0;
  int64_t max_stall_at_ns = 0;   // when it began, from the run's start (t0)
  int64_t long_stalls = 0;       // stalls >= HostReading::kLongStallNs, whole run
  int64_t lost_ns = 0;           // their total length
  int64_t observed_ns = 0;       // how long the meter watched
  int64_t steal_ns = -1;         // the host's steal over the run; -1 unavailable
  bool corrected = true;         // the percentiles are the corrected stopwatch's
  /// The reported percentiles (lowest first) that stalls longer than their figure could have
  /// made: the share of requests such stalls delayed exceeds the share above the percentile.
  std::vector<PercentileFigure> moved;
  /// Stalls of kHostStallVerdictNs and more within the measured part, per meter, and their
  /// share of it: past kHostFrozenShare the verdict stands even when it moved no percentile.
  int64_t frozen_ns = 0;
  double frozen_share = 0;
};

/// Closed loop: the workers were on a CPU most of the run, so the request rate is the
/// generator's limit as much as the server's.
struct GeneratorBoundVerdict {
  double share = 0;            // the workers' CPU over their wall time (1.0: all of it)
  double busiest_share = 0;
  int64_t threads = 0;
  int64_t cpus = 0;            // online where it ran; 0 when not known (a merge, a saved run)
  bool more_threads_help = false;  // threads < cpus
};

/// One verdict: which one (the alternative held) and its figures.
using Verdict =
    std::variant<InterruptedBeforeMeasuringVerdict, InterruptedUnansweredVerdict, NoWorkVerdict,
                 ServerStoppedAnsweringVerdict, RunFailedVerdict, MostlyNon2xxVerdict,
                 Non2xxResponsesVerdict, TooFewConnectionsVerdict, OverCapacityVerdict,
                 GeneratorSaturatedVerdict, ServerBehindVerdict, TimerFloorVerdict,
                 CensoredTailVerdict, HostStalledVerdict, GeneratorBoundVerdict,
                 GeneratorLateVerdict, FailedRequestsVerdict>;

/// The alternatives above are in VerdictCode order.
inline VerdictCode verdict_code(const Verdict& verdict) {
  return static_cast<VerdictCode>(verdict.index());
}

/// The thresholds, named where the rules below use them (run/verdicts.cc says why each).
struct VerdictThresholds {
  // Failed requests (not timeouts) over those that ended, above which they are said above the
  // latencies: as for error statuses, a share a reader of the figures must know of.
  static constexpr double kFailedShare = 0.01;
  static constexpr double kServerLateShare = 0.02;     // behind_server / dispatched: backlog
  static constexpr double kGeneratorLateShare = 0.01;  // behind_generator / dispatched ...
  static constexpr int64_t kGeneratorLateMin = 10;     // ... and at least this many: noted
  // hammer's lateness is a warning (generator_saturated) only when it can move a reported
  // corrected percentile by more than this share of it (and by more than the lag threshold):
  // the shift is the figure less the same percentile of the corrected latencies with each
  // generator-late request at its uncorrected latency instead (DispatchLag's
  // generator_late_latency and generator_late_unlagged), at most their largest lag. Older
  // documents take the worst case: every late request at or above the figure drops below it.
  // Below a tenth, the reported figure, its order and any SLO reading stand:
  // clean runs on a busy host lag 9-20 ms on a few hundred requests whose corrected latency
  // sits far below the tail they would otherwise be blamed for (issue 23).
  static constexpr double kGeneratorShiftShare = 0.10;
  static constexpr int64_t kQueueingRatio = 4;         // median / fastest above it: queueing
  static constexpr double kSustainedShare = 0.95;      // sustained / rate below it: over capacity
  static constexpr double kSuggestedHeadroom = 1.2;    // suggested = need x this
  static constexpr double kStoppedSilentShare = 0.01;  // closed loop: silent tail noted above it
  static constexpr double kStoppedFailShare = 0.10;    // unanswered tail: the run did not work
  static constexpr int64_t kHostStallVerdictNs = 50'000'000;  // shorter stalls never move one
  // Stalls of kHostStallVerdictNs and more over this share of the measured time: the host
  // froze for long enough that no figure of the run is the server's alone (host_stalled).
  static constexpr double kHostFrozenShare = 0.01;
  static constexpr double kGeneratorBoundShare = 0.90;  // closed loop: workers' CPU share
  // Open loop, hammer late with its busiest worker under this share of its time on a CPU: not
  // its load (generator_saturated's held_off reads the host stalls and absences then).
  static constexpr double kGeneratorIdleShare = 0.50;
};

/// Unsent requests a run may leave before its backlog counts as grown: 1% of those scheduled,
/// at least 10. Both the verdicts and a sweep step's "unsent" miss use it.
int64_t unsent_allowance(int64_t scheduled);

/// The reported corrected percentile (config.percentiles, else the default spectrum) that
/// hammer's own lateness can move most, relative to its value, and the most it can move it
/// (kGeneratorShiftShare's comment says how). percentile 0 when it moves none.
GeneratorShift generator_percentile_shift(const Config& config, const RunResult& result);

/// A fleet shard's own lateness, as hammer merge notes it. A merge judges each shard from its
/// saved figures, not its histograms: `moves_percentile` is generator_percentile_shift()'s
/// answer for the shard, taken when the shard was merged.
enum class ShardLateness : uint8_t {
  none,
  minor,       // late by its own fault, at least kShardLateShare of its dispatched requests
  bottleneck,  // its lateness moves one of its reported percentiles
};
/// The share of a shard's dispatched requests sent late by its own fault from which merge
/// notes it (below: the wake-up jitter any generator has).
inline constexpr double kShardLateShare = 0.01;
ShardLateness shard_lateness(const DispatchLag& lag, bool moves_percentile);

/// Connects (and TLS handshakes) that held the start longer than this are noted: a server slow
/// to accept or to handshake, which the run waited for before it measured anything.
inline constexpr int64_t kSlowConnectsNs = 1'000'000'000;
inline bool connects_held_the_start(const WallClockStart& start) {
  return start.connecting_ns > kSlowConnectsNs;
}

/// A run (or a fleet's shard) that started more than this after --start-at is noted as late:
/// below it is the wake-up jitter of any sleep.
inline constexpr int64_t kLateStartNs = 1'000'000;
/// `late_ns`: how far after --start-at the schedule began (WallStart::late_ns).
inline bool started_late(int64_t late_ns) { return late_ns > kLateStartNs; }

/// `cpus`: CPUs online where the run ran (online_cpus()), 0 when not known.
std::vector<Verdict> compute_verdicts(const Config& config, const RunResult& result,
                                      int64_t cpus);

/// True when the run did not do its job: no response at all, more failed requests than
/// answers, a server that stopped answering for kStoppedFailShare of the run or more
/// (unanswered_tail_share()), or mostly answers with an error status (mostly_non_2xx). main()
/// exits 2 then. A shard with no work (no_work()) did not fail.
bool run_failed(const Config& config, const RunResult& result);

/// The share of the measured part after the server's last answer, when that tail is long
/// enough to be the server's stop rather than the last requests' latency; 0 otherwise (and
/// for an interrupted run whose silence before the stop was no longer than --timeout: its
/// cut-off requests may just have been slow). Open loop: requests due
/// after the last answer over those due, when more than unsent_allowance(); closed loop: the
/// time without an answer over the run's, when above kStoppedSilentShare.
double unanswered_tail_share(const Config& config, const RunResult& result);

/// --shard, open loop: this shard's share of the schedule held no request and the run was not
/// interrupted. `config` is the shard's view (core/shard_share.h) or the whole run's.
bool no_work(const Config& config, const RunResult& result);

/// More than half of the answers had a status other than 2xx or 3xx (wrk's "Non-2xx or 3xx").
bool mostly_non_2xx(const RunResult& result);

/// A request timed out under a --timeout of a whole number of milliseconds below 100: what a
/// wrk user's bare `--timeout 2` (seconds there, milliseconds here) gives. The report then says
/// how the number was read.
bool timeout_may_mean_seconds(const Config& config, const RunResult& result);

/// An http:// run in which no byte ever came back, and the server closed connections on
/// requests: what a TLS port does to a plain request (openssl s_server closes at once; a
/// proxy may do the same). The report then names the https:// URL to try.
bool closed_without_a_byte(const Config& config, const RunResult& result);

/// The server ended connections for the client's certificate, or the lack of one
/// (TlsSummary::client_certificate_refused): the report says what to give or check.
inline bool client_certificate_refused(const RunResult& result) {
  return result.tls.client_certificate_refused > 0;
}

/// An http:// run every answer of which was 400 Bad Request: what nginx (and other servers
/// that take both on one port) answers a plain request on its TLS port with ("The plain HTTP
/// request was sent to HTTPS port"). The report then names the https:// URL to try, as for a
/// TLS port's silence.
bool answered_only_400(const Config& config, const RunResult& result);

/// True when Ctrl-C or SIGTERM ended the run before its measured part sent a request (during
/// the connects or the warm-up). run_failed() is then true too (exit 2: nothing measured), but
/// the verdict says it was the interruption, not the server.
bool interrupted_before_measuring(const RunResult& result);

}  // namespace hammer
