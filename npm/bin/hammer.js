#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `hammer` as npm installs it: runs the native binary with the same arguments and stdio, and ends
// the way it ended (its exit code, or the signal that killed it).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { installedBinaryPath } = require('../lib/binary.js');

const binary = installedBinaryPath();
if (!fs.existsSync(binary)) {
  process.stderr.write(`hammer: the native binary is missing (${binary}); ` +
                       'reinstall hammer-load so that its install step can build or fetch it\n');
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });

// A signal sent to this wrapper is passed on to hammer. Ctrl-C is the exception when this process
// is in the terminal's foreground group: the terminal has already sent SIGINT to hammer too, and
// hammer takes a second SIGINT as "stop now, no report".
function terminalAlsoSignalsChild() {
  try {
    // /proc/self/stat: "pid (comm) state ppid pgrp session tty_nr tpgid ..."
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[2] === fields[5];  // pgrp === tpgid: we are the foreground process group
  } catch {
    return Boolean(process.stdin.isTTY);
  }
}

const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
const handlers = new Map();
for (const signal of forwarded) {
  const handler = () => {
    if ((signal === 'SIGINT' || signal === 'SIGQUIT') && terminalAlsoSignalsChild()) return;
    child.kill(signal);
  };
  handlers.set(signal, handler);
  process.on(signal, handler);
}

child.on('error', (error) => {
  process.stderr.write(`hammer: cannot run ${binary}: ${error.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  for (const [name, handler] of handlers) process.removeListener(name, handler);
  if (signal) {
    process.kill(process.pid, signal);  // with no listener left, this ends us the same way
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] ?? 0)), 1000);
    return;
  }
  process.exit(code ?? 1);
});
