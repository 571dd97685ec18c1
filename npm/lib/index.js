// SPDX-License-Identifier: MIT
// hammer-load's programmatic API: run({ url, ... }) runs the native hammer with --json. Its
// options and result are shaped as autocannon's (the API Node users know): a single run
// resolves to a summary in milliseconds (latency.p50 ... .max, requests.average and .total,
// non2xx, errors, timeouts), with hammer's whole document beside it under `hammer`
// (docs/json.md); a sweep resolves to the sweep's document itself. The types are in
// index.d.ts. Progress comes from hammer's --progress-fd on a pipe of its own (descriptor 3).
//
// The rule: run() resolves with the document whenever hammer printed one, whatever its exit
// status (0; 2, a run that did not do its job; 3, an SLO missed) and however it ended; it
// rejects only when there is no document: bad options (exit 1), a target hammer could not
// reach at all (exit 2 before any load), hammer missing or killed before it reported.
'use strict';

const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { installedBinaryPath } = require('./binary.js');

// Option name -> hammer's long flag. Values are passed as `--flag=value`, so hammer judges them
// (and a value starting with '-' is never taken for a flag).
const kValueFlags = {
  connections: '--connections',
  threads: '--threads',
  duration: '--duration',
  rate: '--rate',
  warmup: '--warmup',
  method: '--method',
  timeout: '--timeout',
  engine: '--engine',
  pipeline: '--pipeline',
  ramp: '--ramp',
};
const kSwitches = { closedLoop: '--closed-loop', preciseDispatch: '--precise-dispatch' };
const kOtherOptions = new Set(['url', 'headers', 'body', 'args', 'binary', 'signal', 'slo',
                               'onProgress', 'onStep', 'requests', 'amount']);
// The members of one request in `requests: [...]`, as hammer's --requests lines have them.
const kRequestMembers = new Set(['method', 'path', 'headers', 'body', 'name']);
// Options that take a list of levels (a sweep): an array is joined with commas.
const kLevelOptions = new Set(['connections', 'rate']);
// The least time between two onProgress calls.
const kProgressIntervalMs = 100;

// slo: { p99: '50ms', errors: '1%' } or ['p99=50ms', 'errors=1%'] -> one --slo each.
function sloArgs(slo) {
  if (slo === undefined || slo === null) return [];
  if (Array.isArray(slo)) return slo.map((limit) => `--slo=${limit}`);
  if (typeof slo === 'object') {
    return Object.entries(slo).map(([key, limit]) => `--slo=${key}=${limit}`);
  }
  throw new TypeError('run(): slo must be an object such as { p99: "50ms", errors: "1%" } or an ' +
                      'array of "KEY=LIMIT" strings');
}

function headerLines(headers) {
  if (headers === undefined || headers === null) return [];
  if (Array.isArray(headers)) {
    return headers.map((header) => (Array.isArray(header) ? `${header[0]}: ${header[1]}`
                                                          : String(header)));
  }
  if (typeof headers === 'object') {
    const lines = [];
    for (const [name, value] of Object.entries(headers)) {
      for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
    }
    return lines;
  }
  throw new TypeError('run(): headers must be an object or an array of "Name: value" strings');
}

// The command-line arguments for `options`, without --body (see run()).
function toArgs(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('run(): expected an options object, e.g. ' +
                        'run({ url: "http://127.0.0.1:8080/" })');
  }
  const args = ['--json'];
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(kValueFlags, key) && !Object.hasOwn(kSwitches, key) &&
        !kOtherOptions.has(key)) {
      throw new TypeError(`run(): unknown option '${key}'`);
    }
  }
  for (const [key, flag] of Object.entries(kValueFlags)) {
    const value = options[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && !kLevelOptions.has(key)) {
      throw new TypeError(`run(): ${key} takes one value, not an array`);
    }
    args.push(`${flag}=${Array.isArray(value) ? value.join(',') : value}`);
  }
  args.push(...sloArgs(options.slo));
  for (const key of ['onProgress', 'onStep']) {
    if (options[key] !== undefined && options[key] !== null && typeof options[key] !== 'function') {
      throw new TypeError(`run(): ${key} must be a function`);
    }
  }
  if (options.onProgress || options.onStep) args.push('--progress-fd=3');
  for (const [key, flag] of Object.entries(kSwitches)) {
    if (options[key]) args.push(flag);
  }
  for (const line of headerLines(options.headers)) args.push(`--header=${line}`);
  if (options.args !== undefined && options.args !== null) {
    if (!Array.isArray(options.args)) {
      throw new TypeError('run(): args must be an array of strings');
    }
    args.push(...options.args.map(String));
  }
  return args;
}

