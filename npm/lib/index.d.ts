// SPDX-License-Identifier: MIT
// Types for hammer-load's programmatic API. RunResult and SweepResult mirror hammer's JSON
// report, schema 1 (docs/json.md): times are integer nanoseconds in members ending in _ns, and a
// figure that does not exist is null, never 0. ProgressEvent and StepEvent mirror the progress
// lines of --progress-fd.

/** A duration: a number of seconds, or a string with a unit (ns us ms s m h), e.g. "1.5s". */
export type Duration = number | string;

/**
 * Levels of a sweep: an array (`[1, 2, 5]`, `['1k', '2k']`), a list `'1k,2k,5k'`, a stepped
 * range `'1k:20k:1k'`, or (rate only, with `slo`) a range `'200:5000'` to search for capacity.
 */
export type Levels = Array<number | string> | `${string},${string}` | `${string}:${string}`;

/** Service-level objectives: `{ p99: '50ms', 'p99.9': 200, errors: '1%' }` (a bare number is
 *  milliseconds), or `['p99=50ms', 'errors=1%']`. Each becomes one --slo. */
export type SloOption = { [key: string]: string | number } | string[];

export interface RunOptions {
  /** http[s]://host[:port][/path]; https speaks TLS 1.2 or 1.3 (where the binary has TLS). */
  url: string;
  /** Total connections, at least 1 (default: see `hammer --help`); a list sweeps them. */
  connections?: number | Levels;
  /** Worker threads, at most `connections` (default min(4, connections, CPUs available)). */
  threads?: number;
  /** Test duration: seconds, or a string with a unit such as "10s", "2m". */
  duration?: Duration;
  /** Target requests/s over all connections, e.g. 2000 or "2k": turns on open-loop mode. A
   *  list or range sweeps the rate (see Levels). */
  rate?: number | string | Levels;
  /** Pass/fail limits (--slo). On a single run the report gets `slo` and `slo_passed`; in a
   *  sweep, each step does, and a rate range searches for the highest rate that meets them. */
  slo?: SloOption;
  /** Called with where the run stands, at most every 100 ms (a newer reading replaces one
   *  that would come sooner). In a sweep, each step's run reports, with `step` set. */
  onProgress?: (event: ProgressEvent) => void;
  /** In a sweep, called as each step finishes. */
  onStep?: (event: StepEvent) => void;
  /** Time to run before measuring (hammer's --warmup): seconds or a string with a unit. */
  warmup?: Duration;
  /** Raise the load over this time before the warm-up (--ramp): open loop, the rate climbs
   *  from 0 to `rate`; closed loop, connections join evenly. */
  ramp?: Duration;
  /**
   * Requests sent in rotation (--requests), each reported apart (`hammer.requests_file`): an
   * array, as autocannon takes them (`[{ path: '/' }, { method: 'POST', path: '/api', body }]`,
   * written to a private JSON Lines file removed after the run), or the path of such a file.
   */
  requests?: string | RequestSpec[];
  /**
   * Stop after this many requests (hammer's -n, --requests-count), as autocannon's `amount`.
   * Needs a hammer that has -n: with one whose --help lists none, run() rejects with
   * "run(): amount needs hammer with -n ..." before anything runs.
   */
  amount?: number | string;
  /** Requests in flight per connection, HTTP/1.1 pipelining (--pipeline), 1 to 1000. */
  pipeline?: number;
  /** Measure latency from the actual send even with `rate` (--closed-loop). */
  closedLoop?: boolean;
  /** HTTP method (default GET). */
  method?: string;
  /** I/O engine (--engine); default io_uring where the kernel allows it, else epoll. */
  engine?: 'io_uring' | 'epoll' | 'poll';
  /** Open loop: spin to each slot for sub-10 us dispatch, at a CPU cost (--precise-dispatch). */
  preciseDispatch?: boolean;
  /**
   * Extra request headers: an object (a value may be an array for a repeated header), or an
   * array of "Name: value" strings or [name, value] pairs. Each becomes one --header.
   */
  headers?: Record<string, string | number | Array<string | number>> |
            Array<string | [string, string | number]>;
  /**
   * Request body, a string or bytes (a Buffer): written to a private temporary file for
   * --body, removed after the run.
   */
  body?: string | Uint8Array;
  /** Per-request timeout: a number is milliseconds, or a string with a unit, e.g. "2s". */
  timeout?: number | string;
  /** Stops the run like Ctrl-C: run() then resolves with the part measured, `interrupted: true`. */
  signal?: AbortSignal;
  /** Further command-line arguments, passed as given before the URL, e.g. ["--no-keepalive"]. */
  args?: string[];
  /** The hammer executable to run (default: the one this package installed). */
  binary?: string;
}

