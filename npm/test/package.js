// SPDX-License-Identifier: MIT
// Builds the hammer-load tarball the way scripts/release.sh does (stage, then `npm pack`) and
// installs it globally into a temporary prefix, offline. Used by the install tests.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { stage, cmakeVersion } = require('../scripts/stage.js');
const { npm, npmEnv } = require('./helpers.js');

const kInstallFlags = ['--offline', '--no-audit', '--no-fund', '--allow-scripts=hammer-load'];

// Stages (with the prebuilt directory `prebuilt`, if any) and packs into `sandbox`; returns the
// tarball's path.
async function packTarball(sandbox, { prebuilt = null } = {}) {
  const staged = stage(path.join(sandbox, 'stage'), { prebuilt });
  const out = path.join(sandbox, 'dist');
  fs.mkdirSync(out, { recursive: true });
  const packed = await npm(['pack', '--pack-destination', out],
                          { cwd: staged, env: npmEnv(sandbox) });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const tarball = path.join(out, `hammer-load-${cmakeVersion()}.tgz`);
  if (!fs.existsSync(tarball)) throw new Error(`npm pack made no ${tarball}:\n${packed.output}`);
  return tarball;
}

// `npm install -g <tarball> --prefix <sandbox>/prefix`; resolves to {status, output, prefix,
// packageDir, bin}.
async function installGlobally(sandbox, tarball, { env = {}, timeoutMs } = {}) {
  const prefix = path.join(sandbox, 'prefix');
  const result = await npm(['install', '-g', tarball, '--prefix', prefix, ...kInstallFlags],
                           { cwd: sandbox, env: npmEnv(sandbox, env), timeoutMs });
  return { ...result, prefix,
           packageDir: path.join(prefix, 'lib', 'node_modules', 'hammer-load'),
           bin: path.join(prefix, 'bin', process.platform === 'win32' ? 'hammer.cmd' : 'hammer') };
}

module.exports = { packTarball, installGlobally, cmakeVersion };