function runError(message, properties) {
  return Object.assign(new Error(message), properties);
}

// Writes `body` to a private temporary file; returns its path and a function that removes it.
function bodyFile(body) {
  if (typeof body !== 'string' && !Buffer.isBuffer(body) && !(body instanceof Uint8Array)) {
    throw new TypeError('run(): body must be a string, a Buffer or a Uint8Array');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hammer-body-'));
  const file = path.join(dir, 'body');
  fs.writeFileSync(file, body, { mode: 0o600 });
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// requests: [{ method, path, headers, body, name }, ...] -> a private JSON Lines file for
// --requests (one line each; a Buffer body goes to a file of its own beside it, body_file),
// removed after the run. Returns { file, remove }. hammer judges each line (a path must start
// with '/', ...); its "FILE:LINE: reason" is reworded as "requests[i]: reason" (see run()).
function requestsFile(requests) {
  if (requests.length === 0) throw new TypeError('run(): requests is an empty array');
  const lines = requests.map((request, index) => {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      throw new TypeError(`run(): requests[${index}] must be an object such as { path: '/' }`);
    }
    for (const key of Object.keys(request)) {
      if (!kRequestMembers.has(key)) {
        throw new TypeError(`run(): requests[${index}]: unknown member '${key}' (a request has ` +
                            `${[...kRequestMembers].join(', ')})`);
      }
    }
    const line = { ...request };
    if (line.path === undefined) line.path = '/';
    if (line.headers !== undefined && line.headers !== null) {
      if (typeof line.headers !== 'object' || Array.isArray(line.headers)) {
        throw new TypeError(`run(): requests[${index}].headers must be an object of strings`);
      }
      line.headers = Object.fromEntries(Object.entries(line.headers)
        .map(([name, value]) => [name, String(value)]));
    }
    return line;
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hammer-requests-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const text = lines.map((line, index) => {
      if (line.body === undefined || line.body === null || typeof line.body === 'string') {
        return JSON.stringify(line);
      }
      if (!Buffer.isBuffer(line.body) && !(line.body instanceof Uint8Array)) {
        throw new TypeError(`run(): requests[${index}].body must be a string, a Buffer or a ` +
                            'Uint8Array');
      }
      const bodyPath = path.join(dir, `body-${index}`);
      fs.writeFileSync(bodyPath, line.body, { mode: 0o600 });
      const { body, ...rest } = line;
      return JSON.stringify({ ...rest, body_file: bodyPath });
    }).join('\n');
    const file = path.join(dir, 'requests.jsonl');
    fs.writeFileSync(file, `${text}\n`, { mode: 0o600 });
    return { file, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

// Whether `binary` has a request count (-n, --requests-count): `amount` needs it. Asked once
// per binary, of its --help. A binary that cannot be started is the run's own error
// ("cannot run"), not a missing flag.
const countSupport = new Map();
function hasRequestCount(binary) {
  if (!countSupport.has(binary)) {
    const help = childProcess.spawnSync(binary, ['--help'], { encoding: 'utf8' });
    if (help.error) {
      throw runError(`hammer: cannot run ${binary}: ${help.error.message}`,
                     { cause: help.error, exitCode: null, signal: null, stderr: '' });
    }
    countSupport.set(binary, /^\s*-n[,\s]/m.test(`${help.stdout || ''}`));
  }
  return countSupport.get(binary);
}

function amountArgs(amount, binary) {
  if (amount === undefined || amount === null) return [];
  if (!(Number.isInteger(amount) && amount >= 1) &&
      !(typeof amount === 'string' && /^\d/.test(amount))) {
    throw new TypeError(`run(): amount must be a whole number of requests >= 1, got ` +
                        `${JSON.stringify(amount)}`);
  }
  if (!hasRequestCount(binary)) {
    throw runError(`run(): amount needs hammer with -n (a request count); ${binary} has none ` +
                   '(its --help lists no -n): give duration instead',
                   { exitCode: null, signal: null, stderr: '' });
  }
  return ['-n', String(amount)];
}

// The figures people read, at the top, in milliseconds, as autocannon's result has them; the
// whole document under `hammer`. The latency is the stopwatch hammer leads with
// (config.stopwatch: corrected in open loop, from each request's intended send time;
// uncorrected in closed loop), named in latency.stopwatch.
const kSummaryPercentiles = [['50', 'p50'], ['75', 'p75'], ['90', 'p90'], ['95', 'p95'],
                             ['99', 'p99'], ['99.9', 'p99_9'], ['99.99', 'p99_99']];
function summarize(document) {
  const config = document.config || {};
  const latency = document.latency || {};
  const stopwatch = config.stopwatch === 'corrected' && latency.corrected ? 'corrected'
    : 'uncorrected';
  const histogram = latency[stopwatch] || {};
  const ms = (ns) => (typeof ns === 'number' ? ns / 1e6 : null);
  const summary = { stopwatch };
  for (const [key, name] of kSummaryPercentiles) {
    summary[name] = ms(histogram.percentiles_ns?.[key]);
  }
  Object.assign(summary, {
    average: ms(histogram.mean_ns), stddev: ms(histogram.stdev_ns), min: ms(histogram.min_ns),
    max: ms(histogram.max_ns),
    // Figures that are only the timeout (a bound the true figure exceeds), by summary name.
    censored: (histogram.censored || []).map((key) => (key === 'max' ? 'max'
      : (kSummaryPercentiles.find(([k]) => k === key) || [null, `p${key.replace('.', '_')}`])[1])),
  });
  const requests = document.requests || {};
  const errors = document.errors || {};
  const status = document.status || {};
  const seconds = typeof document.elapsed_ns === 'number' ? document.elapsed_ns / 1e9 : null;
  const count = (value) => (typeof value === 'number' ? value : 0);
  const result = {
    url: config.url ?? null,
    connections: config.connections ?? null,
    mode: config.mode ?? null,
    rate: config.rate ?? null,
    duration: seconds,
    latency: summary,
    requests: { average: requests.per_second ?? null, total: requests.completed ?? null,
                sent: requests.sent ?? null },
    throughput: { average: seconds ? count(requests.bytes_read) / seconds : null,
                  total: requests.bytes_read ?? null },
    errors: Object.values(errors).reduce((sum, value) => sum + count(value), 0),
    timeouts: count(errors.timeout),
    non2xx: Object.entries(status).reduce((sum, [name, value]) =>
      (name === '2xx' ? sum : sum + count(value)), 0),
  };
  for (const name of ['1xx', '2xx', '3xx', '4xx', '5xx']) result[name] = count(status[name]);
  result.interrupted = Boolean(document.interrupted);
  if (document.slo !== undefined) {
    result.slo = document.slo;
    result.slo_passed = document.slo_passed;
  }
  result.hammer = document;
  return result;
}

// Calls onProgress with hammer's progress lines, at most once per kProgressIntervalMs (a line
// that comes sooner waits, and a newer one replaces it), and onStep with each finished sweep
// step. A callback that throws stops the run: `fail` gets the error.
function progressReader(stream, { onProgress, onStep }, fail) {
  let last = -Infinity;
  let pending = null;
  let timer = null;
  const call = (fn, event) => {
    try {
      fn(event);
    } catch (error) {
      fail(error);
    }
  };
  const deliver = () => {
    // The promise is "at most once per interval" by Date.now(), while timers run on libuv's
    // monotonic loop clock: checked here rather than trusted to the timer, the rest waited out.
    const early = last + kProgressIntervalMs - Date.now();
    if (early > 0) {
      timer = setTimeout(deliver, early + 1);
      return;
    }
    timer = null;
    last = Date.now();
    const event = pending;
    pending = null;
    call(onProgress, event);
  };
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        continue;  // not a progress line: progress is a view, never the record
      }
      if (event.type === 'step') {
        if (onStep) call(onStep, event);
      } else if (event.type === 'progress' && onProgress) {
        pending = event;
        const wait = last + kProgressIntervalMs - Date.now();
        if (wait <= 0 && !timer) {
          deliver();
        } else if (!timer) {
          timer = setTimeout(deliver, wait + 1);  // +1: never a millisecond early
        }
      }
    }
  });
  return { stop: () => clearTimeout(timer) };
}

function run(options) {
  return new Promise((resolve, reject) => {
    let args;
    let body = null;
    let requests = null;
    const binary = options?.binary || installedBinaryPath();
    const removeFiles = () => {
      if (body) body.remove();
      if (requests) requests.remove();
    };
    try {
      args = toArgs(options);
      args.push(...amountArgs(options.amount, binary));
      if (options.body !== undefined && options.body !== null) {
        body = bodyFile(options.body);
        args.push(`--body=${body.file}`);
      }
      if (Array.isArray(options.requests)) {
        requests = requestsFile(options.requests);
        args.push(`--requests=${requests.file}`);
      } else if (options.requests !== undefined && options.requests !== null) {
        if (typeof options.requests !== 'string') {
          throw new TypeError('run(): requests must be an array of requests ({ method, path, ' +
                              'headers, body }) or the path of a JSON Lines file');
        }
        args.push(`--requests=${options.requests}`);
      }
    } catch (error) {
      removeFiles();
      reject(error);
      return;
    }
    if (options.url !== undefined && options.url !== null) args.push('--', String(options.url));
    if (options.signal?.aborted) {
      removeFiles();
      reject(options.signal.reason);
      return;
    }

    const wantsProgress = Boolean(options.onProgress || options.onStep);
    const stdio = wantsProgress ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'];
    const child = childProcess.spawn(binary, args, { stdio });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));

    let callbackError = null;
    const progress = wantsProgress
      ? progressReader(child.stdio[3], options, (error) => {
        if (callbackError) return;
        callbackError = error;
        child.kill('SIGTERM');
      })
      : null;

    // Aborting stops the run the way Ctrl-C does: hammer reports what it measured so far.
    const { signal } = options;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGINT');
    };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      if (signal) signal.removeEventListener('abort', onAbort);
      if (progress) progress.stop();
      removeFiles();
    };

    child.on('error', (error) => {
      finish();
      reject(runError(`hammer: cannot run ${binary}: ${error.message}`,
                      { cause: error, exitCode: null, signal: null, stderr: '' }));
    });
    child.on('close', (exitCode, killedBy) => {
      finish();
      if (callbackError) {
        reject(callbackError);
        return;
      }
      const errorText = Buffer.concat(stderr).toString('utf8').trim();
      const outputText = Buffer.concat(stdout).toString('utf8');
      const details = { exitCode, signal: killedBy, stderr: errorText };
      // The one rule: a document resolves, whatever the exit status or the way hammer ended.
      if (outputText.trim() !== '') {
        let document;
        try {
          document = JSON.parse(outputText);
        } catch (error) {
          reject(runError(`hammer: ${killedBy ? `ended by ${killedBy}` : `exit ${exitCode}`} ` +
                          `with unreadable JSON: ${error.message}`,
                          { ...details, stdout: outputText }));
          return;
        }
        resolve(isSweep(document) ? document : summarize(document));
        return;
      }
      if (aborted && killedBy === 'SIGINT') {
        // Aborted while hammer was still starting, before it could take Ctrl-C: nothing was
        // measured, and the abort is the reason, as for a signal aborted before run().
        reject(signal.reason);
        return;
      }
      if (killedBy) {
        reject(runError(`hammer: ended by ${killedBy} before it reported` +
                        `${errorText ? `: ${errorText}` : ''}`, details));
        return;
      }
      // A bad line of the requests array: hammer names the temporary file and its line; the
      // caller knows it as requests[i].
      let message = errorText || `hammer: exit ${exitCode} without a report`;
      if (requests) {
        message = message.split(`${requests.file}:`).join('requests:')
          .replace(/requests:(\d+):/g, (_, line) => `requests[${Number(line) - 1}]:`);
      }
      reject(runError(message, details));
    });
  });
}

/** Whether `report` is a sweep's document (it has `sweep`) rather than a single run's. */
function isSweep(report) {
  return Boolean(report && typeof report === 'object' && report.sweep &&
                 typeof report.sweep === 'object');
}

module.exports = { run, isSweep, summarize, binaryPath: installedBinaryPath };
