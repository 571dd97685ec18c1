#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Lays out what `npm pack` and `npm publish` ship, so that a plain `npm pack` in npm/ makes the
// installable package (package.json runs it as prepack and postpack):
//
//   node scripts/stage.js prepack    adds, beside the tracked files of npm/:
//       source/        what hammer builds from: CMakeLists.txt, CMakePresets.json, cmake/, src/
//                      without its *_test.cc (the repository is $HAMMER_SOURCE_ROOT, or ..)
//       man/hammer.1, completions/hammer.bash, completions/_hammer
//                      written by `hammer --generate` from its flag table: the hammer in
//                      $HAMMER_BIN, or one built here (build/npm-pack, the hammer target)
//       checksums.json the SHA-256 of each platform package's binary, when $HAMMER_CHECKSUMS
//                      names such a file (scripts/release.sh does)
//   node scripts/stage.js postpack   removes them again.
//   node scripts/stage.js binary-package <dir> <hammer binary> [<platform>-<arch>]
//       lays out @hammer-load/<platform>-<arch> in <dir>: one binary and its SHA-256, os/cpu
//       of this machine (or of the key given: a cross build, win32-x64 from MinGW-w64), the
//       version of npm/package.json. The key must be one package.json ships, and the binary's
//       header must say that platform (a Linux build is never packed as win32-x64).
//
// Not shipped.
'use strict';

const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { binaryPackageName, binaryPlatform, executableName, platformKey, supportedPlatforms } =
  require('../lib/binary.js');

const npmDir = path.join(__dirname, '..');
const kStaged = ['source', 'man', 'completions', 'checksums.json'];
const kDocs = [['man', 'man/hammer.1'], ['bash', 'completions/hammer.bash'],
               ['zsh', 'completions/_hammer']];

function sourceRoot() {
  return path.resolve(process.env.HAMMER_SOURCE_ROOT || path.join(npmDir, '..'));
}

