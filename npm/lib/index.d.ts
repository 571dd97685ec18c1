// SPDX-License-Identifier: MIT
// Types for hammer-load's programmatic API. RunResult mirrors hammer's JSON report, schema 1
// (docs/json.md): times are integer nanoseconds in members ending in _ns, and a figure that
// does not exist is null, never 0.

/** A duration: a number of seconds, or a string with a unit (ns us ms s m h), e.g. "1.5s". */
export type Duration = number | string;

export interface RunOptions {
  /** http://host[:port][/path]; https is not supported. */
  url: string;
  /** Total connections, at least 1 (default: see `hammer --help`). */
  connections?: number;
  /** Worker threads, at most `connections` (default min(4, connections)). */
  threads?: number;
  /** Test duration: seconds, or a string with a unit such as "10s", "2m". */
  duration?: Duration;
  /** Target requests/s over all connections, e.g. 2000 or "2k": turns on open-loop mode. */
  rate?: number | string;
  /** Time to run before measuring (hammer's --warmup): seconds or a string with a unit. */
  warmup?: Duration;
  /** Measure latency from the actual send even with `rate` (--closed-loop). */
  closedLoop?: boolean;
  /** HTTP method (default GET). */
  method?: string;
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
  percentiles_ns: Percentiles;
  /** Latencies above 60 s, recorded as 60 s. */
  out_of_range: number;
  /** The whole histogram, HdrHistogram V2 compressed and base64 ("HISTF..."). */
  hdr: string;
}

export interface DispatchLag {
  /** Open-loop requests sent, each with one lag sample. */
  dispatched: number;
  mean_ns: number;
  max_ns: number;
  /** Requests whose lag exceeded threshold_ns; equals cause.server + cause.generator. */
  behind_schedule: number;
  threshold_ns: number;
  /** Most due-but-unsent requests one worker held at once. */
  peak_backlog: number;
  cause: {
    /** Late while every connection was waiting on the server: the server did not keep up. */
    server: number;
    /** Late although a connection was idle: hammer itself was the bottleneck. */
    generator: number;
  };
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
    hdr: string;
  };
  errors: RunResult['errors'];
}

/** One row of the timeline: the requests sent during it. */
export interface TimelineRow {
  /** Row number from 1, warm-up rows included. */
  second: number;
  /** The row's start, seconds after the run's start. */
  start_s: number;
  length_s: number;
  phase: 'warmup' | 'measured';
  /** Responses to requests sent in the row. */
  requests: number;
  per_second: number;
  /** Lead-stopwatch latency of those responses; null when requests is 0. */
  p50_ns: number | null;
  p99_ns: number | null;
  max_ns: number | null;
  errors: number;
  /** Responses slower than timeline.slow_threshold_ns. */
  slow: number;
}

export interface Timeline {
  /** Row length: 1 unless the run is longer than 300 s. */
  interval_s: number;
  slow_threshold_ns: number;
  rows: TimelineRow[];
}

export interface Verdict {
  /** Stable code, e.g. "over_capacity", "too_few_connections", "generator_saturated",
   *  "server_behind", "run_failed"; new codes may appear. */
  code: string;
  /** The sentence the text report prints. */
  text: string;
  /** The named numbers behind the sentence; names are per code. */
  figures: Record<string, number | string | null>;
}

export interface RunResult {
  hammer: { version: string; schema: number };
  config: {
    url: string;
    connections: number;
    threads: number;
    duration_s: number;
    /** --warmup in seconds; 0 without it. */
    warmup_s: number;
    /** null in closed loop. */
    rate: number | null;
    mode: 'open' | 'closed';
    stopwatch: 'corrected' | 'uncorrected';
    timeout_ms: number;
    method: string;
  };
  elapsed_ns: number;
  requests: {
    /** Open loop: intended departures before the deadline; null in closed loop. */
    scheduled: number | null;
    sent: number;
    completed: number;
    unsent: number;
    /** Requests sent that got no valid answer (read, write, timeout, parse errors). */
    failed?: number;
    /** Requests still unanswered when Ctrl-C or SIGTERM ended the run (not failed, not timed out). */
    in_flight_at_stop?: number;
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
  errors: { connect: number; read: number; write: number; timeout: number; parse: number };
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
  };
  /** null in closed loop. */
  dispatch_lag: DispatchLag | null;
  /** null without `warmup`. (Members added in schema 1 after hammer 0.1.0's first release are
   *  optional here: an older hammer leaves them out.) */
  warmup?: Warmup | null;
  /** The run in rows of one second. */
  timeline?: Timeline;
  /** Time from connect() to an established connection, every successful connect. */
  connect?: Histogram;
  /** Uncorrected latency of the first request on each new connection. */
  first_requests?: Histogram;
  /** The run's readings; a run that could not do its job (hammer exit 2) has "run_failed". */
  verdicts: Verdict[];
  notes: string[];
  /** True when the run was stopped early (Ctrl-C, or `signal`). */
  interrupted: boolean;
  /** Later schema-1 members (warmup, timeline, ...) appear here; readers ignore unknown ones. */
  [member: string]: unknown;
}

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
 * Runs hammer with --json and resolves to its report. Resolves whenever hammer prints a report,
 * whatever its exit status: a run that did not do its job (exit 2) is still a result, and its
 * `verdicts` say what went wrong ("run_failed"). Rejects with a RunError for bad options (exit 1,
 * the message is the CLI's own line) or a run that ended without a report (e.g. nothing listens
 * at the URL).
 */
export function run(options: RunOptions): Promise<RunResult>;

/** Path of the native hammer binary this package installed. */
export function binaryPath(): string;