/** One request of `requests: [...]`: a line of hammer's --requests file. */
export interface RequestSpec {
  /** Default: `method`, else GET. */
  method?: string;
  /** Starts with '/' (default '/'); may carry a query. */
  path?: string;
  /** Replace `headers` of the same name for this request. */
  headers?: Record<string, string | number>;
  /** A string, or bytes (written to a file of their own, body_file). */
  body?: string | Uint8Array;
  /** The report's label for it (default: the path). */
  name?: string;
}

/**
 * The latency people read, in milliseconds, from one stopwatch: `stopwatch` says which. Open
 * loop: 'corrected', from each request's intended send time (hammer's headline; the
 * uncorrected figures are in `hammer.latency.uncorrected`); closed loop (or `closedLoop`):
 * 'uncorrected', from the actual send. null where no response arrived.
 */
export interface SummaryLatency {
  stopwatch: 'corrected' | 'uncorrected';
  p50: number | null;
  p75: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  p99_9: number | null;
  p99_99: number | null;
  /** Mean. */
  average: number | null;
  stddev: number | null;
  min: number | null;
  max: number | null;
  /** Names above ("p99", "max") that are only the --timeout, a bound the true figure exceeds. */
  censored: string[];
}

/**
 * What run() resolves to for a single run, shaped as autocannon's result: the figures people
 * read at the top (times in milliseconds), hammer's whole document under `hammer`.
 */
export interface RunSummary {
  url: string | null;
  connections: number | null;
  mode: 'open' | 'closed' | null;
  /** req/s in open loop; null in closed loop. */
  rate: number | null;
  /** Seconds the measured part ran. */
  duration: number | null;
  latency: SummaryLatency;
  requests: {
    /** Requests answered per second. */
    average: number | null;
    /** Requests answered (hammer's requests.completed). */
    total: number | null;
    sent: number | null;
  };
  /** Bytes read (responses whole) per second, and in all. */
  throughput: { average: number | null; total: number | null };
  /** Requests that failed, every kind (connect, read, write, timeout, parse, tls). */
  errors: number;
  /** Of `errors`, those that timed out. */
  timeouts: number;
  /** Answers that were not 2xx (1xx, 3xx, 4xx, 5xx): answers, not errors. */
  non2xx: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  /** Stopped early (an AbortSignal, Ctrl-C). */
  interrupted: boolean;
  /** With `slo`: each outcome, and whether all passed (else hammer exits 3). */
  slo?: SloOutcome[];
  slo_passed?: boolean;
  /** hammer's whole --json document (docs/json.md). */
  hammer: RunResult;
}

export interface Percentiles {
  '50': number | null;
  '75': number | null;
  '90': number | null;
  '95': number | null;
  '99': number | null;
  '99.9': number | null;
  '99.99': number | null;
  /** One more key per --percentiles value outside the default spectrum ("99.999", "62.5"). */
  [percentile: string]: number | null;
}

export interface Histogram {
  /** Latencies recorded. */
  count: number;
  min_ns: number | null;
  max_ns: number | null;
  mean_ns: number | null;
  stdev_ns: number | null;
  /** Over every request that ended, a timed-out one slower than any answer; a key listed in
   *  `censored` holds the timeout, a bound the true figure exceeds. */
  percentiles_ns: Percentiles;
  /** Requests that timed out: no latency, not in count (absent in older documents). */
  timed_out?: number;
  /** Keys of percentiles_ns ("99", "99.9") and "max" that are only the timeout, a lower bound
   *  (absent in older documents). */
  censored?: string[];
  /** Latencies above 60 s, recorded as 60 s. */
  out_of_range: number;
  /** The whole histogram, HdrHistogram V2 compressed and base64 ("HISTF..."). */
  hdr: string;
}