function cmakeVersion(root = sourceRoot()) {
  const text = fs.readFileSync(path.join(root, 'CMakeLists.txt'), 'utf8');
  const match = /project\(\s*hammer\s+VERSION\s+([0-9.]+)/.exec(text);
  if (!match) throw new Error(`${root}/CMakeLists.txt: no project(hammer VERSION ...)`);
  return match[1];
}

function packageVersion() {
  return JSON.parse(fs.readFileSync(path.join(npmDir, 'package.json'), 'utf8')).version;
}

function sha256File(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
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

function run(command, args, options = {}) {
  const result = childProcess.spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed: ` +
                    `${result.error?.message || `${result.stdout}${result.stderr}`.trim()}`);
  }
  return result.stdout;
}

// A hammer to generate the man page and completions with: $HAMMER_BIN, or the hammer target
// built (incrementally) in <repository>/build/npm-pack, so they match the source shipped.
function docsGenerator(root) {
  if (process.env.HAMMER_BIN) return process.env.HAMMER_BIN;
  const build = path.join(root, 'build', 'npm-pack');
  process.stderr.write(`hammer-load prepack: building hammer in ${build} for its man page and ` +
                       'completions (set HAMMER_BIN to use a built one)\n');
  const configure = ['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release',
                     '-DHAMMER_BUILD_TESTS=OFF', '-DHAMMER_BUILD_BENCH=OFF'];
  if (childProcess.spawnSync('ninja', ['--version']).status === 0) configure.push('-G', 'Ninja');
  const cmake = process.env.CMAKE || 'cmake';
  const jobs = process.env.HAMMER_BUILD_JOBS || String(os.availableParallelism?.() ?? 2);
  run(cmake, configure);
  run(cmake, ['--build', build, '--target', 'hammer', '--parallel', jobs]);
  return [path.join(build, executableName()), path.join(build, 'Release', executableName())]
    .find((file) => fs.existsSync(file));
}

function clean(dir = npmDir) {
  for (const name of kStaged) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

function prepack(dir = npmDir) {
  const root = sourceRoot();
  const version = cmakeVersion(root);
  if (packageVersion() !== version) {
    throw new Error(`npm/package.json version ${packageVersion()} differs from CMakeLists.txt ` +
                    `project VERSION ${version}`);
  }
  // Each platform package is pinned to this version, one per supported platform, as esbuild does.
  const optional = JSON.parse(fs.readFileSync(path.join(npmDir, 'package.json'), 'utf8'))
    .optionalDependencies ?? {};
  const expected = supportedPlatforms.map((key) => binaryPackageName(key));
  if (JSON.stringify(Object.keys(optional).sort()) !== JSON.stringify(expected.sort()) ||
      Object.values(optional).some((pinned) => pinned !== version)) {
    throw new Error(`npm/package.json optionalDependencies must pin ${expected.join(', ')} to ` +
                    `${version}, got ${JSON.stringify(optional)}`);
  }
  clean(dir);
  const source = path.join(dir, 'source');
  fs.mkdirSync(source, { recursive: true });
  for (const file of ['CMakeLists.txt', 'CMakePresets.json']) {
    fs.copyFileSync(path.join(root, file), path.join(source, file));
  }
  copyTree(path.join(root, 'cmake'), path.join(source, 'cmake'));
  copyTree(path.join(root, 'src'), path.join(source, 'src'),
           (file) => /\.(h|cc)$/.test(file) && !/_test\.cc$/.test(file));

  const hammer = docsGenerator(root);
  const said = run(hammer, ['--version']).trim();
  if (said !== `hammer ${version}`) {
    throw new Error(`${hammer} says '${said}', but the package is hammer ${version}`);
  }
  for (const [kind, file] of kDocs) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), run(hammer, ['--generate', kind]));
  }

  if (process.env.HAMMER_CHECKSUMS) {
    const checksums = JSON.parse(fs.readFileSync(process.env.HAMMER_CHECKSUMS, 'utf8'));
    fs.writeFileSync(path.join(dir, 'checksums.json'), `${JSON.stringify(checksums, null, 2)}\n`);
  }
}

// @hammer-load/<key>: package.json (name, version, os, cpu, and `hammer: {binary, sha256}`)
// and bin/hammer[.exe].
function binaryPackage(dir, binary, key = platformKey()) {
  const [platform, arch] = key.split('-');
  const exe = executableName(platform);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(binary, path.join(dir, 'bin', exe));
  fs.chmodSync(path.join(dir, 'bin', exe), 0o755);
  const sha256 = sha256File(path.join(dir, 'bin', exe));
  const manifest = {
    name: binaryPackageName(key),
    version: packageVersion(),
    description: `The hammer binary for ${key}, installed by hammer-load`,
    license: 'MIT',
    os: [platform],
    cpu: [arch],
    files: [`bin/${exe}`],
    hammer: { binary: `bin/${exe}`, sha256 },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'README.md'),
                   `# ${manifest.name}\n\nThe hammer binary for ${key} (SHA-256 ${sha256}), an ` +
                   'optional dependency of [hammer-load](https://www.npmjs.com/package/' +
                   'hammer-load). Install hammer-load, not this.\n');
  return { dir, sha256, key };
}

// Throws unless `binary` is a native executable for `key`, a platform a release ships.
function checkReleaseBinary(binary, key) {
  if (!supportedPlatforms.includes(key)) {
    throw new Error(`${key}: not a platform hammer-load ships (${supportedPlatforms.join(', ')})`);
  }
  const built = binaryPlatform(fs.readFileSync(binary));
  if (built !== key) {
    throw new Error(`${binary} is ${built ? `a ${built} binary` : 'not an ELF, PE or Mach-O ' +
                    'executable'}, not one for ${key}`);
  }
}

if (require.main === module) {
  const [mode, ...args] = process.argv.slice(2);
  try {
    if (mode === 'prepack' && args.length === 0) {
      prepack();
    } else if (mode === 'postpack' && args.length === 0) {
      clean();
    } else if (mode === 'binary-package' && (args.length === 2 || args.length === 3)) {
      const [dir, binary, key = platformKey()] = args;
      checkReleaseBinary(path.resolve(binary), key);
      const made = binaryPackage(path.resolve(dir), path.resolve(binary), key);
      process.stdout.write(`${made.key} ${made.sha256}\n`);
    } else {
      process.stderr.write('usage: node scripts/stage.js prepack | postpack | ' +
                           'binary-package <dir> <hammer binary> [<platform>-<arch>]\n');
      process.exit(1);
    }
  } catch (error) {
    process.stderr.write(`hammer-load ${mode}: ${error.message}\n`);
    process.exit(1);
  }
}

module.exports = {
  prepack, clean, binaryPackage, checkReleaseBinary, cmakeVersion, sha256File,
};
