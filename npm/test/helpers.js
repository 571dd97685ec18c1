// SPDX-License-Identifier: MIT
// Shared by the package's tests: the built hammer and test server (from CTest's environment),
// a test server on an ephemeral port, and npm run offline in a sandbox.
'use strict';

const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const hammerBin = process.env.HAMMER_BIN;
const testServerBin = process.env.TEST_SERVER;
const npmBin = process.env.NPM || 'npm';
const needsBuild = !hammerBin || !testServerBin
  ? 'set HAMMER_BIN and TEST_SERVER to the built hammer and tools/test_server (CTest does)'
  : false;

function tempDir(t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Starts tools/test_server on an ephemeral port (`extra`: more of its flags, e.g.
// ['--count-paths', '1']); resolves to its URL once it listens. It is stopped (by its PID) when
// the test ends.
function startServer(t, mode = 'fast', extra = []) {
  const server = childProcess.spawn(testServerBin, ['--port', '0', '--mode', mode, ...extra],
                                    { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => server.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: server.stdout });
    const timer = setTimeout(() => reject(new Error('test_server did not start in 10 s')), 10000);
    lines.on('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}/`);
      }
    });
    server.on('exit', (code) => reject(new Error(`test_server exited (${code}) before listening`)));
  });
}

// GET `url` (127.0.0.1 only: the test server); resolves to the body.
function getText(url) {
  return new Promise((resolve, reject) => {
    require('node:http').get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

// The environment for npm: none of the caller's npm_* settings, a private cache, no user config.
function npmEnv(sandbox, extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && !/^HAMMER_(BIN|CHECKSUMS|SOURCE_ROOT)$/.test(key)) env[key] = value;
  }
  return { ...env, npm_config_cache: path.join(sandbox, 'npm-cache'),
           npm_config_userconfig: path.join(sandbox, 'npmrc'), ...extra };
}

// Runs npm; resolves to {status, output} (stdout and stderr together).
function npm(args, { cwd, env, timeoutMs = 300000 }) {
  return new Promise((resolve) => {
    const child = childProcess.spawn(npmBin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output });
    });
  });
}

module.exports = { hammerBin, testServerBin, needsBuild, tempDir, startServer, getText, npmEnv,
                   npm };