export interface DispatchLag {
  /** Open-loop requests sent, each with one lag sample. */
  dispatched: number;
  mean_ns: number;
  /** The lags' exact sum, so shards' means merge exactly. */
  sum_ns?: number;
  /** Median and 99th percentile of the lag; null when nothing was dispatched. */
  p50_ns: number | null;
  p99_ns: number | null;
  max_ns: number;
  /** Requests whose lag exceeded threshold_ns; equals cause.server + cause.generator. */
  behind_schedule: number;
  threshold_ns: number;
  /** --dispatch-precision: slots due within it leave in one wake-up; null when not known. */
  budget_ns?: number | null;
  /** Most due-but-unsent requests one worker held at once. */
  peak_backlog: number;
  cause: {
    /** Late while every connection was waiting on the server: the server did not keep up. */
    server: number;
    /** Late although a connection was idle: hammer itself was the bottleneck. */
    generator: number;
  };
  /** The largest lag among cause.generator: how late hammer itself sent one (0 when none). */
  generator_max_ns?: number;
  /** Of cause.generator, those that came due while hammer was not running (its wait overslept or
   *  a pass ran long), however busy the connections were when they left. */
  generator_absent?: number;
  /** The longest any one worker was not running, in total over the run. */
  absent_ns?: number;
  /** The corrected latencies of cause.generator's requests: HdrHistogram V2, base64. */
  generator_late_hdr?: string;
  generator_late_unlagged_hdr?: string;
  /** Requests sent on a connection already idle when they were due, and their lags' sum:
   *  whatever lag they have is hammer's own (its timers, its CPU). */
  idle_dispatched?: number;
  idle_sum_ns?: number;
  /** The unit a worker's sleep towards a slot is rounded up to (1 ns, or 1 ms with poll). */
  timer_granularity_ns?: number;
  /** Every lag sample: HdrHistogram V2, compressed, base64 (what `hammer merge` adds up). */
  hdr?: string;
}

/** The warm-up (--warmup): load before the measured part, left out of every other figure
 *  except connections.opened, connect and first_requests. */
export interface Warmup {
  /** The warm-up asked for. */
  duration_s: number;
  /** The warm-up as run (shorter only when stopped during it). */
  elapsed_ns: number;
  sent: number;
  completed: number;
  per_second: number;
  /** On the lead stopwatch (config.stopwatch); the figures are null when count is 0. */
  latency: {
    count: number;
    p50_ns: number | null;
    p99_ns: number | null;
    max_ns: number | null;
    /** Which of "50", "99", "max" the phase's timeouts censor (the figure is the timeout). */
    censored?: string[];
    hdr: string;
  };
  errors: RunResult['errors'];
  /** The warm-up's responses by status class and by code (absent in older documents). */
  status?: RunResult['status'];
  status_codes?: RunResult['status_codes'];
}

/** One row of the timeline: the requests sent during it. */
export interface TimelineRow {
  /** Row number from 1, warm-up rows included. */
  second: number;
  /** The row's start, seconds after the run's start. */
  start_s: number;
  length_s: number;
  phase: 'ramp' | 'warmup' | 'measured';
  /** Responses to requests sent in the row. */
  requests: number;
  per_second: number;
  /** Lead-stopwatch latency of those responses; null when requests is 0. */
  p50_ns: number | null;
  p99_ns: number | null;
  max_ns: number | null;
  errors: number;
  /** Of errors, requests sent in the row that timed out (absent in older documents). */
  timed_out?: number;
  /** Which of "50", "99", "max" the row's timeouts censor (the figure is the timeout). */
  censored?: string[];
  /** Responses slower than timeline.slow_threshold_ns. */
  slow: number;
  /** The row's lead-stopwatch histogram (V2 base64), so that shards' rows add exactly. */
  hdr?: string;
  /** Open loop: the other stopwatch's row histogram (uncorrected, or corrected with
   *  closedLoop), for interval logs of both. */
  other_hdr?: string;
  /** The longest host stall (host.stalls) that began in the row; 0 when none over 10 ms did;
   *  null without a hiccup meter. */
  host_stall_max_ns?: number | null;
}

/** One stall of the host, 10 ms or longer. */
export interface HostStall {
  /** When the meter's sleep began, from the run's start. */
  at_ns: number;
  /** How much longer than asked the sleep took. */
  ns: number;
}

/** The hiccup meter: a thread of hammer's own that sleeps 5 ms over and over and records how
 *  much each sleep overran: the host's stalls, not the server's. */
