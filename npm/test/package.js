// SPDX-License-Identifier: MIT
// Packs hammer-load the way a maintainer does, with a plain `npm pack` in (a copy of) npm/ whose
// prepack step stages the source, the man page and the completions; packs a platform binary
// package (@hammer-load/<platform>-<arch>); installs tarballs globally into a temporary prefix,
// offline. Used by the install tests.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { binaryPackage, cmakeVersion } = require('../scripts/stage.js');
const { hammerBin, npm, npmEnv } = require('./helpers.js');

const kInstallFlags = ['--offline', '--no-audit', '--no-fund', '--foreground-scripts',
                       '--allow-scripts=hammer-load'];
const npmDir = path.join(__dirname, '..');
const repoRoot = path.join(npmDir, '..');

// The files of npm/ that git tracks and a maintainer would have: not test/, nothing staged.
function copyPackageDir(to) {
  for (const entry of ['package.json', 'README.md', 'bin', 'lib', 'scripts']) {
    fs.cpSync(path.join(npmDir, entry), path.join(to, entry), { recursive: true });
  }
}

// `npm pack` in a copy of npm/ (so tests never write into the checkout); returns the tarball.
// `checksums`: a file for $HAMMER_CHECKSUMS.
async function packTarball(sandbox, { checksums = null } = {}) {
  const dir = path.join(sandbox, 'npm');
  copyPackageDir(dir);
  const out = path.join(sandbox, 'dist');
  fs.mkdirSync(out, { recursive: true });
  const env = npmEnv(sandbox, { HAMMER_SOURCE_ROOT: repoRoot, HAMMER_BIN: hammerBin,
                                ...(checksums ? { HAMMER_CHECKSUMS: checksums } : {}) });
  const packed = await npm(['pack', '--pack-destination', out], { cwd: dir, env });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const tarball = path.join(out, `hammer-load-${cmakeVersion(repoRoot)}.tgz`);
  if (!fs.existsSync(tarball)) throw new Error(`npm pack made no ${tarball}:\n${packed.output}`);
  for (const staged of ['source', 'man', 'completions', 'checksums.json']) {
    if (fs.existsSync(path.join(dir, staged))) throw new Error(`postpack left ${staged} behind`);
  }
  return tarball;
}

// Packs @hammer-load/<this platform> holding `binary`; `edit(manifest)` may change its
// package.json first (a wrong checksum, another version). Returns {tarball, sha256}.
async function packBinaryPackage(sandbox, binary, edit = null) {
  const dir = path.join(sandbox, 'binary-package');
  const made = binaryPackage(dir, binary);
  if (edit) {
    const file = path.join(dir, 'package.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
    edit(manifest);
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  }
  const out = path.join(sandbox, 'dist');
  fs.mkdirSync(out, { recursive: true });
  const packed = await npm(['pack', '--pack-destination', out], { cwd: dir, env: npmEnv(sandbox) });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  // npm names a scoped package's tarball @scope/name -> scope-name-<version>.tgz.
  const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const tarball = path.join(out, `${name.slice(1).replace('/', '-')}-${version}.tgz`);
  if (!fs.existsSync(tarball)) throw new Error(`npm pack made no ${tarball}:\n${packed.output}`);
  return { tarball, sha256: made.sha256 };
}

// `npm install -g <tarballs...> --prefix <sandbox>/prefix`, offline; resolves to {status,
// output, prefix, packageDir, bin}.
// `flags`: npm's flags instead of kInstallFlags.
async function installGlobally(sandbox, tarballs, { env = {}, timeoutMs, flags = kInstallFlags } = {}) {
  const prefix = path.join(sandbox, 'prefix');
  const result = await npm(['install', '-g', ...[tarballs].flat(), '--prefix', prefix,
                            ...flags],
                           { cwd: sandbox, env: npmEnv(sandbox, env), timeoutMs });
  return { ...result, prefix,
           packageDir: path.join(prefix, 'lib', 'node_modules', 'hammer-load'),
           bin: path.join(prefix, 'bin', process.platform === 'win32' ? 'hammer.cmd' : 'hammer') };
}

module.exports = { packTarball, packBinaryPackage, installGlobally, cmakeVersion, kInstallFlags };
