// SPDX-License-Identifier: MIT
// hammer-load's programmatic API: run({ url, ... }) runs the native hammer with --json and
// resolves to the parsed report (docs/json.md; the types are in index.d.ts).
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
};
const kSwitches = { closedLoop: '--closed-loop' };
const kOtherOptions = new Set(['url', 'headers', 'body', 'args', 'binary', 'signal']);

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
    if (value !== undefined && value !== null) args.push(`${flag}=${value}`);
  }
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
    const child = childProcess.spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));

    // Aborting stops the run the way Ctrl-C does: hammer reports what it measured so far.
    const { signal } = options;
    const onAbort = () => child.kill('SIGINT');
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      if (signal) signal.removeEventListener('abort', onAbort);
      if (body) body.remove();
    };

    child.on('error', (error) => {
      finish();
      reject(runError(`hammer: cannot run ${binary}: ${error.message}`,
                      { cause: error, exitCode: null, signal: null, stderr: '' }));
    });
    child.on('close', (exitCode, killedBy) => {
      finish();
      const errorText = Buffer.concat(stderr).toString('utf8').trim();
      const outputText = Buffer.concat(stdout).toString('utf8');
      const details = { exitCode, signal: killedBy, stderr: errorText };
      if (killedBy) {
        const said = errorText ? `: ${errorText}` : '';
        reject(runError(`hammer: ended by ${killedBy}${said}`, details));
        return;
      }
      // Any report is the result, whatever the exit status: a run that did not do its job
      // (exit 2) says so in its verdicts. Bad input (exit 1), or a run that ended before any
      // report: the error carries hammer's own message.
      if (exitCode !== 1 && outputText.trim() !== '') {
        try {
          resolve(JSON.parse(outputText));
        } catch (error) {
          reject(runError(`hammer: exit ${exitCode} with unreadable JSON: ${error.message}`,
                          { ...details, stdout: outputText }));
        }
        return;
      }
      reject(runError(errorText || `hammer: exit ${exitCode} without a report`, details));
    });
  });
}

module.exports = { run, binaryPath: installedBinaryPath };