export interface HostReading {
  /** 1 for a run, one per shard in a merged document. */
  meters: number;
  interval_ns: number;
  observed_ns: number;
  max_stall_ns: number;
  /** Oversleeps from this long on (10 ms) are stalls. */
  long_stall_ns: number;
  long_stalls: number;
  /** The stalls' total length: time lost. */
  lost_ns: number;
  lost_share: number;
  /** The host's steal time over the run (Linux); null where the system does not say. */
  steal_ns: number | null;
  /** The meter thread's own CPU time. */
  meter_cpu_ns: number | null;
  stalls: HostStall[];
  /** Every oversleep, V2 base64. */
  hdr: string;
}

/** The workers' own CPU (user + system, their thread clocks) over their run. */
/** How the workers slept and timed their reads (absent in older documents). */
export interface Wakes {
  /** Waits that could block, each a wake-up. */
  sleeps: number;
  through_traffic: number;
  stamped_reads: number;
  unstamped_reads: number;
  clock_steps: number;
  largest_step_ns: number;
  stamps_refused: boolean;
  large_responses: boolean;
}

export interface GeneratorCpu {
  threads: number;
  cpu_ns: number;
  wall_ns: number;
  /** cpu_ns / wall_ns: 1.0 is every worker on a CPU all the time. */
  share: number;
  busiest_share: number;
}

export interface Timeline {
  /** Row length: 1 unless the run is longer than 300 s. */
  interval_s: number;
  slow_threshold_ns: number;
  rows: TimelineRow[];
}

export interface Verdict {
  /** Stable code, e.g. "over_capacity", "too_few_connections", "generator_saturated",
   *  "server_behind", "run_failed", "server_stopped_answering", "host_stalled",
   *  "generator_bound"; new codes may appear. */
  code: string;
  /** The sentence the text report prints. */
  text: string;
  /** The named numbers behind the sentence; names are per code. */
  figures: Record<string, number | string | boolean | null>;
}

/** One line of a --requests file (or the aggregated entry after the 64th), measured part. */
export interface RequestsFileLine {
  /** "3" (the request's 1-based position in the file), or "65-100" for the aggregated entry. */
  lines: string;
  name: string;
  /** Line number in the file; null for the aggregated entry, as are method and path. */
  file_line: number | null;
  method: string | null;
  path: string | null;
  sent: number;
  completed: number;
  errors: RunResult['errors'];
  status: RunResult['status'];
  latency: {
    /** null in closed loop. */
    corrected: { count: number; p50_ns: number | null; p99_ns: number | null;
                 max_ns: number | null; censored?: string[]; hdr: string } | null;
    uncorrected: { count: number; p50_ns: number | null; p99_ns: number | null;
                   max_ns: number | null; censored?: string[]; hdr: string };
  };
}

export interface RequestsFile {
  path: string;
  /** Requests (non-empty lines) in the file. */
  count: number;
  /** 64: the lines after these share one aggregated entry. */
  lines_with_own_figures: number;
  lines: RequestsFileLine[];
}

