// SPDX-License-Identifier: MIT
// hammer-load's programmatic API: run({ url, ... }) runs the native hammer with --json and
// resolves to the parsed report, a single run's or a sweep's (docs/json.md; the types are in
// index.d.ts). Progress comes from hammer's --progress-fd on a pipe of its own (descriptor 3).
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
  requests: '--requests',
  pipeline: '--pipeline',
  ramp: '--ramp',
};
const kSwitches = { closedLoop: '--closed-loop', preciseDispatch: '--precise-dispatch' };
const kOtherOptions = new Set(['url', 'headers', 'body', 'args', 'binary', 'signal', 'slo',
                               'onProgress', 'onStep']);
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
    try {
      args = toArgs(options);
      if (options.body !== undefined && options.body !== null) {
        body = bodyFile(options.body);
        args.push(`--body=${body.file}`);
      }
    } catch (error) {
      reject(error);
      return;
    }
    if (options.url !== undefined && options.url !== null) args.push('--', String(options.url));
    if (options.signal?.aborted) {
      if (body) body.remove();
      reject(options.signal.reason);
      return;
    }

    const binary = options.binary || installedBinaryPath();
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
      if (body) body.remove();
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
        try {
          resolve(JSON.parse(outputText));
          return;
        } catch (error) {
          reject(runError(`hammer: ${killedBy ? `ended by ${killedBy}` : `exit ${exitCode}`} ` +
                          `with unreadable JSON: ${error.message}`,
                          { ...details, stdout: outputText }));
          return;
        }
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
      reject(runError(errorText || `hammer: exit ${exitCode} without a report`, details));
    });
  });
}

/** Whether `report` is a sweep's document (it has `sweep`) rather than a single run's. */
function isSweep(report) {
  return Boolean(report && typeof report === 'object' && report.sweep &&
                 typeof report.sweep === 'object');
}

module.exports = { run, isSweep, binaryPath: installedBinaryPath };
