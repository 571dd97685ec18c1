#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Lays out the hammer-load package in <dir>, ready for `npm pack`: the files of npm/ that ship,
// plus the source hammer builds from (source/: CMakeLists.txt, CMakePresets.json, cmake/, src/
// without its *_test.cc) and, with --prebuilt DIR, prebuilt binaries and their manifest.
//
//   node npm/scripts/stage.js <dir> [--prebuilt DIR]
//
// Used by scripts/release.sh and by the package's tests. Not shipped.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const npmDir = path.join(__dirname, '..');
const repoRoot = path.join(npmDir, '..');

function cmakeVersion() {
  const text = fs.readFileSync(path.join(repoRoot, 'CMakeLists.txt'), 'utf8');
  const match = /project\(\s*hammer\s+VERSION\s+([0-9.]+)/.exec(text);
  if (!match) throw new Error('CMakeLists.txt: no project(hammer VERSION ...)');
  return match[1];
}

function copyTree(from, to, keep = () => true) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      copyTree(source, target, keep);
    } else if (entry.isFile() && keep(source)) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}

function stage(dir, { prebuilt = null } = {}) {
  const manifest = JSON.parse(fs.readFileSync(path.join(npmDir, 'package.json'), 'utf8'));
  const version = cmakeVersion();
  if (manifest.version !== version) {
    throw new Error(`npm/package.json version ${manifest.version} differs from CMakeLists.txt ` +
                    `project VERSION ${version}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'README.md', 'bin/hammer.js', 'lib/index.js',
                      'lib/index.d.ts', 'lib/binary.js', 'scripts/install.js']) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(npmDir, file), path.join(dir, file));
  }
  fs.chmodSync(path.join(dir, 'bin/hammer.js'), 0o755);

  const source = path.join(dir, 'source');
  for (const file of ['CMakeLists.txt', 'CMakePresets.json']) {
    fs.mkdirSync(source, { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(source, file));
  }
  copyTree(path.join(repoRoot, 'cmake'), path.join(source, 'cmake'));
  copyTree(path.join(repoRoot, 'src'), path.join(source, 'src'),
           (file) => /\.(h|cc)$/.test(file) && !/_test\.cc$/.test(file));

  if (prebuilt) copyTree(prebuilt, path.join(dir, 'prebuilt'));
  return dir;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--prebuilt');
  const prebuilt = at >= 0 ? args.splice(at, 2)[1] : null;
  if (args.length !== 1 || (at >= 0 && !prebuilt)) {
    process.stderr.write('usage: node npm/scripts/stage.js <dir> [--prebuilt DIR]\n');
    process.exit(1);
  }
  stage(path.resolve(args[0]), { prebuilt: prebuilt && path.resolve(prebuilt) });
}

module.exports = { stage, cmakeVersion };