export interface RunResult {
  hammer: { version: string; schema: number };
  config: {
    url: string;
    connections: number;
    threads: number;
    /** Where `threads` came from: -t ('flag'), the default held to the CPUs available
     *  ('cpus'), or the default held to 4 or the connections ('default'). */
    threads_from?: 'flag' | 'cpus' | 'default';
    /** CPUs the process could run on (its affinity mask); absent when not known. */
    cpus_available?: number;
    /** -d in seconds; with -n and --rate the N slots' span, with -n in closed loop the 24h bound. */
    duration_s: number;
    /** -n, --requests-count: the measured requests asked for; null for a run of -d. */
    requests_count?: number | null;
    /** --warmup in seconds; 0 without it. */
    warmup_s: number;
    /** --ramp in seconds (before the warm-up); 0 without it. */
    ramp_s?: number;
    /** Requests in flight per connection (--pipeline); 1 without it. */
    pipeline?: number;
    /** false with --no-retry: a polite close's unanswered requests are not sent again. */
    retry?: boolean;
    /** The --requests file as given; null without it. */
    requests?: string | null;
    /** null in closed loop. */
    rate: number | null;
    mode: 'open' | 'closed';
    stopwatch: 'corrected' | 'uncorrected';
    timeout_ms: number;
    method: string;
    /** The I/O engine that ran (epoll when io_uring was wanted but unavailable: see notes). */
    engine: 'io_uring' | 'epoll' | 'poll';
    precise_dispatch: boolean;
    /** --dispatch-precision in ns (0 with --precise-dispatch); absent in older documents. */
    dispatch_precision_ns?: number;
    /** --arrival: the open-loop arrival process, and --seed for poisson (absent in older documents). */
    arrival?: 'constant' | 'poisson';
    seed?: number;
    /** --latency: the text report printed the full spectrum (absent in older documents). */
    print_latency?: boolean;
    /** --timeline: the text report printed the per-second table (absent in older documents). */
    print_timeline?: boolean;
    /** --percentiles rows, rising; empty for the default spectrum. */
    percentiles?: number[];
    /** The --data CSV file as given; null without it (absent in older documents). */
    data?: string | null;
    /** --data-order; null without --data (absent in older documents). */
    data_order?: 'sequential' | 'random' | null;
    /** An https:// run's TLS flags; null for http:// (absent in older documents). */
    tls?: {
      /** -k: certificates not verified. */
      insecure: boolean;
      /** --cacert, --cert, --key as given; null when not. */
      cacert: string | null;
      cert: string | null;
      key: string | null;
      /** --tls-min, --tls-max. */
      min: '1.2' | '1.3';
      max: '1.2' | '1.3';
      /** false with --tls-resume off. */
      resume: boolean;
    } | null;
  };
  /** --shard I/N: this process's share of the fleet; null without --shard. */
  shard?: { index: number; count: number; connections: number; rate: number | null } | null;
  /** Where the run sits on the wall clock (the schedule's origin is --start-at when given). */
  start?: {
    origin_unix_ns: number;
    /** origin_unix_ns in RFC 3339, UTC. */
    origin: string;
    started_unix_ns: number;
    /** How far past --start-at this process started; 0 when on time. */
    late_ns: number;
    /** How long the connects (and TLS handshakes) held the start (absent in older documents). */
    connecting_ns?: number;
    start_at: boolean;
    tolerance_ns: number;
  };
  elapsed_ns: number;
  requests: {
    /** Open loop: intended departures before the deadline; null in closed loop. */
    scheduled: number | null;
    sent: number;
    completed: number;
    unsent: number;
    /** Open loop: of `unsent`, those due while their thread had no connection up (failed). */
    unsent_no_connection?: number;
    /** Open loop: of `unsent`, those that came due while hammer was not running (stopped, a
     *  frozen host): no backlog of the server's. */
    unsent_absent?: number;
    /** When the last answer came, from the start of the measured part (0: none came). */
    last_answer_ns?: number;
    /** How long the run went on after that last answer (0: an answer came at the end). */
    unanswered_tail_ns?: number;
    /** Open loop: requests due after the last answer, none answered; null in closed loop. */
    due_after_last_answer?: number | null;
    /** Requests sent or due that got no valid answer (read, write, timeout, parse errors, and
     *  unsent_no_connection). */
    failed?: number;
    /** Requests still unanswered when Ctrl-C or SIGTERM ended the run (not failed, not timed out). */
    in_flight_at_stop?: number;
    /** Idempotent requests sent once more after a polite close left them unanswered (not failed). */
    retried?: number;
    /** Requests such a close left unanswered that failed because their method is not idempotent. */
    not_retried?: number;
    bytes_read: number;
    per_second: number;
  };
  connections: { opened: number };
  latency: {
    /** From each request's intended send time; null in closed loop. */
    corrected: Histogram | null;
    /** From the actual send; present in every mode. */
    uncorrected: Histogram;
  };
  errors: {
    connect: number; read: number; write: number; timeout: number; parse: number;
    /** Failed TLS handshakes (https://); absent in documents from before it. */
    tls?: number;
  };
  status: { '1xx': number; '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  /** Every status code seen, by code: {"200": 19800, "404": 200}. */
  status_codes?: { [code: string]: number };
  /** What happened to connections apart from any request; none of it is a failed request. */
  connection_events?: {
    /** Failed connects (also errors.connect). */
    connect_failures: number;
    /** Connects that replaced a connection lost unplanned. */
    reconnects: number;
    /** Responses that arrived on an idle connection (e.g. a 408 before a close). */
    unsolicited_responses: number;
    /** Answers that came before their request was all sent (each a completed request). */
    early_responses?: number;
  };
  /** null in closed loop. */
  dispatch_lag: DispatchLag | null;
  /** The hiccup meter's reading of the host; null in documents from before it. */
  host?: HostReading | null;
  /** The workers' CPU share; null where not measured. */
  generator_cpu?: GeneratorCpu | null;
  wakes?: Wakes;
  /** null without `warmup`. (Members added in schema 1 after hammer 0.1.0's first release are
   *  optional here: an older hammer leaves them out.) */
  warmup?: Warmup | null;
  /** --ramp: as `warmup`, plus `scheduled` (open loop); null without it. */
  ramp?: (Warmup & { scheduled: number | null }) | null;
  /** --requests: the measured part line by line; null without it. */
  requests_file?: RequestsFile | null;
  /** The run in rows of one second. */
  timeline?: Timeline;
  /** Time from connect() to an established connection, every successful connect. */
  connect?: Histogram;
  /** Uncorrected latency of the first request on each new connection. */
  first_requests?: Histogram;
  /** https:// runs: the negotiated TLS and the handshakes; null for http://. */
  tls?: TlsReport | null;
  /** --http2 runs: the servers' SETTINGS and how streams ended; null for HTTP/1.1. */
  http2?: Http2Report | null;
  /** The run's readings; a run that could not do its job (hammer exit 2) has "run_failed". */
  verdicts: Verdict[];
  notes: string[];
  /** True when the run was stopped early (Ctrl-C, or `signal`). */
  interrupted: boolean;
  /** Later schema-1 members (warmup, timeline, ...) appear here; readers ignore unknown ones. */
  [member: string]: unknown;
}

/** The `tls` member of a run's document (docs/json.md). */
export interface TlsReport {
  /** "1.2" or "1.3", of the first successful handshake; null when none succeeded. */
  version: string | null;
  /** OpenSSL's cipher-suite name, e.g. "TLS_AES_256_GCM_SHA384". */
  cipher: string | null;
  /** The protocol the server chose by ALPN ("http/1.1"); null when none. */
  alpn: string | null;
  /** Certificates were verified; false with -k/--insecure. */
  verify: boolean;
  handshakes: { full: number; resumed: number; failed: number };
  /** The first failed handshake's reason in words. */
  first_error: string | null;
  /** Connections the server ended for the client's certificate, or its lack (absent in older documents). */
  client_certificate_refused?: number;
  /** Each successful handshake, after the TCP connect (apart from `connect`). */
  handshake_time: Histogram;
}

/** The `http2` member of a run's document (docs/json.md). */
export interface Http2Report {
  /** "h2" (TLS, by ALPN) or "h2c" (cleartext, prior knowledge). */
  protocol: 'h2' | 'h2c';
  /** --streams: concurrent streams asked per connection. */
  streams: number;
  /** The lowest SETTINGS_MAX_CONCURRENT_STREAMS a server sent; null when none sent one. */
  server_max_streams: number | null;
  sessions: number;
  goaways: number;
  goaway_errors: number;
  /** RST_STREAM received by error code: no_error, protocol_error, ..., http_1_1_required, other. */
  resets_received: Record<string, number>;
  resets_sent: number;
  /** Streams the server did not process (REFUSED_STREAM, above a GOAWAY's last stream id). */
  refused: number;
  session_errors: number;
  pings_answered: number;
  frame_overhead_bytes: number;
  data_bytes: number;
  /** Times the sessions' output left for the socket (a send, or a TLS record); null in older documents. */
  writes: number | null;
  setup_failures: number;
  first_setup_error: string | null;
  first_session_error: string | null;
  /** Time to first byte of each measured stream: HEADERS sent to the response's HEADERS. */
  first_byte: Histogram;
}

/** One --slo and how the run (or step) did against it. */
export interface SloOutcome {
  /** "p50", "p95", "p99.9", ... (any percentile), "max" or "errors". */
  key: string;
  /** Integer ns for latency keys; a fraction (0.01 for "1%") for errors. */
  limit: number;
  unit: 'ns' | 'ratio';
  /** The run's figure in the same unit; null when no response arrived. */
  measured: number | null;
  pass: boolean;
  /** Timeouts censor the figure: measured is the timeout, the true figure above it. */
  censored?: boolean;
  /** Censored with the limit above the timeout: cannot be judged, counted as a miss. */
  unjudged?: boolean;
}

/** A single run with `slo`: the outcome of each, and whether all passed (else exit 3). */
export interface SloReport {
  slo: SloOutcome[];
  slo_passed: boolean;
}

/** Where a run stands: a --progress-fd line, delivered to onProgress. */
export interface ProgressEvent {
  type: 'progress';
  /** Sweeps only: the step this run is (from 1, in the order run), its level, and whether it
   *  is a --control step. */
  step?: { index: number; level: number; control: boolean };
  phase: 'ramp' | 'warmup' | 'measured';
  /** Since the run (step) started, warm-up included. */
  elapsed_ns: number;
  /** Warm-up + duration. */
  total_ns: number;
  /** Responses and failed requests so far, warm-up included. */
  completed: number;
  errors: number;
  /** Completions per second since the previous reading. */
  per_second: number;
}

/** A sweep step that just finished, delivered to onStep. */
export interface StepEvent {
  type: 'step';
  step: { index: number; level: number; control: boolean };
  completed: number;
  errors: number;
  per_second: number;
  p99_ns: number | null;
  failed: boolean;
  slo_passed: boolean;
  /** How many times the level ran, and whether its repeats left it noisy (SweepStep). */
  runs: number;
  noisy: boolean;
}

/** One step of a sweep. */
export interface SweepStep {
  /** Connections, or req/s. */
  level: number;
  connections: number;
  threads: number;
  /** req/s in open loop; null in closed loop. */
  rate: number | null;
  elapsed_ns: number;
  requests: { scheduled: number | null; completed: number; unsent: number; per_second: number };
  /** Integer ns, null when no response arrived; percentile keys as in Percentiles. */
  latency_ns: {
    stopwatch: 'corrected' | 'uncorrected';
    max: number | null;
    mean: number | null;
    /** Requests of the step that timed out. */
    timed_out?: number;
    /** Keys above ("99", "max") that are only the timeout, a lower bound. */
    censored?: string[];
    [percentile: string]: number | string | string[] | null | undefined;
  };
  errors: number;
  non_2xx_3xx: number;
  /** Open loop only. */
  dispatch_lag: {
    dispatched: number;
    behind_schedule: number;
    behind_server: number;
    behind_generator: number;
    behind_share: number;
    server_share: number;
  } | null;
  /** Closed-loop connection sweeps: req/s x mean latency (a timed-out request counted as
   *  holding its connection for the timeout), and its distance from the connection count in %. */
  littles_law: { in_flight: number; deviation_pct: number } | null;
  /** `threads_below_cpus`: more --threads had cores to use (absent in older documents). */
  generator_cpu: {
    cores: number | null;
    usable_cores: number;
    busy: boolean;
    threads_below_cpus?: boolean;
  };
  /** With `slo`. */
  slo?: SloOutcome[];
  slo_passed?: boolean;
  /** Met every SLO and the dispatch bounds. */
  meets: boolean;
  /** Why not: "failed", "slo", "server_late", "unsent". */
  misses: string[];
  /** The step's verdict codes. */
  verdicts: string[];
  control_per_second: number | null;
  interrupted: boolean;
  /** The step could not start: why; null for a step that ran. */
  error?: string | null;
  /** How many times the level ran (1 to 3): a run the host disturbed is repeated until an
   *  undisturbed run's p99 is reproduced within 1.5x (or 1 ms). The figures above are one
   *  run's: the quietest. */
  runs: number;
  /** Still unsettled after its repeats: the text row carries `~`. */
  noisy: boolean;
  /** Each run's p99 in ns (null without a response), in the order run. */
  run_p99_ns: (number | null)[];
  /** The reported run's host stalls of 50 ms and more in its measured part; null: no meter. */
  host_stall_ns: number | null;
}

/** How far a reading rests on noisy levels: none noisy; noisy levels beside it; a level that
 *  places it is noisy (the summary says it cannot be read). */
export type ReadingNoise = 'clean' | 'rests_on_noisy' | 'unreadable';

/** The document of a sweep or capacity search: one for the whole sweep. */
export interface SweepResult {
  hammer: RunResult['hammer'];
  /** As on a single run, with `connections` the largest level and `rate` the highest. */
  config: RunResult['config'];
  sweep: {
    kind: 'connections' | 'rate';
    /** A capacity search: `steps` in the order tried. */
    search: boolean;
    /** The planned levels; null for a search. */
    levels: number[] | null;
    /** A search's range in req/s. */
    range: { low: number; high: number } | null;
    /** The most runs the sweep can make (every level at 3 runs, plus --control steps)... */
    max_runs: number;
    /** ...and the most time they take: max_runs x (ramp + warm-up + duration). */
    max_duration_ns: number;
    steps: SweepStep[];
    noise: {
      max_repeats: number;
      reproduce_factor: number;
      noisy_levels: number[];
      repeated_levels: number[];
      /** null for a search. */
      knee: ReadingNoise | null;
      /** null without a collapse. */
      collapse: ReadingNoise | null;
      /** null without `slo`. */
      capacity: ReadingNoise | null;
    };
    knee: {
      level: number;
      per_second: number;
      best_after_per_second: number;
      mean_latency_ns: number;
      last_level: number;
      last_mean_latency_ns: number;
    } | null;
    collapse: {
      held_level: number;
      held_per_second: number;
      fell_level: number;
      fell_per_second: number;
    } | null;
    /** With `slo`: the highest level that met every SLO. */
    capacity: {
      found: boolean;
      level: number | null;
      first_failing_level: number | null;
      whole_range: boolean;
      /** A search that used every step while each rate met the SLOs: `level` is a lower bound. */
      out_of_steps: boolean;
      steps: number;
    } | null;
    /** With --control (in `args`). */
    control: { url: string; steps: SweepStep[]; ratio: number | null } | null;
    generator: { max_cpu_cores: number; busy_levels: number[] };
    interrupted: boolean;
    /** The sentences the text report prints under the table (knee, collapse, capacity, ...). */
    summary: string[];
  };
  /** With `slo`: the limits the sweep was judged by (each step's `slo` holds its outcomes). */
  slo?: { key: string; limit: number; unit: 'ns' | 'ratio' }[];
  /** With `slo`: whether any level met every SLO (else exit 3). */
  slo_passed?: boolean;
  notes: string[];
  [member: string]: unknown;
}

/** What run() resolves to: a single run's summary (its document under `hammer`) or a sweep's
 *  document; tell them apart with isSweep(). */
export type Report = RunSummary | SweepResult;

/** Rejections carry hammer's exit status and its stderr. */
export interface RunError extends Error {
  /** 1: bad input (the message is hammer's own line, "hammer: --connections: expected ...");
   *  2: the run could not start (e.g. nothing listens at the URL); null when ended by a signal
   *  or when hammer could not be started. */
  exitCode: number | null;
  /** The signal that ended hammer, e.g. "SIGKILL". */
  signal: string | null;
  stderr: string;
}

/**
 * Runs hammer with --json. One rule: it resolves whenever hammer printed a document, whatever
 * its exit status: 0; 2, a run that did not do its job (`hammer.verdicts` say "run_failed");
 * 3, an SLO missed (`slo_passed: false`); or stopped by `signal`. It rejects with a RunError
 * only when there is no document: bad options (exit 1, the message is the CLI's own line), a
 * target hammer could not reach at all (exit 2 before any load, e.g. nothing listens at the
 * URL), hammer missing, killed before it reported, or a callback that threw (its error).
 *
 * A single run resolves to a RunSummary (the figures in milliseconds at the top, the document
 * under `hammer`). A list or range of levels in `rate` or `connections` makes a sweep, which
 * resolves to its document (SweepResult); a string such as "2k" could be either, so the result
 * is a Report to narrow with isSweep().
 */
export function run(options: RunOptions & ({ rate: Levels } | { connections: Levels })):
  Promise<SweepResult>;
export function run(options: RunOptions & { rate?: number; connections?: number; slo: SloOption }):
  Promise<RunSummary & { slo: SloOutcome[]; slo_passed: boolean }>;
export function run(options: RunOptions & { rate?: number; connections?: number }):
  Promise<RunSummary>;
export function run(options: RunOptions): Promise<Report>;

/** Whether `report` is a sweep's document rather than a single run's summary. */
export function isSweep(report: Report): report is SweepResult;

/** The summary run() resolves to, made from a single run's document (one saved with -o
 *  run.json, read back). */
export function summarize(document: RunResult): RunSummary;

/** Path of the native hammer binary this package installed. */
export function binaryPath(): string;
