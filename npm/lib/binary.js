// SPDX-License-Identifier: MIT
// Where the native hammer binary comes from and where it lives once the package is installed;
// shared by bin/hammer, the programmatic API, scripts/install.js and scripts/stage.js.
'use strict';

const path = require('node:path');

const packageRoot = path.join(__dirname, '..');

// The platforms a release ships a prebuilt binary for, named <process.platform>-<process.arch>:
// one optional dependency @hammer-load/<key> each (package.json), made by
// .github/workflows/release.yml. win32-x64 is the MinGW-w64 hammer.exe that
// scripts/windows-check.sh checks under wine. Anywhere else package.json's os/cpu allow
// (linux-arm64, win32-arm64), the install step builds hammer from the bundled source.
const supportedPlatforms = ['darwin-arm64', 'darwin-x64', 'linux-x64', 'win32-x64'];

function platformKey(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

function executableName(platform = process.platform) {
  return platform === 'win32' ? 'hammer.exe' : 'hammer';
}

// The optional dependency that carries the prebuilt binary for `key`, as esbuild's
// @esbuild/<platform>-<arch>: npm installs only the one whose os/cpu match.
function binaryPackageName(key = platformKey()) {
  return `@hammer-load/${key}`;
}

// The installed binary: <package>/native/hammer[.exe], put there by scripts/install.js.
function installedBinaryPath(platform = process.platform) {
  return path.join(packageRoot, 'native', executableName(platform));
}

// What the bin/hammer wrapper does with a signal it receives, so that hammer still reports:
// 'forward' passes it on to hammer; 'ignore' keeps the wrapper alive until hammer exits. On
// Windows the console delivers Ctrl-C and Ctrl-Break to every process attached to it, hammer.exe
// included, and child.kill() there cannot signal, only terminate (no report): the wrapper just
// waits. SIGTERM and SIGHUP do not reach a Windows process from outside.
function wrapperSignals(platform = process.platform) {
  if (platform === 'win32') return { SIGINT: 'ignore', SIGBREAK: 'ignore' };
  return { SIGINT: 'forward', SIGTERM: 'forward', SIGHUP: 'forward', SIGQUIT: 'forward' };
}

// The CPU and operating system a native binary is built for, from its header (ELF, PE or
// Mach-O) as a platform key ('linux-x64', 'win32-x64', 'darwin-arm64', ...), or null when the
// bytes are none of these. Lets a release refuse to package a binary under the wrong key (a
// Linux build as win32-x64), which no install on the release machine would notice.
function binaryPlatform(bytes) {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {  // "\x7fELF"
    const little = bytes[5] === 1;
    const machine = little ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
    const arch = { 62: 'x64', 183: 'arm64' }[machine];
    return arch ? `linux-${arch}` : null;
  }
  if (bytes.length >= 64 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(60);
    if (pe + 6 > bytes.length || bytes.toString('latin1', pe, pe + 4) !== 'PE\0\0') return null;
    const arch = { 0x8664: 'x64', 0xaa64: 'arm64' }[bytes.readUInt16LE(pe + 4)];
    return arch ? `win32-${arch}` : null;
  }
  if (bytes.length >= 8 && bytes.readUInt32LE(0) === 0xfeedfacf) {  // 64-bit Mach-O
    const arch = { 0x01000007: 'x64', 0x0100000c: 'arm64' }[bytes.readUInt32LE(4)];
    return arch ? `darwin-${arch}` : null;
  }
  return null;
}

module.exports = {
  packageRoot, supportedPlatforms, platformKey, executableName, binaryPackageName,
  installedBinaryPath, wrapperSignals, binaryPlatform,
};
